/**
 * The order files after an edit of a few records (patch-search.ts), from the previous ones, with
 * no sort and no array made again whole: the previous files read into arrays of their own
 * (readU32s) and changed in place. Each changed place is found in the field's ascending order by a
 * binary search under its previous value, and put back where a binary search under the whole
 * stage's comparison (compareOrderValues, then the place) finds it: only the positions between
 * (the window) move. The ranks are counted again along the window (a new rank where two
 * neighbours differ: the old ranks say so for two unchanged places, their values for a changed
 * one); past it every rank moves by the same amount, before it none. The dates' field, whose keys
 * and starts follow every group, is counted again whole, in place. The descending order and the
 * dates' files are written from them by the whole stage's writer (order-files.ts addFieldFiles). A
 * field whose values did not change keeps its files.
 */
import { closeSync, fstatSync, openSync } from "node:fs";
import { readInto } from "../../common/read-into.ts";
import type { OrderField } from "../../core/search/read-filters.ts";
import { compareOrderValues } from "../../core/search/match-record.ts";
import { NoPatch } from "./no-patch.ts";

/** A field's new order: its places ascending, each place's rank, and for the dates their keys and starts. */
export interface PatchedOrder {
  readonly asc: Uint32Array;
  readonly ranks: Uint32Array;
  readonly dates?: { readonly keys: readonly string[]; readonly starts: Uint32Array };
  /** The positions in `asc` that may hold another place than before: [from, to). */
  readonly from: number;
  readonly to: number;
}

/**
 * The order of `field` with the places `changed` holding new values: `asc` and `ranks` the
 * previous files' arrays, changed in place and answered; `valueOf` any place's value now (an
 * unchanged place's is as it was), `valueBefore` a changed place's value before the edit;
 * `oldKeys` the previous distinct dates (the dates' field only).
 */
export function patchOrder(
  field: OrderField,
  asc: Uint32Array,
  ranks: Uint32Array,
  changed: readonly number[],
  valueOf: (place: number) => string,
  valueBefore: (place: number) => string,
  oldKeys?: readonly string[],
): PatchedOrder {
  const n = asc.length;
  const moves = [...new Set(changed)];
  const isChanged = new Set(moves);
  const before = (place: number): string => (isChanged.has(place) ? valueBefore(place) : valueOf(place));
  // Each changed place's position before: the order was sorted under the values before.
  const removed = moves
    .map((place) => {
      const at = firstAtOrAfter(0, n, (i) => compareOrderValues(before(asc[i] as number), before(place)) || (asc[i] as number) - place);
      // A previous order not as the whole stage sorts it (damaged by hand): the whole stage writes it anew.
      if (asc[at] !== place) throw new NoPatch(`the order of ${field} does not hold place ${place} where its value puts it`);
      return at;
    })
    .sort((a, b) => a - b);
  // The order without the changed places, read through `asc`: its index j is asc's past the removed at or before it.
  const restAt = (j: number): number => {
    let i = j;
    for (const r of removed) if (r <= i) i++;
    return asc[i] as number;
  };
  const compare = (a: number, b: number): number => compareOrderValues(valueOf(a), valueOf(b)) || a - b;
  const moved = moves.sort(compare);
  // Each changed place's position now: the first unchanged place after it, and the changed ones before it.
  const positions: number[] = [];
  let from = 0;
  for (const [m, place] of moved.entries()) {
    from = firstAtOrAfter(from, n - moved.length, (j) => compare(restAt(j), place));
    positions.push(from + m);
  }
  const lo = Math.min(removed[0] as number, positions[0] as number);
  const hi = Math.max(removed[removed.length - 1] as number, positions[positions.length - 1] as number);
  // The window again: its unchanged places in order, the changed ones put in at their positions.
  const kept = new Uint32Array(hi - lo + 1 - moved.length);
  let k = 0;
  for (let i = lo, r = 0; i <= hi; i++) {
    if (removed[r] === i) r++;
    else kept[k++] = asc[i] as number;
  }
  let at = lo;
  k = 0;
  for (const [m, place] of moved.entries()) {
    while (at < (positions[m] as number)) asc[at++] = kept[k++] as number;
    asc[at++] = place;
  }
  while (at <= hi) asc[at++] = kept[k++] as number;
  const changedAt = new Set(positions);
  /** Whether position `i` (> 0) begins a new rank: its value differs from the one before. */
  const differs = (i: number, oldRank: number, oldRankBefore: number): boolean =>
    changedAt.has(i) || changedAt.has(i - 1) ? valueOf(asc[i] as number) !== valueOf(asc[i - 1] as number) : oldRank !== oldRankBefore;
  if (oldKeys !== undefined)
    return { asc, ranks, dates: countDates(asc, ranks, oldKeys, differs, changedAt, valueOf), from: lo, to: hi + 1 };
  // Before the window every rank is as it was; along it and one past it they are counted again.
  const end = Math.min(n - 1, hi + 1);
  const counted = new Uint32Array(end - lo + 1);
  let rank = lo === 0 ? -1 : (ranks[asc[lo - 1] as number] as number);
  let oldRankBefore = rank;
  for (let i = lo; i <= end; i++) {
    const oldRank = ranks[asc[i] as number] as number;
    if (i === 0 || differs(i, oldRank, oldRankBefore)) rank++;
    counted[i - lo] = rank;
    oldRankBefore = oldRank;
  }
  // Past the window every rank moves as the first one past it did: a rank at or above its old one
  // is past the window or in it (a place before it of that rank holds its value: then nothing moved).
  if (end > hi) {
    const first = ranks[asc[end] as number] as number;
    const delta = (counted[end - lo] as number) - first;
    if (delta !== 0)
      for (let place = 0; place < n; place++) if ((ranks[place] as number) >= first) ranks[place] = (ranks[place] as number) + delta;
  }
  for (let i = lo; i <= end; i++) ranks[asc[i] as number] = counted[i - lo] as number;
  return { asc, ranks, from: lo, to: hi + 1 };
}

