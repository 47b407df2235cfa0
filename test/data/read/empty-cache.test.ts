/**
 * A build cache opened on an empty directory (a cold build, build-cache.ts `empty`) asks the disk
 * only for the blocks this build stored in it: every other block is a miss without a look, and a
 * block stored earlier in the same read is still taken back.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openBuildCache } from "../../../src/data/read/build-cache.ts";
import { readBlocks } from "../../../src/data/read/read-blocks.ts";
import { resolveReadOptions } from "../../../src/data/read-options.ts";
import { makeSubject } from "../../../scripts/generate-subjects.ts";
import { tempDir } from "../../file-trees.ts";

let work: string;
beforeAll(async () => {
  work = await tempDir("subjekti-empty-cache-");
});
afterAll(() => rm(work, { recursive: true, force: true }));

/** The subjects a read of `dataDir` took from the cache in `cacheDir`, and whether the cache was empty when opened. */
async function reused(dataDir: string, cacheDir: string): Promise<{ empty: boolean; reused: number }> {
  const cache = openBuildCache(cacheDir, join(work, "out"));
  const read = readBlocks(resolveReadOptions({ dataDir, threads: 0 }), cache);
  let next = await read.next();
  while (next.done !== true) next = await read.next();
  return { empty: cache.empty, reused: next.value.reused };
}

it("an empty cache takes back the blocks this read stored (the same block in two files), and a full one every block", async () => {
  const dataDir = join(work, "data");
  await mkdir(dataDir, { recursive: true });
  const subjects = JSON.stringify(Array.from({ length: 30 }, (_, i) => makeSubject(7, i)));
  // The same bytes in two files: one key, stored by the first file's block and read back for the second's.
  await writeFile(join(dataDir, "a.json"), subjects);
  await writeFile(join(dataDir, "b.json"), subjects);
  const cacheDir = join(work, "cache");
  expect(await reused(dataDir, cacheDir)).toEqual({ empty: true, reused: 30 });
  expect(await reused(dataDir, cacheDir)).toEqual({ empty: false, reused: 60 });
});

it("an empty cache does not look for a block it was not given to store: one put there behind its back is a miss", async () => {
  const dataDir = join(work, "behind-data");
  await mkdir(dataDir, { recursive: true });
  await writeFile(join(dataDir, "a.json"), JSON.stringify(Array.from({ length: 30 }, (_, i) => makeSubject(8, i))));
  const cacheDir = join(work, "behind-cache");
  const cold = openBuildCache(cacheDir, join(work, "out"));
  // Another cache on the same directory stores every block (a build does not share its cache while it runs: the output's lock).
  expect(await reused(dataDir, cacheDir)).toEqual({ empty: true, reused: 0 });
  const read = readBlocks(resolveReadOptions({ dataDir, threads: 0 }), cold);
  let next = await read.next();
  while (next.done !== true) next = await read.next();
  expect(next.value.reused).toBe(0);
  expect(await reused(dataDir, cacheDir)).toEqual({ empty: false, reused: 30 });
});
