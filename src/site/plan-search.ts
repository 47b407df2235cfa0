/**
 * The search files as shards of the site plan (core/search/search-layout.ts has their format):
 * planned from the chunk files once the records are on disk, like the key indexes (plan-keys.ts).
 *
 * One pass over the records gathers every set: for each subject, the tokens of its name and town
 * in search form (`UPPER(UNACCENT(…))`, split at whitespace), every one- and two-character piece
 * of them, and its razina, town, status and odobreno; each set grows as varint gaps, since places
 * come rising. Then every suffix of three characters or more of every token is sorted with the
 * token's places (or where its set lies, for a token of many), and each order field is sorted once
 * (its distinct values under the collation, then the places by rank).
 *
 * Memory: the sets' bytes (about a byte a place, a common piece's set count / 8 bytes at most),
 * the distinct tokens, the suffix entries (a flat string each) and 4 bytes a subject for each
 * order field; at a million subjects the stage peaks under 1 GB, in the order sort (docs/search.md).
 */
import { readFileSync } from "node:fs";
import { contentHash } from "../common/content-hash.ts";
import { searchForm, tokensOf } from "../core/search/normalise.ts";
import { compareText } from "../core/search/match-record.ts";
import { ORDER_FIELDS, type OrderField } from "../core/search/read-filters.ts";
import {
  BUCKETS_PER_SHARD,
  bucketCount,
  bucketFileNames,
  bucketOf,
  keysShardKey,
  ORDER_FILE,
  FIRSTS_GROUP,
  INLINE_ROWS,
  RANKED_ROWS,
  ORDER_SHARD_KEY,
  SUFFIX_FILES_PER_SHARD,
  SUFFIX_FIRSTS_FILE,
  SUFFIX_FIRSTS_SHARD_KEY,
  suffixFileCount,
  suffixFileName,
  suffixKey,
  suffixShardKey,
} from "../core/search/search-layout.ts";
import { VERSION } from "../core/version.ts";
import type { ShardFile, ShardPlan } from "./hand-offs.ts";
import type { ChunkFile } from "./read-chunks.ts";

const NEWLINE = 0x0a;
const EMPTY = new Uint8Array(0);

/**
 * A set of places growing in order, of a list of `count`: its size, its last place and its gaps as
 * varints, or its bitmap once it has more members than the bitmap has bytes (the stored form is
 * then the bitmap: row-sets.ts). A common piece's set holds count / 8 bytes at most, not a byte a
 * member and as much again of room to grow.
 */
class RowsBuilder {
  size = 0;
  last = -1;
  bytes = new Uint8Array(8);
  length = 0;
  bits: Uint8Array | null = null;

  readonly count: number;

  constructor(count: number) {
    this.count = count;
  }

