/**
 * The search stage's sets under their keys in buckets (core/search/search-layout.ts has the
 * format), one range of buckets at a time: what the gathering put aside for the range (plan-search.ts)
 * is read back, each key's places grouped by a counting sort, and its buckets made and written.
 * The tokens' suffix entries go to the suffix files (suffix-files.ts).
 */
import { bucketFileNames, bucketOf, INLINE_ROWS, ofThreeCharacters, RANKED_ROWS, suffixKey } from "../../core/search/search-layout.ts";
import { AsciiBytes } from "./ascii-bytes.ts";
import { RadixSort } from "../../common/radix-sort.ts";
import { reusedInt32s } from "../../common/reused-arrays.ts";
import { encodeRows, rowsLength, writeRows } from "./rows-builder.ts";
import { type ByteSource, bufferOf, readVarint, textAt, textSize, varintEnd } from "./spill-bytes.ts";
import type { SpilledShard } from "./spilled-shard.ts";
import type { SuffixEntries } from "./suffix-files.ts";

/** The keys other than tokens' (pieces and filters), by number: their names and buckets. */
export interface SmallKeys {
  readonly names: readonly string[];
  readonly buckets: readonly number[];
  /** The keys whose later members were gathered apart from the ranges' bytes (plan-search.ts), if any. */
  readonly apart?: ApartKeys;
}

/** Small keys whose members from some place on were gathered as bits, not as items of their range. */
export interface ApartKeys {
  /** Key `id`'s members in all, or -1 when none were set apart. */
  size(id: number): number;
  /** Key `id`'s stored set (encodeRows's bytes) with its members before those, `places[from, to)`, of a list of `count`. */
  set(id: number, places: ArrayLike<number>, from: number, to: number, count: number): Uint8Array;
}

/** What the gathering put aside for one range of buckets. */
export interface BucketRange {
  /** Its first bucket and the one past its last. */
  readonly from: number;
  readonly to: number;
  /**
   * Varints one after another: each subject's mark, then its items. The mark is NEXT_PLACE for the
   * place after the range's last (the first place's last is -1), else 0 and the gap from it; an
   * item is a token (a text, SpillBytes.text, whose header is odd and above 3), a small key's
   * number n as 2n + 2, 1 and a key's text (a town's), or a text written before in the range by
   * its number there (knownText): the texts are numbered 0, 1, 2, … as they come, each time one
   * is written (a token or town the gathering's caches let go and made again is written again).
   * So a token or town is written once a range (once a stay in the caches), not at each of its
   * subjects, and read by an array, not found by its bytes. A subject ended by a 0, each range its
   * own, cost a byte and a mark more for each range a subject meets, and a subject meets more as
   * the ranges grow with the list (8 of 8 at a million subjects, 32 of 40 at five million). Read
   * in order a window at a time (BucketScratch.window), never whole.
   */
  readonly bytes: ByteSource;
  /** The items in all. */
  readonly items: number;
}

/**
 * The bytes of a range read at a time (BucketScratch.window). The range's bytes were read whole: as
 * large as the largest range's, some 16 MB at a million subjects and 28 MB at five million (the
 * ranges grow lumpier as they grow in number), held through the search thread's last minutes,
 * which were the 5M build's peak.
 */
export const WINDOW_BYTES = 1 << 20;

/** The most bytes a subject's mark and one item take before a text's own bytes: three varints (mark and gap, or item, header), 8 bytes at most each. */
const ITEM_HEAD_BYTES = 24;

/**
 * writeBuckets's arrays, made once for every range of a stage: a window of a range's bytes, its
 * items' keys (with their subjects' marks) and places, its keys' counts and orders, and a bucket's
 * values. Two are as large as the largest range's (reserve): its items' keys and their places
 * (4 bytes an item each: 17 MB of its 4.45 million items at a million, 24 MB of 6.23 million at
 * five million); the rest grow with its keys (some 60,000 at a million) or its subjects' gaps.
 */
