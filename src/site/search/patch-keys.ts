/**
 * The buckets and the tokens' suffix entries after an edit of a few records (patch-search.ts), from
 * the previous site's files: each key a changed record gained or lost has its set changed in its
 * bucket (the keys after it in the bucket move, which no other file names), and each token a changed
 * record gained or lost, or whose subjects moved in the order by name, has its set and positions
 * made again by the whole stage's encoder (key-shards.ts tokenPayload): written in its slot when
 * it still fits there (its suffix entries unchanged), or its suffix entries changed when it is
 * inline. A set that outgrows its slot and a token crossing INLINE_ROWS or RANKED_ROWS throw NoPatch:
 * the whole stage runs.
 */
import { decodeRows } from "../../core/search/row-sets.ts";
import { searchForm, tokensOf } from "../../core/search/normalise.ts";
import { bucketFileNames, bucketOf, BUCKETS_PER_SHARD, keysShardKey, suffixKey, TRIPLE_ROWS } from "../../core/search/search-layout.ts";
import type { ShardPlan } from "../hand-offs.ts";
import { indexBytes, isTriple, suffixEntryTexts, tokenBucket, tokenIndexed, tokenPayload } from "./key-shards.ts";
import { NoPatch } from "./no-patch.ts";
import type { PreviousSearch } from "./previous-search.ts";
import type { RecordFields } from "./record-fields.ts";
import { encodeRows } from "./rows-builder.ts";
import { keepFile, patchedShards } from "./patched-shards.ts";
import type { SuffixPatch } from "./patch-suffixes.ts";

/** The distinct tokens of a subject's name and town (a token in both counts once), as the gathering finds them. */
export function subjectTokens(fields: RecordFields): string[] {
  const tokens = tokensOf(searchForm(fields.name));
  for (const token of tokensOf(searchForm(fields.town))) if (!tokens.includes(token)) tokens.push(token);
  for (const token of tokens) {
    // The gathering names a pair of code units by number, and a first unit of 0 names the second alone.
    if (token.includes("\u0000")) throw new NoPatch("a token holds U+0000");
  }
  return tokens;
}

/** A subject's keys other than its tokens': its pieces of one, two and three characters, and its values. */
export function subjectKeys(fields: RecordFields, tokens: readonly string[]): Set<string> {
  const keys = new Set([`r:${fields.razina}`, `c:${fields.town}`, `s:${fields.status ? 1 : 0}`, `o:${fields.odobreno ? 1 : 0}`]);
  for (const token of tokens) {
    const chars = [...token];
    for (let i = 0; i < chars.length; i++) {
      keys.add(`g:${chars[i] as string}`);
      if (i + 1 < chars.length) keys.add(`g:${chars[i] as string}${chars[i + 1] as string}`);
      if (i + 2 < chars.length) keys.add(`g:${chars.slice(i, i + 3).join("")}`);
    }
  }
  return keys;
}

/** A changed subject's tokens and keys before and after. */
export interface ChangedSubject {
  readonly place: number;
  readonly tokensBefore: readonly string[];
  readonly tokensAfter: readonly string[];
  readonly keysBefore: ReadonlySet<string>;
  readonly keysAfter: ReadonlySet<string>;
}

/** What the patch of the keys needs besides the previous site. */
export interface KeysInput {
  readonly count: number;
  readonly changed: readonly ChangedSubject[];
  /** The unchanged subjects whose position by name moved. */
  readonly shifted: readonly number[];
  /** Each place's position in the order by name now, and each changed place's before the edit. */
  readonly namePositions: Uint32Array;
  readonly positionsBefore: ReadonlyMap<number, number>;
  /** A subject's tokens before the edit (a changed one's as it was). */
  readonly tokensBefore: (place: number) => readonly string[];
  readonly suffixes: SuffixPatch;
}

/** A token's entry in the previous site: its payload and subjects, and where its set lies when it has one. */
interface PreviousToken {
  readonly payload: string;
  readonly places: number[];
  /** The set's offset in its bucket's values, when not inline. */
  readonly offset: number | null;
}

