/**
 * The groups of equal values of an order field's permutation (ascending or descending), told by
 * position from what the site lists of them (search-layout.ts): where each date begins
 * (date.starts), a bitmap of where each name's and town's group begins (`<f>.groups`), and for a
 * code nothing (codes are unique, each a group of its own). So a walk of a multi-field order finds
 * the group that holds a position, and where it ends, without reading a rank.
 */

/** Where a field's groups begin in its ascending permutation: a list of starts (rising, the count last), or a bitmap over its positions. */
export type GroupStarts = { readonly kind: "list"; readonly starts: Uint32Array } | { readonly kind: "bits"; readonly bits: Uint8Array };

/** The group that holds a position: the positions `start` to `end` (past its last). */
export interface Bounds {
  readonly start: number;
  readonly end: number;
}

/**
 * The groups of a permutation of `count` places whose ascending groups begin at `starts` (null:
 * each place a group); `descending` for the descending permutation, whose groups are the
 * ascending's in the reverse order (each of the same places).
 */
export class GroupBounds {
  readonly #starts: GroupStarts | null;
  readonly #count: number;
  readonly #descending: boolean;
  /** The last group found, in ascending positions: walks ask about one group's positions in a row. */
  #low = 0;
  #high = 0;

  constructor(starts: GroupStarts | null, count: number, descending: boolean) {
    this.#starts = starts;
    this.#count = count;
    this.#descending = descending;
  }

  /** The group that holds `position` (0 to count - 1) of the permutation. */
  of(position: number): Bounds {
    const count = this.#count;
    const at = this.#descending ? count - 1 - position : position;
    if (at < this.#low || at >= this.#high) [this.#low, this.#high] = this.#ascending(at);
    return this.#descending ? { start: count - this.#high, end: count - this.#low } : { start: this.#low, end: this.#high };
  }

  /** The start of the group that holds `position`: a number the same for its whole group, another for each other group. */
  groupOf(position: number): number {
    return this.of(position).start;
  }

  /** The ascending positions of the group that holds ascending position `at`. */
  #ascending(at: number): [number, number] {
    const starts = this.#starts;
    if (starts === null) return [at, at + 1];
    if (starts.kind === "list") {
      // The last start at or before the position (a group is never empty).
      const list = starts.starts;
      let lo = 0;
      let hi = list.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if ((list[mid] as number) <= at) lo = mid + 1;
        else hi = mid;
      }
      return [list[lo - 1] as number, list[lo] as number];
    }
    return [lastSetAtOrBefore(starts.bits, at), firstSetAfter(starts.bits, at, this.#count)];
  }
}

/** The last position at or before `at` whose bit is set (position 0 always is: the first group begins there). */
function lastSetAtOrBefore(bits: Uint8Array, at: number): number {
  let byte = at >>> 3;
  // The bits of the byte at or below the position, then whole bytes down to one that holds a start.
  let ones = (bits[byte] as number) & ((2 << (at & 7)) - 1);
  while (ones === 0 && byte > 0) ones = bits[--byte] as number;
  return ones === 0 ? 0 : byte * 8 + 31 - Math.clz32(ones);
}

/** The first position after `at` whose bit is set, or `count` where none is (the last group). */
function firstSetAfter(bits: Uint8Array, at: number, count: number): number {
  const next = at + 1;
  if (next >= count) return count;
  let byte = next >>> 3;
  let ones = ((bits[byte] as number) >>> (next & 7)) << (next & 7);
  while (ones === 0 && ++byte < bits.length) ones = bits[byte] as number;
  if (ones === 0) return count;
  // The lowest set bit.
  return Math.min(count, byte * 8 + 31 - Math.clz32(ones & -ones));
}
