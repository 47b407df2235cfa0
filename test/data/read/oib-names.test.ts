/**
 * The subject a same-OIB warning names, when the read stores its blocks in the build cache: the
 * name is read back from the block's file there for the few subjects warned at (not carried
 * through the OIB check's scratch files), and must be the one a read without a cache names.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Subject } from "../../../src/core/render-page.ts";
import { type BuildCache, openBuildCache } from "../../../src/data/read/build-cache.ts";
import { readBlocks } from "../../../src/data/read/read-blocks.ts";
import { resolveReadOptions } from "../../../src/data/read-options.ts";
import { makeSubject } from "../../../scripts/generate-subjects.ts";
import { tempDir } from "../../file-trees.ts";

let work: string;
beforeAll(async () => {
  work = await tempDir("subjekti-oib-names-");
});
afterAll(() => rm(work, { recursive: true, force: true }));

/** The same-OIB warnings of a read of `dataDir` (with a build cache in `cacheDir` when given): where, and whom they name. */
async function sameOibWarnings(dataDir: string, cacheDir?: string): Promise<{ subject?: unknown }[]> {
  const cache = cacheDir === undefined ? undefined : openBuildCache(cacheDir, join(work, "out"));
  const read = readBlocks(resolveReadOptions({ dataDir, threads: 0 }), cache);
  let next = await read.next();
  while (next.done !== true) next = await read.next();
  return next.value.warnings.filter((p) => p.field === "oib").map(({ file, index, line, subject }) => ({ file, index, line, subject }));
}

it("a subject warned at is named as a read without a cache names it, from a JSON array's block and an NDJSON file's", async () => {
  const subjects: Subject[] = Array.from({ length: 12 }, (_, i) => makeSubject(3, i));
  // Record 4 repeats record 1's OIB (both in the array), record 10 record 2's (in the NDJSON file), their names written with escapes.
  const twice = (s: Subject, from: Subject, name: string): Subject => ({ ...s, oib: from.oib, naziv_subjekta: name });
  subjects[4] = twice(subjects[4] as Subject, subjects[1] as Subject, 'Četvrti "navodnik" \\ i kosa crta');
  subjects[10] = twice(subjects[10] as Subject, subjects[2] as Subject, "Deseti\u2028redak");
  const dataDir = join(work, "data");
  await mkdir(dataDir, { recursive: true });
  await writeFile(join(dataDir, "a.json"), JSON.stringify(subjects.slice(0, 8), null, 1));
  await writeFile(
    join(dataDir, "b.ndjson"),
    subjects
      .slice(8)
      .map((s) => JSON.stringify(s))
      .join("\n"),
  );
  const plain = await sameOibWarnings(dataDir);
  expect(plain.map((w) => w.subject)).toEqual([
    { id: subjects[4]?.id, name: 'Četvrti "navodnik" \\ i kosa crta' },
    { id: subjects[10]?.id, name: "Deseti\u2028redak" },
  ]);
  const cacheDir = join(work, "cache");
  expect(await sameOibWarnings(dataDir, cacheDir)).toEqual(plain);
  // Again, every block now taken from the cache.
  expect(await sameOibWarnings(dataDir, cacheDir)).toEqual(plain);
});

it("a read that takes every block from the cache reads none of their bytes, nor makes their codes and OIBs text", async () => {
  const dataDir = join(work, "unread-data");
  await mkdir(dataDir, { recursive: true });
  await writeFile(join(dataDir, "a.json"), JSON.stringify(Array.from({ length: 2500 }, (_, i) => makeSubject(5, i))));
  const cacheDir = join(work, "unread-cache");
  const read = async (cache: BuildCache): Promise<number> => {
    const blocks = readBlocks(resolveReadOptions({ dataDir, threads: 0 }), cache);
    let next = await blocks.next();
    while (next.done !== true) next = await blocks.next();
    return next.value.reused;
  };
  await read(openBuildCache(cacheDir, join(work, "out")));
  const cache = openBuildCache(cacheDir, join(work, "out"));
  const touched: (string | symbol)[] = [];
  // Each block taken from the cache watched: its bytes, codes and OIBs are getters that read or make them on first use.
  const watched: BuildCache = {
    ...cache,
    read(key, file) {
      const block = cache.read(key, file);
      if (block === undefined) return undefined;
      return new Proxy(block, {
        get(target, name, receiver) {
          if (name === "bytes" || name === "codes" || name === "oibs") touched.push(name);
          return Reflect.get(target, name, receiver) as unknown;
        },
      });
    },
  };
  expect(await read(watched)).toBe(2500);
  expect(touched).toEqual([]);
});
