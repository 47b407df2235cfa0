/**
 * One page of matches in an order of one or more fields, ties by id either way, from the order
 * files the build sorted once (search-layout.ts): each field's permutations (`.asc`, `.desc`: ties
 * by place ascending) and each subject's rank among the field's distinct values (`.rank`). Two
 * roads, the cheaper by an estimate of each:
 *
 * - **a walk** of the first field's permutation from its start, the matches taken as they come,
 *   until the group of equal first values that holds the page's last match ends: a group wholly
 *   before the page is only counted, one in the page ordered by the following fields and the id.
 *   It passes about (offset + limit) × count / matches places, whatever the matches' number (when
 *   every subject matches, it starts at the group that holds the page's first);
 * - **a sort** of the matches by their first rank (as numbers, natively), and again only the
 *   groups of equal first values in the page ordered by the following fields: about
 *   matches × log(matches) and each match's rank.
 *
 * Neither keeps a heap of the first offset + limit matches compared field by field: at a deep
 * offset in many matches that was most of the request (`?search=g&ordering=institucija_grad,-datum_postanka&offset=20000`,
 * 427,000 matches: 76 ms at a million subjects).
 */
import { GroupBounds, type GroupStarts } from "./group-bounds.ts";
import type { OrderField, OrderKey } from "./read-filters.ts";
import { type RowSet, sizeOf, toList } from "./row-sets.ts";

/** An order by fields: one key at least, then the id, descending or not. */
export interface FieldOrder {
  readonly keys: readonly OrderKey[];
  readonly idDescending: boolean;
}

/** How the order files of a list of `count` subjects are read. */
export interface OrderReader {
  readonly count: number;
  /** The places at positions `start` to `end` of a field's permutation (ascending, or descending as the key asks). */
  permutation(key: OrderKey, start: number, end: number): Promise<Uint32Array>;
  /** Every place's rank among the field's distinct values: the file whole, read once a request. */
  ranks(field: OrderField): Promise<Uint32Array>;
  /**
   * The ranks of `places` alone, in their order: where they are few, a few ranges of the rank file
   * in place of its 4 bytes a subject (a group of ties a page meets is a handful of subjects).
   */
  ranksOf(field: OrderField, places: ArrayLike<number>): Promise<ArrayLike<number>>;
  /**
   * Where each group of equal values of a field begins in its ascending permutation, as the site
   * lists them (group-bounds.ts: date.starts, `<f>.groups`, a few hundred KB at most against a rank
   * file's 4 MB at 1M); null for the code, each a group of its own.
   */
  groupStarts(field: OrderField): Promise<GroupStarts | null>;
}

/**
 * The keys of an order that can change it: a field asked for again changes nothing (its ties are
 * equal in it), and nothing after the code does, codes being unique (the data rules), not even the
 * id's direction. So `institucija_grad,datum_postanka,datum_postanka` is ordered by two fields, and
 * `jedinstvena_oznaka,naziv_subjekta` by the code's permutation alone, its ranks never read.
 */
export function effectiveOrder(order: FieldOrder): FieldOrder {
  const keys: OrderKey[] = [];
  for (const key of order.keys) {
    if (keys.some((k) => k.field === key.field)) continue;
    keys.push(key);
    if (key.field === "jedinstvena_oznaka") return { keys, idDescending: false };
  }
  return keys.length === order.keys.length ? order : { keys, idDescending: order.idDescending };
}

/**
 * What the estimate weighs, in the time of one place passed by a walk (a bit of the matches tested,
 * 4 bytes of the permutation read): a match sorted (its rank looked up, its share of a native sort
 * of numbers: 4 to 10 places walked for 1,000 to 50,000 matches), and a subject's rank in a file
 * read whole (a tenth). Measured by a loop of each over a million subjects in Node 20, the matches
 * 40 % of a random bitmap (not kept in the repository).
 */
const SORTED_MATCH = 8;
/** Places sorted whole by their first key; past this, only those in the ranges of values that hold the slice. */
const SORTED_WHOLE = 4096;
const RANK_READ = 0.1;

/**
 * Positions `start` to `end` of a field's ascending permutation, where every match lies: a range of
 * founding dates is a run of date.asc (and of date.desc, from its other end).
 */
export interface Span {
  readonly field: OrderField;
  readonly start: number;
  readonly end: number;
}

/**
 * The places `offset` to `want` (of the set's `sizeOf`) of `set` in `order`; where `within` is of
 * the order's first field, its walks pass only the span's positions.
 */
