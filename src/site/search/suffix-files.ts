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
import { reusedBytes, reusedUint32s } from "../../common/reused-arrays.ts";
import { bufferOf, readVarint, SpillBytes, SpillFile, textSize, varintEnd } from "./spill-bytes.ts";
import { SpilledShard } from "./spilled-shard.ts";
import { CutPlace, hash52, hash52OfBytes, hash52sOfSuffixes, keyOfEntry, SmallestHashes } from "./suffix-cuts.ts";

/** Entries sorted as strings at once at most, unless told (about 10 MB of them). */
export const SORTED_AT_ONCE = 1 << 17;

/**
 * The flags after each entry in its group (a byte): MAY_CUT where its hash was at most the
 * smallest hashes' ceiling when it came (SmallestHashes.add): the threshold is at most that
 * ceiling, so no other entry begins a file, and shards hashes the few flagged again, not all; ASCII
 * where its bytes are all below 128 (addBytes's), copied into the file with no check of each byte.
 */
const MAY_CUT = 1;
const ASCII = 2;

/** Entries whose bytes are read ahead of their copies into the files (touch). */
const AHEAD = 64;

/**
 * Reads the first and the last byte of the entries [from, to) (in order: where each one's text
 * begins and ends in `buffer`): their flags (the byte past each) into `flags` from 0, and throws
 * unless each begins as an entry does (`[`). The entries in order lie at random in their group's
 * buffer, megabytes at five million subjects (a few hundred kilobytes at one, which the cache
 * holds): read in the loop that copies them, each read waited on the memory alone, behind the copy
 * before it (at 5M 0.9 s of the loop's 1.3, against 21 ms at 1M); read here, in a loop of nothing
 * else, they wait together, and the copies find them in the cache.
 */
function touch(buffer: Buffer, texts: Uint32Array, ends: Uint32Array, from: number, to: number, flags: Uint8Array): void {
  for (let i = from; i < to; i++) {
    if (buffer[texts[i] as number] !== 0x5b) throw new Error(`a suffix entry at ${texts[i]} does not begin with [`);
    flags[i - from] = buffer[ends[i] as number] as number;
  }
}