export class BucketScratch {
  /** A window of the range's bytes, read in order from the scratch file (SpillBytes.reader): WINDOW_BYTES, or a longer text's. */
  window: Uint8Array;
  /** A bucket's values, its sets laid one after another as they are made (BucketValues). */
  readonly values = new BucketValues();
  readonly localOfSmall = reusedInt32s();
  /** Each key's items, by its number in the range: as long as the most keys a range has met (doubled as they come), not as its items. */
  counts: Int32Array = new Int32Array(1 << 12);
  /** The gaps of the range's subjects' marks, in their order, a byte each (0 for a gap past 255, kept apart): doubled as they come. */
  gaps: Uint8Array = new Uint8Array(1 << 12);
  /** The range's key of each text it has written (BucketRange, knownText), in their order: doubled as they come. */
  known: Int32Array = new Int32Array(1 << 12);
  readonly sequence = reusedInt32s();
  readonly places = reusedInt32s();
  readonly starts = reusedInt32s();
  readonly fill = reusedInt32s();
  readonly bucketOfKey = reusedInt32s();
  readonly byBucket = reusedInt32s();
  readonly entry = new AsciiBytes();
  /**
   * The range's keys (writeBuckets): their names, whether each is a token's, each small key's
   * number, and the table of those known by text. Kept from range to range: made for each, some
   * 60,000 keys at a million subjects, the arrays grew by push through new arrays each time, their
   * pages fresh memory (page faults, each costly on a virtual machine).
   */
  readonly names: string[] = [];
  readonly isToken: boolean[] = [];
  readonly smallOf: number[] = [];
  texts: TextNumbers | undefined;

  /** `windowBytes`: the window's bytes (WINDOW_BYTES; tests: a few, so that items and texts straddle its refills). */
  constructor(windowBytes = WINDOW_BYTES) {
    this.window = new Uint8Array(Math.max(windowBytes, ITEM_HEAD_BYTES));
  }

  /**
   * The arrays of a range of `items` items made now: the largest range's, before the first. Grown
   * range by range instead (a quarter more each time), each larger range left the last arrays to a
   * collection: at five million subjects they climbed from 89 to 132 MB.
   */
  reserve(items: number): void {
    this.sequence.view(items);
    this.places.view(items);
  }
}

/** A subject's mark in a range's bytes for the place after the range's last: the header of an empty wide text, which no item is. */
export const NEXT_PLACE = 3;

/**
 * The item naming the range's text numbered `known` (BucketRange): 8 known + 7, the header of a
 * wide text of an odd number of bytes, which no text has (a wide text is 2 bytes a code unit).
 */
export function knownText(known: number): number {
  return 8 * known + 7;
}

/** FNV-1a's state after `w:` (a token's key is `w:<token>`). */
const TOKEN_SEED = [0x77, 0x3a].reduce((hash, unit) => Math.imul(hash ^ unit, 0x01000193) >>> 0, 0x811c9dc5);

/** The bucket of a token's key `w:<token>` (bucketOf), with no key made. */
export function tokenBucket(token: string, buckets: number): number {
  let hash = TOKEN_SEED;
  for (let i = 0; i < token.length; i++) hash = Math.imul(hash ^ token.charCodeAt(i), 0x01000193) >>> 0;
  return hash % buckets;
}

/** Whether a token has a set and suffixes of its own: a term of one or two characters is found by its pieces (`g:`). */
export function tokenIndexed(token: string): boolean {
  if (token.length < 3) return false;
  if (token.length >= 7) return true;
  let chars = 0;
  for (let i = 0; i < token.length; i++) if ((token.charCodeAt(i) & 0xfc00) !== 0xdc00) chars++;
  return chars >= 3;
}

/** Whether a key is a three-character piece's (`g:` and three characters, a surrogate pair one). */
export function isTriple(key: string): boolean {
  return key.startsWith("g:") && ofThreeCharacters(key.slice(2));
}

