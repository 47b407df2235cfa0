/** A records shard's plan, the same to the plan stage and to the write stage that writes it before the plan exists. */
import { CHUNKS_PER_SHARD, chunkFileName, offsetsFileName, recordShardKey, type ShardHashes } from "../core/layout.ts";
import { LAYOUT_VERSION, VERSION } from "../core/version.ts";
import { contentHash } from "../common/content-hash.ts";
import type { ShardPlan } from "./hand-offs.ts";

/**
 * The key, hash, size and file names of the records shard of chunks [first, …) given `hashes` (the
 * shard's chunks' hashes): each chunk, then its offsets table. The layout is in the hash, so a
 * shard of another layout is never taken for this one's.
 */
export function recordShard(first: number, hashes: readonly string[]): Omit<ShardPlan, "files"> {
  const key = recordShardKey(first);
  const name = (i: number): string => (i % 2 === 0 ? chunkFileName(first + i / 2) : offsetsFileName(first + (i - 1) / 2));
  return { key, hash: contentHash(VERSION, "\n", String(LAYOUT_VERSION), "\n", key, "\n", ...hashes), size: 2 * hashes.length, name };
}

/**
 * Are the records of `hashes` (every chunk's hash) the very records of a site whose manifest names
 * the shard directories `dirs`? Each records shard's hash covers its chunks' bytes and the layout.
 */
export function sameRecords(dirs: ShardHashes, hashes: readonly string[]): boolean {
  let shards = 0;
  for (let first = 0; first < hashes.length; first += CHUNKS_PER_SHARD, shards++) {
    const { key, hash } = recordShard(first, hashes.slice(first, first + CHUNKS_PER_SHARD));
    if (dirs[key] !== hash) return false;
  }
  return Object.keys(dirs).filter((key) => key.startsWith("records/")).length === shards;
}
