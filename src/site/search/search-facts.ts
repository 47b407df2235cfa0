/**
 * What the search stage learnt of the shards it handed on, kept beside the site's build cache
 * (`<cache>.search-facts.json`, private to the builder, never published) for the patch of the next
 * edit (patch-search.ts), so that it reads no file for what its build already knew:
 *  - the threshold of the suffix files' cuts (the largest hash52 of the entries that begin a file
 *    past the first), with the suffix shards it belongs to, by key and hash. Without it the patch
 *    reads the first entry of every suffix file (five thousand at a million subjects) to learn it,
 *    which in the common edit decides only that every cut stays (patch-suffixes.ts);
 *  - each search shard's files' names and SHA-256 (spilled-shard.ts: a search shard's hash is over
 *    them), so that a file a changed shard keeps is hashed unread (patched-shards.ts keepFile);
 *  - the list's chunk hashes, so that the patch compares only the chunks whose hash changed, not
 *    every chunk of a changed records shard (a hundred old and new, 58 MB at a million subjects,
 *    for one record: previous-search.ts changedRecords).
 *
 * Trusted only for what is the previous site's: the threshold when every suffix shard it names is
 * the site's, of the same hash (a shard's hash covers its files' names and bytes); a shard's
 * digests when the hash they give is the site's hash of that shard; a records shard's chunk hashes
 * when the hash they give is the site's hash of that shard (record-shard.ts). A site another build wrote, a
 * build that failed after the facts were written, a cache from another site: the patch reads the
 * files as before. The stage writes the facts in its thread once its shards are made, whole or
 * patched; a write that fails is no error (the next edit reads the files).
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname } from "node:path";
import { CANNOT_WRITE, isErrno } from "../../common/machine-error.ts";
import { DEAD, removeLeftoversSync } from "../../common/remove-leftovers.ts";
import type { ShardHashes } from "../../core/layout.ts";
import { SUFFIX_FIRSTS_SHARD_KEY, suffixShardKey } from "../../core/search/search-layout.ts";
import type { ShardPlan } from "../hand-offs.ts";
import { type FileDigests, fileDigestsOf, shardHashByDigests } from "./spilled-shard.ts";

/** What the stage learns of the suffix files as it makes them: set by planSearch (SuffixEntries) or the patch (SuffixPatch). */
export interface CutFacts {
  /** The largest hash52 of the suffix files' first entries past the first file's; null until known. */
  threshold: number | null;
  /** The list's chunk hashes (each chunk file's contentHash, in order), when the stage was given them (the patch's entry sets them). */
  chunks?: readonly string[];
}

/** The facts as kept in the file. */
interface KeptFacts {
  readonly suffixes: ShardHashes;
  readonly threshold: number | null;
  /** Each search shard's files whose digests are known, in its hash's order. */
  readonly files: Readonly<Record<string, FileDigests>>;
  /** The list's chunk hashes, when known. */
  readonly chunks?: readonly string[];
}

/** The suffix shards' keys of a list of `files` suffix files (not the first keys' shard). */
function suffixShardKeys(files: number): string[] {
  const keys = new Set<string>();
  for (let file = 0; file < files; file++) keys.add(suffixShardKey(file));
  return [...keys];
}

/** The previous build's facts, as read from the file (none when it is missing or damaged): each asked for with the previous site's hashes it must match. */
export class SearchFacts {
  readonly #facts: Partial<KeptFacts>;

  constructor(facts: Partial<KeptFacts> = {}) {
    this.#facts = facts;
  }

  /** The facts in `file`; none when there is none or it is no JSON object. */
  static read(file: string): SearchFacts {
    try {
      const facts: unknown = JSON.parse(readFileSync(file, "utf8"));
      return new SearchFacts(typeof facts === "object" && facts !== null ? (facts as Partial<KeptFacts>) : {});
    } catch {
      return new SearchFacts();
    }
  }

  /**
   * The cuts' threshold when the suffix shards of `files` files it names are the previous site's
   * (`dirs`, its manifest's), each of the same hash; else null.
   */
  cutThreshold(dirs: ShardHashes, files: number): number | null {
    const { suffixes, threshold } = this.#facts;
    if (typeof suffixes !== "object" || suffixes === null || typeof threshold !== "number" || !Number.isSafeInteger(threshold)) return null;
    const keys = suffixShardKeys(files);
    if (Object.keys(suffixes).length !== keys.length) return null;
    for (const key of keys) if (suffixes[key] === undefined || suffixes[key] !== dirs[key]) return null;
    return threshold;
  }

  /** The names and digests of the files of shard `key` when the hash they give is `hash` (the previous site's); else null. */
  digests(key: string, hash: string | undefined): FileDigests | null {
    const files = this.#facts.files?.[key];
    if (hash === undefined || typeof files !== "object" || files === null) return null;
    const { names, digests } = files;
    if (!Array.isArray(names) || !Array.isArray(digests) || names.length !== digests.length) return null;
    if (![...names, ...digests].every((text) => typeof text === "string")) return null;
    return shardHashByDigests(key, files) === hash ? files : null;
  }

  /**
   * The chunk hashes the facts name, as they are kept; null when none are, or they are not strings.
   * Trusted by the caller per records shard, where the hash they give is the previous site's.
   */
  chunks(): readonly string[] | null {
    const { chunks } = this.#facts;
    return Array.isArray(chunks) && chunks.every((hash) => typeof hash === "string") ? chunks : null;
  }
}

/**
 * Writes the facts of the stage's shards `shards` (`cuts.threshold`, its suffix shards' hashes,
 * each shard's files' digests where known, the list's chunk hashes when given) into `file`, under a temporary name renamed into place.
 */
export function writeSearchFacts(file: string, shards: readonly ShardPlan[], cuts: CutFacts): void {
  // A temporary that a killed build left.
  removeLeftoversSync(dirname(file), (name) => name.startsWith(`${basename(file)}.`), DEAD);
  const temp = `${file}.tmp-${process.pid}`;
  try {
    const suffixes: Record<string, string> = {};
    const files: Record<string, FileDigests> = {};
    for (const shard of shards) {
      if (shard.key.startsWith("search/suffixes/") && shard.key !== SUFFIX_FIRSTS_SHARD_KEY) suffixes[shard.key] = shard.hash;
      const digests = fileDigestsOf(shard);
      if (digests !== undefined) files[shard.key] = { names: digests.names, digests: digests.digests };
    }
    const chunks = cuts.chunks === undefined ? {} : { chunks: cuts.chunks };
    writeFileSync(temp, JSON.stringify({ suffixes, threshold: cuts.threshold, files, ...chunks } satisfies KeptFacts));
    renameSync(temp, file);
  } catch (error) {
    // The build cache warns about a directory it cannot write; the facts are only an optimisation.
    if (!(isErrno(error) && CANNOT_WRITE.has(error.code ?? ""))) throw error;
    rmSync(temp, { force: true });
  }
}