export async function pageInOrder(
  set: RowSet,
  asked: FieldOrder,
  offset: number,
  want: number,
  read: OrderReader,
  within: Span | null = null,
): Promise<number[]> {
  const order = effectiveOrder(asked);
  const [first, ...rest] = order.keys;
  if (first === undefined) throw new RangeError("an order by fields has one field at least");
  if (offset >= want) return [];
  const { count } = read;
  // Whether the groups of equal first values matter: a permutation breaks ties by place ascending.
  const ties = rest.length > 0 || order.idDescending;
  if (set.kind === "all") {
    // Every subject: the page is a slice of the permutation, its first and last groups completed.
    if (!ties) return [...(await read.permutation(first, offset, want))];
    const bounds = await boundsOf(read, first);
    const { start } = bounds.of(offset);
    return pageOfGroups(await groupsMeeting(read, first, bounds, null, start, start, offset, want, 1), order, offset, want, read);
  }
  const total = sizeOf(set);
  // Where a key's permutation holds matches: its span (a date range, when the first field is the date), else all of it.
  const span = within?.field === first.field ? within : { start: 0, end: count };
  const low = (key: OrderKey): number => (key.descending ? count - span.end : span.start);
  const extent = span.end - span.start;
  // A walk tells its groups of equal first values by where the site lists them (OrderReader.groupStarts):
  // a file read whole, count/8 bytes for a bitmap (the time of a walk's count/32 places), less for
  // the dates, none for the codes. A walk from the other end (for a page past the middle of the
  // matches) needs the groups even for one field.
  const grouping = first.field === "jedinstvena_oznaka" ? 0 : count / 32;
  // Places a walk passes if the matches are spread evenly through the span, from either end.
  const passed = (matches: number): number => Math.min(extent, Math.ceil((matches * extent) / total));
  const fromStart = passed(want) + (ties ? grouping : 0);
  const fromEnd = passed(total - offset) + grouping;
  const reverse = fromEnd < fromStart;
  const walkCost = Math.min(fromStart, fromEnd);
  const sortCost = SORTED_MATCH * total + RANK_READ * count;
  if (walkCost > sortCost) return orderedSlice(toList(set), order.keys, order.idDescending, offset, want, read);
  const bits = membership(set, count) as Uint8Array;
  const spread = extent / total;
  if (!ties && !reverse) {
    // Where the page's first match lies: the matches before it only counted.
    const at = await positionOfMatch(read, first, bits, offset, low(first), offset * spread);
    // From there each match in the permutation's order is the page's next.
    const page: number[] = [];
    const run = Math.ceil((want - offset) * spread * 1.25) + 64;
    await walkPermutation(read, first, at, run, count, bits, (place) => page.push(place) >= want - offset);
    return page;
  }
  // Past the middle, the other permutation from its start: its groups of equal values are this
  // one's in the reverse order, each of the same places (rising in both), so the page's groups are
  // found by counting the matches after the page.
  const key = reverse ? { field: first.field, descending: !first.descending } : first;
  const [from, to] = reverse ? [total - want, total - offset] : [offset, want];
  const at = await positionOfMatch(read, key, bits, from, low(key), from * spread);
  // The group of equal first values that holds that match, from the group's start: its matches before it are sorted with it.
  const bounds = await boundsOf(read, key);
  const start = at < count ? Math.max(low(key), bounds.of(at).start) : at;
  let before = 0;
  for (const place of await read.permutation(key, start, at)) before += isMember(bits, place);
  const groups = await groupsMeeting(read, key, bounds, bits, start, from - before, from, to, spread);
  if (!reverse) return pageOfGroups(groups, order, offset, want, read);
  const forward = groups.reverse().map(({ members, before }) => ({ members, before: total - before - members.length }));
  return pageOfGroups(forward, order, offset, want, read);
}

/** The groups of a key's permutation, from what the site lists of them (read whole, once a walk). */
async function boundsOf(read: OrderReader, key: OrderKey): Promise<GroupBounds> {
  return new GroupBounds(await read.groupStarts(key.field), read.count, key.descending);
}

/** A group of equal first values: its matches (rising by place), and how many matches come before it. */
interface Group {
  readonly members: number[];
  readonly before: number;
}

/**
 * The groups of equal values of `key`'s permutation that hold matches `from` to `to`, walked from
 * position `start` (a group's start, or its first match), where `seen` matches lie before it; each
 * match's group told by its position (`bounds`), no rank read.
 */
