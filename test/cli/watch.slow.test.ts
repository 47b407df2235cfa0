/**
 * `subjekti preview --watch` (what `npm start` runs after its build): an edit under --data is
 * rebuilt and served (the preview follows the new manifest); an edit that breaks the data prints
 * its problems and the last good site stays served; a fix is rebuilt again; an edit with a new
 * warning (a mistyped OIB) is served and the warning printed as `build` prints it. Every line the run
 * prints is asserted exactly, in English and in Croatian (by --lang and by LANG). Under load (two
 * cores, several runs at once) nothing waits a fixed time: each step polls for its line or page.
 */
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Io, main } from "../../src/cli/main.ts";
import { runCli } from "../run-cli.ts";
import { tempDir } from "../file-trees.ts";
import { freePort } from "../hosts/hosts.ts";

/** Polls `check` until it holds, or fails after `ms` saying what it waited for. */
async function eventually(what: string, check: () => Promise<boolean> | boolean, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The lines a language's run prints, with the data directory, the site and the address filled in. */
interface Say {
  readonly serving: (url: string) => string;
  readonly watching: (data: string) => string;
  /** The build's summary, its seconds shown as `…` (they vary; the rest is exact). */
  readonly rebuilt: (dist: string, written: number | string, size?: number | string) => string;
  readonly problem: (data: string) => string;
  /** A successful rebuild's warning, as `build` prints it. */
  readonly warning: (data: string) => string;
  readonly failed: string;
}

/** The files a rebuild of the 30 subjects left as they were: the 72 it counts less those it wrote. */
const unchanged = (written: number | string): number | string => (typeof written === "number" ? 72 - written : written);

const ENGLISH: Say = {
  serving: (url) => `subjekti preview: ${url} (Ctrl-C stops)`,
  watching: (data) => `subjekti preview: watching ${data}/ for changes`,
  rebuilt: (dist, written, size = 86.6) =>
    `subjekti preview: rebuilt: built 30 subjects into ${dist}/: 72 files, ${written} written (${size} KB), ${unchanged(written)} unchanged, 0 removed (0 B) in …s`,
  problem: (data) => `${data}/subjekti.json[0]: oib: expected 11 digits, got "123" (3 digits)`,
  warning: (data) =>
    `${data}/subjekti.json[0]: warning: oib: expected a valid check digit (ISO 7064 MOD 11,10), got "23557321378" (the last digit should be 9 — a typo?)`,
  failed: "subjekti preview: the rebuild failed; still serving the last good site",
};

const CROATIAN: Say = {
  serving: (url) => `subjekti preview: ${url} (Ctrl-C zaustavlja)`,
  watching: (data) => `subjekti preview: prati promjene u ${data}/`,
  rebuilt: (dist, written, size = 86.6) =>
    `subjekti preview: ponovno izgrađeno: izgrađeno 30 subjekata u ${dist}/: 72 datoteke, ${written} zapisano (${String(size).replace(".", ",")} KB), ${unchanged(written)} nepromijenjeno, 0 uklonjeno (0 B) za … s`,
  problem: (data) => `${data}/subjekti.json[0]: oib: očekuje se 11 znamenaka, a nađeno je "123" (3 znamenke)`,
  warning: (data) =>
    `${data}/subjekti.json[0]: upozorenje: oib: očekuje se ispravna kontrolna znamenka (ISO 7064 MOD 11,10), a nađeno je "23557321378" (posljednja znamenka trebala bi biti 9 — tipfeler?)`,
  failed: "subjekti preview: ponovna izgradnja nije uspjela; i dalje se poslužuje posljednje ispravno mrežno sjedište",
};

/** A line with the build's seconds as `…`. */
const withoutSeconds = (line: string): string => line.replace(/\d+[.,]\d\d( ?s)$/, "…$1");

/** One watch session: build, preview --watch, an edit, a broken edit, a fix; returns the lines printed. */
async function watchSession(
  langArgs: readonly string[],
  env: Record<string, string>,
): Promise<{ out: string[]; err: string[]; data: string; dist: string; url: string }> {
  const root = await tempDir("subjekti-watch-");
  const data = join(root, "data");
  const dist = join(root, "dist");
  await mkdir(data);
  const subjects = (JSON.parse(await readFile("data/subjekti.json", "utf8")) as Record<string, unknown>[]).slice(0, 30);
  await writeFile(join(data, "subjekti.json"), JSON.stringify(subjects));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  expect((await runCli(["build", "--data", data, "--out", dist, "--no-cache", "--quiet", "--base-url", base])).code).toBe(0);
  let [stdout, stderr] = ["", ""];
  let stop: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const io: Io = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: { SOURCE_DATE_EPOCH: "1700000000", ...env },
    untilStopped: () => stopped,
  };
  const running = main(["preview", "--dir", dist, "--port", String(port), "--watch", "--data", data, ...langArgs], io);
  const url = `${base}/api/subjekti/?limit=1`;
  const first = async (): Promise<string> =>
    ((await (await fetch(url)).json()) as { results: { naziv_subjekta: string }[] }).results[0]?.naziv_subjekta ?? "";
  // Saved as an editor saves: written beside, then renamed into place, so one save is one change
  // (a write in place can be seen half done, and rebuilt twice).
  const save = async (changes: Record<string, unknown>): Promise<void> => {
    await writeFile(join(root, "save.tmp"), JSON.stringify([{ ...subjects[0], ...changes }, ...subjects.slice(1)]));
    await rename(join(root, "save.tmp"), join(data, "subjekti.json"));
  };
  const lines = (text: string): string[] => text.split("\n").filter((line) => line !== "");
  try {
    await eventually("the watcher", () => stdout.includes("subjekti preview: ") && lines(stdout).length >= 2);
    await eventually("the preview", async () => (await fetch(url).catch(() => null))?.status === 200);
    await save({ naziv_subjekta: "Uređeno ime" });
    await eventually("the edit served", async () => (await first()) === "Uređeno ime");
    // A broken save: the problem is printed, the site stays as it was.
    await save({ naziv_subjekta: "Pokvareno", oib: "123" });
    // Its last line, the only one of the preview's own on stderr.
    await eventually("the failed rebuild's line", () => stderr.includes("subjekti preview: "));
    expect(await first()).toBe("Uređeno ime");
    await save({ naziv_subjekta: "Popravljeno" });
    await eventually("the fix served", async () => (await first()) === "Popravljeno");
    await eventually("the fix's line", () => lines(stdout).length >= 4);
    // A mistyped OIB (its check digit wrong): built and served, and the warning said as `build` says it.
    await save({ naziv_subjekta: "Upozoreno", oib: "23557321378" });
    await eventually("the warned edit served", async () => (await first()) === "Upozoreno");
    await eventually("the warned edit's line", () => lines(stdout).length >= 5);
  } catch (error) {
    throw new Error(`${String(error)}\nstdout:\n${stdout}stderr:\n${stderr}`);
  } finally {
    stop();
  }
  expect(await running).toBe(0);
  await rm(root, { recursive: true, force: true });
  return { out: lines(stdout), err: lines(stderr), data, dist, url: `${base}/api/subjekti/` };
}

