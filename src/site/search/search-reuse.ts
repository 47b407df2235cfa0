/**
 * The search stage skipped when the records are the very records of the site already built: its
 * shards are the previous manifest's, taken as they are, so an unchanged rebuild reads no chunk,
 * sorts nothing and writes no search file.
 *
 * Safe because every search file is a function of the records alone (their bytes, in id order)
 * and of the code's layout, and a records shard's hash covers both (record-shard.ts): when every
 * records shard of the new list is the old manifest's, the search stage would write the old
 * manifest's search shards again, byte for byte. A change to what the search files hold bumps
 * LAYOUT_VERSION, which changes every records shard's hash, so an older layout's files are never
 * taken. A directory the manifest names that is not there (removed by hand) means no reuse.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { MANIFEST_PATH, type ShardHashes } from "../../core/layout.ts";
import type { ShardPlan } from "../hand-offs.ts";
import { sameRecords } from "../record-shard.ts";
import { shardInDir } from "./patched-shards.ts";

/** The search shards' keys start with this. */
const SEARCH_PREFIX = "search/";

/**
 * The search shards of the site in `outDir` when its records are those of `hashes` (every chunk's
 * hash) and all its search directories are in place; else null (the stage runs).
 */
export function reusedSearch(outDir: string, hashes: readonly string[]): ShardPlan[] | null {
  const dirs = previousDirs(outDir);
  if (dirs === null || hashes.length === 0 || !sameRecords(dirs, hashes)) return null;
  const shards: ShardPlan[] = [];
  // In the manifest's order, so that the new manifest names them in the same order (and its bytes stay the same).
  for (const [key, hash] of Object.entries(dirs)) {
    if (!key.startsWith(SEARCH_PREFIX)) continue;
    const shard = shardInDir(outDir, key, hash);
    if (shard === null) return null;
    shards.push(shard);
  }
  return shards.length === 0 ? null : shards;
}

/** The shard directories the manifest in `outDir` names; null when there is none or it is no JSON object. */
function previousDirs(outDir: string): ShardHashes | null {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(join(outDir, MANIFEST_PATH), "utf8"));
  } catch {
    return null;
  }
  const dirs = typeof json === "object" && json !== null ? (json as { dirs?: unknown }).dirs : undefined;
  return typeof dirs === "object" && dirs !== null ? (dirs as ShardHashes) : null;
}