/**
 * The buckets of `range` into `shard` (the buckets' keys shard), every set under its key (a long
 * token's set under none, named by its suffixes; a three-character piece's only when it holds
 * more than `tripleRows` subjects), and the tokens' suffix entries into `suffixes`.
 */
// long: the pass over a range's bytes, its counting sort and the buckets share the range's key numbering and flat arrays, made once
export function writeBuckets(
  range: BucketRange,
  buckets: number,
  count: number,
  namePositions: Uint32Array,
  small: SmallKeys,
  suffixes: SuffixEntries,
  shard: SpilledShard,
  tripleRows: number,
  scratch: BucketScratch = new BucketScratch(),
): void {
  // The range's bytes `[at, end)` in the window, read on as the pass reaches the window's end.
  let bytes = bufferOf(scratch.window);
  let at = 0;
  let end = 0;
  let ended = false;
  // At least `need` bytes from `at` in the window, unless the range ends first: what is left moved to
  // its start, the rest of it read (a longer window for a text longer than it).
  const refill = (need: number): void => {
    if (need > bytes.length) {
      const longer = new Uint8Array(need);
      longer.set(bytes.subarray(at, end));
      scratch.window = longer;
      bytes = bufferOf(longer);
    } else bytes.copyWithin(0, at, end);
    end -= at;
    at = 0;
    while (end < bytes.length) {
      const read = range.bytes.read(bytes, end, bytes.length - end);
      if (read === 0) {
        ended = true;
        break;
      }
      end += read;
    }
  };
  // The range's keys: small keys by their global number, tokens by text; each numbered here.
  const localOfSmall = scratch.localOfSmall.view(small.names.length);
  localOfSmall.fill(-1);
  const texts = (scratch.texts ??= new TextNumbers());
  texts.reset();
  // The range's keys by number: their names, whether each is a token's, and each small key's global
  // number (-1 for a key by text); the first `keyCount` of arrays kept from range to range.
  const { names, isToken, smallOf } = scratch;
  let keyCount = 0;
  const addKey = (name: string, token: boolean, id: number): number => {
    // At most one past the ends of the kept arrays: an append, never a hole.
    const local = keyCount++;
    names[local] = name;
    isToken[local] = token;
    smallOf[local] = id;
    return local;
  };
  let counts = scratch.counts;
  counts.fill(0);
  // Each item's key's number, the first of a subject's items marked (NEXT_BIT, GAP_BIT): the
  // counting sort below follows the places through them, reading the range's bytes once and
  // keeping no place beside each item (4 bytes an item).
  if (range.items > KEY_BITS) throw new Error(`a range of buckets of ${range.items} items: its keys' numbers need more than 30 bits`);
  const sequence = scratch.sequence.view(range.items);
  let n = 0;
  // A key by its text at `at` (after its header): its number in the range, given on first sight.
  const numberOf = (at: number, header: number, token: boolean): number => {
    const local = texts.find(bytes, at, header, token, keyCount);
    return local >= 0 ? local : addKey(textAt(bytes, at, header), token, -1);
  };
  // A text of `size` bytes at `at` in the window, read in first if it is not all there.
  const whole = (size: number): void => {
    if (at + size > end) refill(size);
    if (at + size > end) throw new Error("a range of buckets ends within a text");
  };
  // The mark of the next item (the first of its subject's), and the gaps so far (a byte each, the
  // larger apart: about a million gaps a range at five million subjects, none past 255 places).
  let mark = 0;
  let gaps = scratch.gaps;
  let g = 0;
  const largeGaps: number[] = [];
  // The keys of the texts the range has written, by their numbers (knownText).
  let knownKeys = scratch.known;
  let known = 0;
  for (;;) {
    // A mark and an item's varints in the window (a text's bytes are asked for by `whole`).
    if (end - at < ITEM_HEAD_BYTES && !ended) refill(ITEM_HEAD_BYTES);
    if (at >= end) break;
    let item = bytes[at++] as number;
    if (item >= 0x80) {
      // Two bytes for most small keys (their number below 8,192): read here, not by a call.
      const second = bytes[at] as number;
      if (second < 0x80) {
        item = (item & 0x7f) | (second << 7);
        at++;
      } else {
        item = readVarint(bytes, at - 1);
        at = varintEnd;
      }
    }
    // A subject's mark, just before its first item in the range: the next place, or a gap.
    if (item === NEXT_PLACE || item === 0) {
      if (mark !== 0) throw new Error("a subject's mark in a range of buckets has no item after it");
      if (item === NEXT_PLACE) mark = NEXT_BIT;
      else {
        // One byte past the last gap kept: the counting sort reads the gap beside every item.
        if (g + 1 === gaps.length) scratch.gaps = gaps = grown(gaps);
        const gap = readVarint(bytes, at);
        at = varintEnd;
        if (gap < 0x100) gaps[g++] = gap;
        else {
          gaps[g++] = 0;
          largeGaps.push(gap);
        }
        mark = GAP_BIT;
      }
      continue;
    }
    let local: number;
    if (item % 8 === 7) {
      // A text written before in the range, by its number.
      const text = (item - 7) / 8;
      if (text >= known) throw new Error(`a range of buckets names its text ${text} of ${known}`);
      local = knownKeys[text] as number;
    } else if (item === 1) {
      // A key by its text (a town's), after 1.
      const header = readVarint(bytes, at);
      at = varintEnd;
      whole(textSize(header));
      local = numberOf(at, header, false);
      at += textSize(header);
      if (known === knownKeys.length) scratch.known = knownKeys = grown(knownKeys);
      knownKeys[known++] = local;
    } else if (item % 2 === 1) {
      whole(textSize(item));
      local = numberOf(at, item, true);
      at += textSize(item);
      if (known === knownKeys.length) scratch.known = knownKeys = grown(knownKeys);
      knownKeys[known++] = local;
    } else {
      const id = item / 2 - 1;
      local = localOfSmall[id] as number;
      if (local < 0) {
        localOfSmall[id] = local = addKey(small.names[id] as string, false, id);
      }
    }
    if (n === range.items) throw new Error(`a range of buckets holds more than its ${range.items} items`);
    if (local === counts.length) scratch.counts = counts = grown(counts);
    counts[local] = (counts[local] as number) + 1;
    sequence[n++] = local | mark;
    mark = 0;
  }
  if (at !== end || n !== range.items || mark !== 0)
    throw new Error(`a range of buckets holds ${n} items, not ${range.items}, or ends in a mark`);
  // Each key's places together (a counting sort), rising since the records came in place order.
  const keys = keyCount;
  const starts = scratch.starts.view(keys + 1);
  starts[0] = 0;
  for (let k = 0; k < keys; k++) starts[k + 1] = (starts[k] as number) + (counts[k] as number);
  if (starts[keys] !== n) throw new Error(`a range of buckets's keys count ${starts[keys]} items of its ${n}`);
  const fill = scratch.fill.view(keys);
  fill.set(starts.subarray(0, keys));
  const places = scratch.places.view(n);
  sortPlaces(sequence, n, gaps, largeGaps, fill, places);
  // The keys by bucket, then in each the tokens first (each in a slot with room: a renamed subject
  // changes the sets of its pieces and of its tokens, and the offsets its tokens' suffix entries
  // name stay where they were unless a set outgrows its slot), then the other keys; each by key.
  const bucketOfKey = scratch.bucketOfKey.view(keys);
  const inBucket = new Int32Array(range.to - range.from + 1);
  for (let k = 0; k < keys; k++) {
    const name = names[k] as string;
    const b =
      (isToken[k]
        ? tokenBucket(name, buckets)
        : smallOf[k] === -1
          ? bucketOf(name, buckets)
          : (small.buckets[smallOf[k] as number] as number)) - range.from;
    bucketOfKey[k] = b;
    inBucket[b + 1] = (inBucket[b + 1] as number) + 1;
  }
  for (let b = 0; b < range.to - range.from; b++) inBucket[b + 1] = (inBucket[b + 1] as number) + (inBucket[b] as number);
  const byBucket = scratch.byBucket.view(keys);
  const next = inBucket.slice();
  for (let k = 0; k < keys; k++) {
    const b = bucketOfKey[k] as number;
    byBucket[next[b] as number] = k;
    next[b] = (next[b] as number) + 1;
  }
  const order = (x: number, y: number): number => {
    if (isToken[x] !== isToken[y]) return isToken[x] ? -1 : 1;
    const a = names[x] as string;
    const b = names[y] as string;
    return a < b ? -1 : a > b ? 1 : 0;
  };
  // A token's suffix entry made as bytes, in one buffer for every token (ascii-bytes.ts).
  const entry = scratch.entry;
  for (let b = range.from; b < range.to; b++) {
    const keysHere = Array.from(byBucket.subarray(inBucket[b - range.from] as number, inBucket[b - range.from + 1] as number)).sort(order);
    const entries: [string, number, number][] = [];
    const values = scratch.values;
    values.reset();
    const put = (bytes: Uint8Array): [number, number, number] => [b, values.append(bytes), bytes.length];
    for (const k of keysHere) {
      const [from, to] = [starts[k] as number, starts[k + 1] as number];
      if (!isToken[k]) {
        // A rare three-character piece has no set: a term of it is found through the suffixes,
        // whose tokens are then few (the query asks for `g:<term>` and takes them when it is absent).
        const id = smallOf[k] as number;
        const apart = id < 0 || small.apart === undefined ? -1 : small.apart.size(id);
        if ((apart < 0 ? to - from : apart) <= tripleRows && isTriple(names[k] as string)) continue;
        if (apart >= 0) {
          const [, offset, length] = put((small.apart as ApartKeys).set(id, places, from, to, count));
          entries.push([names[k] as string, offset, length]);
          continue;
        }
        // Written where it goes in the values, not made an array and copied there.
        const length = rowsLength(places, from, to, count);
        const offset = values.room(length);
        writeRows(values.bytes, offset, places, from, to, count);
        entries.push([names[k] as string, offset, length]);
        continue;
      }
      addSuffixes(suffixes, names[k] as string, entry, (out) => writeTokenPayload(out, places, from, to, count, namePositions, put));
    }
    const files = bucketFileNames(b);
    shard.add(files.index, indexBytes(entries));
    // The values made in one array used again bucket to bucket (the shard writes them before add returns).
    shard.add(files.values, values.bytes.subarray(0, values.length));
  }
  // The range's strings let go: the next range writes its own over them.
  names.fill("", 0, keyCount);
}

