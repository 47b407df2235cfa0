/**
 * The order files after an edit of a few records (patch-search.ts), from the previous ones, with
 * no sort: the changed places taken out of the field's ascending order and put back each where a
 * binary search under the whole stage's comparison (compareOrderValues, then the place) finds it;
 * the ranks counted again along the new order, where two neighbours differ (the old ranks say so
 * for two unchanged places, their values for a changed one); the descending order and the dates'
 * files written from them by the whole stage's writer (order-files.ts addFieldFiles). A field
 * whose values did not change keeps its files.
 */
import type { OrderField } from "../../core/search/read-filters.ts";
import { compareOrderValues } from "../../core/search/match-record.ts";

/** A field's new order: its places ascending, each place's rank, and for the dates their keys and starts. */
export interface PatchedOrder {
  readonly asc: Uint32Array;
  readonly ranks: Uint32Array;
  readonly dates?: { readonly keys: readonly string[]; readonly starts: Uint32Array };
}

/**
 * The order of `field` with the places `changed` holding new values: `oldAsc` and `oldRanks` the
 * previous files, `valueOf` any place's value now (an unchanged place's is as it was), `oldKeys`
 * the previous distinct dates (the dates' field only).
 */
export function patchOrder(
  field: OrderField,
  oldAsc: Uint32Array,
  oldRanks: Uint32Array,
  changed: readonly number[],
  valueOf: (place: number) => string,
  oldKeys?: readonly string[],
): PatchedOrder {
  const n = oldAsc.length;
  const moves = new Set(changed);
  // A flag a place, not a Set: the walks below ask it twice a subject.
  const isChanged = new Uint8Array(n);
  for (const place of moves) isChanged[place] = 1;
  const rest = new Uint32Array(n - moves.size);
  let r = 0;
  for (let i = 0; i < n; i++) if (isChanged[oldAsc[i] as number] === 0) rest[r++] = oldAsc[i] as number;
  if (r !== rest.length) throw new Error(`the order of ${field} does not hold every changed place`);
  const compare = (a: number, b: number): number => compareOrderValues(valueOf(a), valueOf(b)) || a - b;
  const moved = [...moves].sort(compare);
  // Each changed place's index in `rest`: the first unchanged place after it.
  const asc = new Uint32Array(n);
  let from = 0;
  let at = 0;
  for (const place of moved) {
    let lo = from;
    let hi = rest.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(rest[mid] as number, place) < 0) lo = mid + 1;
      else hi = mid;
    }
    asc.set(rest.subarray(from, lo), at);
    at += lo - from;
    asc[at++] = place;
    from = lo;
  }
  asc.set(rest.subarray(from), at);
  // The ranks along the new order: a new rank where a place's value differs from the one before.
  const ranks = new Uint32Array(n);
  const keys: string[] = [];
  const starts: number[] = [];
  let rank = -1;
  for (let i = 0; i < n; i++) {
    const place = asc[i] as number;
    let differs = i === 0;
    if (!differs) {
      const before = asc[i - 1] as number;
      differs =
        isChanged[place] === 1 || isChanged[before] === 1 ? valueOf(place) !== valueOf(before) : oldRanks[place] !== oldRanks[before];
    }
    if (differs) {
      rank++;
      if (oldKeys !== undefined) {
        keys.push(isChanged[place] === 1 ? valueOf(place) : (oldKeys[oldRanks[place] as number] as string));
        starts.push(i);
      }
    }
    ranks[place] = rank;
  }
  if (oldKeys === undefined) return { asc, ranks };
  starts.push(n);
  return { asc, ranks, dates: { keys, starts: Uint32Array.from(starts) } };
}

/** Whether this machine's typed arrays are little-endian, as the order files are. */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** A file of u32s (little-endian, as the order files are) as an array. */
export function u32s(bytes: Buffer): Uint32Array {
  const out = new Uint32Array(bytes.length / 4);
  // One copy of the bytes (a Buffer's offset need not be aligned for a view), not a call a number.
  if (LITTLE_ENDIAN) new Uint8Array(out.buffer).set(bytes.subarray(0, 4 * out.length));
  else for (let i = 0; i < out.length; i++) out[i] = bytes.readUInt32LE(4 * i);
  return out;
}
