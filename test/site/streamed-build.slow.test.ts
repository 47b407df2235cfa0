/**
 * The streamed build: input in id order is chunked and written while it is read, anything else is
 * read whole and put in order in memory. Both give the same site, byte for byte; and a data error
 * found late, after records shards were already written under their temporary names, leaves the
 * previous site exactly as it was.
 */
import fc from "fast-check";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Subject } from "../../src/core/render-page.ts";
import { DataError, formatProblem } from "../../src/data/problems/problems.ts";
import { makeSubject, oibCheckDigit } from "../../scripts/generate-subjects.ts";
import { snapshotTree, tempDir } from "../file-trees.ts";
import { build } from "./built-site.ts";

let work: string;
let sample: Subject[];
beforeAll(async () => {
  work = await tempDir();
  sample = (JSON.parse(await readFile("data/subjekti.json", "utf8")) as Subject[]).sort((a, b) => a.id - b.id);
});
afterAll(() => rm(work, { recursive: true, force: true }));

/** Writes `parts` as the files of a fresh data directory, read in the order given (JSON arrays and NDJSON alternating). */
async function writeData(name: string, parts: readonly (readonly Subject[])[]): Promise<string> {
  const dir = join(work, name);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  for (const [i, part] of parts.entries()) {
    const text = i % 2 === 0 ? JSON.stringify(part, null, 1) : part.map((s) => `${JSON.stringify(s)}\n`).join("");
    await writeFile(join(dir, `${String.fromCharCode(97 + i)}.${i % 2 === 0 ? "json" : "ndjson"}`), text);
  }
  return dir;
}

/** Every directory under `dir` whose name marks a shard being written. */
async function tmpDirs(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isDirectory() && e.name.includes(".tmp-")).map((e) => join(e.parentPath, e.name));
}

describe("streamed (input in id order) and in memory (any other order)", () => {
  it("give byte-identical sites for any list, split over any files", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 3200 }),
        fc.uniqueArray(fc.integer({ min: 1, max: 3199 }), { maxLength: 2 }),
        fc.integer(),
        async (size, cuts, seed) => {
          const list = sample.slice(0, size);
          const bounds = [0, ...cuts.filter((c) => c < size).sort((a, b) => a - b), size];
          const sorted = bounds.slice(1).map((end, i) => list.slice(bounds[i], end));
          // The same records, the files in reverse order and each shuffled: never in id order when there are two or more.
          const shuffled = fc.sample(fc.shuffledSubarray(list, { minLength: list.length }), { numRuns: 1, seed })[0] ?? [];
          const options = { limits: [7, 20], cacheDir: null };
          const [a, b] = [join(work, "streamed"), join(work, "in-memory")];
          await rm(a, { recursive: true, force: true });
          await rm(b, { recursive: true, force: true });
          await build(await writeData("sorted-data", sorted), a, options);
          await build(await writeData("shuffled-data", [shuffled.slice(0, size >> 1), shuffled.slice(size >> 1)]), b, options);
          expect(await snapshotTree(a)).toEqual(await snapshotTree(b));
        },
      ),
      { numRuns: 4 },
    );
  });
});

describe("a data error late in a large input in id order", () => {
  /** 101,000 generated subjects: the first records shard (100,000) is written before the last block is read. */
  const SIZE = 101_000;
  /**
   * Each OIB is made from the index, so the only problem is the one the test puts in: the generator draws OIBs at random, and
   * since it draws made-up words too (the search merge) seed 7 gives two of these 101,000 the same OIB, a warning of its own.
   */
  const uniqueOib = (i: number): string => String(i).padStart(10, "0") + String(oibCheckDigit(String(i).padStart(10, "0")));
  const subjects = (): Subject[] => Array.from({ length: SIZE }, (_, i) => ({ ...makeSubject(7, i), oib: uniqueOib(i) }));

  /** A previous site, then a build of `data` that must fail: the site is left as it was, with no temporary directory. */
  async function expectUntouched(name: string, data: readonly Subject[]): Promise<string[]> {
    const out = join(work, `${name}-site`);
    await build(await writeData(`${name}-before`, [sample.slice(0, 50)]), out);
    const before = await snapshotTree(out);
    const failure = await build(await writeData(name, [data]), out).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(DataError);
    expect(await snapshotTree(out)).toEqual(before);
    expect(await tmpDirs(out)).toEqual([]);
    return (failure as DataError).problems.map(formatProblem);
  }

  it("an invalid last record: the site as it was, no temporary shard left", async () => {
    const data = subjects();
    data[SIZE - 1] = { ...(data[SIZE - 1] as Subject), oib: "123" };
    const problems = await expectUntouched("invalid-last", data);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(`[${SIZE - 1}]`);
  }, 60_000);

  it("a code named twice, the second time in the last record, and no previous site: located at both, no directory left", async () => {
    const data = subjects();
    data[SIZE - 1] = { ...(data[SIZE - 1] as Subject), jedinstvena_oznaka: (data[3] as Subject).jedinstvena_oznaka };
    const out = join(work, "fresh", "site");
    const failure = await build(await writeData("duplicate-last", [data]), out, { cacheDir: null }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(DataError);
    const problems = (failure as DataError).problems.map(formatProblem);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(`[${SIZE - 1}]`);
    expect(problems[0]).toContain("[3]");
    expect(await readdir(join(work, "fresh")).catch(() => [])).toEqual([]);
  }, 60_000);
});

describe("pages rendered from the chunk files an earlier build left", () => {
  it("a chunk file changed behind the build's back fails the build, naming it, instead of being copied into pages", async () => {
    const out = join(work, "tampered");
    await build("test/fixtures/small-site", out);
    const [shard] = await readdir(join(out, "_subjekti/records"));
    const chunk = join(out, "_subjekti/records", shard as string, "0.ndjson");
    await writeFile(chunk, (await readFile(chunk, "utf8")).replace(/"naziv_subjekta":"./, '"naziv_subjekta":"~'));
    // Another origin changes every page but no record: the pages are made from the chunk files.
    await expect(build("test/fixtures/small-site", out, { baseUrl: "http://elsewhere" })).rejects.toThrow(chunk);
    expect(await tmpDirs(out)).toEqual([]);
  });
});