/**
 * A bucket's values as its sets are made: each laid after the last in one array, kept from bucket
 * to bucket and grown by doubling, where each set was an array of its own, kept in a list until the
 * bucket's end and then copied into one (some 60,000 sets a range at a million subjects).
 */
export class BucketValues {
  bytes: Uint8Array = new Uint8Array(1 << 16);
  length = 0;

  /** Empty, for the next bucket. */
  reset(): void {
    this.length = 0;
  }

  /** Room for `more` bytes after the last, which are then the values' (to be written by the caller); answers where they begin. */
  room(more: number): number {
    const at = this.length;
    if (at + more > this.bytes.length) {
      const grown = new Uint8Array(Math.max(2 * this.bytes.length, at + more));
      grown.set(this.bytes.subarray(0, at));
      this.bytes = grown;
    }
    this.length = at + more;
    return at;
  }

  /** `bytes` after the last; answers where they begin. */
  append(bytes: Uint8Array): number {
    const at = this.room(bytes.length);
    this.bytes.set(bytes, at);
    return at;
  }
}

/** Marks of an item in `sequence` beside its key's number: the first of its subject's items, at the place after the last (`NEXT_BIT`) or after a gap (`GAP_BIT`, the gap the next in `gaps`). */
const NEXT_BIT = 1 << 30;
const GAP_BIT = 1 << 31;
const KEY_BITS = NEXT_BIT - 1;

