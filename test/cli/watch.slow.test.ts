/**
 * `subjekti preview --watch` (what `npm start` runs after its build): an edit under --data is
 * rebuilt and served (the preview follows the new manifest); an edit that breaks the data prints
 * its problems and the last good site stays served; a fix is rebuilt again; an edit with a new
 * warning (a mistyped OIB) is served and the warning printed as `build` prints it. Every line the run
 * prints is asserted exactly, in English and in Croatian (by --lang and by LANG). Each rebuild goes
 * on with the site's change feed: `subjekti sync` against the preview hears of every edit, and a save
 * that changes no byte changes no byte of the site (no date moves). Under load (two cores, several
 * runs at once) nothing waits a fixed time: each step polls for its line or page.
 */
import { mkdir, readFile, rename, rm, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Io, main } from "../../src/cli/main.ts";
import { runCli } from "../run-cli.ts";
import { siteTree, tempDir } from "../file-trees.ts";
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
  readonly rebuilt: (dist: string, written: number | string, size?: string) => string;
  /** The change feed's line after a rebuild that changed one subject. */
  readonly feed: (sequence: number, diff: number) => string;
  readonly problem: (data: string) => string;
  /** A successful rebuild's warning, as `build` prints it. */
  readonly warning: (data: string) => string;
  readonly failed: string;
}

/** The files of the 30 subjects' site (the search's order shard holds the name's and the town's group bitmaps). */
const FILES = 74;
/** The files a rebuild of the 30 subjects left as they were: those it counts less those it wrote. */
const unchanged = (written: number | string): number | string => (typeof written === "number" ? FILES - written : written);

const ENGLISH: Say = {
  serving: (url) => `subjekti preview: ${url} (Ctrl-C stops)`,
  watching: (data) => `subjekti preview: watching ${data}/ for changes`,
  rebuilt: (dist, written, size = "103.5") =>
    `subjekti preview: rebuilt: built 30 subjects into ${dist}/: ${FILES} files, ${written} written (${size} KB), ${unchanged(written)} unchanged, 0 removed (0 B) in …s`,
  feed: (sequence, diff) =>
    `subjekti preview: subjects since the last build: 0 added, 0 removed, 1 changed (change feed: sequence ${sequence - 1} -> ${sequence}, ${diff} B diff)`,
  problem: (data) => `${data}/subjekti.json[0]: oib: expected 11 digits, got "123" (3 digits)`,
  warning: (data) =>
    `${data}/subjekti.json[0]: warning: oib: expected a valid check digit (ISO 7064 MOD 11,10), got "23557321378" (the last digit should be 9 — a typo?)`,
  failed: "subjekti preview: the rebuild failed; still serving the last good site",
};

const CROATIAN: Say = {
  serving: (url) => `subjekti preview: ${url} (Ctrl-C zaustavlja)`,
  watching: (data) => `subjekti preview: prati promjene u ${data}/`,
  rebuilt: (dist, written, size = "103,5") =>
    `subjekti preview: ponovno izgrađeno: izgrađeno 30 subjekata u ${dist}/: ${FILES} datoteke, ${written} zapisano (${size} KB), ${unchanged(written)} nepromijenjeno, 0 uklonjeno (0 B) za … s`,
  feed: (sequence, diff) =>
    `subjekti preview: subjekti od prošle izgradnje: 0 dodanih, 0 uklonjenih, 1 promijenjen (slijed promjena: broj ${sequence - 1} -> ${sequence}, razlika ${diff} B)`,
  problem: (data) => `${data}/subjekti.json[0]: oib: očekuje se 11 znamenaka, a nađeno je "123" (3 znamenke)`,
  warning: (data) =>
    `${data}/subjekti.json[0]: upozorenje: oib: očekuje se ispravna kontrolna znamenka (ISO 7064 MOD 11,10), a nađeno je "23557321378" (posljednja znamenka trebala bi biti 9 — tipfeler?)`,
  failed: "subjekti preview: ponovna izgradnja nije uspjela; i dalje se poslužuje posljednje ispravno mrežno sjedište",
};

/** A line with the build's seconds as `…`. */
const withoutSeconds = (line: string): string => line.replace(/\d+[.,]\d\d( ?s)$/, "…$1");

/** A preview's streams that keep what it prints, and its stop. */
function watchIo(env: Io["env"]): { readonly io: Io; readonly out: () => string; readonly err: () => string; readonly stop: () => void } {
  const said = { out: "", err: "" };
  let stop: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const io: Io = {
    stdout: { write: (text: string) => (said.out += text) },
    stderr: { write: (text: string) => (said.err += text) },
    env,
    untilStopped: () => stopped,
  };
  return { io, out: () => said.out, err: () => said.err, stop: () => stop() };
}

