/**
 * The key lookups' shards taken from the previous site (src/site/reused-keys.ts): only when a clean
 * build would write the very same key files. Each case builds the previous site, then the edited
 * data into a site of its own without any cache, and asks reusedKeys for the previous site's shards
 * given the clean site's chunks: they must be the clean site's key shards exactly, or none.
 */
import { readFileSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { contentHash } from "../../src/common/content-hash.ts";
import { chunkFileName, DATA_ROOT, recordShardKey, shardDirPath } from "../../src/core/layout.ts";
import type { Subject } from "../../src/core/render-page.ts";
import { keyShardKeys } from "../../src/site/plan-keys.ts";
import type { ChunkFile } from "../../src/site/read-chunks.ts";
import { reusedKeys } from "../../src/site/reused-keys.ts";
import { editSubject, makeSubject } from "../../scripts/generate-subjects.ts";
import { siteTree, useTempDir } from "../file-trees.ts";
import { build, readManifest } from "./built-site.ts";

const SEED = 11;
/** Three chunks (1,000 records each), one records shard. */
const COUNT = 2600;
const subjects: Subject[] = Array.from({ length: COUNT }, (_, i) => makeSubject(SEED, i));
const work = useTempDir();
const OPTIONS = { limits: [20, 37] };

async function writeData(dir: string, list: readonly Subject[]): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "subjekti.json"), JSON.stringify(list));
}

/** `list` built clean (no cache) into a site named `name`: its chunk hashes and files, and its key shards' hashes. */
async function cleanSite(name: string, list: readonly Subject[]) {
  const data = join(work.path, `${name}-data`);
  const out = join(work.path, `${name}-out`);
  await writeData(data, list);
  await build(data, out, { ...OPTIONS, cacheDir: null });
  const { dirs, count } = await readManifest(out);
  const files: ChunkFile[] = [];
  const hashes: string[] = [];
  for (let chunk = 0; chunk < Math.ceil(count / 1000); chunk++) {
    const key = recordShardKey(chunk);
    const path = join(out, DATA_ROOT, shardDirPath(key, dirs[key] as string), chunkFileName(chunk));
    files.push({ path });
    hashes.push(contentHash(readFileSync(path)));
  }
  const keyShards = keyShardKeys(count).map((key) => [key, dirs[key]]);
  return { out, data, count, hashes, fileOf: (chunk: number) => files[chunk] as ChunkFile, keyShards };
}

/** The subjects with the one at `at` renamed. */
function renamed(at: number): Subject[] {
  const list = [...subjects];
  list[at] = editSubject(subjects[at] as Subject);
  return list;
}

/** `list` with the subjects at `a` and `b` holding each other's OIB. */
function swapOibs(list: readonly Subject[], a: number, b: number): Subject[] {
  const swapped = [...list];
  swapped[a] = { ...(list[a] as Subject), oib: (list[b] as Subject).oib };
  swapped[b] = { ...(list[b] as Subject), oib: (list[a] as Subject).oib };
  return swapped;
}

let previous: string;
beforeAll(async () => {
  previous = (await cleanSite("previous", subjects)).out;
}, 60_000);

describe("the previous site's key shards", () => {
  it("are taken after a rename, and are the very shards a clean build plans", async () => {
    const site = await cleanSite("renamed", renamed(1500));
    const reused = reusedKeys(previous, site.count, site.hashes, site.fileOf);
    expect(reused?.map((shard) => [shard.key, shard.hash])).toEqual(site.keyShards);
  });

  it.each([
    ["two OIBs swapped within a chunk (the same OIBs, at other places)", () => swapOibs(subjects, 1005, 1010)],
    ["two OIBs swapped across chunks", () => swapOibs(subjects, 5, 2500)],
    [
      "a record removed and another added (as many subjects, every later one moved)",
      () => [...subjects.slice(0, 700), ...subjects.slice(701), makeSubject(SEED, COUNT)],
    ],
    ["a record added (one more subject)", () => [...subjects, makeSubject(SEED, COUNT)]],
  ])("are not taken when %s", async (_, edited) => {
    const site = await cleanSite("edited", edited());
    expect(reusedKeys(previous, site.count, site.hashes, site.fileOf)).toBeNull();
  });

  it("are not taken when one of them is gone from the site: the rebuild plans them and gives the clean site", async () => {
    const data = join(work.path, "gone-data");
    const out = join(work.path, "gone-out");
    await writeData(data, subjects);
    await build(data, out, OPTIONS);
    const { dirs } = await readManifest(out);
    const [, oibKey] = keyShardKeys(COUNT);
    await rm(join(out, DATA_ROOT, shardDirPath(oibKey as string, dirs[oibKey as string] as string)), { recursive: true });
    await writeData(data, renamed(10));
    await build(data, out, OPTIONS);
    await build(data, `${out}-clean`, { ...OPTIONS, cacheDir: null });
    expect(await siteTree(out)).toEqual(await siteTree(`${out}-clean`));
  });

  it("a rebuild after an OIB swap gives byte for byte the clean site", async () => {
    const data = join(work.path, "swap-data");
    const out = join(work.path, "swap-out");
    await writeData(data, subjects);
    await build(data, out, OPTIONS);
    await writeData(data, swapOibs(subjects, 1005, 1010));
    await build(data, out, OPTIONS);
    await build(data, `${out}-clean`, { ...OPTIONS, cacheDir: null });
    expect(await siteTree(out)).toEqual(await siteTree(`${out}-clean`));
  });
});