  add(place: number): void {
    if (place === this.last) return;
    let gap = place - (this.last < 0 ? 0 : this.last);
    this.last = place;
    this.size++;
    if (this.bits !== null) {
      this.bits[place >>> 3] = (this.bits[place >>> 3] as number) | (1 << (place & 7));
      return;
    }
    if (this.length + 5 > this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    while (gap >= 0x80) {
      this.bytes[this.length++] = (gap & 0x7f) | 0x80;
      gap >>>= 7;
    }
    this.bytes[this.length++] = gap;
    if (this.size > Math.ceil(this.count / 8)) {
      const bits = new Uint8Array(Math.ceil(this.count / 8));
      for (const p of this.places()) bits[p >>> 3] = (bits[p >>> 3] as number) | (1 << (p & 7));
      this.bits = bits;
      this.bytes = EMPTY;
      this.length = 0;
    }
  }

  /** Lets its bytes go once it is encoded (it is then empty). */
  release(): void {
    this.bytes = EMPTY;
    this.bits = null;
    this.length = 0;
    this.size = 0;
  }

  /** Its places. */
  places(): number[] {
    const places: number[] = [];
    if (this.bits !== null) {
      for (let byte = 0; byte < this.bits.length; byte++) {
        const b = this.bits[byte] as number;
        if (b !== 0) for (let bit = 0; bit < 8; bit++) if ((b >> bit) & 1) places.push(byte * 8 + bit);
      }
      return places;
    }
    let place = 0;
    for (let at = 0; at < this.length; ) {
      let gap = 0;
      for (let shift = 1; ; shift *= 128) {
        const b = this.bytes[at++] as number;
        gap += (b & 0x7f) * shift;
        if (b < 0x80) break;
      }
      places.push((place += gap));
    }
    return places;
  }

  /** The stored set (core/search/row-sets.ts): the gaps, or a bitmap when that is smaller. */
  encode(): Uint8Array {
    const header = (kind: number): number[] => {
      const out = [kind];
      for (let v = this.size; ; v >>>= 7) {
        if (v < 0x80) {
          out.push(v);
          break;
        }
        out.push((v & 0x7f) | 0x80);
      }
      return out;
    };
    if (this.bits !== null) return Buffer.concat([Uint8Array.from(header(1)), this.bits]);
    return Buffer.concat([Uint8Array.from(header(0)), this.bytes.subarray(0, this.length)]);
  }
}

/** The fields of a rendered record the search reads. */
interface Fields {
  readonly jedinstvena_oznaka: string;
  readonly naziv_subjekta: string;
  readonly razina: string;
  readonly datum_postanka: string;
  readonly status_subjekta: boolean;
  readonly odobreno: boolean;
  readonly institucija_grad: string;
}

/** Plans the search shards of `count` subjects in the chunk files `fileOf(chunk)`. */
export function planSearch(count: number, chunkSize: number, fileOf: (chunk: number) => ChunkFile): ShardPlan[] {
  if (count === 0) return [];
  const sets = new Map<string, RowsBuilder>();
  // One- and two-character pieces by number (a BMP character, or two): far cheaper keys than strings.
  const grams = new Map<number, RowsBuilder>();
  const setOf = (key: string): RowsBuilder => {
    let set = sets.get(key);
    if (set === undefined) sets.set(key, (set = new RowsBuilder(count)));
    return set;
  };
  const tokens = new Map<string, RowsBuilder>();
  const gramOf = (key: number): RowsBuilder => {
    let set = grams.get(key);
    if (set === undefined) grams.set(key, (set = new RowsBuilder(count)));
    return set;
  };
  const values: Record<OrderField, string[]> = { jedinstvena_oznaka: [], naziv_subjekta: [], institucija_grad: [], datum_postanka: [] };
  const seen = new Map<string, string>();
  const interned = (value: string): string => {
    const known = seen.get(value);
    if (known !== undefined) return known;
    seen.set(value, value);
    return value;
  };
  const decoder = new TextDecoder();
  let place = 0;
  for (let chunk = 0; chunk * chunkSize < count; chunk++) {
    const bytes = readFileSync(fileOf(chunk).path);
    for (let start = 0; start < bytes.length; ) {
      let end = bytes.indexOf(NEWLINE, start);
      if (end === -1) end = bytes.length;
      const r = JSON.parse(decoder.decode(bytes.subarray(start, end))) as Fields;
      start = end + 1;
      // The towns' and dates' few thousand values once each, not a string a subject held to the end of the stage.
      values.jedinstvena_oznaka.push(r.jedinstvena_oznaka);
      values.naziv_subjekta.push(r.naziv_subjekta);
      values.institucija_grad.push(interned(r.institucija_grad));
      values.datum_postanka.push(interned(r.datum_postanka));
      setOf(`r:${r.razina}`).add(place);
      setOf(`c:${r.institucija_grad}`).add(place);
      setOf(`s:${r.status_subjekta ? 1 : 0}`).add(place);
      setOf(`o:${r.odobreno ? 1 : 0}`).add(place);
      for (const token of new Set([...tokensOf(searchForm(r.naziv_subjekta)), ...tokensOf(searchForm(r.institucija_grad))])) {
        let set = tokens.get(token);
        if (set === undefined) tokens.set(token, (set = new RowsBuilder(count)));
        set.add(place);
        addGrams(token, place, gramOf, setOf);
      }
      place++;
    }
  }
  if (place !== count) throw new Error(`the chunk files hold ${place} subjects, not ${count}`);
  for (const [key, set] of grams)
    sets.set(`g:${key < 0x10000 ? String.fromCharCode(key) : String.fromCharCode(Math.floor(key / 0x10000), key % 0x10000)}`, set);
  grams.clear();
  for (const [token, set] of tokens) sets.set(`w:${token}`, set);
  tokens.clear();
  const orders = orderShard(values);
  // Two million names and codes the sets below need no more.
  for (const field of ORDER_FIELDS) values[field].length = 0;
  return [...keyShards(sets, count, orders.namePositions), orders.shard];
}

/** Adds `place` to the sets of every one- and two-character piece of `token`. */
function addGrams(token: string, place: number, gramOf: (key: number) => RowsBuilder, setOf: (key: string) => RowsBuilder): void {
  // Characters of the Basic Multilingual Plane (nearly every name) by code unit, with no array of characters made.
  let previous = -1;
  for (let i = 0; i < token.length; i++) {
    const unit = token.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdfff) {
      addGramsSlowly(token, place, gramOf, setOf);
      return;
    }
    gramOf(unit).add(place);
    if (previous >= 0) gramOf(previous * 0x10000 + unit).add(place);
    previous = unit;
  }
}

