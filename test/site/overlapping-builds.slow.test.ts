/**
 * Two builds of different data into one --out, the second started at staggered moments after the
 * first (overlapping cron runs, two CI jobs on one runner): the site a reader sees is always whole
 * (one build's or the other's), and either exactly one build ran (the other refused in one line)
 * or both ran one after the other (--wait). Both layouts: routed, and --links files; the same
 * for two exports into one file.
 */
import { mkdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { leftovers, runProcess, siteView, whichSite, writeDataset } from "./build-processes.ts";
import { tempDir } from "../file-trees.ts";

let work: string;
const LAYOUTS = { routed: [], plain: ["--links", "files"] } as const;
/** The second build's start after the first's, and whether it waits: at once, during the read, during the write, later. */
const ROUNDS = [
  { after: 0, wait: false },
  { after: 150, wait: true },
  { after: 500, wait: false },
] as const;
const REFUSED =
  /^subjekti: --out \S+ is being written by process \d+ \(subjekti (?:build|export) since [0-9T:.Z-]+\): wait for it to finish, or pass --wait to wait for it\n$/;

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
  await writeDataset(join(work, "a"), 2, 0);
  await writeDataset(join(work, "b"), 2, 7);
}, 60_000);
afterAll(() => rm(work, { recursive: true, force: true }));

describe.each(Object.keys(LAYOUTS) as (keyof typeof LAYOUTS)[])("two builds into one --out (%s)", (layout) => {
  it(`keep the site whole at ${ROUNDS.length} staggered starts: one refused in one line, or both one after the other`, async () => {
    const references: Record<"a" | "b", Map<string, string>> = { a: new Map(), b: new Map() };
    for (const name of ["a", "b"] as const) {
      const out = join(work, `${layout}-ref-${name}`);
      const built = await runProcess(args(join(work, name), out, layout, false)).ended;
      expect(built.code, built.stderr).toBe(0);
      references[name] = await siteView(out, layout);
    }
    const out = join(work, `${layout}-site`);
    expect((await runProcess(args(join(work, "a"), out, layout, false)).ended).code).toBe(0);
    const outcomes: string[] = [];
    for (const [round, { after, wait }] of ROUNDS.entries()) {
      const [first, second] = round % 2 === 0 ? (["b", "a"] as const) : (["a", "b"] as const);
      const one = runProcess(args(join(work, first), out, layout, wait));
      await new Promise((resolve) => setTimeout(resolve, after));
      const two = runProcess(args(join(work, second), out, layout, wait));
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
      const [x, y] = await Promise.all([one.ended, two.ended]);
      running = false;
      expect(await reads).toBeGreaterThan(0);
      const ran = [
        { name: first, ...x },
        { name: second, ...y },
      ]
        .filter((r) => r.code === 0)
        .sort((p, q) => p.at - q.at);
      const refused = [x, y].filter((r) => r.code !== 0);
      outcomes.push(
        `+${after}ms${wait ? " --wait" : ""}: ran ${ran.map((r) => r.name).join(" then ")}${refused.length > 0 ? ", one refused" : ""}`,
      );
      // Exactly one ran and the other refused in one line, or both ran (one after the other: the lock's work).
      for (const r of refused) {
        expect(r.code, outcomes.join("; ")).toBe(1);
        expect(r.stderr, outcomes.join("; ")).toMatch(REFUSED);
      }
      if (wait) expect(refused, outcomes.join("; ")).toEqual([]);
      expect(ran.length, outcomes.join("; ")).toBeGreaterThanOrEqual(1);
      // The site is the last build's, whole, and nothing is left over.
      expect(whichSite(await siteView(out, layout), references), outcomes.join("; ")).toBe(ran.at(-1)?.name);
      expect(await leftovers(out, [`${out}.cache`]), outcomes.join("; ")).toEqual([]);
    }
    // The staggering did make them overlap: at least one refusal, and one wait.
    expect(
      outcomes.some((o) => o.includes("refused")),
      outcomes.join("; "),
    ).toBe(true);
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
    for (const { after, wait } of [
      { after: 0, wait: false },
      { after: 200, wait: true },
    ]) {
      const one = runProcess(["export", "--data", join(work, "a"), "--out", file, ...(wait ? ["--wait"] : [])]);
      await new Promise((resolve) => setTimeout(resolve, after));
      const two = runProcess(["export", "--data", join(work, "b"), "--out", file, ...(wait ? ["--wait"] : [])]);
      const [x, y] = await Promise.all([one.ended, two.ended]);
      const ran = [
        { name: "a" as const, ...x },
        { name: "b" as const, ...y },
      ]
        .filter((r) => r.code === 0)
        .sort((p, q) => p.at - q.at);
      outcomes.push(`+${after}ms: ran ${ran.map((r) => r.name).join(" then ")}`);
      for (const r of [x, y].filter((e) => e.code !== 0)) expect(r.stderr, outcomes.join("; ")).toMatch(REFUSED);
      if (wait) expect(ran, outcomes.join("; ")).toHaveLength(2);
      expect(await readFile(file, "utf8"), outcomes.join("; ")).toBe(references[ran.at(-1)?.name ?? "a"]);
      expect(await leftovers(file), outcomes.join("; ")).toEqual([]);
    }
  }, 180_000);
});