/** `array` twice as long, its elements kept (zeros after them). */
function grown<A extends Int32Array | Uint8Array>(array: A): A {
  const twice = new (array.constructor as new (length: number) => A)(2 * array.length);
  twice.set(array);
  return twice;
}

/**
 * Each item's place put by its key (`places[fill[key]++]`, fill then past each key's places), the
 * places followed through the items' marks in `sequence[0, n)`: a subject's first item after the
 * last subject's place, or after a gap, in `gaps` in their order (a 0 there for the next of
 * `largeGaps`). With no branch on the mark: a subject's first item is more than half of them at
 * five million subjects, in no pattern, and a branch on it made the sort of the largest range take
 * 29 ms where this takes 13.
 */
function sortPlaces(
  sequence: Int32Array,
  n: number,
  gaps: Uint8Array,
  largeGaps: readonly number[],
  fill: Int32Array,
  places: Int32Array,
): void {
  let place = -1;
  let g = 0;
  let large = 0;
  for (let i = 0; i < n; i++) {
    const item = sequence[i] as number;
    // 0, 1 (NEXT_BIT) or 2 (GAP_BIT).
    const mark = item >>> 30;
    const isGap = mark >>> 1;
    let gap = gaps[g] as number;
    if (gap === 0 && isGap === 1) gap = largeGaps[large++] as number;
    place += (mark & 1) + isGap * gap;
    g += isGap;
    const local = item & KEY_BITS;
    places[fill[local] as number] = place;
    fill[local] = (fill[local] as number) + 1;
  }
}

