/**
 * The key lookups' shards (plan-keys.ts) skipped when the new list's keys are the previous site's:
 * its shards, taken as they are, so that an edit that renames a record reads one changed records
 * shard's chunks, not every chunk twice to sort a million OIBs into the files they were already in.
 *
 * Safe because every key file is a function of the count, each chunk's first id and code (the
 * bounds) and every record's OIB by place (the OIB index), and of the code's layout: when the
 * previous site is of this layout and version and holds as many subjects, and every chunk of a
 * changed records shard has the same keys as the chunk at its place before (an unchanged records
 * shard's hash covers its chunks' bytes), the key files would be written again byte for byte. A
 * shard directory the manifest names that is not there means no reuse.
 */
import { readFileSync } from "node:fs";
import { CHUNKS_PER_SHARD, chunkFileName, recordShardKey } from "../core/layout.ts";
import type { ShardPlan } from "./hand-offs.ts";
import { chunkKeys, keyShardKeys } from "./plan-keys.ts";
import type { ChunkFile } from "./read-chunks.ts";
import { recordShard } from "./record-shard.ts";
import { NoPatch } from "./search/no-patch.ts";
import { shardInDir } from "./search/patched-shards.ts";
import { PreviousSearch } from "./search/previous-search.ts";

/**
 * The previous site's key shards when the `count` subjects in the chunk files `fileOf` (of
 * `hashes`) have the keys of the site in `outDir`; else null (planKeys plans them).
 */
export function reusedKeys(
  outDir: string,
  count: number,
  hashes: readonly string[],
  fileOf: (chunk: number) => ChunkFile,
): ShardPlan[] | null {
  try {
    const previous = new PreviousSearch(outDir);
    return sameKeys(previous, count, hashes, fileOf) ? previousShards(previous, count) : null;
  } catch (error) {
    if (error instanceof NoPatch) return null;
    throw error;
  }
}

/** Whether every chunk has the keys of the chunk at its place in `previous` (NoPatch when a file it names is gone). */
function sameKeys(previous: PreviousSearch, count: number, hashes: readonly string[], fileOf: (chunk: number) => ChunkFile): boolean {
  if (count === 0 || previous.count !== count) return false;
  let shards = 0;
  for (let first = 0; first < hashes.length; first += CHUNKS_PER_SHARD, shards++) {
    const { key, hash } = recordShard(first, hashes.slice(first, first + CHUNKS_PER_SHARD));
    if (previous.dirs[key] === hash) continue;
    for (let chunk = first; chunk < Math.min(hashes.length, first + CHUNKS_PER_SHARD); chunk++) {
      const before = previous.read(recordShardKey(chunk), chunkFileName(chunk));
      const after = readFileSync(fileOf(chunk).path);
      if (!before.equals(after) && chunkKeys(before) !== chunkKeys(after)) return false;
    }
  }
  return Object.keys(previous.dirs).filter((key) => key.startsWith("records/")).length === shards;
}

/** The previous site's key shards, in planKeys's order; null when one is not named or not there. */
function previousShards(previous: PreviousSearch, count: number): ShardPlan[] | null {
  const shards: ShardPlan[] = [];
  for (const key of keyShardKeys(count)) {
    const hash = previous.dirs[key];
    const shard = hash === undefined ? null : shardInDir(previous.outDir, key, hash);
    if (shard === null) return null;
    shards.push(shard);
  }
  return shards;
}
