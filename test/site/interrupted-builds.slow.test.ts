/**
 * Builds and exports stopped by SIGINT, SIGTERM and SIGKILL at every stage leave nothing behind
 * once the next build has run: not in the temporary directory (TMPDIR, private to the test here, so
 * that it can be counted), not beside the output, not inside it, not in the build cache. A build
 * stopped by SIGINT or SIGTERM removes its own temporaries at once and exits 130 or 143 with one
 * line; the site stays whole throughout: the previous one until the switch, the new one from it.
 * Both layouts.
 *
 * Each stop is reached by construction, whatever the machine's load: the command runs with a named
 * pause point (SUBJEKTI_PAUSE_AT, src/common/pause-point.ts) and is signalled once it says it waits
 * there. The points follow a command through its stages, each signal at each of them; after a
 * SIGKILL the next command takes the dead one's lock over, so that path is stopped at every point too.
 */
import { mkdir, readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../file-trees.ts";
import { leftovers, pauseAt, pausedLine, type Running, runProcess, siteView, whichSite, writeDataset } from "./build-processes.ts";

let work: string;
let tmp: string;
const SIGNALS = ["SIGINT", "SIGTERM", "SIGKILL"] as const;
/**
 * A build's points in its order: its lock written under a temporary name, not yet linked; the
 * output locked and nothing written; the lock of a killed build being taken over (reached because
 * the round before it, a SIGKILL at output-locked, left one, and each stop there leaves it); the
 * records written; every page written and nothing switched; the site switched and the previous one
 * not yet swept.
 */
const LOCK_POINTS = ["lock-written", "output-locked", "lock-takeover"] as const;
const SITE_POINTS = ["build-records-written", "site-pages-written", "site-switched"] as const;
/** An export's: the same points of its lock; its first rows written into the temporary file. */
const EXPORT_POINTS = [...LOCK_POINTS, "export-rows-written"] as const;
/** Every signal at every point. */
const roundsAt = <P extends string>(points: readonly P[]): { point: P; signal: (typeof SIGNALS)[number] }[] =>
  points.flatMap((point) => SIGNALS.map((signal) => ({ point, signal })));
/** The lock's points are one code for both layouts and the export: the plain layout, the slowest to read whole each round, stops at its own. */
const LAYOUTS = {
  routed: { args: [], points: [...LOCK_POINTS, ...SITE_POINTS] },
  plain: { args: ["--links", "files"], points: SITE_POINTS },
} as const;
const STOPPED = { SIGINT: 130, SIGTERM: 143 } as const;
/** Subjects in each dataset. */
const SUBJECTS = 1_200;

/** What a command stopped gracefully says: its one line, without the takeover of a killed one's lock and the pause point's marker. */
const saidWhenStopped = (stderr: string, point: string): string =>
  stderr
    .split("\n")
    .filter((line) => !/took over the lock of process \d+/.test(line) && `${line}\n` !== pausedLine(point))
    .join("\n");

/**
 * A stopped command's end: killed by SIGKILL; or, stopped gracefully, exited 130 or 143 in one line
 * with its own temporaries (among those `temporaries` lists) gone at once.
 */
async function expectStopped(
  what: "build" | "export",
  command: Running,
  { point, signal }: { point: string; signal: (typeof SIGNALS)[number] },
  temporaries: () => Promise<string[]>,
  why: string,
): Promise<void> {
  const ended = await command.ended;
  if (signal === "SIGKILL") {
    expect(ended.signal, why).toBe("SIGKILL");
    return;
  }
  expect(ended.code, why).toBe(STOPPED[signal]);
  expect(saidWhenStopped(ended.stderr, point), why).toBe(`subjekti: ${what} stopped by ${signal}: its temporary files are removed\n`);
  expect(
    (await temporaries()).filter((name) => name.includes(String(command.pid))),
    why,
  ).toEqual([]);
}

beforeAll(async () => {
  work = await tempDir("subjekti-interrupted-");
  tmp = join(work, "tmp");
  await mkdir(tmp);
  // 1,200 subjects (two chunks, two directories of subject files), and 7 fewer: every page differs.
  // The stops are reached by construction, so no build needs to last long enough to be caught, and
  // each round reads the whole site and walks it for leftovers: the sample's 5,758 took 5-11 s a
  // round of the plain layout on a quiet machine.
  await writeDataset(join(work, "a"), 1, 0, SUBJECTS);
  await writeDataset(join(work, "b"), 1, 7, SUBJECTS);
}, 60_000);
afterAll(() => rm(work, { recursive: true, force: true }));

describe.each(Object.keys(LAYOUTS) as (keyof typeof LAYOUTS)[])("builds stopped at each stage (%s)", (layout) => {
  const { args: layoutArgs, points } = LAYOUTS[layout];
  const rounds = roundsAt(points);
  it(`${SIGNALS.join(", ")} at ${points.join(", ")}: a graceful stop leaves nothing at once, the site is the previous one until the switch, and after the next build nothing is left at all`, async () => {
    const out = join(work, `${layout}-site`);
    const cache = join(work, `${layout}-cache`);
    const args = (data: string): string[] => [
      "build",
      "--data",
      data,
      "--out",
      out,
      "--cache-dir",
      cache,
      "--base-url",
      "http://testserver",
      "--quiet",
      ...layoutArgs,
    ];
    const env = { TMPDIR: tmp };
    const references: Record<"a" | "b", Map<string, string>> = { a: new Map(), b: new Map() };
    for (const name of ["b", "a"] as const) {
      const built = await runProcess(args(join(work, name)), env).ended;
      expect(built.code, built.stderr).toBe(0);
      references[name] = await siteView(out, layout);
    }
    let current: "a" | "b" = "a";
    const outcomes: string[] = [];
    for (const [round, { point, signal }] of rounds.entries()) {
      // Always the other data: a build of the site's own inputs would find nothing to do (unchanged-build.ts) and reach no point.
      const target: "a" | "b" = current === "a" ? "b" : "a";
      const build = runProcess(args(join(work, target)), { ...env, ...pauseAt(point) });
      if (!(await build.said(pausedLine(point))))
        expect.fail(`round ${round}: the build never reached ${point}: ${(await build.ended).stderr}`);
      build.kill(signal);
      const ended = await build.ended;
      outcomes.push(`${signal} at ${point}: ${ended.signal ?? `exit ${ended.code}`}`);
      const why = outcomes.join("; ");
      // The previous site until the switch, the new one from it: whole either way.
      if (point === "site-switched") current = target;
      expect(whichSite(await siteView(out, layout), references), why).toBe(current);
      // Its own temporaries went with it, at once.
      await expectStopped("build", build, { point, signal }, () => leftovers(out, [cache, tmp]), why);
    }
    // The next build removes what the killed ones left: nothing remains anywhere, and the site is whole.
    const last = await runProcess(args(join(work, "a")), env).ended;
    expect(last.code, last.stderr).toBe(0);
    expect(await leftovers(out, [cache, tmp]), outcomes.join("; ")).toEqual([]);
    // tsx keeps its own compile cache there (tsx-<uid>): the test's runner, not the build.
    expect(
      (await readdir(tmp)).filter((name) => !name.startsWith("tsx-")),
      outcomes.join("; "),
    ).toEqual([]);
    expect(whichSite(await siteView(out, layout), references)).toBe("a");
  }, 300_000);
});

describe("exports stopped at each stage", () => {
  const rounds = roundsAt(EXPORT_POINTS);
  it(`${SIGNALS.join(", ")} at ${EXPORT_POINTS.join(", ")}: the previous file stays as it was, and nothing is left once the next export ran`, async () => {
    const dir = join(work, "exports");
    await mkdir(dir);
    const file = join(dir, "subjekti.xlsx");
    const env = { TMPDIR: tmp };
    expect((await runProcess(["export", "--data", join(work, "a"), "--out", file], env).ended).code).toBe(0);
    const before = await readFile(file);
    const outcomes: string[] = [];
    for (const [round, { point, signal }] of rounds.entries()) {
      const exporting = runProcess(["export", "--data", join(work, "a"), "--out", file], { ...env, ...pauseAt(point) });
      if (!(await exporting.said(pausedLine(point))))
        expect.fail(`round ${round}: the export never reached ${point}: ${(await exporting.ended).stderr}`);
      exporting.kill(signal);
      const ended = await exporting.ended;
      outcomes.push(`${signal} at ${point}: ${ended.signal ?? `exit ${ended.code}`}`);
      const why = outcomes.join("; ");
      // Stopped before its file took the name: the previous export's, byte for byte.
      expect((await readFile(file)).equals(before), why).toBe(true);
      // Its own temporaries went with it, at once (a killed export's wait for the next one to start).
      await expectStopped("export", exporting, { point, signal }, () => leftovers(file, [tmp]), why);
    }
    expect((await runProcess(["export", "--data", join(work, "a"), "--out", file], env).ended).code).toBe(0);
    expect(await leftovers(file, [tmp]), outcomes.join("; ")).toEqual([]);
    expect((await readdir(dir)).sort(), outcomes.join("; ")).toEqual(["subjekti.xlsx"]);
  }, 180_000);
});