/** A bucket's index: its keys but the tokens', each with where its set lies in the values (`[key, offset, length]`), by key. */
export function indexBytes(entries: readonly (readonly [string, number, number])[]): Buffer {
  return Buffer.from(JSON.stringify(entries));
}

/**
 * A token's payload in its suffix entries: its places and their positions in the order by name
 * inline for a token of INLINE_ROWS subjects or fewer, else where `put` laid its set in the
 * bucket's values (`put` answers [bucket, offset, length]) and its positions beside it (as u32s
 * for a token of a few thousand at most, else as a set of positions), each in a slot with room.
 * So a search ordered by name takes its page from them, reading no permutation. The whole stage
 * and the patch of an edit (patch-tokens.ts) both call it: one encoder.
 */
export function tokenPayload(
  places: ArrayLike<number>,
  from: number,
  to: number,
  count: number,
  namePositions: ArrayLike<number>,
  put: (bytes: Uint8Array) => readonly [number, number, number],
): string {
  const out = new AsciiBytes();
  writeTokenPayload(out, places, from, to, count, namePositions, put);
  return out.text();
}

/** The sort of a large token's positions (common/radix-sort.ts), its scratch array kept from token to token. */
const radixSort = new RadixSort();

/** tokenPayload's text appended to `out` as its bytes (it is ASCII): the whole stage's path, which makes no string of it. */
export function writeTokenPayload(
  out: AsciiBytes,
  places: ArrayLike<number>,
  from: number,
  to: number,
  count: number,
  namePositions: ArrayLike<number>,
  put: (bytes: Uint8Array) => readonly [number, number, number],
): void {
  const members = to - from;
  if (members <= INLINE_ROWS) {
    // `[<places>],[<positions>]`, commas between.
    out.byte(0x5b);
    for (let i = from; i < to; i++) {
      if (i > from) out.byte(0x2c);
      out.uint(places[i] as number);
    }
    out.byte(0x5d);
    out.byte(0x2c);
    out.byte(0x5b);
    for (let i = from; i < to; i++) {
      if (i > from) out.byte(0x2c);
      out.uint(namePositions[places[i] as number] as number);
    }
    out.byte(0x5d);
    return;
  }
  const encoded = encodeRows(places, from, to, count);
  // A bitmap's length is the list's (count / 8), whatever its members: it needs no room.
  const [bucket, setOffset, setLength] = put(encoded[0] === 1 ? encoded : withRoom(encoded));
  const positions = new Uint32Array(members);
  for (let i = 0; i < members; i++) positions[i] = namePositions[places[from + i] as number] as number;
  let kind = 0;
  let offset: number;
  let length: number;
  if (members <= RANKED_ROWS) [, offset, length] = put(withRoom(new Uint8Array(positions.buffer)));
  else {
    const byPosition = encodeRows(radixSort.sort(positions), 0, members, count);
    kind = 1;
    [, offset, length] = put(byPosition[0] === 1 ? byPosition : withRoom(byPosition));
  }
  // `<bucket>,<offset>,<length>,<kind>,<offset>,<length>`.
  for (const [i, value] of [bucket, setOffset, setLength, kind, offset, length].entries()) {
    if (i > 0) out.byte(0x2c);
    out.uint(value);
  }
}

