/**
 * Accepted warnings (validate --accept, known-problems.json beside the data): known ones counted in
 * one line, a new one printed in full and first, --strict failing on new ones only, in validate and
 * in the build, which then leaves the site as it was.
 */
import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../run-cli.ts";
import { snapshotTree, useTempDir } from "../../file-trees.ts";

const work = useTempDir();

/** A copy of the sample with record `index`'s OIB given a wrong check digit. */
async function sampleWithTypo(dir: string, index?: number): Promise<string> {
  await cp("data", dir, { recursive: true });
  if (index !== undefined) {
    const list = JSON.parse(await readFile(join(dir, "subjekti.json"), "utf8")) as { oib: string }[];
    const oib = (list[index] as { oib: string }).oib;
    (list[index] as { oib: string }).oib = oib.slice(0, 10) + String((Number(oib[10]) + 1) % 10);
    await writeFile(join(dir, "subjekti.json"), JSON.stringify(list));
  }
  return dir;
}

describe("known problems", () => {
  it("validate --accept records the sample's 14 warnings; then a new mistyped OIB is printed in full, the known counted, --strict fails on the new one only", async () => {
    const data = await sampleWithTypo(join(work.path, "a"));
    const accept = await runCli(["validate", "--data", data, "--accept"]);
    expect(accept).toMatchObject({
      code: 0,
      stdout: `accepted 14 warnings as known in ${data}/known-problems.json: review it, and commit it with the data\n`,
    });
    const baseline = JSON.parse(await readFile(join(data, "known-problems.json"), "utf8")) as { accepted: { value: string }[] };
    expect(baseline.accepted).toHaveLength(14);
    // Language-neutral: the rule by its message key, so a baseline written under LANG=hr serves under en too;
    // beside the value, whose it is, so a reviewer need not look the OIB up.
    expect(baseline.accepted[0]).toEqual({
      field: "oib",
      expected: "expected.check-digit",
      value: '"02735615212"',
      id: 91,
      naziv_subjekta: "Blatski fižuli, ustanova u kulturi",
    });
    const sample = JSON.parse(await readFile("data/subjekti.json", "utf8")) as { id: number; oib: string; naziv_subjekta: string }[];
    for (const a of baseline.accepted as unknown as { value: string; id: number; naziv_subjekta: string }[]) {
      const subject = sample.find((s) => s.id === a.id);
      expect(subject && { value: JSON.stringify(subject.oib), naziv_subjekta: subject.naziv_subjekta }).toEqual({
        value: a.value,
        naziv_subjekta: a.naziv_subjekta,
      });
    }

    // Nothing new: no warning listed, the known ones in one line; --strict passes.
    const clean = await runCli(["validate", "--data", data, "--strict"]);
    expect(clean).toMatchObject({ code: 0, stdout: "5758 subjects in 1 file: valid (0 new warnings, 14 known)\n" });
    expect(clean.stderr).toBe(
      `14 known warnings, accepted in ${data}/known-problems.json (not listed; subjekti validate --accept records the current ones)\n`,
    );

    // A new typo, after the baseline was made.
    const typo = await sampleWithTypo(join(work.path, "b"), 100);
    await cp(join(data, "known-problems.json"), join(typo, "known-problems.json"));
    const seen = await runCli(["validate", "--data", typo]);
    expect(seen.code).toBe(0);
    expect(seen.stderr.split("\n")[0]).toMatch(new RegExp(`^${typo}/subjekti\\.json\\[100\\]: warning: oib: expected a valid check digit`));
    expect(seen.stdout).toBe("5758 subjects in 1 file: valid (1 new warning, 14 known)\n");
    const strict = await runCli(["validate", "--data", typo, "--strict"]);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(
      new RegExp(
        `^${typo}/subjekti\\.json\\[100\\]: oib: expected a valid check digit .*\\nsubjekti: 1 error in the data; nothing was written\\n$`,
      ),
    );
  }, 60_000);

  it("the build: --strict fails on a new warning only, leaving the site as it was; without it, the new warning first and the known counted", async () => {
    const data = await sampleWithTypo(join(work.path, "c"));
    expect((await runCli(["validate", "--data", data, "--accept"])).code).toBe(0);
    const out = join(work.path, "site");
    const built = await runCli(["build", "--data", data, "--out", out, "--no-cache", "--quiet", "--strict"]);
    expect(built.code).toBe(0);
    const before = await snapshotTree(out);
    const typo = await sampleWithTypo(join(work.path, "d"), 7);
    await cp(join(data, "known-problems.json"), join(typo, "known-problems.json"));
    const refused = await runCli(["build", "--data", typo, "--out", out, "--no-cache", "--quiet", "--strict"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/\[7\]: oib: expected a valid check digit/);
    expect(await snapshotTree(out)).toEqual(before);
    const warned = await runCli(["build", "--data", typo, "--out", out, "--no-cache", "--quiet"]);
    expect(warned.code).toBe(0);
    expect(warned.stderr).toMatch(/^.*\[7\]: warning: oib: expected a valid check digit.*\n14 known warnings, accepted in /);
  }, 60_000);

  it("a baseline written before subjects were named still makes the same warnings known", async () => {
    const data = await sampleWithTypo(join(work.path, "old"));
    expect((await runCli(["validate", "--data", data, "--accept"])).code).toBe(0);
    const path = join(data, "known-problems.json");
    const named = JSON.parse(await readFile(path, "utf8")) as { accepted: Record<string, unknown>[] };
    const old = named.accepted.map(({ field, expected, value }) => ({ field, expected, value }));
    await writeFile(path, `${JSON.stringify({ accepted: old }, null, 2)}\n`);
    expect(await runCli(["validate", "--data", data])).toMatchObject({
      code: 0,
      stdout: "5758 subjects in 1 file: valid (0 new warnings, 14 known)\n",
    });
  }, 60_000);

  describe.each([
    {
      lang: "en",
      error: '[3]: datum_postanka: expected a real date YYYY-MM-DD, got "2023-02-30" (February 2023 has 28 days)',
      known: (path: string) => `14 known warnings, accepted in ${path} (not listed; subjekti validate --accept records the current ones)`,
      failed: (n: number) => `subjekti: ${n} error${n === 1 ? "" : "s"} in the data; nothing was written`,
      typo: "[100]: oib: expected a valid check digit (ISO 7064 MOD 11,10)",
    },
    {
      lang: "hr",
      error: '[3]: datum_postanka: očekuje se stvaran datum GGGG-MM-DD, a nađeno je "2023-02-30" (veljača 2023. ima 28 dana)',
      known: (path: string) =>
        `14 poznatih upozorenja, prihvaćenih u ${path} (nisu ispisana; subjekti validate --accept bilježi trenutačna)`,
      failed: (n: number) => `subjekti: ${n} ${n === 1 ? "greška" : "greške"} u podacima; ništa nije zapisano`,
      typo: "[100]: oib: očekuje se ispravna kontrolna znamenka (ISO 7064 MOD 11,10)",
    },
  ])("with an error present (--lang $lang)", ({ lang, error, known, failed, typo }) => {
    it("validate and build print the one error and count the 14 accepted warnings in one line, not as new; --strict makes only a new warning an error", async () => {
      const data = await sampleWithTypo(join(work.path, `err-${lang}`));
      expect((await runCli(["validate", "--data", data, "--accept"])).code).toBe(0);
      const file = join(data, "subjekti.json");
      const list = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>[];
      (list[3] as Record<string, unknown>)["datum_postanka"] = "2023-02-30";
      await writeFile(file, JSON.stringify(list));
      const path = join(data, "known-problems.json");
      const expected = [`${file}${error}`, known(path), failed(1), ""].join("\n");
      for (const command of [
        ["validate"],
        ["validate", "--strict"],
        ["build", "--out", join(work.path, `site-${lang}`), "--no-cache", "--quiet"],
      ]) {
        const run = await runCli([...command, "--data", data, "--lang", lang]);
        expect({ command, code: run.code, stderr: run.stderr }).toEqual({ command, code: 1, stderr: expected });
      }
      // A new typo beside the error: a warning, listed; under --strict an error, counted with the other.
      const oib = (list[100] as { oib: string }).oib;
      (list[100] as { oib: string }).oib = oib.slice(0, 10) + String((Number(oib[10]) + 1) % 10);
      await writeFile(file, JSON.stringify(list));
      const warned = await runCli(["validate", "--data", data, "--lang", lang]);
      expect(warned.stderr.split("\n").slice(-3)).toEqual([known(path), failed(1), ""]);
      expect(warned.stderr).toContain(`${file}${typo.replace(": oib: ", lang === "en" ? ": warning: oib: " : ": upozorenje: oib: ")}`);
      const strict = await runCli(["validate", "--data", data, "--lang", lang, "--strict"]);
      expect(strict.stderr.split("\n").slice(-3)).toEqual([known(path), failed(2), ""]);
      expect(strict.stderr).toContain(`${file}${typo}`);
    }, 90_000);
  });
});