export class KeysPatch {
  readonly #previous: PreviousSearch;
  readonly #input: KeysInput;
  readonly #buckets: number;
  /** The previous values of the buckets read, and the new ones of those changed. */
  readonly #oldValues = new Map<number, Buffer>();
  readonly #newValues = new Map<number, Buffer>();
  readonly #newIndex = new Map<number, Buffer>();

  constructor(previous: PreviousSearch, input: KeysInput, buckets: number) {
    this.#previous = previous;
    this.#input = input;
    this.#buckets = buckets;
  }

  /** Patches every token and key the edit touched; the keys' shards once done. */
  shards(spill: string): ShardPlan[] {
    this.#patchTokens();
    this.#patchKeys();
    return patchedShards(this.#previous, spill, {
      items: this.#buckets,
      perShard: BUCKETS_PER_SHARD,
      keyOf: keysShardKey,
      changed: (b) => this.#newValues.has(b),
      add: (shard, key, b) => {
        const files = bucketFileNames(b);
        const [index, values] = [this.#newIndex.get(b), this.#newValues.get(b)];
        if (index === undefined) keepFile(this.#previous, shard, key, files.index);
        else shard.add(files.index, index);
        // A bucket whose tokens' sets alone changed keeps its index.
        if (values === undefined) keepFile(this.#previous, shard, key, files.values, this.#oldValues.get(b));
        else shard.add(files.values, values);
      },
    });
  }

  /** Bucket `b`'s previous values. */
  #values(b: number): Buffer {
    let values = this.#oldValues.get(b);
    if (values === undefined) this.#oldValues.set(b, (values = this.#previous.read(keysShardKey(b), bucketFileNames(b).values)));
    return values;
  }

  /** Bucket `b`'s values as the patch leaves them so far (a copy made at the first change). */
  #changedValues(b: number): Buffer {
    let values = this.#newValues.get(b);
    if (values === undefined) this.#newValues.set(b, (values = Buffer.from(this.#values(b))));
    return values;
  }

  #patchTokens(): void {
    const { changed, shifted, tokensBefore, namePositions, positionsBefore, count, suffixes } = this.#input;
    // The tokens whose payload may change: those a changed subject gained or lost, or held where
    // its position by name moved, and those of the unchanged subjects that moved. A token a
    // renamed subject keeps in place (a word added to a name, the name's place in the order
    // the same) keeps its set: a common one's would be read and encoded again for nothing.
    const affected = new Set<string>();
    // The tokens the previous site holds for sure (a subject had them).
    const known = new Set<string>();
    for (const subject of changed) {
      const moved = namePositions[subject.place] !== positionsBefore.get(subject.place);
      for (const token of subject.tokensBefore) {
        known.add(token);
        if (moved || !subject.tokensAfter.includes(token)) affected.add(token);
      }
      for (const token of subject.tokensAfter) if (moved || !subject.tokensBefore.includes(token)) affected.add(token);
    }
    for (const place of shifted) for (const token of tokensBefore(place)) (affected.add(token), known.add(token));
    const isChanged = new Map(changed.map((subject) => [subject.place, subject]));
    for (const token of affected) {
      if (!tokenIndexed(token)) continue;
      const old = this.#previousToken(token, known.has(token));
      const members = (old?.places ?? []).filter((place) => !isChanged.has(place));
      for (const subject of changed) if (subject.tokensAfter.includes(token)) members.push(subject.place);
      members.sort((a, b) => a - b);
      const bucket = tokenBucket(token, this.#buckets);
      const laid: [number, Uint8Array][] = [];
      let at = old?.offset ?? 0;
      const put = (bytes: Uint8Array): [number, number, number] => {
        laid.push([at, bytes]);
        at += bytes.length;
        return [bucket, at - bytes.length, bytes.length];
      };
      const payload = members.length === 0 ? null : tokenPayload(members, 0, members.length, count, namePositions, put);
      if (old !== null && old.offset !== null) {
        // A set in its bucket: the same payload (so the same slots) or the whole stage.
        if (payload !== old.payload) throw new NoPatch(`the set of ${token} leaves its slot`);
        const values = this.#changedValues(bucket);
        for (const [offset, bytes] of laid) values.set(bytes, offset);
        continue;
      }
      if (laid.length > 0) throw new NoPatch(`${token} gains a set of its own`);
      if (payload === (old?.payload ?? null)) continue;
      if (old !== null) for (const entry of suffixEntryTexts(token, old.payload)) suffixes.remove(entry);
      if (payload !== null) for (const entry of suffixEntryTexts(token, payload)) suffixes.add(entry);
    }
  }

