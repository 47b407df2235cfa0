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
}

/**
 * What the estimate weighs, in the time of one place passed by a walk (a bit of the matches tested,
 * 4 bytes of the permutation read): a match sorted (its rank looked up, its share of a native sort
 * of numbers: 4 to 10 places walked for 1,000 to 50,000 matches), and a subject's rank in a file
 * read whole (a tenth). Measured by a loop of each over a million subjects in Node 20, the matches
 * 40 % of a random bitmap (not kept in the repository).
 */
const SORTED_MATCH = 8;
const RANK_READ = 0.1;

/** The places `offset` to `want` (of the set's `sizeOf`) of `set` in `order`. */
export async function pageInOrder(set: RowSet, order: FieldOrder, offset: number, want: number, read: OrderReader): Promise<number[]> {
  const [first, ...rest] = order.keys;
  if (first === undefined) throw new RangeError("an order by fields has one field at least");
  if (offset >= want) return [];
  const { count } = read;
  // Whether the groups of equal first values matter: a permutation breaks ties by place ascending.
  const ties = rest.length > 0 || order.idDescending;
  if (set.kind === "all") {
    // Every subject: the page is a slice of the permutation, its first and last groups completed.
    if (!ties) return [...(await read.permutation(first, offset, want))];
    const rank = await read.ranks(first.field);
    const start = await groupStart(read, first, rank, offset);
    return pageOfGroups(await groupsMeeting(read, first, rank, null, start, start, offset, want, 1), order, offset, want, read);
  }
  const total = sizeOf(set);
  // Places a walk passes if the matches are spread evenly through the permutation (from its other
  // end for a page past the middle of the matches).
  const walked = Math.min(count, Math.ceil((Math.min(want, total - offset) * count) / total));
  const reverse = total - want < offset;
  const walkCost = walked + (ties || reverse ? RANK_READ * count : 0);
  const sortCost = SORTED_MATCH * total + RANK_READ * count;
  if (walkCost > sortCost) return orderedSlice(toList(set), order.keys, order.idDescending, offset, want, read);
  const bits = membership(set, count) as Uint8Array;
  const spread = count / total;
  if (!ties && !reverse) {
    // Where the page's first match lies: the matches before it only counted.
    const at = await positionOfMatch(read, first, bits, offset, Math.ceil(offset * spread * 1.25) + 64);
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
  const at = await positionOfMatch(read, key, bits, from, Math.ceil(from * spread * 1.25) + 64);
  // The group of equal first values that holds that match, from the group's start: its matches before it are sorted with it.
  const rank = await read.ranks(first.field);
  const start = await groupStart(read, key, rank, at);
  let before = 0;
  for (const place of await read.permutation(key, start, at)) before += isMember(bits, place);
  const groups = await groupsMeeting(read, key, rank, bits, start, from - before, from, to, spread);
  if (!reverse) return pageOfGroups(groups, order, offset, want, read);
  const forward = groups.reverse().map(({ members, before }) => ({ members, before: total - before - members.length }));
  return pageOfGroups(forward, order, offset, want, read);
}

/** A group of equal first values: its matches (rising by place), and how many matches come before it. */
interface Group {
  readonly members: number[];
  readonly before: number;
}

/**
 * The groups of equal values (by `rank`) of `key`'s permutation that hold matches `from` to `to`,
 * walked from position `start` (a group's start), where `seen` matches lie before it.
 */
async function groupsMeeting(
  read: OrderReader,
  key: OrderKey,
  rank: Uint32Array,
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
  await walkPermutation(read, key, start, Math.ceil((to - seen) * spread * 1.25) + 64, read.count, bits, (place) => {
    const r = rank[place] as number;
    if (r !== value) {
      // A new group: the one before it is whole.
      if (group.length > 0 && close()) return true;
      value = r;
    }
    group.push(place);
    return false;
  });
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
 * read in growing runs from its start (the first `first` long): the matches of a run counted by
 * adding their bits, no branch a place (half of them mispredicted in a random set), and only the
 * run that holds it looked at place by place.
 */
async function positionOfMatch(read: OrderReader, key: OrderKey, bits: Uint8Array, n: number, first: number): Promise<number> {
  const { count } = read;
  let seen = 0;
  for (let at = 0, run = Math.max(1, first); at < count; at += run, run *= 2) {
    const places = await read.permutation(key, at, Math.min(count, at + run));
    let ones = 0;
    for (let i = 0; i < places.length; i++) {
      const place = places[i] as number;
      ones += ((bits[place >>> 3] as number) >>> (place & 7)) & 1;
    }
    if (seen + ones <= n) {
      seen += ones;
      continue;
    }
    for (let i = 0; i < places.length; i++) if (isMember(bits, places[i] as number) === 1 && seen++ === n) return at + i;
  }
  return count;
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
  visit: (place: number) => boolean,
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
      if (visit(place)) return true;
    }
  }
  return true;
}

/**
 * Where the group of equal values that holds position `at` of the key's permutation begins: the
 * permutation read backwards from there in growing runs until another value.
 */
async function groupStart(read: OrderReader, key: OrderKey, rank: Uint32Array, at: number): Promise<number> {
  const value = rank[(await read.permutation(key, at, at + 1))[0] as number];
  let start = at;
  for (let run = 64; start > 0; run *= 2) {
    const low = Math.max(0, start - run);
    const places = await read.permutation(key, low, start);
    let i = places.length;
    while (i > 0 && rank[places[i - 1] as number] === value) i--;
    start = low + i;
    if (i > 0) break;
  }
  return start;
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
  const rank = await read.ranks(key.field);
  const keyed = new Float64Array(places.length);
  for (let i = 0; i < places.length; i++) {
    const place = places[i] as number;
    const r = rank[place] as number;
    keyed[i] = (key.descending ? count - 1 - r : r) * count + (idDescending ? count - 1 - place : place);
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
