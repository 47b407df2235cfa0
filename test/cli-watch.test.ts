/**
 * `subjekti preview --watch`: an edit under --data is rebuilt and served (the preview follows the
 * new manifest); an edit that breaks the data prints its problems and the last good site stays
 * served; a fix is rebuilt again.
 */
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./_cli.ts";
import { tempDir } from "./_tree.ts";
import { freePort } from "./hosts/hosts.ts";

/** Polls `check` until it holds, or fails after `ms`. */
async function eventually(check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("preview --watch", () => {
  it("an edit is rebuilt and served; a broken edit keeps the last good site and says why; a fix is served", async () => {
    const root = await tempDir("subjekti-watch-");
    const data = join(root, "data");
    const dist = join(root, "dist");
    await mkdir(data);
    const subjects = (JSON.parse(await readFile("data/subjekti.json", "utf8")) as Record<string, unknown>[]).slice(0, 30);
    await writeFile(join(data, "subjekti.json"), JSON.stringify(subjects));
    const port = await freePort();
    expect(
      (await runCli(["build", "--data", data, "--out", dist, "--no-cache", "--quiet", "--base-url", `http://127.0.0.1:${port}`])).code,
    ).toBe(0);
    let stop: () => void = () => undefined;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const running = runCli(["preview", "--dir", dist, "--port", String(port), "--watch", "--data", data], {}, () => stopped);
    const url = `http://127.0.0.1:${port}/api/subjekti/?limit=1`;
    const first = async (): Promise<string> =>
      ((await (await fetch(url)).json()) as { results: { naziv_subjekta: string }[] }).results[0]?.naziv_subjekta ?? "";
    try {
      await eventually(async () => (await fetch(url).catch(() => null))?.status === 200);
      await writeFile(
        join(data, "subjekti.json"),
        JSON.stringify([{ ...subjects[0], naziv_subjekta: "Uređeno ime" }, ...subjects.slice(1)]),
      );
      await eventually(async () => (await first()) === "Uređeno ime");
      // A broken save: the problem is printed, the site stays as it was.
      await writeFile(
        join(data, "subjekti.json"),
        JSON.stringify([{ ...subjects[0], naziv_subjekta: "Pokvareno", oib: "123" }, ...subjects.slice(1)]),
      );
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(await first()).toBe("Uređeno ime");
      await writeFile(
        join(data, "subjekti.json"),
        JSON.stringify([{ ...subjects[0], naziv_subjekta: "Popravljeno" }, ...subjects.slice(1)]),
      );
      await eventually(async () => (await first()) === "Popravljeno");
    } finally {
      stop();
    }
    const result = await running;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`subjekti preview: watching ${data}/ for changes\n`);
    expect(result.stdout).toMatch(/subjekti preview: rebuilt: built 30 subjects into /);
    expect(result.stderr).toMatch(/oib: expected 11 digits, got "123"/);
    expect(result.stderr).toContain("subjekti preview: the rebuild failed; still serving the last good site\n");
    await rm(root, { recursive: true, force: true });
  }, 60_000);
});