/** addGrams for a token with characters past the Basic Multilingual Plane: by code point. */
function addGramsSlowly(token: string, place: number, gramOf: (key: number) => RowsBuilder, setOf: (key: string) => RowsBuilder): void {
  const chars = [...token];
  for (let i = 0; i < chars.length; i++) {
    const one = chars[i] as string;
    const two = i + 1 < chars.length ? one + (chars[i + 1] as string) : undefined;
    if (one.length === 1) gramOf(one.charCodeAt(0)).add(place);
    else setOf(`g:${one}`).add(place);
    if (two === undefined) continue;
    if (two.length === 2) gramOf(two.charCodeAt(0) * 0x10000 + two.charCodeAt(1)).add(place);
    else setOf(`g:${two}`).add(place);
  }
}

/**
 * The buckets (every set under its key; a long token's set under none, named by its suffixes) and
 * the suffixes of the tokens, sorted.
 */
function keyShards(sets: Map<string, RowsBuilder>, count: number, namePositions: Uint32Array): ShardPlan[] {
  const buckets = bucketCount(count);
  const entries: [string, number, number][][] = Array.from({ length: buckets }, () => []);
  const parts: Uint8Array[][] = Array.from({ length: buckets }, () => []);
  const sizes = new Array<number>(buckets).fill(0);
  const put = (key: string, bytes: Uint8Array, indexed: boolean, bucket = bucketOf(key, buckets)): [number, number, number] => {
    const at: [number, number, number] = [bucket, sizes[bucket] as number, bytes.length];
    if (indexed) (entries[bucket] as [string, number, number][]).push([key, at[1], at[2]]);
    (parts[bucket] as Uint8Array[]).push(bytes);
    sizes[bucket] = (sizes[bucket] as number) + bytes.length;
    return at;
  };
  const suffixes: string[] = [];
  const sorted = [...sets].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  // The tokens' sets first in their buckets, each in a slot with room (slotOf), then the keys'
  // sets: a renamed subject changes the sets of its pieces and of its tokens, and the offsets its
  // tokens' suffix entries name stay where they were unless a set outgrows its slot.
  for (const [key, set] of sorted) {
    if (!key.startsWith("w:")) continue;
    const token = key.slice(2);
    // A term of one or two characters is found by its pieces (`g:`): a token that short needs nothing of its own.
    if (token.length < 3 || (token.length < 7 && [...token].length < 3)) continue;
    // Each place's position in the order by name goes with it (inline, or beside the set: as u32s
    // for a token of a few thousand at most, else as a set of positions), so that a search ordered
    // by name takes its page from them, reading no permutation.
    let payload: string;
    if (set.size <= INLINE_ROWS) {
      const places = set.places();
      payload = `[${places.join(",")}],[${places.map((p) => namePositions[p]).join(",")}]`;
    } else {
      const encoded = set.encode();
      // A bitmap's length is the list's (count / 8), whatever its members: it needs no room.
      const at = put(key, encoded[0] === 1 ? encoded : withRoom(encoded), false);
      const positions = Uint32Array.from(set.places(), (p) => namePositions[p] as number);
      if (set.size <= RANKED_ROWS) {
        const [, offset, length] = put(key, withRoom(new Uint8Array(positions.buffer)), false, at[0]);
        payload = `${at.join(",")},0,${offset},${length}`;
      } else {
        const byPosition = new RowsBuilder(count);
        for (const position of positions.sort()) byPosition.add(position);
        const byPositionBytes = byPosition.encode();
        const [, offset, length] = put(key, byPositionBytes[0] === 1 ? byPositionBytes : withRoom(byPositionBytes), false, at[0]);
        payload = `${at.join(",")},1,${offset},${length}`;
      }
    }
    pushSuffixes(suffixes, token, payload);
    // The builder's bytes are garbage once encoded: at a million subjects the sets are most of the stage's memory.
    set.release();
  }
  for (const [key, set] of sorted) {
    if (key.startsWith("w:")) continue;
    put(key, set.encode(), true);
    set.release();
  }
  sorted.length = 0;
  sets.clear();
  suffixes.sort();
  const files = (bucket: number): ShardFile[] => {
    const names = bucketFileNames(bucket);
    const index = (entries[bucket] as [string, number, number][]).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return [
      { name: names.index, bytes: Buffer.from(JSON.stringify(index)) },
      { name: names.values, bytes: Buffer.concat(parts[bucket] as Uint8Array[]) },
    ];
  };
  const shards: ShardPlan[] = [];
  const shardOf = (key: string, rendered: ShardFile[]): ShardPlan => {
    const hash = contentHash(VERSION, "\n", key, "\n", ...rendered.flatMap((file) => [file.name, "\n", file.bytes]));
    return { key, hash, size: rendered.length, name: (i) => (rendered[i] as ShardFile).name, files: () => rendered };
  };
  for (let first = 0; first < buckets; first += BUCKETS_PER_SHARD) {
    const rendered: ShardFile[] = [];
    for (let b = first; b < Math.min(buckets, first + BUCKETS_PER_SHARD); b++) rendered.push(...files(b));
    shards.push(shardOf(keysShardKey(first), rendered));
  }
  // The suffixes in suffixFileCount(count) files (a number the deploy preflight knows before the
  // build), cut where an edit leaves the cuts alone (suffixCuts), and the first key of each file.
  const fileCount = suffixFileCount(count);
  const cuts = suffixCuts(suffixes, fileCount);
  const firsts: string[] = [];
  let rendered: ShardFile[] = [];
  for (let file = 0; file < fileCount; file++) {
    const [from, to] = [cuts[file] as number, cuts[file + 1] as number];
    // The first file's first key is below every entry's, whatever the smallest suffix is; an empty file's is the next entry's.
    firsts.push(file === 0 ? "[" : from < suffixes.length ? keyOfEntry(suffixes[from] as string) : "\uffff");
    rendered.push({ name: suffixFileName(file), bytes: Buffer.from(`[${suffixes.slice(from, to).join(",")}]`) });
    // Each entry's string is garbage once in its file's bytes: never both for every entry at once.
    suffixes.fill("", from, to);
    if (rendered.length === SUFFIX_FILES_PER_SHARD || file === fileCount - 1) {
      shards.push(shardOf(suffixShardKey(file), rendered));
      rendered = [];
    }
  }
  const groups: ShardFile[] = [];
  for (let g = 0; g * FIRSTS_GROUP < firsts.length; g++) {
    groups.push({ name: `${g}.json`, bytes: Buffer.from(JSON.stringify(firsts.slice(g * FIRSTS_GROUP, (g + 1) * FIRSTS_GROUP))) });
  }
  const top = firsts.filter((_, i) => i % FIRSTS_GROUP === 0);
  shards.push(shardOf(SUFFIX_FIRSTS_SHARD_KEY, [{ name: SUFFIX_FIRSTS_FILE, bytes: Buffer.from(JSON.stringify(top)) }, ...groups]));
  return shards;
}

