/**
 * Builds and exports stopped by SIGINT, SIGTERM and SIGKILL midway and at random moments leave
 * nothing behind once the next build has run: not in the temporary directory (TMPDIR, private to
 * the test here, so that it can be counted), not beside the output, not inside it, not in the
 * build cache. A build stopped by SIGINT or SIGTERM removes its own temporaries at once and exits
 * 130 or 143 with one line; the site stays whole throughout. Both layouts.
 *
 * Midway is reached by construction, whatever the machine's load: the command runs with a named
 * pause point (SUBJEKTI_PAUSE_AT: its records written, nothing switched) and is signalled once it
 * says it waits there. The random moments come after, and may find the command done.
 */
import { access, mkdir, readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mulberry32 as seededRandom } from "../../src/common/seeded-random.ts";
import { lockPathOf } from "../../src/common/output-lock.ts";
import { tempDir } from "../file-trees.ts";
import { leftovers, pauseAt, pausedLine, runProcess, siteView, whichSite, writeDataset } from "./build-processes.ts";

/** Resolves once the process has taken the lock of `target` (it runs: its handlers are in place), or has ended. */
async function started(target: string, ended: Promise<unknown>): Promise<void> {
  let done = false;
  void ended.then(() => (done = true));
  while (
    !done &&
    !(await access(lockPathOf(target)).then(
      () => true,
      () => false,
    ))
  )
    await new Promise((resolve) => setTimeout(resolve, 5));
}

let work: string;
let tmp: string;
const SIGNALS = ["SIGINT", "SIGTERM", "SIGKILL"] as const;
/** Each signal once at the pause point (midway by construction), then once at a random moment. */
const ROUNDS = [...SIGNALS.map((signal) => ({ signal, midway: true })), ...SIGNALS.map((signal) => ({ signal, midway: false }))];
const LAYOUTS = { routed: [], plain: ["--links", "files"] } as const;
const STOPPED = { SIGINT: 130, SIGTERM: 143 } as const;

beforeAll(async () => {
  work = await tempDir("subjekti-interrupted-");
  tmp = join(work, "tmp");
  await mkdir(tmp);
  await writeDataset(join(work, "a"), 2, 0);
  await writeDataset(join(work, "b"), 2, 7);
}, 60_000);
afterAll(() => rm(work, { recursive: true, force: true }));

describe.each(Object.keys(LAYOUTS) as (keyof typeof LAYOUTS)[])("builds stopped at random moments (%s)", (layout) => {
  it(`${SIGNALS.join(", ")} midway, then at random moments: a graceful stop leaves nothing at once, and after the next build nothing is left at all`, async () => {
    const random = seededRandom(layout === "routed" ? 28 : 29);
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
      ...LAYOUTS[layout],
    ];
    const env = { TMPDIR: tmp };
    const references: Record<"a" | "b", Map<string, string>> = { a: new Map(), b: new Map() };
    for (const name of ["b", "a"] as const) {
      const built = await runProcess(args(join(work, name)), env).ended;
      expect(built.code, built.stderr).toBe(0);
      references[name] = await siteView(out, layout);
    }
    const outcomes: string[] = [];
    const POINT = "build-records-written";
    for (const [round, { signal, midway }] of ROUNDS.entries()) {
      const build = runProcess(args(join(work, round % 2 === 0 ? "b" : "a")), { ...env, ...(midway ? pauseAt(POINT) : {}) });
      let after = 0;
      if (midway) expect(await build.said(pausedLine(POINT)), `round ${round}: the build never reached ${POINT}`).toBe(true);
      else {
        after = Math.floor(random() * 1500);
        await started(out, build.ended);
        await new Promise((resolve) => setTimeout(resolve, after));
      }
      build.kill(signal);
      const ended = await build.ended;
      outcomes.push(`${signal} ${midway ? `at ${POINT}` : `at ${after}ms`}: ${ended.signal ?? `exit ${ended.code}`}`);
      const why = outcomes.join("; ");
      expect(whichSite(await siteView(out, layout), references), why).not.toBe("mixed");
      if (midway) expect(signal === "SIGKILL" ? ended.signal : ended.code, why).toBe(signal === "SIGKILL" ? "SIGKILL" : STOPPED[signal]);
      if (signal !== "SIGKILL" && ended.code === STOPPED[signal]) {
        // After a SIGKILL the next build takes the dead build's lock over, saying so in a line of its own.
        const lines = ended.stderr
          .split("\n")
          .filter((line) => !/took over the lock of process \d+/.test(line) && `${line}\n` !== pausedLine(POINT));
        expect(lines.join("\n"), why).toBe(`subjekti: build stopped by ${signal}: its temporary files are removed\n`);
        // Its own temporaries went with it, at once.
        expect(
          (await leftovers(out, [cache, tmp])).filter((name) => name.includes(String(build.pid))),
          why,
        ).toEqual([]);
      } else if (ended.code !== null) {
        expect(ended.code, why).toBe(0);
      }
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
    // Nine builds of the plain layout (every page a file): past 300 s with another slow file beside it on two cores.
  }, 600_000);
});

