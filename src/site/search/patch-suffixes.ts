/**
 * The previous site's suffix files as the patch of an edit reads and changes them (patch-search.ts):
 * an entry found by its key through the files' first keys, and entries taken out and put in where
 * the whole stage's sort would put them (entries compare as strings, by code unit). The files are
 * cut at the entries of the smallest hashes (suffix-cuts.ts): an edit keeps every cut, and so every
 * file's first key, when no entry it takes out or puts in has a hash at or below the threshold (the
 * largest hash of the cuts, read from the files' first entries), and no file is empty before or
 * after; otherwise the patch gives way to the whole stage.
 */
import { closeSync, openSync, readSync } from "node:fs";
import {
  FIRSTS_GROUP,
  SUFFIX_FIRSTS_SHARD_KEY,
  SUFFIX_FILES_PER_SHARD,
  suffixFileCount,
  suffixFileName,
  suffixShardKey,
} from "../../core/search/search-layout.ts";
import type { ShardPlan } from "../hand-offs.ts";
import { NoPatch, type PreviousSearch } from "./previous-search.ts";
import { previousShard } from "./search-reuse.ts";
import { SpilledShard } from "./spilled-shard.ts";
import { hash52, keyOfEntry } from "./suffix-cuts.ts";

export class SuffixPatch {
  readonly #previous: PreviousSearch;
  readonly #files: number;
  /** Each file's first key (file 0's `[`). */
  readonly #firsts: string[] = [];
  /** The files read, as their entries in the previous site and as changed so far; the changed ones marked. */
  readonly #originals = new Map<number, readonly string[]>();
  readonly #entries = new Map<number, string[]>();
  readonly #changed = new Set<number>();
  /** The hashes of every entry taken out or put in. */
  readonly #hashes: number[] = [];

  constructor(previous: PreviousSearch, count: number) {
    this.#previous = previous;
    this.#files = suffixFileCount(count);
    for (let g = 0; g * FIRSTS_GROUP < this.#files; g++) {
      const keys = JSON.parse(previous.read(SUFFIX_FIRSTS_SHARD_KEY, `${g}.json`).toString("utf8")) as string[];
      this.#firsts.push(...keys);
    }
    if (this.#firsts.length !== this.#files) throw new NoPatch("the suffix files' first keys are not one a file");
    // An empty file (fewer entries than files) is cut otherwise: the whole stage decides.
    if (this.#files < 2 || this.#firsts.includes("\uffff")) throw new NoPatch("a suffix file is empty");
  }

  /** The entries of file `file` as the patch leaves them so far. */
  entries(file: number): string[] {
    let entries = this.#entries.get(file);
    if (entries === undefined) this.#entries.set(file, (entries = [...this.#original(file)]));
    return entries;
  }

  /** The entries of file `file` in the previous site, read once. */
  #original(file: number): readonly string[] {
    let entries = this.#originals.get(file);
    if (entries !== undefined) return entries;
    const text = this.#previous.read(suffixShardKey(file), suffixFileName(file)).toString("utf8");
    let parsed: unknown[];
    try {
      parsed = JSON.parse(text) as unknown[];
    } catch {
      throw new NoPatch(`suffix file ${file} is no JSON`);
    }
    entries = parsed.map((entry) => JSON.stringify(entry));
    // The entries as the stage wrote them: their JSON again gives the file's bytes.
    if (`[${entries.join(",")}]` !== text) throw new NoPatch(`suffix file ${file} is not as the stage writes it`);
    this.#originals.set(file, entries);
    return entries;
  }

  /** The files that may hold entries from `low` up to `high` (strings; `low` a key or a prefix of one). */
  #filesOf(low: string, high: string): [number, number] {
    // The last file whose first key is below `low` (file 0's, `[`, is below every key) ...
    let lo = 0;
    let hi = this.#files - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((this.#firsts[mid] as string) < low) lo = mid;
      else hi = mid - 1;
    }
    // ... to the last whose first key is at most `high`.
    let last = lo;
    while (last + 1 < this.#files && (this.#firsts[last + 1] as string) <= high) last++;
    return [lo, last];
  }