describe("preview --watch", () => {
  it.each([
    ["English (no locale)", [], {}, ENGLISH],
    ["Croatian (--lang hr)", ["--lang", "hr"], {}, CROATIAN],
    ["Croatian (LANG=hr_HR.UTF-8)", [], { LANG: "hr_HR.UTF-8" }, CROATIAN],
  ] as const)(
    "%s: an edit is rebuilt and served; a broken edit keeps the last good site and says why; a fix is served; a warned edit is served and its warning said, every line exact",
    async (_, langArgs, env, say) => {
      const { out, err, data, dist, url } = await watchSession(langArgs, env);
      // The preview's address, the watch, the edit's rebuild, the fix's rebuild.
      // The warned edit's size, and how many of the search files it rewrites, depend on the name's
      // length and the date it was saved: shown as `…`.
      const lastSize = (line: string, i: number): string =>
        i === 4
          ? line
              .replace(/\(\d+[.,]\d KB\)/, "(… KB)")
              .replace(/(\d+)( written| zapisano)/, "…$2")
              .replace(/\d+( unchanged| nepromijenjeno)/, "…$1")
          : line;
      expect(out.map(withoutSeconds).map(lastSize)).toEqual([
        say.serving(url),
        say.watching(data),
        // An edit rewrites its pages, chunk and downloads, and the search files that hold the record.
        say.rebuilt(dist, 28),
        // The fix's 29 files hold a tenth of a KB more: the room after the search sets in the buckets it rewrites.
        say.rebuilt(dist, 29, 86.7),
        say.rebuilt(dist, "…", "…"),
      ]);
      // The broken save's problem, that the last good site is still served, then the warned save's warning.
      expect(err).toEqual([say.problem(data), say.failed, say.warning(data)]);
    },
    90_000,
  );
});