/**
 * The keys of a range known by text (tokens and towns), found by their bytes: a text is decoded once
 * a range, when first seen, not at each of its subjects, and no Map hashes a string made only to be
 * looked up (five million of them at a million subjects). Each text's bytes are copied here when
 * first seen (some 60,000 texts a range, a few hundred KB), since the range is read a window at a time.
 */
class TextNumbers {
  /** The texts' bytes, one after another. */
  #bytes: Uint8Array = new Uint8Array(1 << 16);
  #length = 0;
  /** Open addressing: each slot a key's number + 1, or 0. */
  #slots = new Int32Array(1 << 12);
  /** Each key's text: where it lies in #bytes, its header, and whether it is a token's (-header for a town's). */
  #at = new Int32Array(1 << 11);
  #header = new Float64Array(1 << 11);
  #count = 0;

  /** Forgets every text, for the keys of the next range (the arrays kept). */
  reset(): void {
    this.#length = 0;
    this.#slots.fill(0);
    this.#count = 0;
  }

  /** The number of the text at `bytes[at]` (header `header`, a token's or a town's), or -1 when new: then it is numbered `next`. */
  find(bytes: Uint8Array, at: number, header: number, token: boolean, next: number): number {
    const own = this.#bytes;
    const size = textSize(header);
    const kind = token ? header : -header;
    const hash = fnv1a(bytes, at, at + size);
    const mask = this.#slots.length - 1;
    for (let slot = (hash >>> 0) & mask; ; slot = (slot + 1) & mask) {
      const held = this.#slots[slot] as number;
      if (held === 0) break;
      const local = held - 1;
      if (this.#header[local] !== kind) continue;
      const from = this.#at[local] as number;
      let same = true;
      for (let i = 0; same && i < size; i++) same = own[from + i] === bytes[at + i];
      if (same) return local;
    }
    // New: numbered `next` (every key's number, small keys' too, so the arrays are indexed by it).
    if (next >= this.#at.length) {
      const at2 = new Int32Array(2 * next);
      at2.set(this.#at);
      this.#at = at2;
      const header2 = new Float64Array(2 * next);
      header2.set(this.#header);
      this.#header = header2;
    }
    if (this.#length + size > own.length) {
      const longer = new Uint8Array(Math.max(2 * own.length, this.#length + size));
      longer.set(own.subarray(0, this.#length));
      this.#bytes = longer;
    }
    this.#bytes.set(bytes.subarray(at, at + size), this.#length);
    this.#at[next] = this.#length;
    this.#length += size;
    this.#header[next] = kind;
    this.#count++;
    if (2 * this.#count > this.#slots.length) this.#grow(next);
    else this.#place(next, hash);
    return -1;
  }

  #place(local: number, hash: number): void {
    const mask = this.#slots.length - 1;
    let slot = (hash >>> 0) & mask;
    while (this.#slots[slot] !== 0) slot = (slot + 1) & mask;
    this.#slots[slot] = local + 1;
  }

  /** Twice the slots, every text placed again (the last, `newest`, among them). */
  #grow(newest: number): void {
    const old = this.#slots;
    this.#slots = new Int32Array(2 * old.length);
    for (let s = 0; s < old.length; s++) {
      const held = old[s] as number;
      if (held !== 0) this.#place(held - 1, this.#hashOf(held - 1));
    }
    this.#place(newest, this.#hashOf(newest));
  }

  #hashOf(local: number): number {
    const from = this.#at[local] as number;
    return fnv1a(this.#bytes, from, from + textSize(Math.abs(this.#header[local] as number)));
  }
}

/** FNV-1a of `bytes[from, to)` (unsigned only once a slot is taken of it). */
function fnv1a(bytes: Uint8Array, from: number, to: number): number {
  let hash = 0x811c9dc5;
  for (let i = from; i < to; i++) hash = Math.imul(hash ^ (bytes[i] as number), 0x01000193);
  return hash;
}

/**
 * Adds the entries of every suffix of three characters or more of `token` (`["<suffix>",<payload>]`,
 * the suffix as JSON), its payload written by `payload`: from one entry of the whole token made as
 * bytes in `entry`, each suffix's slid out of it, when the token is ASCII and needs no escapes
 * (nearly every token), else character by character.
 */
function addSuffixes(suffixes: SuffixEntries, token: string, entry: AsciiBytes, payload: (out: AsciiBytes) => void): void {
  entry.reset();
  if (asciiToken(token)) {
    entry.byte(0x5b);
    entry.byte(0x22);
    entry.ascii(token);
    entry.byte(0x22);
    entry.byte(0x2c);
    payload(entry);
    entry.byte(0x5d);
    suffixes.addSuffixes(entry.bytes, entry.length, Math.max(0, token.length - 2));
    return;
  }
  payload(entry);
  for (const text of suffixEntryTexts(token, entry.text())) suffixes.add(text);
}

/** Whether a token needs no escapes in JSON and holds no character past the Basic Multilingual Plane. */
export function plainToken(token: string): boolean {
  if (JSON.stringify(token).length !== token.length + 2) return false;
  for (let i = 0; i < token.length; i++) if ((token.charCodeAt(i) & 0xf800) === 0xd800) return false;
  return true;
}

/** Whether a token is ASCII and needs no escapes in JSON (no control character, quote or backslash). */
function asciiToken(token: string): boolean {
  for (let i = 0; i < token.length; i++) {
    const unit = token.charCodeAt(i);
    if (unit < 0x20 || unit >= 0x80 || unit === 0x22 || unit === 0x5c) return false;
  }
  return true;
}

/**
 * The entries of every suffix of three characters or more of `token` (`["<suffix>",<payload>]`,
 * the suffix as JSON), as strings: what addSuffixes adds (its ASCII path writes the same bytes
 * without the strings), and what the patch of an edit removes and adds (patch-search.ts).
 */
export function suffixEntryTexts(token: string, payload: string): string[] {
  const entries: string[] = [];
  if (plainToken(token)) {
    const tail = `",${payload}]`;
    for (let i = 0; i + 3 <= token.length; i++) entries.push(`["${token.slice(i)}${tail}`);
    return entries;
  }
  const chars = [...token];
  for (let i = 0; i + 3 <= chars.length; i++) entries.push(`${suffixKey(chars.slice(i).join(""))}",${payload}]`);
  return entries;
}

/**
 * `bytes` with zeros after them up to their slot: a multiple of 32 bytes, or past 64 of half the
 * power of two at or below their length (about an eighth of a large set wasted on average). A set of places or of positions
 * is read by its count (row-sets.ts), u32 positions by the set's count, so the zeros are never
 * read as members; a member more or fewer changes a set's length by a few bytes, which leaves it in
 * its slot but about one time in ten for the smallest sets, fewer for the larger.
 */
function withRoom(bytes: Uint8Array): Uint8Array {
  const width = Math.max(32, 2 ** (Math.floor(Math.log2(Math.max(1, bytes.length))) - 1));
  const slot = Math.ceil(bytes.length / width) * width;
  if (slot === bytes.length) return bytes;
  const padded = new Uint8Array(slot);
  padded.set(bytes);
  return padded;
}
