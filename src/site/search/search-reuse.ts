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
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DATA_ROOT, MANIFEST_PATH, type ShardHashes, shardDirPath } from "../../core/layout.ts";
import type { ShardPlan } from "../hand-offs.ts";
import { sameRecords } from "../record-shard.ts";
import { NoPatch, type PreviousSearch } from "./previous-search.ts";
import { SpilledShard } from "./spilled-shard.ts";

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

/** The previous site's shard `key` (of hash `hash`) as it is, its files read from its directory; null when the directory is gone. */
function shardInDir(outDir: string, key: string, hash: string): ShardPlan | null {
  const dir = join(outDir, DATA_ROOT, shardDirPath(key, hash));
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return null;
  }
  return {
    key,
    hash,
    size: names.length,
    name: (i) => names[i] as string,
    // Only read if the directory went away after this look (the writer skips a directory in place).
    files: () => names.map((name) => ({ name, bytes: readFileSync(join(dir, name)) })),
  };
}

/** The shard `key` of the site the patch of an edit reads (patch-search.ts), as it is: its files unchanged. */
export function previousShard(previous: PreviousSearch, key: string): ShardPlan {
  const hash = previous.dirs[key];
  const shard = hash === undefined ? null : shardInDir(previous.outDir, key, hash);
  if (shard === null) throw new NoPatch(`the previous ${key} is gone`);
  return shard;
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

/** How the patch of an edit makes a run of shards (the buckets', the suffix files'): items in shards of so many. */
export interface PatchedItems {
  readonly items: number;
  readonly perShard: number;
  /** The shard key of item `item`. */
  keyOf(item: number): string;
  changed(item: number): boolean;
  /** Adds item `item`'s files to `shard` (of key `key`), changed or as they were. */
  add(shard: SpilledShard, key: string, item: number): void;
}

/** The shards of the items: the previous one where none of its items changed, else written again whole (spilled in `spill`). */
export function patchedShards(previous: PreviousSearch, spill: string, run: PatchedItems): ShardPlan[] {
  const shards: ShardPlan[] = [];
  for (let first = 0; first < run.items; first += run.perShard) {
    const key = run.keyOf(first);
    const end = Math.min(run.items, first + run.perShard);
    let changed = false;
    for (let item = first; !changed && item < end; item++) changed = run.changed(item);
    if (!changed) {
      shards.push(previousShard(previous, key));
      continue;
    }
    const shard = new SpilledShard(spill, key);
    for (let item = first; item < end; item++) run.add(shard, key, item);
    shards.push(shard.done());
  }
  return shards;
}