/** The dates' ranks counted again along the whole order, in place, with their keys and starts. */
function countDates(
  asc: Uint32Array,
  ranks: Uint32Array,
  oldKeys: readonly string[],
  differs: (i: number, oldRank: number, oldRankBefore: number) => boolean,
  changedAt: ReadonlySet<number>,
  valueOf: (place: number) => string,
): { readonly keys: readonly string[]; readonly starts: Uint32Array } {
  const keys: string[] = [];
  const starts: number[] = [];
  let rank = -1;
  let oldRankBefore = -1;
  for (let i = 0; i < asc.length; i++) {
    const place = asc[i] as number;
    // Each place comes once: its rank is still the old one when read.
    const oldRank = ranks[place] as number;
    if (i === 0 || differs(i, oldRank, oldRankBefore)) {
      rank++;
      keys.push(changedAt.has(i) ? valueOf(place) : (oldKeys[oldRank] as string));
      starts.push(i);
    }
    ranks[place] = rank;
    oldRankBefore = oldRank;
  }
  starts.push(asc.length);
  return { keys, starts: Uint32Array.from(starts) };
}

/** The first index in [from, to) whose `sign` is not below 0 (`to` when none), for a `sign` that rises with the index. */
function firstAtOrAfter(from: number, to: number, sign: (i: number) => number): number {
  let [lo, hi] = [from, to];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sign(mid) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Whether this machine's typed arrays are little-endian, as the order files are. */
export const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * The file of u32s at `path` (little-endian, as the order files are) as an array: read straight
 * into it, not into a Buffer copied after (4 MB a file at a million subjects, each page a fault
 * in fresh memory).
 */
export function readU32s(path: string): Uint32Array {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const out = new Uint32Array(size >>> 2);
    if (readInto(fd, new Uint8Array(out.buffer), 0, out.byteLength, 0) !== out.byteLength) throw new Error(`${path} ended early`);
    if (!LITTLE_ENDIAN) {
      const view = new DataView(out.buffer);
      for (let i = 0; i < out.length; i++) out[i] = view.getUint32(4 * i, true);
    }
    return out;
  } finally {
    closeSync(fd);
  }
}