/** pushSuffixes's bytes of one token's entry, grown as a token needs. */
let scratch = Buffer.allocUnsafe(4096);

/**
 * Pushes the entries of every suffix of three characters or more of `token` (`["<suffix>",<payload>]`,
 * the suffix as JSON): from one JSON form of the token, sliced, when it needs no escapes and holds
 * no character past the Basic Multilingual Plane (nearly every token), else character by character.
 */
function pushSuffixes(suffixes: string[], token: string, payload: string): void {
  const quoted = JSON.stringify(token);
  let plain = quoted.length === token.length + 2;
  for (let i = 0; plain && i < token.length; i++) plain = (token.charCodeAt(i) & 0xf800) !== 0xd800;
  let ascii = plain;
  for (let i = 0; ascii && i < token.length; i++) ascii = token.charCodeAt(i) < 0x80;
  if (ascii) {
    // Each entry read out of one buffer as its own flat string (a payload is ASCII too): a string
    // joined of pieces is a tree of three or four objects until the sort flattens it into a fifth,
    // some 220 bytes an entry where this is 70 (a million and a half entries at a million subjects).
    const length = token.length + payload.length + 5;
    if (scratch.length < length) scratch = Buffer.allocUnsafe(2 * length);
    scratch.write(`["${token}",${payload}]`, 0, "latin1");
    for (let i = 0; i + 3 <= token.length; i++) {
      scratch[i] = 0x5b;
      scratch[i + 1] = 0x22;
      suffixes.push(scratch.toString("latin1", i, length));
    }
    return;
  }
  if (plain) {
    const tail = `",${payload}]`;
    for (let i = 0; i + 3 <= token.length; i++) suffixes.push(`["${token.slice(i)}${tail}`);
    return;
  }
  const chars = [...token];
  for (let i = 0; i + 3 <= chars.length; i++) suffixes.push(`${suffixKey(chars.slice(i).join(""))}",${payload}]`);
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

/**
 * Where the sorted suffix entries are cut into `files` files: the first entry of each file
 * (`files` + 1 numbers, the first 0, the last the entries' count). The files begin at the entries
 * whose hashes are the smallest `files` - 1 of all: a choice by content, not by position, so an
 * edit that adds, removes or changes a few entries moves no cut unless one of them is a cut's own
 * (about one chance in the entries a file holds; then that cut and the one that takes its place
 * move): the other files keep their bytes. The files' sizes vary more than equal counts would (as
 * gaps between random points do: a file holds on average entries / files, the largest of
 * thousands about ten times that). The entries of one suffix may lie in two files or more, as
 * with any cut: a term's files are those from the last whose first key is below the term's.
 */
export function suffixCuts(entries: readonly string[], files: number): number[] {
  if (files < 2) return [0, entries.length];
  const hashes = Float64Array.from(entries, hash52);
  // The smallest hashes by a numeric sort of a copy (a comparator over a million entries costs seconds).
  const threshold = hashes.slice().sort()[Math.min(entries.length, files - 1) - 1] ?? -1;
  const cuts = [0];
  for (let i = 1; i < entries.length && cuts.length < files; i++) if ((hashes[i] as number) <= threshold) cuts.push(i);
  // Fewer entries than files: the last files are empty.
  while (cuts.length < files + 1) cuts.push(entries.length);
  return cuts;
}

/** A suffix entry's key with its closing quote (`["<suffix>"`): its JSON string up to the first unescaped quote. */
function keyOfEntry(entry: string): string {
  let at = 2;
  while (entry.charCodeAt(at) !== 0x22) at += entry.charCodeAt(at) === 0x5c ? 2 : 1;
  return entry.slice(0, at + 1);
}

/** A 52-bit hash of a text (two FNV-1a passes of other bases, mixed): equal hashes of two entries are rare enough to ignore. */
function hash52(text: string): number {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    a = Math.imul(a ^ unit, 0x01000193) >>> 0;
    b = Math.imul(b ^ unit, 0x5bd1e995) >>> 0;
  }
  b = Math.imul(b ^ (b >>> 15), 0x2c1b3c6d) >>> 0;
  return a * 0x100000 + (b >>> 12);
}

