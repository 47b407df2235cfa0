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
    // Language-neutral: the rule by its message key, so a baseline written under LANG=hr serves under en too.
    expect(baseline.accepted[0]).toEqual({ field: "oib", expected: "expected.check-digit", value: '"02735615212"' });

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
});