/** The suffix entries, gathered in any order; then their files. */
export class SuffixEntries {
  readonly #spill: string;
  readonly #files: number;
  readonly #groups = new Map<number, SpillBytes>();
  /** The groups' blocks past their limit, in one scratch file. */
  readonly #file: SpillFile;
  readonly #smallest: SmallestHashes;
  readonly #limit: number;
  readonly #atOnce: number;
  #count = 0;
  #threshold: number | null = null;
  /** addSuffixes's hashes of a token's entries. */
  #hashes = new Float64Array(64);

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
    this.#file = new SpillFile(join(spill, "suffixes"));
  }

  /** An entry whose code units are the bytes `bytes[from, to)` (each below 128). */
  addBytes(bytes: Uint8Array, from: number, to: number): void {
    const mayCut = this.#smallest.add(hash52OfBytes(bytes, from, to));
    const group = this.#group((bytes[from + 2] as number) * 0x10000 + (bytes[from + 3] as number));
    group.narrowText(bytes, from, to);
    group.varint(ASCII | (mayCut ? MAY_CUT : 0));
    this.#count++;
  }

  /**
   * The entries of a token's suffixes: `bytes[0, end)` is the entry of the whole token
   * (`["<token>",<payload>]`, each byte below 128), and `["` then bytes[2 + i, end) is added for
   * each i in [0, count) (bytes[0, count + 1) are written over). Their hashes are taken first, all
   * from the token's bytes (hash52sOfSuffixes: four at a time).
   */
  addSuffixes(bytes: Uint8Array, end: number, count: number): void {
    if (this.#hashes.length < count) this.#hashes = new Float64Array(2 * count);
    const hashes = this.#hashes;
    hash52sOfSuffixes(bytes, 2, count, end, hashes);
    for (let i = 0; i < count; i++) {
      bytes[i] = 0x5b;
      bytes[i + 1] = 0x22;
      const mayCut = this.#smallest.add(hashes[i] as number);
      const group = this.#group((bytes[i + 2] as number) * 0x10000 + (bytes[i + 3] as number));
      group.narrowText(bytes, i, end);
      group.varint(ASCII | (mayCut ? MAY_CUT : 0));
    }
    this.#count += count;
  }

  /** An entry. */
  add(entry: string): void {
    const mayCut = this.#smallest.add(hash52(entry));
    const group = this.#group(entry.charCodeAt(2) * 0x10000 + entry.charCodeAt(3));
    group.text(entry);
    group.varint(mayCut ? MAY_CUT : 0);
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
    // The file being made, as its bytes: `[`, the entries' UTF-8 with commas between, `]`.
    const out = new FileBytes();
    let first = "\uffff";
    // A group's bytes read back from the scratch file: into one array, group after group; its sort's arrays the same.
    const room = reusedBytes();
    const sort = new GroupSort();
    const ahead = new Uint8Array(AHEAD);
    // The largest hash of the entries that begin a file past the first: the patch of the next edit reads it (search-facts.ts).
    let threshold = -1;
    const write = (): void => {
      // The first file's first key is below every entry's, whatever the smallest suffix is; an empty file's is above every entry's.
      firsts.push(file === 0 ? "[" : first);
      shard ??= new SpilledShard(this.#spill, suffixShardKey(file));
      shard.add(suffixFileName(file), out.end());
      first = "\uffff";
      if ((file + 1) % SUFFIX_FILES_PER_SHARD === 0 || file === files - 1) {
        shards.push(shard.done());
        shard = null;
      }
      file++;
    };
    for (const key of [...this.#groups.keys()].sort((a, b) => a - b)) {
      const group = this.#groups.get(key) as SpillBytes;
      this.#groups.delete(key);
      const buffer = bufferOf(group.take(room));
      // Every entry of a pair shares its first four code units: `["` and the pair.
      sort.sort(buffer, this.#atOnce, 4);
      const { texts, ends } = sort;
      for (let i = 0; i < texts.length; i++) {
        if (i % AHEAD === 0) touch(buffer, texts, ends, i, Math.min(texts.length, i + AHEAD), ahead);
        const text = texts[i] as number;
        const end = ends[i] as number;
        const flags = ahead[i % AHEAD] as number;
        // An entry of one-byte units is hashed and copied from its bytes; any other made a string.
        // Hashed again only where it may begin a file: any other's hash is above the threshold.
        const narrow = (flags & ASCII) !== 0 || headerBefore(buffer, text, end) % 4 === 1;
        const entry = narrow ? null : buffer.toString("utf16le", text, end);
        const hash = (flags & MAY_CUT) === 0 ? Infinity : entry === null ? hash52OfBytes(buffer, text, end) : hash52(entry);
        if (place.cutsBeforeHash(hash)) {
          write();
          threshold = Math.max(threshold, hash);
        }
        if (out.empty) first = keyOfEntry(entry ?? buffer.toString("latin1", text, end));
        if ((flags & ASCII) !== 0) out.asciiBytes(buffer, text, end);
        else if (entry === null) out.entryBytes(buffer, text, end);
        else out.entryText(entry);
      }
    }
    this.close();
    // Fewer entries than files: the last files are empty.
    while (file < files) write();
    shards.push(firstsShard(this.#spill, firsts));
    this.#threshold = threshold;
    return shards;
  }

  /**
   * Once shards made the files: the largest hash52 of their first entries past the first file's
   * (what SuffixPatch reads from the files: search-facts.ts), -1 with no cut; null before.
   */
  get threshold(): number | null {
    return this.#threshold;
  }

  /** Closes its scratch file: shards does once every group is read, the stage on a failure. */
  close(): void {
    this.#file.close();
  }

  /** How many entries came. */
  get count(): number {
    return this.#count;
  }

  #group(key: number): SpillBytes {
    let group = this.#groups.get(key);
    if (group === undefined) this.#groups.set(key, (group = new SpillBytes(this.#file, this.#limit)));
    return group;
  }
}

/**
 * The shard of the suffix files' first keys (`firsts`, one a file): the first of each group of
 * FIRSTS_GROUP files, then each group's. The whole stage and the patch of an edit whose cuts moved
 * (patch-suffixes.ts) both write it here.
 */
export function firstsShard(spill: string, firsts: readonly string[]): ShardPlan {
  const top = new SpilledShard(spill, SUFFIX_FIRSTS_SHARD_KEY);
  top.add(SUFFIX_FIRSTS_FILE, Buffer.from(JSON.stringify(firsts.filter((_, i) => i % FIRSTS_GROUP === 0))));
  for (let g = 0; g * FIRSTS_GROUP < firsts.length; g++) {
    top.add(`${g}.json`, Buffer.from(JSON.stringify(firsts.slice(g * FIRSTS_GROUP, (g + 1) * FIRSTS_GROUP))));
  }
  return top.done();
}

/**
 * A suffix file's bytes as its entries come: one buffer, grown as a file needs and used again for
 * the next (SpilledShard.add writes a file before it returns).
 */
class FileBytes {
  #bytes = Buffer.allocUnsafe(1 << 16);
  #length = 1;
  #entries = 0;

  constructor() {
    this.#bytes[0] = 0x5b;
  }

  get empty(): boolean {
    return this.#entries === 0;
  }

  /** An entry of one-byte code units `bytes[from, to)`: copied while they are ASCII, as UTF-8 past the first that is not. */
  entryBytes(bytes: Buffer, from: number, to: number): void {
    this.#room(2 * (to - from) + 2);
    const out = this.#bytes;
    let at = this.#length;
    if (this.#entries++ > 0) out[at++] = 0x2c;
    for (let i = from; i < to; i++) {
      const unit = bytes[i] as number;
      if (unit >= 0x80) {
        at += out.write(bytes.toString("latin1", i, to), at, "utf8");
        break;
      }
      out[at++] = unit;
    }
    this.#length = at;
  }

  /** An entry of ASCII bytes `bytes[from, to)`: copied as they are (a loop: Buffer.copy's call cost more than a few dozen bytes). */
  asciiBytes(bytes: Buffer, from: number, to: number): void {
    this.#room(to - from + 1);
    const out = this.#bytes;
    let at = this.#length;
    if (this.#entries++ > 0) out[at++] = 0x2c;
    for (let i = from; i < to; i++) out[at++] = bytes[i] as number;
    this.#length = at;
  }

  /** An entry as a string, its UTF-8. */
  entryText(entry: string): void {
    this.#room(3 * entry.length + 2);
    if (this.#entries++ > 0) this.#bytes[this.#length++] = 0x2c;
    this.#length += this.#bytes.write(entry, this.#length, "utf8");
  }

  /** The file's bytes, `]` added (good until the next entry); the next file begins. */
  end(): Buffer {
    this.#room(1);
    this.#bytes[this.#length++] = 0x5d;
    const file = this.#bytes.subarray(0, this.#length);
    this.#length = 1;
    this.#entries = 0;
    return file;
  }

  #room(more: number): void {
    if (this.#length + more <= this.#bytes.length) return;
    const grown = Buffer.allocUnsafe(2 * (this.#length + more));
    this.#bytes.copy(grown, 0, 0, this.#length);
    this.#bytes = grown;
  }
}

/**
 * The sort of a pair's group of entries (SpillBytes.text wrote them one after another in a buffer,
 * each followed by its flags, a byte): where each one's text begins and ends, read once in the
 * buffer's order, then put in the order of the entries as strings (by code unit), the two arrays
 * moved together. Its arrays are kept from one group to the next (common/reused-arrays.ts): made
 * for each group and part, they were fresh memory each time (the parts of five million subjects'
 * pairs reach 131,072 entries, half a megabyte an array, where a million's are mostly a few
 * thousand), paid again in page faults and collections. Where each entry's text lies is moved with
 * it, not read through an index: at five million subjects a group's entries are megabytes apart,
 * and every read at random there waits on the memory.
 */
export class GroupSort {
  readonly #room = {
    texts: reusedUint32s(),
    ends: reusedUint32s(),
    movedTexts: reusedUint32s(),
    movedEnds: reusedUint32s(),
    keys: reusedUint32s(),
  };
  /** A split's counts at each depth (its parts are taken after the splits below them), then ByteSort's. */
  readonly #splitCounts: Uint32Array[] = [];
  readonly #byteCounts: Uint32Array[] = [];
  #buffer: Buffer = Buffer.alloc(0);
  #atOnce = 1;
  #wide = false;
  /** Where each entry's text begins and ends (its flags there), in order once sorted: good until the next sort. */
  texts: Uint32Array = new Uint32Array(0);
  ends: Uint32Array = new Uint32Array(0);
  /** Scratch as long as the group: where a pass moves the entries, and each one's key in a pass. */
  #movedTexts: Uint32Array = new Uint32Array(0);
  #movedEnds: Uint32Array = new Uint32Array(0);
  #keys: Uint32Array = new Uint32Array(0);

  /**
   * Sorts the entries of `buffer`, `atOnce` at most at a time: a larger set is split by the code
   * unit at `depth` (which every entry of the set shares the units before), an entry that ends
   * there first, and each part sorted in turn (a part's entries share a prefix, so the parts in
   * order are the whole order).
   */
  sort(buffer: Buffer, atOnce: number, depth: number): void {
    let n = 0;
    for (let at = 0; at < buffer.length; n++) {
      const header = readVarint(buffer, at);
      at = varintEnd + textSize(header) + 1;
    }
    const room = this.#room;
    const texts = (this.texts = room.texts.view(n));
    const ends = (this.ends = room.ends.view(n));
    this.#movedTexts = room.movedTexts.view(n);
    this.#movedEnds = room.movedEnds.view(n);
    this.#keys = room.keys.view(n);
    let wide = false;
    for (let at = 0, i = 0; i < n; i++) {
      const header = readVarint(buffer, at);
      const text = varintEnd;
      if (header % 4 !== 1) wide = true;
      texts[i] = text;
      ends[i] = at = text + textSize(header);
      at++;
    }
    this.#buffer = buffer;
    this.#atOnce = atOnce;
    this.#wide = wide;
    this.#part(0, n, depth);
  }

  /** Puts the entries [from, to) in order. */
  #part(from: number, to: number, depth: number): void {
    if (to - from <= this.#atOnce) {
      this.#atOnceSort(from, to, depth);
      return;
    }
    const buffer = this.#buffer;
    const texts = this.texts;
    const ends = this.ends;
    // A counting sort by the unit at depth, plus one (0: the entry ends before it).
    const keys = this.#keys;
    while (this.#splitCounts.length <= depth) this.#splitCounts.push(new Uint32Array(0x10002));
    const counts = this.#splitCounts[depth] as Uint32Array;
    counts.fill(0);
    let largest = 0;
    for (let i = from; i < to; i++) {
      const key = unitAt(buffer, texts[i] as number, ends[i] as number, depth);
      keys[i] = key;
      if (key > largest) largest = key;
      counts[key + 1] = (counts[key + 1] as number) + 1;
    }
    for (let k = 1; k <= largest + 1; k++) counts[k] = (counts[k] as number) + (counts[k - 1] as number);
    moveByKeys(texts, ends, this.#movedTexts, this.#movedEnds, keys, counts, from, to);
    // counts[k] is now where part k ends. The entries that end at depth (part 0) are equal: all they share is all they hold.
    for (let key = 1; key <= largest; key++) {
      const start = from + (counts[key - 1] as number);
      const end = from + (counts[key] as number);
      if (end - start > 1) this.#part(start, end, depth + 1);
    }
  }

  /**
   * Puts the entries [from, to) in order at once. Entries of one-byte units (every entry but a
   * token's past U+00FF) are sorted as bytes, which is their order by code unit: a radix sort a
   * byte at a time from `depth` (the units before are shared), an insertion sort for a few; no
   * string is made. A part with a wider entry is sorted as strings.
   */
  #atOnceSort(from: number, to: number, depth: number): void {
    if (to - from < 2) return;
    const buffer = this.#buffer;
    const texts = this.texts;
    const ends = this.ends;
    let narrow = true;
    if (this.#wide)
      for (let i = from; i < to && narrow; i++) narrow = headerBefore(buffer, texts[i] as number, ends[i] as number) % 4 === 1;
    if (narrow) {
      new ByteSort(buffer, texts, ends, this.#movedTexts, this.#movedEnds, this.#keys, this.#byteCounts).sort(from, to, depth);
      return;
    }
    const strings: string[] = [];
    const order: number[] = [];
    for (let i = from; i < to; i++) {
      const text = texts[i] as number;
      const end = ends[i] as number;
      strings.push(buffer.toString(headerBefore(buffer, text, end) % 4 === 1 ? "latin1" : "utf16le", text, end));
      order.push(i - from);
    }
    order.sort((a, b) => {
      const x = strings[a] as string;
      const y = strings[b] as string;
      return x < y ? -1 : x > y ? 1 : 0;
    });
    const before = [texts.slice(from, to), ends.slice(from, to)] as const;
    order.forEach((o, i) => {
      texts[from + i] = before[0][o] as number;
      ends[from + i] = before[1][o] as number;
    });
  }
}

/**
 * Moves the entries [from, to) (where each one's text begins and ends) to their places by their
 * keys (`counts`: where each key's begin, past `from`; then where each one's end), through the
 * scratch arrays `movedTexts` and `movedEnds`.
 */
function moveByKeys(
  texts: Uint32Array,
  ends: Uint32Array,
  movedTexts: Uint32Array,
  movedEnds: Uint32Array,
  keys: Uint32Array,
  counts: Uint32Array,
  from: number,
  to: number,
): void {
  for (let i = from; i < to; i++) {
    const key = keys[i] as number;
    const at = from + (counts[key] as number);
    movedTexts[at] = texts[i] as number;
    movedEnds[at] = ends[i] as number;
    counts[key] = (counts[key] as number) + 1;
  }
  texts.set(movedTexts.subarray(from, to), from);
  ends.set(movedEnds.subarray(from, to), from);
}

/** The header (SpillBytes.text) of the text at [text, end) in `buffer`: it lies just before, as long as its size's varint. */
function headerBefore(buffer: Buffer, text: number, end: number): number {
  return readVarint(buffer, text - headerLength(end - text));
}

/** The length of the header of a text of `size` bytes (narrow or wide: the flag is in the low bits). */
function headerLength(size: number): number {
  let length = 1;
  for (let v = size * 4 + 1; v >= 0x80; v = Math.floor(v / 0x80)) length++;
  return length;
}

/** Groups at most this large are sorted by insertion, not by another radix pass. */
const FEW = 24;

/**
 * An MSD radix sort of entries as bytes: `texts` and `ends` hold where each entry's bytes begin and
 * end in `buffer`, and are moved together.
 */
class ByteSort {
  readonly #buffer: Buffer;
  readonly #texts: Uint32Array;
  readonly #ends: Uint32Array;
  readonly #movedTexts: Uint32Array;
  readonly #movedEnds: Uint32Array;
  readonly #keys: Uint32Array;
  readonly #counts: Uint32Array[];

  /** `movedTexts`, `movedEnds` and `keys`: scratch as long as `texts`; `counts`: each depth's counts, kept from one sort to the next. */
  constructor(
    buffer: Buffer,
    texts: Uint32Array,
    ends: Uint32Array,
    movedTexts: Uint32Array,
    movedEnds: Uint32Array,
    keys: Uint32Array,
    counts: Uint32Array[],
  ) {
    this.#buffer = buffer;
    this.#texts = texts;
    this.#ends = ends;
    this.#movedTexts = movedTexts;
    this.#movedEnds = movedEnds;
    this.#keys = keys;
    this.#counts = counts;
  }

  /** Sorts the entries [from, to), which share their first `shared` bytes. */
  sort(from: number, to: number, shared: number): void {
    const buffer = this.#buffer;
    const texts = this.#texts;
    const ends = this.#ends;
    if (to - from <= FEW) {
      this.#insertion(from, to, shared);
      return;
    }
    // Past what they all share: the entries of one suffix differ only in their payloads, and more
    // tokens share a suffix as the list grows (its vocabulary with it), so a group met there would
    // take a counting pass (and 258 counts) for each byte all its entries hold alike.
    const depth = this.#sharedEnd(from, to, shared);
    // Each level's counts kept for the next group at that depth (one array a depth, not one a group).
    while (this.#counts.length <= depth) this.#counts.push(new Uint32Array(258));
    // All zeros between sorts: each sort clears what it used.
    const counts = this.#counts[depth] as Uint32Array;
    // The byte at depth plus one, 0 for an entry that ends there: read once where the entry lies, kept for the moves.
    const keys = this.#keys;
    // The keys met lie in [least, most]: a payload's digits take ten of the 257, and the counts
    // outside are neither cleared nor summed nor walked (they cost more than the entries in most groups).
    let least = 257;
    let most = 0;
    for (let i = from; i < to; i++) {
      const at = (texts[i] as number) + depth;
      const key = at < (ends[i] as number) ? (buffer[at] as number) + 1 : 0;
      keys[i] = key;
      if (key < least) least = key;
      if (key > most) most = key;
      counts[key + 1] = (counts[key + 1] as number) + 1;
    }
    counts[least] = 0;
    for (let k = least + 1; k <= most + 1; k++) counts[k] = (counts[k] as number) + (counts[k - 1] as number);
    moveByKeys(texts, ends, this.#movedTexts, this.#movedEnds, keys, counts, from, to);
    // counts[k] is now where group k ends; the entries that ended (group 0) are equal.
    let start = from + (least === 0 ? (counts[0] as number) : 0);
    for (let k = Math.max(1, least); k <= most; k++) {
      const end = from + (counts[k] as number);
      if (end - start > 1) this.sort(start, end, depth + 1);
      start = end;
    }
    counts.fill(0, least, most + 2);
  }

  /** Where the bytes that every entry of [from, to) holds alike end (they share `depth` at least). */
  #sharedEnd(from: number, to: number, depth: number): number {
    const buffer = this.#buffer;
    const texts = this.#texts;
    const ends = this.#ends;
    const start = texts[from] as number;
    let end = (ends[from] as number) - start;
    for (let i = from + 1; i < to && end > depth; i++) {
      const at = texts[i] as number;
      const n = Math.min(end, (ends[i] as number) - at);
      let j = depth;
      while (j < n && buffer[at + j] === buffer[start + j]) j++;
      end = j;
    }
    return end;
  }

  #insertion(from: number, to: number, depth: number): void {
    const texts = this.#texts;
    const ends = this.#ends;
    for (let i = from + 1; i < to; i++) {
      const text = texts[i] as number;
      const end = ends[i] as number;
      let j = i;
      while (j > from && this.#before(text, end, texts[j - 1] as number, ends[j - 1] as number, depth)) {
        texts[j] = texts[j - 1] as number;
        ends[j] = ends[j - 1] as number;
        j--;
      }
      texts[j] = text;
      ends[j] = end;
    }
  }

  /** Whether the bytes [a, aEnd) come before [b, bEnd) (from depth on; the bytes before are shared). */
  #before(a: number, aEnd: number, b: number, bEnd: number, depth: number): boolean {
    const buffer = this.#buffer;
    const x = a + depth;
    const y = b + depth;
    const xl = aEnd - x;
    const yl = bEnd - y;
    const n = Math.min(xl, yl);
    for (let i = 0; i < n; i++) {
      const u = buffer[x + i] as number;
      const v = buffer[y + i] as number;
      if (u !== v) return u < v;
    }
    return xl < yl;
  }
}

/** The code unit at `index` of the text at [text, end) (its header just before), plus one; 0 when the text is shorter. */
function unitAt(buffer: Buffer, text: number, end: number, index: number): number {
  const narrow = headerBefore(buffer, text, end) % 4 === 1;
  const length = narrow ? end - text : (end - text) / 2;
  if (index >= length) return 0;
  return 1 + (narrow ? (buffer[text + index] as number) : buffer.readUInt16LE(text + 2 * index));
}
