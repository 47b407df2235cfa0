/**
 * The suffix files (core/search/search-layout.ts): every suffix entry the buckets make, put aside
 * by its first two code units (one scratch file a pair, in memory while small), then each pair's
 * entries sorted alone and the pairs taken in order, which is the order of all the entries sorted
 * at once (entries compare by their code units, and a pair is a prefix). The stage holds one
 * pair's entries at a time, not the million and a half entries of a million subjects.
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

/** The suffix entries, gathered in any order; then their files. */
export class SuffixEntries {
  readonly #spill: string;
  readonly #files: number;
  readonly #groups = new Map<number, SpillBytes>();
  readonly #smallest: SmallestHashes;
  readonly #limit: number;
  #count = 0;

  /** Entries for `files` suffix files, put aside under the scratch directory `spill` (a pair's in memory up to `limit` bytes). */
  constructor(spill: string, files: number, limit: number) {
    this.#spill = spill;
    this.#limit = limit;
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
      for (const entry of entriesOf(group.take()).sort()) {
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

/** The entries SpillBytes.text wrote one after another. */
function entriesOf(bytes: Uint8Array): string[] {
  const buffer = bufferOf(bytes);
  const entries: string[] = [];
  for (let at = 0; at < buffer.length; ) {
    let header = 0;
    for (let shift = 1; ; shift *= 0x80) {
      const b = buffer[at++] as number;
      header += (b & 0x7f) * shift;
      if (b < 0x80) break;
    }
    entries.push(textAt(buffer, at, header));
    at += textSize(header);
  }
  return entries;
}
