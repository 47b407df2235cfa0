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
import { searchForm, tokensOf } from "../../core/search/normalise.ts";
import type { ShardPlan } from "../hand-offs.ts";
import type { ChunkFile } from "../read-chunks.ts";
import { keyShards } from "./key-shards.ts";
import { OrderFiles } from "./order-files.ts";
import { RowsBuilder } from "./rows-builder.ts";

const NEWLINE = 0x0a;

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

/**
 * Plans the search shards of `count` subjects in the chunk files `fileOf(chunk)`; their files wait in
 * the scratch directory `spill` until the site's writer takes them (spilled-shard.ts).
 */
export function planSearch(count: number, chunkSize: number, fileOf: (chunk: number) => ChunkFile, spill: string): ShardPlan[] {
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
  const orders = new OrderFiles(spill);
  const decoder = new TextDecoder();
  let place = 0;
  for (let chunk = 0; chunk * chunkSize < count; chunk++) {
    const bytes = readFileSync(fileOf(chunk).path);
    for (let start = 0; start < bytes.length; ) {
      let end = bytes.indexOf(NEWLINE, start);
      if (end === -1) end = bytes.length;
      const r = JSON.parse(decoder.decode(bytes.subarray(start, end))) as Fields;
      start = end + 1;
      orders.add(r.jedinstvena_oznaka, r.naziv_subjekta, r.institucija_grad, r.datum_postanka);
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
  const { shard, namePositions } = orders.finish();
  return [...keyShards(sets, count, namePositions, spill), shard];
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