/** Runs `steps` while the preview watches (saying what it printed when one fails), then stops it: it must end with 0. */
async function whileWatching(watching: ReturnType<typeof watchIo>, running: Promise<number>, steps: () => Promise<void>): Promise<void> {
  try {
    await steps();
  } catch (error) {
    throw new Error(`${String(error)}\nstdout:\n${watching.out()}stderr:\n${watching.err()}`);
  } finally {
    watching.stop();
  }
  expect(await running).toBe(0);
}

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
  const watching = watchIo({ SOURCE_DATE_EPOCH: "1700000000", ...env });
  const { io, out, err } = watching;
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
  await whileWatching(watching, running, async () => {
    await eventually("the watcher", () => out().includes("subjekti preview: ") && lines(out()).length >= 2);
    await eventually("the preview", async () => (await fetch(url).catch(() => null))?.status === 200);
    await save({ naziv_subjekta: "Uređeno ime" });
    await eventually("the edit served", async () => (await first()) === "Uređeno ime");
    // A broken save: the problem is printed, the site stays as it was.
    await save({ naziv_subjekta: "Pokvareno", oib: "123" });
    // Its last line, the only one of the preview's own on stderr.
    await eventually("the failed rebuild's line", () => err().includes("subjekti preview: "));
    expect(await first()).toBe("Uređeno ime");
    await save({ naziv_subjekta: "Popravljeno" });
    await eventually("the fix served", async () => (await first()) === "Popravljeno");
    await eventually("the fix's lines", () => lines(out()).length >= 6);
    // A mistyped OIB (its check digit wrong): built and served, and the warning said as `build` says it.
    await save({ naziv_subjekta: "Upozoreno", oib: "23557321378" });
    await eventually("the warned edit served", async () => (await first()) === "Upozoreno");
    await eventually("the warned edit's lines", () => lines(out()).length >= 8);
  });
  await rm(root, { recursive: true, force: true });
  return { out: lines(out()), err: lines(err()), data, dist, url: `${base}/api/subjekti/` };
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
      // The preview's address, the watch, then each rebuild and what the change feed made of it.
      // The warned edit's size, and how many of the search files it rewrites, depend on the name's
      // length and the date it was saved: shown as `…`.
      const lastSize = (line: string, i: number): string =>
        i === 6
          ? line
              .replace(/\(\d+[.,]\d KB\)/, "(… KB)")
              .replace(/(\d+)( written| zapisano)/, "…$2")
              .replace(/\d+( unchanged| nepromijenjeno)/, "…$1")
          : line;
      expect(out.map(withoutSeconds).map(lastSize)).toEqual([
        say.serving(url),
        say.watching(data),
        // An edit rewrites its pages, chunk and downloads, and the search files that hold the record.
        say.rebuilt(dist, 27),
        say.feed(2, 504),
        // The fix's files hold a tenth of a KB more: the room after the search sets in the buckets it rewrites.
        say.rebuilt(dist, 28, say === ENGLISH ? "103.6" : "103,6"),
        say.feed(3, 503),
        say.rebuilt(dist, "…", "…"),
        say.feed(4, 501),
      ]);
      // The broken save's problem, that the last good site is still served, then the warned save's warning.
      expect(err).toEqual([say.problem(data), say.failed, say.warning(data)]);
    },
    90_000,
  );
});