  /** Every entry of the previous site whose text begins with `prefix` (`["<suffix>` and more): what the edit finds, not what it changes. */
  startingWith(prefix: string): string[] {
    const [first, last] = this.#filesOf(prefix, `${prefix}\uffff`);
    const found: string[] = [];
    for (let file = first; file <= last; file++) for (const entry of this.#original(file)) if (entry.startsWith(prefix)) found.push(entry);
    return found;
  }

  /** Takes out the entry `entry` (exactly). */
  remove(entry: string): void {
    const key = keyOfEntry(entry);
    const [first, last] = this.#filesOf(key, key);
    for (let file = first; file <= last; file++) {
      const entries = this.entries(file);
      const at = entries.indexOf(entry);
      if (at < 0) continue;
      entries.splice(at, 1);
      if (entries.length === 0) throw new NoPatch("a suffix file would be empty");
      this.#changed.add(file);
      this.#hashes.push(hash52(entry));
      return;
    }
    throw new NoPatch("a suffix entry to take out is not there");
  }

  /** Puts in `entry` where the sorted entries would hold it (before a file's first entry: at the end of the file before). */
  add(entry: string): void {
    const key = keyOfEntry(entry);
    const [first, last] = this.#filesOf(key, key);
    let file = first;
    // The last file of the range whose first entry is below the new one (file `first`'s is: its key is below).
    for (let f = first + 1; f <= last; f++) if ((this.entries(f)[0] as string) < entry) file = f;
    const entries = this.entries(file);
    let lo = 0;
    let hi = entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((entries[mid] as string) < entry) lo = mid + 1;
      else hi = mid;
    }
    if (file === 0 && lo === 0 && this.#files > 0) this.#hashes.push(hash52(entries[0] as string));
    entries.splice(lo, 0, entry);
    this.#changed.add(file);
    this.#hashes.push(hash52(entry));
  }

  /**
   * The suffix shards, each changed one with its files again (the others the previous site's), once
   * every change is in; throws NoPatch when a cut would move.
   */
  shards(spill: string): ShardPlan[] {
    if (this.#changed.size > 0) this.#keepsCuts();
    const shards: ShardPlan[] = [];
    for (let first = 0; first < this.#files; first += SUFFIX_FILES_PER_SHARD) {
      const key = suffixShardKey(first);
      const end = Math.min(this.#files, first + SUFFIX_FILES_PER_SHARD);
      let changed = false;
      for (let file = first; !changed && file < end; file++) changed = this.#changed.has(file);
      if (!changed) {
        shards.push(previousShard(this.#previous, key));
        continue;
      }
      const shard = new SpilledShard(spill, key);
      for (let file = first; file < end; file++) {
        const name = suffixFileName(file);
        const entries = this.#changed.has(file) ? this.#entries.get(file) : undefined;
        shard.add(name, entries === undefined ? this.#previous.read(key, name) : Buffer.from(`[${entries.join(",")}]`));
      }
      shards.push(shard.done());
    }
    // The first keys are the previous files' (no cut moved).
    shards.push(previousShard(this.#previous, SUFFIX_FIRSTS_SHARD_KEY));
    return shards;
  }

  /** Throws NoPatch unless every hash taken out or put in is above the cuts' threshold (the largest hash of a file's first entry past the first file). */
  #keepsCuts(): void {
    let threshold = -1;
    for (let file = 1; file < this.#files; file++) {
      // As it was: a cut taken out counts at its old hash.
      const entry = this.#originals.get(file)?.[0] ?? firstEntry(this.#previous.path(suffixShardKey(file), suffixFileName(file)));
      threshold = Math.max(threshold, hash52(entry));
    }
    for (const hash of this.#hashes) if (hash <= threshold) throw new NoPatch("a suffix file's cut would move");
  }
}

/** The first entry of a suffix file (its JSON text, as the stage wrote it), read from its first bytes. */
function firstEntry(path: string): string {
  const fd = openSync(path, "r");
  try {
    let buffer = Buffer.alloc(1024);
    let length = readSync(fd, buffer, 0, buffer.length, 0);
    for (;;) {
      const end = entryEnd(buffer, 1, length);
      if (end > 0) return buffer.toString("utf8", 1, end);
      if (length < buffer.length) throw new NoPatch(`${path} holds no entry`);
      const grown = Buffer.alloc(2 * buffer.length);
      buffer.copy(grown);
      buffer = grown;
      length += readSync(fd, buffer, length, buffer.length - length, length);
    }
  } finally {
    closeSync(fd);
  }
}

/** Where the JSON array that begins at `from` ends (past its `]`), or -1 when `bytes[from, to)` does not hold all of it. */
function entryEnd(bytes: Buffer, from: number, to: number): number {
  let depth = 0;
  let inString = false;
  for (let i = from; i < to; i++) {
    const b = bytes[i] as number;
    if (inString) {
      if (b === 0x5c) i++;
      else if (b === 0x22) inString = false;
    } else if (b === 0x22) inString = true;
    else if (b === 0x5b) depth++;
    else if (b === 0x5d && --depth === 0) return i + 1;
  }
  return -1;
}
