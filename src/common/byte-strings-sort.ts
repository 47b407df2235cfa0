/**
 * Strings of bytes held one after another in one array, sorted as byte strings (by the first byte
 * that differs, a string that is another's beginning first), equal strings by their index: a
 * three-way radix quicksort (Bentley and Sedgewick's multikey quicksort). Each step reads one byte
 * of each string at one depth, so a beginning shared by many strings ("OSNOVNA SKOLA …") costs one
 * pass over them a byte, where a comparison sort compared it again at each of its n log n
 * comparisons; and no string object is made for a key. The external sort of the order files
 * (site/search/sorted-runs.ts) sorts a run's primary keys with it.
 */

/** Below this many strings a part is sorted by insertion, comparing from its depth. */
const FEW = 12;

/**
 * The indices 0 to n - 1 of the strings `bytes[starts[i], starts[i + 1])` (n = starts.length - 1)
 * in order (see above).
 */
export function sortByteStrings(bytes: Uint8Array, starts: Uint32Array): Uint32Array {
  const n = starts.length - 1;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  // The byte at a depth, plus one, or 0 past the string's end: an end sorts before any byte.
  const at = (index: number, depth: number): number => {
    const position = (starts[index] as number) + depth;
    return position < (starts[index + 1] as number) ? (bytes[position] as number) + 1 : 0;
  };
  // Parts to sort: from, to, and the depth their strings share the bytes before.
  const stack: number[] = [0, n, 0];
  while (stack.length > 0) {
    const depth = stack.pop() as number;
    const to = stack.pop() as number;
    const from = stack.pop() as number;
    if (to - from < FEW) {
      insertionSort(bytes, starts, order, from, to, depth);
      continue;
    }
    const pivot = medianOf(
      at(order[from] as number, depth),
      at(order[(from + to) >>> 1] as number, depth),
      at(order[to - 1] as number, depth),
    );
    // Three parts by the byte at the depth: below the pivot's, equal, above.
    let below = from;
    let above = to;
    for (let i = from; i < above; ) {
      const b = at(order[i] as number, depth);
      if (b < pivot) {
        const t = order[below] as number;
        order[below++] = order[i] as number;
        order[i++] = t;
      } else if (b > pivot) {
        const t = order[--above] as number;
        order[above] = order[i] as number;
        order[i] = t;
      } else i++;
    }
    if (below - from > 1) stack.push(from, below, depth);
    if (to - above > 1) stack.push(above, to, depth);
    if (above - below > 1) {
      // Strings that all end here are equal: by index (the partition moved them).
      if (pivot === 0) order.subarray(below, above).sort();
      else stack.push(below, above, depth + 1);
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
