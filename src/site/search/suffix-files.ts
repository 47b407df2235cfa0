/**
 * The suffix files (core/search/search-layout.ts): every suffix entry the buckets make, put aside
 * by its first two code units (one scratch file a pair, in memory while small), then each pair's
 * entries sorted alone and the pairs taken in order, which is the order of all the entries sorted
 * at once (entries compare by their code units, and a pair is a prefix). The stage holds one
 * pair's entries at a time, not the million and a half entries of a million subjects; a pair of
 * more than SORTED_AT_ONCE entries (ten times as many at ten million subjects as at one) is split
 * again by its next code unit, and so on, each part sorted alone, so that its bytes are held but no
 * more than a part's strings.
 */
import { join } from "node:path";
import {
  FIRSTS_GROUP,
  SUFFIX_FILES_PER_SHARD,
  SUFFIX_FIRSTS_FILE,
  SUFFIX_FIRSTS_SHARD_KEY,
  suffixFileName,
  suffixShardKey,
} from "../../core/search/search-layout.ts";
import type { ShardPlan } from "../hand-offs.ts";
import { bufferOf, SpillBytes, textAt, textSize } from "./spill-bytes.ts";
import { SpilledShard } from "./spilled-shard.ts";
import { CutPlace, hash52, hash52OfBytes, keyOfEntry, SmallestHashes } from "./suffix-cuts.ts";

/** Entries sorted as strings at once at most, unless told (about 10 MB of them). */
export const SORTED_AT_ONCE = 1 << 17;

/** The suffix entries, gathered in any order; then their files. */
export class SuffixEntries {
  readonly #spill: string;
  readonly #files: number;
  readonly #groups = new Map<number, SpillBytes>();
  readonly #smallest: SmallestHashes;
  readonly #limit: number;
  readonly #atOnce: number;
  #count = 0;

  /**
   * Entries for `files` suffix files, put aside under the scratch directory `spill` (a pair's in
   * memory up to `limit` bytes), sorted `atOnce` at most at a time.
   */
  constructor(spill: string, files: number, limit: number, atOnce = SORTED_AT_ONCE) {
    if (!(atOnce >= 1)) throw new Error(`a part of the suffix entries holds at least one entry, not ${atOnce}`);
    this.#spill = spill;
    this.#limit = limit;
    this.#atOnce = atOnce;
    this.#files = files;
    this.#smallest = new SmallestHashes(files);
  }

  /** An entry whose code units are the bytes `bytes[from, to)` (each below 128). */
  addBytes(bytes: Uint8Array, from: number, to: number): void {
    this.#smallest.add(hash52OfBytes(bytes, from, to));
    this.#group((bytes[from + 2] as number) * 0x10000 + (bytes[from + 3] as number)).narrowText(bytes, from, to);
    this.#count++;
  }

  /** An entry. */
  add(entry: string): void {
    this.#smallest.add(hash52(entry));
    this.#group(entry.charCodeAt(2) * 0x10000 + entry.charCodeAt(3)).text(entry);
    this.#count++;
  }

