/**
 * The previous site's suffix files as the patch of an edit reads and changes them (patch-search.ts):
 * an entry found by its key through the files' first keys, and entries taken out and put in where
 * the whole stage's sort would put them (entries compare as strings, by code unit). The files are
 * cut at the entries of the smallest hashes (suffix-cuts.ts): an edit keeps every cut, and so every
 * file's first key, when no entry it takes out or puts in has a hash at or below the threshold (the
 * largest hash of the cuts: the previous build's when its facts are those of the previous site's
 * suffix files, search-facts.ts, else read from the files' first entries), and no file is empty
 * before or after; otherwise the patch gives way to the whole stage.
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
import { lowerBound } from "../../core/search/lower-bound.ts";
import { NoPatch } from "./no-patch.ts";
import type { PreviousSearch } from "./previous-search.ts";
import { keepFile, patchedShards, previousReads, previousShard } from "./patched-shards.ts";
import { firstsShard } from "./suffix-files.ts";
import { hash52, hash52OfBytes, keyOfEntry } from "./suffix-cuts.ts";

export class SuffixPatch {
  readonly #previous: PreviousSearch;
  readonly #files: number;
  /** Each file's first key (file 0's `[`). */
  readonly #firsts: string[] = [];
  /** The files read, as their entries in the previous site and as changed so far; the changed ones marked. */
  readonly #originals = new Map<number, readonly string[]>();
  readonly #entries = new Map<number, string[]>();
  readonly #changed = new Set<number>();
  /** The entries taken out, and those put in with their files. */
  readonly #removed: string[] = [];
  readonly #added: { readonly entry: string; readonly file: number }[] = [];
  /** Each file's first key as the patch leaves it (a moved cut changes some). */
  #newFirsts: string[] | null = null;
  /** The previous files' cut threshold when known without reading them (search-facts.ts), and the threshold the patch leaves. */
  readonly #known: number | null;
  #threshold: number | null;

  /** The suffix files of the previous site `previous` for `count` subjects; `threshold`: their cuts' threshold when known. */
  constructor(previous: PreviousSearch, count: number, threshold: number | null = null) {
    this.#previous = previous;
    this.#known = threshold;
    this.#threshold = threshold;
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
      this.#removed.push(entry);
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
    entries.splice(lowerBound(entries, entry), 0, entry);
    this.#changed.add(file);
    this.#added.push({ entry, file });
  }

  /**
   * The suffix shards, each changed one with its files again (the others the previous site's), once
   * every change is in; throws NoPatch when a cut would move.
   */
  shards(spill: string): ShardPlan[] {
    if (this.#changed.size > 0) this.#cut();
    const shards = patchedShards(this.#previous, spill, {
      items: this.#files,
      perShard: SUFFIX_FILES_PER_SHARD,
      keyOf: suffixShardKey,
      changed: (file) => this.#changed.has(file),
      add: (shard, key, file) => {
        const name = suffixFileName(file);
        const entries = this.#changed.has(file) ? this.#entries.get(file) : undefined;
        if (entries === undefined) keepFile(this.#previous, shard, key, name);
        else shard.add(name, Buffer.from(`[${entries.join(",")}]`));
      },
    });
    // The first keys: the previous files' unless a cut moved.
    shards.push(this.#newFirsts === null ? previousShard(this.#previous, SUFFIX_FIRSTS_SHARD_KEY) : firstsShard(spill, this.#newFirsts));
    return shards;
  }

  /**
   * The cuts after the edit. They are the entries of the smallest `files` - 1 hashes: the previous
   * cuts (every file's first entry past the first, the threshold the largest of their hashes) less
   * those taken out, with the entries put in at or below the threshold, the smallest kept. When none
   * of those changed, every cut stays; else the files from the first moved cut to the last are cut
   * again, and their first keys with them. A cut taken out and not replaced would need the next
   * smallest hash of all the entries: NoPatch.
   */
  #cut(): void {
    const known = this.#known;
    // The common edit: the threshold known, nothing taken out or put in at or below it, every cut stays (no file read for it).
    if (
      known !== null &&
      !this.#removed.some((entry) => hash52(entry) <= known) &&
      !this.#added.some(({ entry }) => hash52(entry) <= known)
    ) {
      return;
    }
    const k = this.#files - 1;
    const old: { readonly entry: string; readonly hash: number; readonly file: number }[] = [];
    let threshold = -1;
    for (let file = 1; file < this.#files; file++) {
      // As it was: a cut taken out counts at its old hash.
      const entry = this.#originals.get(file)?.[0] ?? firstEntry(this.#previous.path(suffixShardKey(file), suffixFileName(file)));
      const hash = hash52(entry);
      old.push({ entry, hash, file });
      threshold = Math.max(threshold, hash);
    }
    this.#threshold = threshold;
    const removed = this.#removed.filter((entry) => hash52(entry) <= threshold);
    const added = this.#added.filter(({ entry }) => hash52(entry) <= threshold);
    if (removed.length === 0 && added.length === 0) return;
    const gone = new Set(removed);
    const cutsBefore = new Set(old.map(({ entry }) => entry));
    // Every entry at or below the threshold was a cut (no file is empty): another would be a tie.
    if (gone.size !== removed.length || removed.some((entry) => !cutsBefore.has(entry)))
      throw new NoPatch("an entry at the threshold was no cut");
    const candidates = [
      ...old.filter(({ entry }) => !gone.has(entry)),
      ...added.map(({ entry, file }) => ({ entry, hash: hash52(entry), file })),
    ].sort((a, b) => a.hash - b.hash);
    // A cut taken out and not replaced: the next smallest hashes of all the entries take its place.
    if (candidates.length < k) candidates.push(...this.#smallestAbove(threshold, k - candidates.length + 1));
    candidates.sort((a, b) => a.hash - b.hash);
    if (candidates.length > k && (candidates[k - 1] as { hash: number }).hash === (candidates[k] as { hash: number }).hash) {
      throw new NoPatch("two entries of the same hash at the cuts' threshold");
    }
    const cuts = new Set(candidates.slice(0, k).map(({ entry }) => entry));
    if (cuts.size !== k) throw new NoPatch("two cuts of the same text");
    this.#threshold = (candidates[k - 1] as { hash: number }).hash;
    // The first entry of all is never a cut (the whole stage's rule), whatever its hash.
    if (cuts.has(this.entries(0)[0] as string)) throw new NoPatch("the first entry would be a cut");
    // The files from the first that changes to the last: a cut gone merges a file into the one
    // before, a new cut splits the file it lies in.
    let lo = this.#files;
    let hi = -1;
    for (const { entry, file } of old) {
      if (cuts.has(entry)) continue;
      lo = Math.min(lo, file - 1);
      hi = Math.max(hi, file);
    }
    const before = new Set(old.map(({ entry }) => entry));
    for (const { entry, file } of candidates.slice(0, k)) {
      if (before.has(entry)) continue;
      lo = Math.min(lo, file);
      hi = Math.max(hi, file);
    }
    const entries: string[] = [];
    for (let file = lo; file <= hi; file++) entries.push(...this.entries(file));
    const parts: string[][] = [];
    for (const [i, entry] of entries.entries()) {
      if (i === 0 || cuts.has(entry)) parts.push([entry]);
      else (parts[parts.length - 1] as string[]).push(entry);
    }
    if (parts.length !== hi - lo + 1) throw new NoPatch("the suffix files' cuts do not fall as the whole stage's");
    const firsts = [...this.#firsts];
    for (const [i, part] of parts.entries()) {
      const file = lo + i;
      this.#entries.set(file, part);
      this.#changed.add(file);
      firsts[file] = file === 0 ? "[" : keyOfEntry(part[0] as string);
    }
    this.#newFirsts = firsts;
  }

  /** The cut threshold of the files as the patch leaves them (once shards made them), null when not known (no facts, no cut read). */
  get threshold(): number | null {
    return this.#threshold;
  }

  /**
   * The `most` entries of the smallest hashes above `threshold` among every entry as the patch
   * leaves them, with their files: every file read (its bytes hashed entry by entry, no entry
   * decoded but those kept).
   */
  #smallestAbove(threshold: number, most: number): { readonly entry: string; readonly hash: number; readonly file: number }[] {
    const kept: { entry: string; hash: number; file: number }[] = [];
    let ceiling = Infinity;
    const keep = (hash: number, file: number, entry: () => string): void => {
      if (hash <= threshold || hash >= ceiling) return;
      kept.push({ entry: entry(), hash, file });
      kept.sort((a, b) => a.hash - b.hash);
      if (kept.length > most) kept.pop();
      if (kept.length === most) ceiling = (kept[most - 1] as { hash: number }).hash;
    };
    for (let file = 0; file < this.#files; file++) {
      const entries = this.#entries.get(file);
      if (entries !== undefined) {
        for (const entry of entries) keep(hash52(entry), file, () => entry);
        continue;
      }
      const bytes = this.#previous.read(suffixShardKey(file), suffixFileName(file));
      for (let at = 1; at < bytes.length - 1; ) {
        const end = entryEnd(bytes, at, bytes.length);
        let ascii = true;
        for (let i = at; ascii && i < end; i++) ascii = (bytes[i] as number) < 0x80;
        const from = at;
        if (ascii) keep(hash52OfBytes(bytes, from, end), file, () => bytes.toString("latin1", from, end));
        else {
          const entry = bytes.toString("utf8", from, end);
          keep(hash52(entry), file, () => entry);
        }
        at = end + 1;
      }
    }
    return kept;
  }
}

let firstBytes = Buffer.alloc(1024);

/** The first entry of a suffix file (its JSON text, as the stage wrote it), read from its first bytes. */
function firstEntry(path: string): string {
  previousReads.firstEntries++;
  const fd = openSync(path, "r");
  try {
    // One buffer for every file's first bytes (five thousand files at a million), grown where an entry is longer.
    let buffer = firstBytes;
    let length = readSync(fd, buffer, 0, buffer.length, 0);
    for (;;) {
      const end = entryEnd(buffer, 1, length);
      if (end > 0) return buffer.toString("utf8", 1, end);
      if (length < buffer.length) throw new NoPatch(`${path} holds no entry`);
      const grown = Buffer.alloc(2 * buffer.length);
      buffer.copy(grown);
      buffer = firstBytes = grown;
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
