/**
 * Strings of bytes held one after another in one array, sorted as byte strings (by the first byte
 * that differs, a string that is another's beginning first), equal strings by their index: a
 * three-way radix quicksort (Bentley and Sedgewick's multikey quicksort). Each step reads one
 * character of each string at one depth, so a beginning shared by many strings ("OSNOVNA SKOLA …")
 * costs one pass over them a character, where a comparison sort compared it again at each of its
 * n log n comparisons; and no string object is made for a key. A character is three bytes (a
 * number of 27 bits, 9 a byte: the byte plus one, 0 past the string's end), read once for each part
 * at its depth into an array beside the order and moved with it: the partitions of a part read
 * that array in turn, not the strings' bytes wherever they lie (some 20 % less time on a run's
 * names than a byte a depth read at each partition). The external sort of the order files
 * (site/search/sorted-runs.ts) sorts a run's primary keys with it.
 */

/** Below this many strings a part is sorted by insertion, comparing from its depth. */
const FEW = 12;

/** Bits of a byte in a character (the byte plus one, 0 past the end). */
const BITS = 9;
/** Bytes in a character. */
const WIDTH = 3;

/**
 * The indices 0 to n - 1 of the strings `bytes[starts[i], starts[i + 1])` (n = starts.length - 1)
 * in order (see above). `tied`, when given (n long, zeros), gets a 1 at each position of the order
 * whose string is the same as the next position's.
 */
export function sortByteStrings(bytes: Uint8Array, starts: Uint32Array, tied?: Uint8Array): Uint32Array {
  const n = starts.length - 1;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  // Each position's character at its part's depth, once read (a part's `read` 1).
  const cache = new Uint32Array(n);
  // Parts to sort: from, to, the depth their strings share the bytes before, and whether their characters are read.
  const stack: number[] = [0, n, 0, 0];
  while (stack.length > 0) {
    const read = stack.pop() as number;
    const depth = stack.pop() as number;
    const to = stack.pop() as number;
    const from = stack.pop() as number;
    if (to - from < FEW) {
      insertionSort(bytes, starts, order, from, to, depth);
      if (tied !== undefined)
        for (let i = from; i + 1 < to; i++) if (sameFrom(bytes, starts, order[i] as number, order[i + 1] as number, depth)) tied[i] = 1;
      continue;
    }
    if (read === 0)
      for (let i = from; i < to; i++) {
        const index = order[i] as number;
        const p = (starts[index] as number) + depth;
        const end = starts[index + 1] as number;
        let c = 0;
        if (p < end) {
          c = ((bytes[p] as number) + 1) << (2 * BITS);
          if (p + 1 < end) {
            c |= ((bytes[p + 1] as number) + 1) << BITS;
            if (p + 2 < end) c |= (bytes[p + 2] as number) + 1;
          }
        }
        cache[i] = c;
      }
    const pivot = medianOf(cache[from] as number, cache[(from + to) >>> 1] as number, cache[to - 1] as number);
    // Three parts by the character at the depth: below the pivot's, equal, above.
    let below = from;
    let above = to;
    for (let i = from; i < above; ) {
      const c = cache[i] as number;
      if (c < pivot) {
        const t = order[below] as number;
        order[below] = order[i] as number;
        order[i] = t;
        cache[i] = cache[below] as number;
        cache[below] = c;
        below++;
        i++;
      } else if (c > pivot) {
        above--;
        const t = order[above] as number;
        order[above] = order[i] as number;
        order[i] = t;
        cache[i] = cache[above] as number;
        cache[above] = c;
      } else i++;
    }
    if (below - from > 1) stack.push(from, below, depth, 1);
    if (to - above > 1) stack.push(above, to, depth, 1);
    if (above - below > 1) {
      // Strings that all end within the character are equal: by index (the partition moved them).
      if ((pivot & ((1 << BITS) - 1)) === 0) {
        order.subarray(below, above).sort();
        if (tied !== undefined) tied.fill(1, below, above - 1);
      } else stack.push(below, above, depth + WIDTH, 0);
    }
  }
  return order;
}

function medianOf(a: number, b: number, c: number): number {
  return a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
}

/** `order[from, to)` sorted by insertion, the strings compared from `depth` (their bytes before are the same). */
function insertionSort(bytes: Uint8Array, starts: Uint32Array, order: Uint32Array, from: number, to: number, depth: number): void {
  for (let i = from + 1; i < to; i++) {
    const index = order[i] as number;
    let j = i;
    while (j > from && compareFrom(bytes, starts, order[j - 1] as number, index, depth) > 0) {
      order[j] = order[j - 1] as number;
      j--;
    }
    order[j] = index;
  }
}

/** The order of strings `a` and `b` from `depth` on, then of their indices. */
function compareFrom(bytes: Uint8Array, starts: Uint32Array, a: number, b: number, depth: number): number {
  let p = (starts[a] as number) + depth;
  let q = (starts[b] as number) + depth;
  const pEnd = starts[a + 1] as number;
  const qEnd = starts[b + 1] as number;
  for (; p < pEnd && q < qEnd; p++, q++) if (bytes[p] !== bytes[q]) return (bytes[p] as number) - (bytes[q] as number);
  if (p < pEnd) return 1;
  if (q < qEnd) return -1;
  return a - b;
}

/** Whether strings `a` and `b` are the same from `depth` on. */
function sameFrom(bytes: Uint8Array, starts: Uint32Array, a: number, b: number, depth: number): boolean {
  const p = (starts[a] as number) + depth;
  const q = (starts[b] as number) + depth;
  const length = (starts[a + 1] as number) - p;
  if ((starts[b + 1] as number) - q !== length) return false;
  for (let k = 0; k < length; k++) if (bytes[p + k] !== bytes[q + k]) return false;
  return true;
}