describe("preview --watch and the change feed", () => {
  it("an edit saved under the watch is a sequence sync hears of; a save that changes no byte changes no byte of the site", async () => {
    const root = await tempDir("subjekti-watch-feed-");
    const [data, dist, copy] = [join(root, "data"), join(root, "dist"), join(root, "mirror.ndjson")];
    await mkdir(data);
    const subjects = (JSON.parse(await readFile("data/subjekti.json", "utf8")) as Record<string, unknown>[]).slice(0, 30);
    const source = join(data, "subjekti.json");
    await writeFile(source, JSON.stringify(subjects));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    // No SOURCE_DATE_EPOCH: the data's date is the source's modification time, which a save moves.
    const env = { SOURCE_DATE_EPOCH: "" };
    expect((await runCli(["build", "--data", data, "--out", dist, "--no-cache", "--quiet", "--base-url", base], env)).code).toBe(0);
    const watching = watchIo(env);
    const { io, out } = watching;
    const running = main(["preview", "--dir", dist, "--port", String(port), "--watch", "--data", data], io);
    /** Saved as an editor saves (beside, then renamed), its modification time `at` seconds. */
    const save = async (list: readonly Record<string, unknown>[], at: number): Promise<void> => {
      await writeFile(join(root, "save.tmp"), JSON.stringify(list));
      await utimes(join(root, "save.tmp"), at, at);
      await rename(join(root, "save.tmp"), source);
    };
    const sync = async (): Promise<string> => {
      const run = await runCli(["sync", base, copy]);
      expect(run.code, run.stderr).toBe(0);
      return run.stdout.trim();
    };
    await whileWatching(watching, running, async () => {
      await eventually("the watcher", () => out().includes("watching"));
      await eventually("the preview", async () => (await fetch(`${base}/changes/state.json`).catch(() => null))?.status === 200);
      expect(await sync()).toBe("+30 −0 ~0 subjects, sequence none → 1 (snapshot: no verified local copy)");
      const edited = [{ ...subjects[0], naziv_subjekta: "Uređeno ime" }, ...subjects.slice(1)];
      await save(edited, 1_800_000_000);
      await eventually("the edit's sequence", () => out().includes("(change feed: sequence 1 -> 2,"));
      expect(await sync()).toBe("+0 −0 ~1 subjects, sequence 1 → 2\n  changed: Uređeno ime");
      // The same bytes saved again a day later: the site stays byte for byte what it was, dates and all.
      const before = await siteTree(dist);
      await save(edited, 1_800_086_400);
      await eventually("the unchanged save's rebuild", () =>
        out().includes("no subject changed since the last build (change feed: still sequence 2)"),
      );
      expect(await siteTree(dist)).toEqual(before);
      expect(await sync()).toBe("+0 −0 ~0 subjects, sequence 2 → 2");
    });
    await rm(root, { recursive: true, force: true });
  }, 90_000);

  it.each([
    ["en", "the change feed is off: DIST was built with --no-feed, so these rebuilds write no /changes/ and a mirror cannot follow them"],
    [
      "hr",
      "slijed promjena je isključen: DIST izgrađen je s --no-feed, pa ove izgradnje ne pišu /changes/ i zrcalna ih kopija ne može pratiti",
    ],
  ])(
    "--lang %s: a site built with --no-feed is rebuilt without one, and the watch says so once",
    async (lang, line) => {
      const root = await tempDir("subjekti-watch-nofeed-");
      const [data, dist] = [join(root, "data"), join(root, "dist")];
      await mkdir(data);
      const subjects = (JSON.parse(await readFile("data/subjekti.json", "utf8")) as Record<string, unknown>[]).slice(0, 30);
      await writeFile(join(data, "subjekti.json"), JSON.stringify(subjects));
      expect((await runCli(["build", "--data", data, "--out", dist, "--no-cache", "--quiet", "--no-feed"])).code).toBe(0);
      const watching = watchIo({});
      const { io, out } = watching;
      const running = main(["preview", "--dir", dist, "--port", "0", "--watch", "--data", data, "--lang", lang], io);
      const save = async (name: string): Promise<void> => {
        await writeFile(join(root, "save.tmp"), JSON.stringify([{ ...subjects[0], naziv_subjekta: name }, ...subjects.slice(1)]));
        await rename(join(root, "save.tmp"), join(data, "subjekti.json"));
      };
      const rebuilt = (): number =>
        out()
          .split("\n")
          .filter((l) => / (rebuilt|ponovno izgrađeno): /.test(l)).length;
      await whileWatching(watching, running, async () => {
        await eventually("the watcher", () => out().includes(`${data}/`));
        await save("Prvo");
        await eventually("the first rebuild", () => rebuilt() === 1);
        await save("Drugo");
        await eventually("the second rebuild", () => rebuilt() === 2);
      });
      expect(
        out()
          .split("\n")
          .filter((l) => l.includes("--no-feed")),
      ).toEqual([`subjekti preview: ${line.replace("DIST", dist)}`]);
      expect(await readFile(join(dist, "changes", "state.json")).catch(() => null)).toBeNull();
      await rm(root, { recursive: true, force: true });
    },
    90_000,
  );

  it("a rebuild that fails on an error counts the accepted warnings in one line, never lists them as new", async () => {
    const root = await tempDir("subjekti-watch-known-");
    const [data, dist] = [join(root, "data"), join(root, "dist")];
    await mkdir(data);
    // The first record's OIB with a wrong check digit, accepted.
    const subjects = (JSON.parse(await readFile("data/subjekti.json", "utf8")) as Record<string, unknown>[]).slice(0, 30);
    const typo = { ...subjects[0], oib: "23557321378" };
    await writeFile(join(data, "subjekti.json"), JSON.stringify([typo, ...subjects.slice(1)]));
    expect((await runCli(["validate", "--data", data, "--accept"])).code).toBe(0);
    expect((await runCli(["build", "--data", data, "--out", dist, "--no-cache", "--quiet"])).code).toBe(0);
    const watching = watchIo({});
    const { io, out, err } = watching;
    const running = main(["preview", "--dir", dist, "--port", "0", "--watch", "--data", data], io);
    await whileWatching(watching, running, async () => {
      await eventually("the watcher", () => out().includes(`${data}/`));
      await writeFile(
        join(root, "save.tmp"),
        JSON.stringify([typo, { ...subjects[1], datum_postanka: "2023-02-30" }, ...subjects.slice(2)]),
      );
      await rename(join(root, "save.tmp"), join(data, "subjekti.json"));
      await eventually("the failed rebuild's line", () => err().includes("subjekti preview: "));
    });
    expect(err().split("\n")).toEqual([
      `${data}/subjekti.json[1]: datum_postanka: expected a real date YYYY-MM-DD, got "2023-02-30" (February 2023 has 28 days)`,
      `1 known warning, accepted in ${data}/known-problems.json (not listed; subjekti validate --accept records the current ones)`,
      "subjekti preview: the rebuild failed; still serving the last good site",
      "",
    ]);
    await rm(root, { recursive: true, force: true });
  }, 90_000);
});
