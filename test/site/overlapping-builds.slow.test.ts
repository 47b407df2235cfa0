/**
 * Two builds of different data into one --out, the second started while the first runs
 * (overlapping cron runs, two CI jobs on one runner): the site a reader sees is always whole (one
 * build's or the other's), and either exactly one build ran (the other refused in one line) or both
 * ran one after the other (--wait). Both layouts: routed, and --links files; the same for two
 * exports into one file.
 *
 * The overlap is reached by construction, whatever the machine's load: the first command runs with
 * a named pause point (SUBJEKTI_PAUSE_AT, src/common/pause-point.ts); once it says it waits there,
 * holding the output, the second starts, and is refused, or says it waits for the first; then the
 * first is let go on (SIGUSR2). One round starts both in the same moment, whichever takes the lock.
 */
import { mkdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { leftovers, pauseAt, pausedLine, type Running, runProcess, siteView, whichSite, writeDataset } from "./build-processes.ts";
import { tempDir } from "../file-trees.ts";

let work: string;
const LAYOUTS = { routed: [], plain: ["--links", "files"] } as const;
/**
 * Where the first build is when the second starts, and whether the second waits: in the same
 * moment; its records written (the second waits); every page written and nothing switched (the
 * second is refused).
 */
const ROUNDS = [
  { point: null, wait: false },
  { point: "build-records-written", wait: true },
  { point: "site-pages-written", wait: false },
] as const;
const REFUSED =
  /^subjekti: --out \S+ is being written by process \d+ \(subjekti (?:build|export) since [0-9T:.Z-]+\): wait for it to finish, or pass --wait to wait for it\n$/;
const WAITING = /is being written by process \d+ \(subjekti (?:build|export) since [0-9T:.Z-]+\): waiting for it to finish\n/;

type Ended = Awaited<Running["ended"]>;

/**
 * Starts `first`, then `second`: in the same moment when `point` is null; else once `first` waits
 * at `point`, and `first` goes on once `second` was refused or says it waits. Resolves with both ends.
 */
async function overlap(
  point: string | null,
  first: (env: Record<string, string>) => Running,
  second: () => Running,
): Promise<[Ended, Ended]> {
  if (point === null) {
    const [one, two] = [first({}), second()];
    return Promise.all([one.ended, two.ended]);
  }
  const one = first(pauseAt(point));
  if (!(await one.said(pausedLine(point)))) expect.fail(`the first never reached ${point}: ${(await one.ended).stderr}`);
  const two = second();
  // Refused (it ends) or waiting (it says so): either way it found the first holding the output.
  await two.said("waiting for it to finish");
  one.resume();
  return Promise.all([one.ended, two.ended]);
}

/**
 * The names of the two commands `names` that ran, in the order they ended (`x` and `y` their
 * ends), pushed to `outcomes` as the round's line; and what the round must show: each refused one in
 * one line, at least one ran, and once the first held the output at `point`, the second waited and
 * ran after it (`wait`), or was refused.
 */
function expectRound<N extends string>(
  { point, wait }: { point: string | null; wait: boolean },
  names: readonly [N, N],
  [x, y]: [Ended, Ended],
  outcomes: string[],
): { ran: N[]; why: string } {
  const ran = [
    { name: names[0], ...x },
    { name: names[1], ...y },
  ]
    .filter((r) => r.code === 0)
    .sort((p, q) => p.at - q.at)
    .map((r) => r.name);
  const refused = [x, y].filter((r) => r.code !== 0);
  outcomes.push(`${point ?? "together"}${wait ? " --wait" : ""}: ran ${ran.join(" then ")}${refused.length > 0 ? ", one refused" : ""}`);
  const why = outcomes.join("; ");
  // Exactly one ran and the other refused in one line, or both ran (one after the other: the lock's work).
  for (const r of refused) {
    expect(r.code, why).toBe(1);
    expect(r.stderr, why).toMatch(REFUSED);
  }
  expect(ran.length, why).toBeGreaterThanOrEqual(1);
  if (point !== null) {
    // The second found the first holding the output: it waited for it and ran after it, or it was refused.
    if (wait) {
      expect(y.stderr, why).toMatch(WAITING);
      expect(ran, why).toEqual(names);
    } else {
      expect(refused, why).toEqual([y]);
    }
  }
  return { ran, why };
}

const args = (data: string, out: string, layout: keyof typeof LAYOUTS, wait: boolean): string[] => [
  "build",
  "--data",
  data,
  "--out",
  out,
  "--cache-dir",
  `${out}.cache`,
  "--base-url",
  "http://testserver",
  "--quiet",
  ...LAYOUTS[layout],
  ...(wait ? ["--wait"] : []),
];

beforeAll(async () => {
  work = await tempDir("subjekti-overlap-");
  // 1,200 subjects (two chunks), and 7 fewer: every page differs. The overlap is made, not waited for.
  await writeDataset(join(work, "a"), 1, 0, 1_200);
  await writeDataset(join(work, "b"), 1, 7, 1_200);
}, 60_000);
afterAll(() => rm(work, { recursive: true, force: true }));

describe.each(Object.keys(LAYOUTS) as (keyof typeof LAYOUTS)[])("two builds into one --out (%s)", (layout) => {
  it(`keep the site whole when the second starts ${ROUNDS.map((r) => r.point ?? "with the first").join(", then at ")}: one refused in one line, or both one after the other`, async () => {
    // The site's first build, of data a, is a's reference too: a build of b elsewhere is b's.
    const out = join(work, `${layout}-site`);
    const references: Record<"a" | "b", Map<string, string>> = { a: new Map(), b: new Map() };
    for (const [name, into] of [
      ["a", out],
      ["b", join(work, `${layout}-ref-b`)],
    ] as const) {
      const built = await runProcess(args(join(work, name), into, layout, false)).ended;
      expect(built.code, built.stderr).toBe(0);
      references[name] = await siteView(into, layout);
    }
    const outcomes: string[] = [];
    let current: "a" | "b" = "a";
    for (const [round, { point, wait }] of ROUNDS.entries()) {
      // The first builds the other data than the site's: a build of the site's own inputs would find nothing to do (unchanged-build.ts) and reach no point.
      const [first, second]: ["a" | "b", "a" | "b"] = current === "a" ? ["b", "a"] : ["a", "b"];
      // A reader all the while: every view is one whole site.
      let running = true;
      const reads = (async () => {
        let seen = 0;
        while (running) {
          const view = await siteView(out, layout);
          expect(whichSite(view, references), `round ${round}: a mixed site while the builds ran`).not.toBe("mixed");
          seen++;
        }
        return seen;
      })();
      const ends = await overlap(
        point,
        (env) => runProcess(args(join(work, first), out, layout, wait), env),
        () => runProcess(args(join(work, second), out, layout, wait)),
      );
      running = false;
      expect(await reads).toBeGreaterThan(0);
      const { ran, why }: { ran: ("a" | "b")[]; why: string } = expectRound({ point, wait }, [first, second], ends, outcomes);
      // The site is the last build's, whole, and nothing is left over.
      current = ran.at(-1) ?? current;
      expect(whichSite(await siteView(out, layout), references), why).toBe(current);
      expect(await leftovers(out, [`${out}.cache`]), why).toEqual([]);
    }
  }, 300_000);
});

describe("two exports into one --out", () => {
  it("give one export's file or the other's, whole: one refused in one line, or both one after the other", async () => {
    const dir = join(work, "exports");
    await mkdir(dir);
    const references = { a: "", b: "" };
    for (const name of ["a", "b"] as const) {
      const file = join(dir, `ref-${name}.csv`);
      expect((await runProcess(["export", "--data", join(work, name), "--out", file]).ended).code).toBe(0);
      references[name] = await readFile(file, "utf8");
    }
    const file = join(dir, "subjekti.csv");
    const outcomes: string[] = [];
    for (const { point, wait } of [
      { point: null, wait: false },
      { point: "export-rows-written", wait: true },
      { point: "export-rows-written", wait: false },
    ]) {
      const exporting = (data: string) => (env: Record<string, string>) =>
        runProcess(["export", "--data", join(work, data), "--out", file, ...(wait ? ["--wait"] : [])], env);
      const ends = await overlap(point, exporting("a"), () => exporting("b")({}));
      const { ran, why } = expectRound({ point, wait }, ["a", "b"] as const, ends, outcomes);
      expect(await readFile(file, "utf8"), why).toBe(references[ran.at(-1) ?? "a"]);
      expect(await leftovers(file), why).toEqual([]);
    }
  }, 180_000);
});
