/**
 * What the search stage learnt of the suffix files it handed on, kept beside the site's build cache
 * (`<cache>.search-facts.json`, private to the builder, never published) for the patch of the next
 * edit (patch-suffixes.ts): the threshold of the files' cuts (the largest hash52 of the entries that
 * begin a file past the first), and the suffix shards it belongs to, by key and hash. Without it,
 * the patch reads the first entry of every suffix file (five thousand at a million subjects) to
 * learn the threshold, which in the common edit decides only that every cut stays.
 *
 * Trusted only when the previous site's suffix shards are exactly those it names (a shard's hash
 * covers its files' names and bytes): a site another build wrote, a build that failed after the
 * facts were written, a cache from another site, all read the files as before. The stage writes it
 * in its thread once its shards are made, whole or patched; a write that fails is no error (the next
 * edit reads the files).
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname } from "node:path";
import { CANNOT_WRITE } from "../../common/machine-error.ts";
import { DEAD, removeLeftoversSync } from "../../common/remove-leftovers.ts";
import type { ShardHashes } from "../../core/layout.ts";
import { SUFFIX_FIRSTS_SHARD_KEY, suffixShardKey } from "../../core/search/search-layout.ts";

/** The facts a stage learns as it makes the suffix files: set by SuffixEntries.shards and SuffixPatch.shards. */
export interface CutFacts {
  /** The largest hash52 of the suffix files' first entries past the first file's; null until known. */
  threshold: number | null;
}

/** The facts as kept in the file. */
interface KeptFacts {
  readonly suffixes: ShardHashes;
  readonly threshold: number;
}

/** The suffix shards' keys of a list of `files` suffix files (not the first keys' shard). */
function suffixShardKeys(files: number): string[] {
  const keys = new Set<string>();
  for (let file = 0; file < files; file++) keys.add(suffixShardKey(file));
  return [...keys];
}

/**
 * The threshold in `file` when the suffix shards of `files` files it names are the previous site's
 * (`dirs`, its manifest's), each of the same hash; else null (no file, another site's, damaged).
 */
export function readCutThreshold(file: string, dirs: ShardHashes, files: number): number | null {
  let facts: Partial<KeptFacts>;
  try {
    facts = JSON.parse(readFileSync(file, "utf8")) as Partial<KeptFacts>;
  } catch {
    return null;
  }
  const { suffixes, threshold } = facts;
  if (typeof suffixes !== "object" || suffixes === null || typeof threshold !== "number" || !Number.isSafeInteger(threshold)) return null;
  const keys = suffixShardKeys(files);
  if (Object.keys(suffixes).length !== keys.length) return null;
  for (const key of keys) if (suffixes[key] === undefined || suffixes[key] !== dirs[key]) return null;
  return threshold;
}

/**
 * Writes the facts of the stage's shards `shards` (`facts.threshold`, its suffix shards' hashes)
 * into `file`, under a temporary name renamed into place; removes the file when the threshold is
 * not known (the previous facts would name shards this build replaces, so they could not match
 * anyway, but no stale file is left to read).
 */
export function writeCutFacts(file: string, shards: readonly { readonly key: string; readonly hash: string }[], facts: CutFacts): void {
  // A temporary that a killed build left.
  removeLeftoversSync(dirname(file), (name) => name.startsWith(`${basename(file)}.`), DEAD);
  const temp = `${file}.tmp-${process.pid}`;
  try {
    if (facts.threshold === null) {
      rmSync(file, { force: true });
      return;
    }
    const suffixes: Record<string, string> = {};
    for (const { key, hash } of shards) if (key.startsWith("search/suffixes/") && key !== SUFFIX_FIRSTS_SHARD_KEY) suffixes[key] = hash;
    writeFileSync(temp, JSON.stringify({ suffixes, threshold: facts.threshold } satisfies KeptFacts));
    renameSync(temp, file);
  } catch (error) {
    // The build cache warns about a directory it cannot write; the facts are only an optimisation.
    if (!CANNOT_WRITE.has((error as NodeJS.ErrnoException).code ?? "")) throw error;
    rmSync(temp, { force: true });
  }
}