async function groupsMeeting(
  read: OrderReader,
  key: OrderKey,
  bounds: GroupBounds,
  bits: Uint8Array | null,
  start: number,
  seen: number,
  from: number,
  to: number,
  spread: number,
): Promise<Group[]> {
  const groups: Group[] = [];
  let group: number[] = [];
  let value = -1;
  const close = (): boolean => {
    const size = group.length;
    if (seen + size > from) {
      groups.push({ members: group, before: seen });
      group = [];
    } else group.length = 0;
    seen += size;
    return seen >= to;
  };
  const { count } = read;
  for (let at = start, run = Math.ceil((to - seen) * spread * 1.25) + 64; at < count; at += run, run *= 2) {
    const places = await read.permutation(key, at, Math.min(count, at + run));
    for (let i = 0; i < places.length; i++) {
      const place = places[i] as number;
      if (bits !== null && isMember(bits, place) === 0) continue;
      const g = bounds.groupOf(at + i);
      if (g !== value) {
        // A new group: the one before it is whole.
        if (group.length > 0 && close()) return groups;
        value = g;
      }
      group.push(place);
    }
  }
  if (group.length > 0) close();
  return groups;
}

/** The page `offset` to `want` of the groups that hold it, in order: each group's part of it sorted by the following fields and the id. */
async function pageOfGroups(
  groups: readonly Group[],
  order: FieldOrder,
  offset: number,
  want: number,
  read: OrderReader,
): Promise<number[]> {
  const rest = order.keys.slice(1);
  const page: number[] = [];
  for (const { members, before } of groups) {
    const from = Math.max(0, offset - before);
    const to = Math.min(members.length, want - before);
    if (from >= to) continue;
    if (members.length === 1) page.push(members[0] as number);
    else if (rest.length === 0) page.push(...(order.idDescending ? members.reverse() : members).slice(from, to));
    else page.push(...(await orderedSlice(members, rest, order.idDescending, from, to, read)));
  }
  return page;
}

/**
 * The position in a field's permutation of match number `n` (from 0) of `bits`, the permutation
 * read in growing runs from position `low` (none before it holds a match; the places to it
 * `estimate`, were the matches spread evenly): the matches of a run counted by adding their bits,
 * no branch a place (half of them mispredicted in a random set), and only the block that holds it
 * looked at place by place.
 */
async function positionOfMatch(
  read: OrderReader,
  key: OrderKey,
  bits: Uint8Array,
  n: number,
  low: number,
  estimate: number,
): Promise<number> {
  const { count } = read;
  let seen = 0;
  for (let at = low, run = Math.ceil(estimate * RUN_MARGIN) + 256; at < count; ) {
    const places = await read.permutation(key, at, Math.min(count, at + run));
    const ones = membersIn(places, 0, places.length, bits);
    if (seen + ones <= n) {
      seen += ones;
      at += places.length;
      // The next run: the matches still wanted at the density met so far, a quarter more, at most
      // twice this one (doubling alone read up to twice the walk: 4 MB of a permutation for 2).
      const passed = at - low;
      run = seen === 0 ? run * 2 : Math.min(run * 2, Math.ceil((((n + 1 - seen) * passed) / seen) * RUN_MARGIN) + 256);
      continue;
    }
    // The run that holds it: counted a block at a time as above, and only the block that holds it
    // place by place (a run may be the whole permutation, where a branch a place cost twice the count).
    for (let block = 0; block < places.length; block += MATCH_BLOCK) {
      const end = Math.min(places.length, block + MATCH_BLOCK);
      const ones = membersIn(places, block, end, bits);
      if (seen + ones <= n) {
        seen += ones;
        continue;
      }
      for (let i = block; i < end; i++) if (isMember(bits, places[i] as number) === 1 && seen++ === n) return at + i;
    }
  }
  return count;
}

/**
 * A run of a walk past what the matches met so far say it needs: short, since a run too long is
 * read whole (at a deep offset, a tenth of the list), and one too short costs one more read.
 */
const RUN_MARGIN = 1.05;

/** Places of a run counted at a time before the one that holds a match sought is looked at place by place. */
const MATCH_BLOCK = 512;

/**
 * How many of `places` from index `start` to `end` `bits` holds: their bits added, no branch a
 * place, four at a time into four sums (the loads of one place never wait on another's: 1.1 ms
 * a million places against 1.6 one at a time, in Node 20 on this machine).
 */
function membersIn(places: Uint32Array, start: number, end: number, bits: Uint8Array): number {
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  let i = start;
  for (; i + 4 <= end; i += 4) {
    // (Plain names, not a destructured array: nothing made a step in the hot loop.)
    const p = places[i] as number;
    const q = places[i + 1] as number;
    const r = places[i + 2] as number;
    const s = places[i + 3] as number;
    a += ((bits[p >>> 3] as number) >>> (p & 7)) & 1;
    b += ((bits[q >>> 3] as number) >>> (q & 7)) & 1;
    c += ((bits[r >>> 3] as number) >>> (r & 7)) & 1;
    d += ((bits[s >>> 3] as number) >>> (s & 7)) & 1;
  }
  for (; i < end; i++) a += isMember(bits, places[i] as number);
  return a + b + c + d;
}

