/**
 * The shards the patch of an edit hands on (patch-search.ts): a previous shard as it is, or a run
 * of shards (the buckets', the suffix files') each kept or written again whole.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DATA_ROOT, shardDirPath } from "../../core/layout.ts";
import type { ShardPlan } from "../hand-offs.ts";
import { NoPatch } from "./no-patch.ts";
import type { PreviousSearch } from "./previous-search.ts";
import { SpilledShard, spilledPlan, withDigests } from "./spilled-shard.ts";

/**
 * The previous site's files the patch read for what its build could have told it (a test reads
 * them; no clock involved): the suffix files' first entries for their cuts' threshold
 * (patch-suffixes.ts), and the files a changed shard keeps for their digests (keepFile), where
 * the previous build's facts did not tell them (search-facts.ts).
 */
export const previousReads = { firstEntries: 0, keptFiles: 0 };

/** The previous site's shard directory of `key` (of hash `hash`) and its files' names, sorted; null when it cannot be read. */
function shardDir(outDir: string, key: string, hash: string): { readonly dir: string; readonly names: string[] } | null {
  const dir = join(outDir, DATA_ROOT, shardDirPath(key, hash));
  try {
    return { dir, names: readdirSync(dir).sort() };
  } catch {
    return null;
  }
}

/** The previous site's shard `key` (of hash `hash`) as it is, its files read from its directory; null when the directory is gone. */
export function shardInDir(outDir: string, key: string, hash: string): ShardPlan | null {
  const found = shardDir(outDir, key, hash);
  if (found === null) return null;
  const { dir, names } = found;
  return {
    key,
    hash,
    size: names.length,
    name: (i) => names[i] as string,
    // Only read if the directory went away after this look (the writer skips a directory in place).
    files: () => names.map((name) => ({ name, bytes: readFileSync(join(dir, name)) })),
  };
}

/**
 * The shard `key` of the site the patch of an edit reads (patch-search.ts), as it is: its files
 * unchanged, where they are, each kept. A spilled plan whose directory is the previous site's, so
 * that it crosses from the search thread as data as the patch's other shards do (spilled-shard.ts).
 */
export function previousShard(previous: PreviousSearch, key: string): ShardPlan {
  const hash = previous.dirs[key];
  const found = hash === undefined ? null : shardDir(previous.outDir, key, hash);
  if (hash === undefined || found === null) throw new NoPatch(`the previous ${key} is gone`);
  const plan = spilledPlan({ key, hash, ...found, kept: found.names });
  // Its files' digests as the previous build noted them, for the next build's facts (search-facts.ts).
  const digests = previous.facts.digests(key, hash);
  return digests === null ? plan : withDigests(plan, digests);
}

/**
 * Adds the previous shard `key`'s file `name` to `shard` as it is: named as kept where it is in the
 * previous site, for the writer to link, not written again nor linked here; hashed by its digest
 * as the previous build noted it, else from its bytes (`bytes` when already read, else read here:
 * counted in previousReads). The file gone: no patch.
 */
export function keepFile(previous: PreviousSearch, shard: SpilledShard, key: string, name: string, bytes?: Uint8Array): void {
  if (!previous.holds(key, name)) throw new NoPatch(`the previous ${key}/${name} is gone`);
  const digest = previous.digestOf(key, name);
  if (digest === undefined && bytes === undefined) {
    previousReads.keptFiles++;
    bytes = previous.read(key, name);
  }
  shard.addKept(name, previous.dir(key), { bytes, digest });
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

/**
 * The shards of the items: the previous one where none of its items changed, else made again whole
 * (spilled in `spill`: its changed items' files written, the others linked from the previous site).
 */
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
