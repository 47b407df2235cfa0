/** A records shard's plan, the same to the plan stage and to the write stage that writes it before the plan exists. */
import { chunkFileName, recordShardKey } from "../core/layout.ts";
import { VERSION } from "../core/version.ts";
import { contentHash } from "../common/content-hash.ts";
import type { ShardPlan } from "./hand-offs.ts";

/** The key, hash, size and file names of the records shard of chunks [first, …) given `hashes` (the shard's chunks' hashes). */
export function recordShard(first: number, hashes: readonly string[]): Omit<ShardPlan, "files"> {
  const key = recordShardKey(first);
  return { key, hash: contentHash(VERSION, "\n", key, "\n", ...hashes), size: hashes.length, name: (i) => chunkFileName(first + i) };
}