/** 1 where `bits` holds `place`, else 0. */
function isMember(bits: Uint8Array, place: number): number {
  return ((bits[place >>> 3] as number) >>> (place & 7)) & 1;
}

/**
 * Positions `from` onwards of a field's permutation (read in runs, the first `first` long, each
 * next twice the last), each place that `bits` holds (every place: null) passed to `visit` until it
 * answers true or the permutation ends. False where the walk would pass position `most` first.
 */
export async function walkPermutation(
  read: OrderReader,
  key: OrderKey,
  from: number,
  first: number,
  most: number,
  bits: Uint8Array | null,
  visit: (place: number, position: number) => boolean,
): Promise<boolean> {
  const { count } = read;
  for (let at = from, run = Math.max(1, first); at < count; at += run, run *= 2) {
    const end = Math.min(count, at + run);
    if (end > most) return false;
    // By index and the bits inline: a walk may pass the whole permutation, a million places at 1M.
    const places = await read.permutation(key, at, end);
    for (let i = 0; i < places.length; i++) {
      const place = places[i] as number;
      if (bits !== null && ((bits[place >>> 3] as number) & (1 << (place & 7))) === 0) continue;
      if (visit(place, at + i)) return true;
    }
  }
  return true;
}

/**
 * Places `from` to `to` of `places` in the order of `keys` (one at least) and the id: sorted by the
 * first key's rank and the id as one number each (rank × count + place, exact below 94 million
 * subjects), then each group of equal first values the slice meets ordered by the following keys.
 */
async function orderedSlice(
  places: ArrayLike<number>,
  keys: readonly OrderKey[],
  idDescending: boolean,
  from: number,
  to: number,
  read: OrderReader,
): Promise<number[]> {
  const [key, ...rest] = keys as [OrderKey, ...OrderKey[]];
  const { count } = read;
  const ranks = await read.ranksOf(key.field, places);
  const valueOf = (i: number): number => (key.descending ? count - 1 - (ranks[i] as number) : (ranks[i] as number));
  // Many places: only those whose values fall in the ranges of values that hold the slice are
  // sorted (values counted by range first, about 65,536 ranges), not all of them (a sort of
  // 50,000 numbers is some 4 ms). Equal values share a range, so a group is never cut.
  // (A sixteenth of the list at most, so that the tests' small lists take both roads.)
  const shift = Math.max(0, 16 - Math.clz32(count));
  let [low, high] = [0, Infinity];
  let sliced = places.length;
  if (places.length > Math.min(SORTED_WHOLE, Math.ceil(count / 16))) {
    const ranges = new Uint32Array((count >>> shift) + 1);
    for (let i = 0; i < places.length; i++) {
      const range = valueOf(i) >>> shift;
      ranges[range] = (ranges[range] as number) + 1;
    }
    let before = 0;
    let r = 0;
    while (before + (ranges[r] as number) <= from) before += ranges[r++] as number;
    low = r;
    let through = before;
    while (through < to) through += ranges[r++] as number;
    high = r - 1;
    [from, to] = [from - before, to - before];
    sliced = through - before;
  }
  const keyed = new Float64Array(sliced);
  for (let i = 0, k = 0; i < places.length; i++) {
    const value = valueOf(i);
    const range = value >>> shift;
    if (range < low || range > high) continue;
    const place = places[i] as number;
    keyed[k++] = value * count + (idDescending ? count - 1 - place : place);
  }
  keyed.sort();
  const valueAt = (i: number): number => Math.floor((keyed[i] as number) / count);
  const placeAt = (i: number): number => {
    const own = (keyed[i] as number) - valueAt(i) * count;
    return idDescending ? count - 1 - own : own;
  };
  const page: number[] = [];
  if (rest.length === 0) {
    for (let i = from; i < to; i++) page.push(placeAt(i));
    return page;
  }
  let start = from;
  while (start > 0 && valueAt(start - 1) === valueAt(from)) start--;
  while (start < to) {
    let end = start + 1;
    while (end < keyed.length && valueAt(end) === valueAt(start)) end++;
    if (end - start === 1) page.push(placeAt(start));
    else {
      const members = Array.from({ length: end - start }, (_, i) => placeAt(start + i));
      page.push(...(await orderedSlice(members, rest, idDescending, Math.max(0, from - start), Math.min(end, to) - start, read)));
    }
    start = end;
  }
  return page;
}

/** The bits of a set of places among `count` (bit `place & 7` of byte `place >>> 3`); null for every place. */
export function membership(set: RowSet, count: number): Uint8Array | null {
  if (set.kind === "all") return null;
  if (set.kind === "bits") return set.bits;
  const bits = new Uint8Array(Math.ceil(count / 8));
  for (const row of set.rows) bits[row >>> 3] = (bits[row >>> 3] as number) | (1 << (row & 7));
  return bits;
}