  /**
   * The previous entry of `token`: among the entries of the suffix that is the whole token (a
   * longer token ending with it has one too), the one whose subjects hold the token (all of them
   * when inline; a set checked on a few of them, and taken for no longer token's whose own key holds
   * its payload), the largest when several do (every other one's subjects are among the token's:
   * two of one size are one text); null when none does. When the token was surely there (`known`),
   * one payload among the entries is its own.
   */
  #previousToken(token: string, known: boolean): PreviousToken | null {
    const key = `${suffixKey(token)}"`;
    const entries = this.#input.suffixes.startingWith(`${key},`);
    const payloads = [...new Set(entries.map((entry) => entry.slice(key.length + 1, -1)))];
    // A token's set lies in its own bucket: a set elsewhere is another token's, not read.
    const bucket = tokenBucket(token, this.#buckets);
    const own = payloads.map((payload) => this.#payloadPlaces(payload, bucket)).filter((c) => c !== null);
    if (known && own.length === 1) return own[0] as PreviousToken;
    const holding = own.filter((c) => {
      const sampled = sample(c.places);
      if (sampled.length === 0 || !sampled.every((place) => this.#input.tokensBefore(place).includes(token))) return false;
      // Places inline are all sampled: each held the token, so the token was there and its own
      // entry names them all or more (the largest is taken below). The same places are the same
      // text, whichever token's entry it is, so a longer token's of the token's very places is the token's too.
      if (c.offset === null) return true;
      // A set, sampled: a longer token ending with this one has an entry under this key too, and
      // the sampled subjects may all hold this one without the others doing so. The set is that
      // token's exactly when its payload is also under the longer token's own key (a set's payload
      // names its slot, one token's): a sample alone could take it for this one's.
      const longer = sampled
        .map((place) => this.#input.tokensBefore(place).filter((t) => t.length > token.length && t.endsWith(token)))
        .reduce((common, tokens) => common.filter((t) => tokens.includes(t)));
      return !longer.some((other) => this.#payloadsUnder(other).includes(c.payload));
    });
    if (holding.length === 0) {
      if (known) throw new NoPatch(`the entry of ${token} is not found`);
      return null;
    }
    holding.sort((a, b) => b.places.length - a.places.length);
    const [first, second] = holding as [PreviousToken, PreviousToken | undefined];
    if (second !== undefined && second.places.length === first.places.length) throw new NoPatch(`the entry of ${token} is not told apart`);
    return first;
  }

  /** The payloads of the entries whose suffix is the whole of `token`. */
  #payloadsUnder(token: string): string[] {
    const key = `${suffixKey(token)}"`;
    return this.#input.suffixes.startingWith(`${key},`).map((entry) => entry.slice(key.length + 1, -1));
  }

  /** The subjects a payload names (inline, or its set in its bucket's previous values), and where that set lies. */
  #payloadPlaces(payload: string, only?: number): PreviousToken | null {
    const parsed = JSON.parse(`[${payload}]`) as unknown[];
    if (Array.isArray(parsed[0])) return { payload, places: parsed[0] as number[], offset: null };
    const [bucket, offset, length] = parsed as [number, number, number];
    if (only !== undefined && bucket !== only) return null;
    const values = this.#values(bucket);
    return { payload, places: placesOf(values.subarray(offset, offset + length)), offset };
  }

  /** Each key a changed subject gained or lost, its set changed in its bucket. */
  #patchKeys(): void {
    const { changed } = this.#input;
    const byBucket = new Map<number, Map<string, { gained: number[]; lost: number[] }>>();
    const delta = (key: string): { gained: number[]; lost: number[] } => {
      const b = bucketOf(key, this.#buckets);
      let keys = byBucket.get(b);
      if (keys === undefined) byBucket.set(b, (keys = new Map()));
      let d = keys.get(key);
      if (d === undefined) keys.set(key, (d = { gained: [], lost: [] }));
      return d;
    };
    for (const subject of changed) {
      for (const key of subject.keysBefore) if (!subject.keysAfter.has(key)) delta(key).lost.push(subject.place);
      for (const key of subject.keysAfter) if (!subject.keysBefore.has(key)) delta(key).gained.push(subject.place);
    }
    for (const [b, keys] of byBucket) this.#patchBucket(b, keys);
  }

  #patchBucket(b: number, keys: Map<string, { gained: number[]; lost: number[] }>): void {
    const key = keysShardKey(b);
    const index = JSON.parse(this.#previous.read(key, bucketFileNames(b).index).toString("utf8")) as [string, number, number][];
    const values = this.#changedValues(b);
    const tokensEnd = index.length === 0 ? values.length : (index[0] as [string, number, number])[1];
    const sets = new Map<string, Uint8Array>(index.map(([name, offset, length]) => [name, values.subarray(offset, offset + length)]));
    for (const [name, { gained, lost }] of keys) {
      const held = sets.get(name);
      const triple = isTriple(name);
      // A common piece's bitmap (125 KB at a million) has its bits changed, not its places listed.
      const bits = held === undefined ? null : patchedBitmap(held, gained, lost, this.#input.count, triple ? TRIPLE_ROWS : 0);
      if (bits !== null) {
        sets.set(name, bits);
        continue;
      }
      let was: Uint32Array;
      if (held !== undefined) was = heldPlaces(held);
      else if (triple) was = Uint32Array.from(this.#tripleUnion(name.slice(2))).sort();
      else was = new Uint32Array(0);
      const places = changedPlaces(was, gained, lost);
      if (triple ? places.length > TRIPLE_ROWS : places.length > 0) sets.set(name, encodeRows(places, 0, places.length, this.#input.count));
      else sets.delete(name);
    }
    const names = [...sets.keys()].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    const entries: [string, number, number][] = [];
    const parts: Uint8Array[] = [values.subarray(0, tokensEnd)];
    let size = tokensEnd;
    for (const name of names) {
      const set = sets.get(name) as Uint8Array;
      entries.push([name, size, set.length]);
      parts.push(set);
      size += set.length;
    }
    this.#newValues.set(b, Buffer.concat(parts));
    this.#newIndex.set(b, indexBytes(entries));
  }

  /**
   * The subjects of a three-character piece that has no set (a rare one): the union of the sets of
   * the tokens that hold it, named by the suffix entries that begin with it (as a query finds it).
   */
  #tripleUnion(piece: string): number[] {
    const union = new Set<number>();
    for (const entry of this.#input.suffixes.startingWith(suffixKey(piece))) {
      const payload = entry.slice(keyEnd(entry) + 1, -1);
      for (const place of (this.#payloadPlaces(payload) as PreviousToken).places) union.add(place);
    }
    if (union.size > TRIPLE_ROWS) throw new NoPatch(`the piece ${piece} has no set but ${union.size} subjects`);
    return [...union];
  }
}

/** Where an entry's key ends (past its closing quote). */
function keyEnd(entry: string): number {
  let at = 2;
  while (entry.charCodeAt(at) !== 0x22) at += entry.charCodeAt(at) === 0x5c ? 2 : 1;
  return at + 1;
}

/** The places of a stored set (row-sets.ts; zeros after it are not read). */
function placesOf(bytes: Uint8Array): number[] {
  const set = decodeRows(bytes);
  if (set.kind === "list") return Array.from(set.rows);
  if (set.kind === "all") throw new Error("a stored set is never every subject");
  const places: number[] = [];
  for (let i = 0; i < set.bits.length; i++) {
    const byte = set.bits[i] as number;
    if (byte === 0) continue;
    for (let bit = 0; bit < 8; bit++) if (byte & (1 << bit)) places.push(8 * i + bit);
  }
  return places;
}

/** The places of a stored set, rising, as an array of their own (a list's as decoded, a bitmap's gathered). */
function heldPlaces(bytes: Uint8Array): Uint32Array {
  const set = decodeRows(bytes);
  return set.kind === "list" ? set.rows : Uint32Array.from(placesOf(bytes));
}

/**
 * The rising places `held` without those `lost` and with those `gained` (a few each), rising: the
 * runs between them copied whole, not a sort of them all (a key of fifty thousand subjects at a
 * million, filtered and sorted by a comparison, cost a tenth of a second).
 */
export function changedPlaces(held: Uint32Array, gained: readonly number[], lost: readonly number[]): Uint32Array {
  // Each place taken out before one put in at the same place (never both for one key: kept as a sort would).
  const changes = [...lost.map((place) => [place, 0] as const), ...gained.map((place) => [place, 1] as const)].sort(
    (a, b) => a[0] - b[0] || a[1] - b[1],
  );
  const out = new Uint32Array(held.length + gained.length);
  let n = 0;
  let from = 0;
  for (const [place, put] of changes) {
    let at = from;
    let hi = held.length;
    while (at < hi) {
      const mid = (at + hi) >>> 1;
      if ((held[mid] as number) < place) at = mid + 1;
      else hi = mid;
    }
    out.set(held.subarray(from, at), n);
    n += at - from;
    from = at;
    if (put === 1) out[n++] = place;
    else while (held[from] === place) from++;
  }
  out.set(held.subarray(from), n);
  n += held.length - from;
  return out.subarray(0, n);
}

/**
 * The stored bitmap `held` with the places `lost` taken out and `gained` put in, as encodeRows
 * writes the set (its size, then the same bits); null when it is no bitmap, or would no longer be
 * one or would hold `least` places or fewer: then it is made again from its places.
 */
function patchedBitmap(
  held: Uint8Array,
  gained: readonly number[],
  lost: readonly number[],
  count: number,
  least: number,
): Uint8Array | null {
  const set = decodeRows(held);
  if (set.kind !== "bits") return null;
  const size = set.size + gained.length - lost.length;
  if (size <= Math.max(Math.ceil(count / 8), least)) return null;
  let header = 2;
  for (let v = size; v >= 0x80; v >>>= 7) header++;
  const out = new Uint8Array(header + set.bits.length);
  out[0] = 1;
  let at = 1;
  let v = size;
  for (; v >= 0x80; v >>>= 7) out[at++] = (v & 0x7f) | 0x80;
  out[at++] = v;
  out.set(set.bits, at);
  const flip = (place: number, was: boolean): void => {
    const i = at + (place >>> 3);
    const bit = 1 << (place & 7);
    // A key gained is one the subject had not: a set that says otherwise is not the stage's.
    if ((((out[i] as number) & bit) !== 0) !== was) throw new NoPatch(`a set ${was ? "lacks" : "holds"} place ${place}`);
    out[i] = (out[i] as number) ^ bit;
  };
  for (const place of lost) flip(place, true);
  for (const place of gained) flip(place, false);
  return out;
}

/** Up to 8 of a token's places, spread over them: each must hold the token. */
function sample(places: readonly number[]): number[] {
  if (places.length <= 8) return [...places];
  return Array.from({ length: 8 }, (_, i) => places[Math.floor((i * (places.length - 1)) / 7)] as number);
}
