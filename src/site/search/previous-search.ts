/**
 * The previous site as the patch of an edit reads it (patch-search.ts): its manifest, its search
 * files by shard key and name, and which records changed. Records are compared by place: the
 * records shards whose hash differs are the changed ones (record-shard.ts), their chunks read from
 * the old site and the new, and the lines that differ are the changed records.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  CHUNKS_PER_SHARD,
  chunkFileName,
  DATA_ROOT,
  MANIFEST_PATH,
  recordShardKey,
  type ShardHashes,
  shardDirPath,
} from "../../core/layout.ts";
import { LAYOUT_VERSION } from "../../core/manifest.ts";
import { VERSION } from "../../core/version.ts";
import type { ChunkFile } from "../read-chunks.ts";
import { recordShard } from "../record-shard.ts";
import { NoPatch } from "./no-patch.ts";
import { SearchFacts } from "./search-facts.ts";
import { lines } from "./records-by-place.ts";
import { isErrno } from "../../common/machine-error.ts";

/** The previous site's manifest facts the patch needs, and its files. */
export class PreviousSearch {
  readonly outDir: string;
  readonly dirs: ShardHashes;
  readonly count: number;
  /** What the previous build noted of its search files (search-facts.ts), each fact trusted where it is this site's. */
  readonly facts: SearchFacts;
  readonly #digests = new Map<string, ReadonlyMap<string, string> | null>();
  readonly #names = new Map<string, ReadonlySet<string>>();
  readonly #dirPaths = new Map<string, string>();

  constructor(outDir: string, facts = new SearchFacts()) {
    this.facts = facts;
    let manifest: { layout?: unknown; version?: unknown; count?: unknown; dirs?: unknown; chunkSize?: unknown };
    try {
      manifest = JSON.parse(readFileSync(join(outDir, MANIFEST_PATH), "utf8")) as typeof manifest;
    } catch {
      throw new NoPatch("no previous manifest");
    }
    // Another layout or version may lay the search files otherwise: only the same code's are patched.
    if (manifest.layout !== LAYOUT_VERSION || manifest.version !== VERSION) throw new NoPatch("the previous site is of another version");
    if (typeof manifest.dirs !== "object" || manifest.dirs === null || typeof manifest.count !== "number") {
      throw new NoPatch("the previous manifest names no shards");
    }
    this.outDir = outDir;
    this.dirs = manifest.dirs as ShardHashes;
    this.count = manifest.count;
  }

  /** The SHA-256 of file `name` of the previous shard `key` when the facts tell it; else undefined (to be read). */
  digestOf(key: string, name: string): string | undefined {
    let digests = this.#digests.get(key);
    if (digests === undefined) {
      const files = this.facts.digests(key, this.dirs[key]);
      digests = files === null ? null : new Map(files.names.map((file, i) => [file, files.digests[i] as string]));
      this.#digests.set(key, digests);
    }
    return digests?.get(name);
  }

  /** The directory of the previous shard `key` (made once: a changed shard keeps a thousand files of it). */
  dir(key: string): string {
    let dir = this.#dirPaths.get(key);
    if (dir !== undefined) return dir;
    const hash = this.dirs[key];
    if (hash === undefined) throw new NoPatch(`the previous site has no ${key}`);
    this.#dirPaths.set(key, (dir = join(this.outDir, DATA_ROOT, shardDirPath(key, hash))));
    return dir;
  }

  /** The path of file `name` of the previous shard `key`. */
  path(key: string, name: string): string {
    return join(this.dir(key), name);
  }

  /**
   * Whether the previous shard `key` holds a file `name` (its directory listed once): a file kept
   * unread is looked for so, one call a shard, not one a file. The shard gone: no patch.
   */
  holds(key: string, name: string): boolean {
    let names = this.#names.get(key);
    if (names === undefined) {
      const dir = this.dir(key);
      names = new Set(this.withFile(key, "", () => readdirSync(dir)));
      this.#names.set(key, names);
    }
    return names.has(name);
  }

  /** The bytes of file `name` of the previous shard `key` (a file gone: no patch). */
  read(key: string, name: string): Buffer {
    return this.withFile(key, name, (path) => readFileSync(path));
  }

  /** What `use` makes of the path of file `name` of the previous shard `key`; the file gone: no patch. */
  withFile<T>(key: string, name: string, use: (path: string) => T): T {
    const path = this.path(key, name);
    try {
      return use(path);
    } catch (error) {
      if (isErrno(error, "ENOENT")) throw new NoPatch(`the previous ${key}/${name} is gone`);
      throw error;
    }
  }
}

/** The chunks changedRecords compared, old and new read whole (a test reads it; no clock involved). */
export const recordReads = { chunks: 0 };

/** A record changed in place: its place, and its line before and now. */
export interface ChangedRecord {
  readonly place: number;
  readonly before: Buffer;
  readonly after: Buffer;
}

/**
 * The records of the new list (`hashes`, each chunk's, in the files `fileOf`) that differ from the
 * previous site's, by place; at most `most` (more: no patch). The list must hold as many subjects.
 * In a records shard whose hash changed, only the chunks whose hash changed are read, where the
 * previous build's facts name the previous chunks' hashes (search-facts.ts: trusted for a shard
 * when they give its hash); else every chunk of the shard, old and new.
 */
export function changedRecords(
  previous: PreviousSearch,
  count: number,
  hashes: readonly string[],
  chunkSize: number,
  fileOf: (chunk: number) => ChunkFile,
  most: number,
): ChangedRecord[] {
  if (previous.count !== count) throw new NoPatch("the count changed");
  const changed: ChangedRecord[] = [];
  const known = previous.facts.chunks();
  let shards = 0;
  for (let first = 0; first < hashes.length; first += CHUNKS_PER_SHARD, shards++) {
    const { key, hash } = recordShard(first, hashes.slice(first, first + CHUNKS_PER_SHARD));
    if (previous.dirs[key] === hash) continue;
    if (previous.dirs[key] === undefined) throw new NoPatch(`the previous site has no ${key}`);
    const was = known?.slice(first, first + CHUNKS_PER_SHARD);
    const wasKnown = was !== undefined && recordShard(first, was).hash === previous.dirs[key];
    for (let chunk = first; chunk < Math.min(hashes.length, first + CHUNKS_PER_SHARD); chunk++) {
      // A chunk of the same hash holds the same bytes: nothing changed in it.
      if (wasKnown && was[chunk - first] === hashes[chunk]) continue;
      recordReads.chunks++;
      const before = previous.read(recordShardKey(chunk), chunkFileName(chunk));
      const after = readFileSync(fileOf(chunk).path);
      if (before.equals(after)) continue;
      const old = lines(before);
      const now = lines(after);
      if (old.length !== now.length) throw new NoPatch("a chunk holds other subjects");
      for (let i = 0; i < now.length; i++) {
        const a = old[i] as Buffer;
        const b = now[i] as Buffer;
        if (a.equals(b)) continue;
        if (changed.length === most) throw new NoPatch(`more than ${most} records changed`);
        changed.push({ place: chunk * chunkSize + i, before: a, after: b });
      }
    }
  }
  if (Object.keys(previous.dirs).filter((key) => key.startsWith("records/")).length !== shards) throw new NoPatch("the chunks changed");
  return changed;
}