  /** The suffix shards and the shard of their first keys. */
  shards(): ShardPlan[] {
    const files = this.#files;
    const place = new CutPlace(files, this.#smallest.threshold());
    const shards: ShardPlan[] = [];
    const firsts: string[] = [];
    let shard: SpilledShard | null = null;
    let file = 0;
    let entries: string[] = [];
    const write = (): void => {
      // The first file's first key is below every entry's, whatever the smallest suffix is; an empty file's is above every entry's.
      firsts.push(file === 0 ? "[" : entries.length > 0 ? keyOfEntry(entries[0] as string) : "\uffff");
      shard ??= new SpilledShard(this.#spill, suffixShardKey(file));
      shard.add(suffixFileName(file), Buffer.from(`[${entries.join(",")}]`));
      entries = [];
      if ((file + 1) % SUFFIX_FILES_PER_SHARD === 0 || file === files - 1) {
        shards.push(shard.done());
        shard = null;
      }
      file++;
    };
    for (const key of [...this.#groups.keys()].sort((a, b) => a - b)) {
      const group = this.#groups.get(key) as SpillBytes;
      this.#groups.delete(key);
      // Every entry of a pair shares its first four code units: `["` and the pair.
      for (const entry of sortedEntries(bufferOf(group.take()), this.#atOnce)) {
        if (place.cutsBefore(entry)) write();
        entries.push(entry);
      }
    }
    // Fewer entries than files: the last files are empty.
    while (file < files) write();
    const top = new SpilledShard(this.#spill, SUFFIX_FIRSTS_SHARD_KEY);
    top.add(SUFFIX_FIRSTS_FILE, Buffer.from(JSON.stringify(firsts.filter((_, i) => i % FIRSTS_GROUP === 0))));
    for (let g = 0; g * FIRSTS_GROUP < firsts.length; g++) {
      top.add(`${g}.json`, Buffer.from(JSON.stringify(firsts.slice(g * FIRSTS_GROUP, (g + 1) * FIRSTS_GROUP))));
    }
    shards.push(top.done());
    return shards;
  }

  /** How many entries came. */
  get count(): number {
    return this.#count;
  }

  #group(key: number): SpillBytes {
    let group = this.#groups.get(key);
    if (group === undefined) this.#groups.set(key, (group = new SpillBytes(join(this.#spill, `suffixes-${key}`), this.#limit)));
    return group;
  }
}

/**
 * The entries SpillBytes.text wrote one after another in `buffer`, sorted as strings (by code
 * unit), `atOnce` at most sorted at a time: a larger set is split by the code unit at `depth`
 * (which every entry of the set shares the units before), an entry that ends there first, and each
 * part taken in turn (a part's entries share a prefix, so the parts in order are the whole order).
 */
export function sortedEntries(buffer: Buffer, atOnce: number, depth = 4): Generator<string> {
  const starts: number[] = [];
  for (let at = 0; at < buffer.length; ) {
    starts.push(at);
    const [header, text] = headerAt(buffer, at);
    at = text + textSize(header);
  }
  return sortedPart(buffer, Uint32Array.from(starts), atOnce, depth);
}

function* sortedPart(buffer: Buffer, starts: Uint32Array, atOnce: number, depth: number): Generator<string> {
  if (starts.length <= atOnce) {
    const entries = Array.from(starts, (at) => {
      const [header, text] = headerAt(buffer, at);
      return textAt(buffer, text, header);
    });
    yield* entries.sort();
    return;
  }
  // A counting sort by the unit at depth, plus one (0: the entry ends before it).
  const keys = new Uint32Array(starts.length);
  const counts = new Uint32Array(0x10002);
  for (let i = 0; i < starts.length; i++) {
    const key = unitAt(buffer, starts[i] as number, depth);
    keys[i] = key;
    counts[key + 1] = (counts[key + 1] as number) + 1;
  }
  for (let k = 1; k < counts.length; k++) counts[k] = (counts[k] as number) + (counts[k - 1] as number);
  const split = new Uint32Array(starts.length);
  const filled = counts.slice(0, 0x10001);
  for (let i = 0; i < starts.length; i++) {
    const key = keys[i] as number;
    split[filled[key] as number] = starts[i] as number;
    filled[key] = (filled[key] as number) + 1;
  }
  // The entries that end at depth are equal: all they share is all they hold.
  for (let i = 0; i < (counts[1] as number); i++) {
    const [header, text] = headerAt(buffer, split[i] as number);
    yield textAt(buffer, text, header);
  }
  for (let key = 1; key <= 0x10000; key++) {
    const from = counts[key] as number;
    const to = counts[key + 1] as number;
    if (to > from) yield* sortedPart(buffer, split.subarray(from, to), atOnce, depth + 1);
  }
}

/** The header of the entry at `at` and where its text begins. */
function headerAt(buffer: Buffer, at: number): [number, number] {
  let header = 0;
  let next = at;
  for (let shift = 1; ; shift *= 0x80) {
    const b = buffer[next++] as number;
    header += (b & 0x7f) * shift;
    if (b < 0x80) break;
  }
  return [header, next];
}

/** The code unit at `index` of the entry at `at`, plus one; 0 when the entry is shorter. */
function unitAt(buffer: Buffer, at: number, index: number): number {
  const [header, text] = headerAt(buffer, at);
  const narrow = header % 4 === 1;
  const length = narrow ? textSize(header) : textSize(header) / 2;
  if (index >= length) return 0;
  return 1 + (narrow ? (buffer[text + index] as number) : buffer.readUInt16LE(text + 2 * index));
}
