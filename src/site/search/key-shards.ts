/**
 * The search stage's sets under their keys in buckets, and the tokens' suffixes in sorted files
 * (core/search/search-layout.ts has the format).
 */
import {
  BUCKETS_PER_SHARD,
  bucketCount,
  bucketFileNames,
  bucketOf,
  keysShardKey,
  FIRSTS_GROUP,
  INLINE_ROWS,
  RANKED_ROWS,
  SUFFIX_FILES_PER_SHARD,
  SUFFIX_FIRSTS_FILE,
  SUFFIX_FIRSTS_SHARD_KEY,
  suffixFileCount,
  suffixFileName,
  suffixKey,
  suffixShardKey,
} from "../../core/search/search-layout.ts";
import type { ShardPlan } from "../hand-offs.ts";
import { RowsBuilder } from "./rows-builder.ts";
import { SpilledShard } from "./spilled-shard.ts";
import { keyOfEntry, suffixCuts } from "./suffix-cuts.ts";

/**
 * The buckets (every set under its key; a long token's set under none, named by its suffixes) and
 * the suffixes of the tokens, sorted.
 */
export function keyShards(sets: Map<string, RowsBuilder>, count: number, namePositions: Uint32Array, spill: string): ShardPlan[] {
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
  const shards: ShardPlan[] = [];
  for (let first = 0; first < buckets; first += BUCKETS_PER_SHARD) {
    const shard = new SpilledShard(spill, keysShardKey(first));
    for (let b = first; b < Math.min(buckets, first + BUCKETS_PER_SHARD); b++) {
      const names = bucketFileNames(b);
      const index = (entries[b] as [string, number, number][]).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
      shard.add(names.index, Buffer.from(JSON.stringify(index)));
      shard.add(names.values, Buffer.concat(parts[b] as Uint8Array[]));
      // A bucket's entries and values are garbage once in its files.
      entries[b] = [];
      parts[b] = [];
    }
    shards.push(shard.done());
  }
  // The suffixes in suffixFileCount(count) files (a number the deploy preflight knows before the
  // build), cut where an edit leaves the cuts alone (suffixCuts), and the first key of each file.
  const fileCount = suffixFileCount(count);
  const cuts = suffixCuts(suffixes, fileCount);
  const firsts: string[] = [];
  let shard: SpilledShard | null = null;
  for (let file = 0; file < fileCount; file++) {
    const [from, to] = [cuts[file] as number, cuts[file + 1] as number];
    // The first file's first key is below every entry's, whatever the smallest suffix is; an empty file's is the next entry's.
    firsts.push(file === 0 ? "[" : from < suffixes.length ? keyOfEntry(suffixes[from] as string) : "\uffff");
    shard ??= new SpilledShard(spill, suffixShardKey(file));
    shard.add(suffixFileName(file), Buffer.from(`[${suffixes.slice(from, to).join(",")}]`));
    // Each entry's string is garbage once in its file's bytes: never both for every entry at once.
    suffixes.fill("", from, to);
    if ((file + 1) % SUFFIX_FILES_PER_SHARD === 0 || file === fileCount - 1) {
      shards.push(shard.done());
      shard = null;
    }
  }
  const top = new SpilledShard(spill, SUFFIX_FIRSTS_SHARD_KEY);
  top.add(SUFFIX_FIRSTS_FILE, Buffer.from(JSON.stringify(firsts.filter((_, i) => i % FIRSTS_GROUP === 0))));
  for (let g = 0; g * FIRSTS_GROUP < firsts.length; g++) {
    top.add(`${g}.json`, Buffer.from(JSON.stringify(firsts.slice(g * FIRSTS_GROUP, (g + 1) * FIRSTS_GROUP))));
  }
  shards.push(top.done());
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