describe("exports stopped midway and at random moments", () => {
  it("SIGINT, SIGTERM, SIGKILL midway, then at random moments: the previous file stays whole, and nothing is left once the next export ran", async () => {
    const random = seededRandom(30);
    const dir = join(work, "exports");
    await mkdir(dir);
    const file = join(dir, "subjekti.xlsx");
    const env = { TMPDIR: tmp };
    const timed = performance.now();
    expect((await runProcess(["export", "--data", join(work, "a"), "--out", file], env).ended).code).toBe(0);
    // Moments within an export's own time on this machine (whatever its load), so that some stop it midway.
    const duration = performance.now() - timed;
    const before = await readFile(file);
    const outcomes: string[] = [];
    const POINT = "export-rows-written";
    for (const [round, { signal, midway }] of ROUNDS.entries()) {
      const exporting = runProcess(["export", "--data", join(work, "a"), "--out", file], { ...env, ...(midway ? pauseAt(POINT) : {}) });
      let after = 0;
      if (midway) expect(await exporting.said(pausedLine(POINT)), `round ${round}: the export never reached ${POINT}`).toBe(true);
      else {
        after = Math.floor(random() * duration * 0.6);
        await started(file, exporting.ended);
        await new Promise((resolve) => setTimeout(resolve, after));
      }
      exporting.kill(signal);
      const ended = await exporting.ended;
      outcomes.push(`${signal} ${midway ? `at ${POINT}` : `at ${after}ms`}: ${ended.signal ?? `exit ${ended.code}`}`);
      if (midway)
        expect(signal === "SIGKILL" ? ended.signal : ended.code, outcomes.join("; ")).toBe(
          signal === "SIGKILL" ? "SIGKILL" : STOPPED[signal],
        );
      if (signal !== "SIGKILL" && ended.code === STOPPED[signal]) {
        // After a SIGKILL the next export takes the dead one's lock over, saying so in a line of its own.
        const lines = ended.stderr
          .split("\n")
          .filter((line) => !/took over the lock of process \d+/.test(line) && `${line}\n` !== pausedLine(POINT));
        expect(lines.join("\n"), outcomes.join("; ")).toBe(`subjekti: export stopped by ${signal}: its temporary files are removed\n`);
        // Its own temporaries went with it, at once (a killed export's wait for the next one to start).
        expect(
          (await leftovers(file, [tmp])).filter((name) => name.includes(String(exporting.pid))),
          outcomes.join("; "),
        ).toEqual([]);
      }
      // The file is the previous export's or the new one's: a workbook of the same records, whole (the reader checks it).
      expect((await readFile(file)).length, outcomes.join("; ")).toBeGreaterThan(before.length / 2);
    }
    expect((await runProcess(["export", "--data", join(work, "a"), "--out", file], env).ended).code).toBe(0);
    expect(await leftovers(file, [tmp]), outcomes.join("; ")).toEqual([]);
    expect((await readdir(dir)).sort(), outcomes.join("; ")).toEqual(["subjekti.xlsx"]);
  }, 180_000);
});