/** Each order field's ranks and permutations, and the founding dates with where each begins. */
function orderShard(values: Record<OrderField, string[]>): { readonly shard: ShardPlan; readonly namePositions: Uint32Array } {
  const files: ShardFile[] = [];
  // Each place's position in name.asc.
  const namePositions = new Uint32Array(values.naziv_subjekta.length);
  for (const field of ORDER_FIELDS) {
    const column = values[field];
    const n = column.length;
    // Dates and digit codes order alike as plain text; names and towns by the collation.
    const compare =
      field === "naziv_subjekta" || field === "institucija_grad" || !column.every((v) => /^[0-9-]*$/.test(v))
        ? compareText
        : (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
    const distinct = [...new Set(column)].sort(compare);
    const rankOf = new Map(distinct.map((value, rank) => [value, rank]));
    const ranks = new Uint32Array(n);
    const starts = new Uint32Array(distinct.length + 1);
    for (let p = 0; p < n; p++) {
      const rank = rankOf.get(column[p] as string) as number;
      ranks[p] = rank;
      starts[rank + 1] = (starts[rank + 1] as number) + 1;
    }
    for (let g = 0; g < distinct.length; g++) starts[g + 1] = (starts[g + 1] as number) + (starts[g] as number);
    const asc = new Uint32Array(n);
    const filled = starts.slice(0, distinct.length);
    for (let p = 0; p < n; p++) {
      const rank = ranks[p] as number;
      asc[filled[rank] as number] = p;
      filled[rank] = (filled[rank] as number) + 1;
    }
    // Descending: the groups from the last, each group's places still rising (id breaks ties ascending).
    const desc = new Uint32Array(n);
    let at = 0;
    for (let g = distinct.length - 1; g >= 0; g--) {
      desc.set(asc.subarray(starts[g] as number, starts[g + 1] as number), at);
      at += (starts[g + 1] as number) - (starts[g] as number);
    }
    const name = ORDER_FILE[field];
    if (field === "naziv_subjekta") asc.forEach((place, position) => (namePositions[place] = position));
    const le = (array: Uint32Array): Uint8Array => new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
    files.push(
      { name: `${name}.rank`, bytes: le(ranks) },
      { name: `${name}.asc`, bytes: le(asc) },
      { name: `${name}.desc`, bytes: le(desc) },
    );
    if (field === "datum_postanka") {
      files.push(
        { name: "date.keys", bytes: Buffer.from(distinct.map((d) => `${d}\n`).join("")) },
        { name: "date.starts", bytes: le(starts) },
      );
    }
  }
  const hash = contentHash(VERSION, "\n", ORDER_SHARD_KEY, "\n", ...files.flatMap((file) => [file.name, "\n", file.bytes]));
  return {
    shard: { key: ORDER_SHARD_KEY, hash, size: files.length, name: (i) => (files[i] as ShardFile).name, files: () => files },
    namePositions,
  };
}
