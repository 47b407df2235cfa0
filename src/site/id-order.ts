// The order records take by id: one sort for the in-memory read (check-sequence.ts) and each run of the external sort (sort-records.ts).

/**
 * Reading indexes in (id, reading index) order. When every id is a non-negative integer small
 * enough, (id, index) is packed into one exact float64 and sorted by the typed array's own numeric
 * sort, several times faster than a comparator; otherwise a stable comparator sort.
 */
export function sortedIndex(ids: ArrayLike<number>): Uint32Array {
  const n = ids.length;
  const indexBits = Math.max(1, Math.ceil(Math.log2(n + 1)));
  const scale = 2 ** indexBits;
  let packable = indexBits < 53;
  for (let i = 0; i < n && packable; i++) {
    const id = ids[i] ?? 0;
    packable = Number.isInteger(id) && id >= 0 && id < 2 ** (53 - indexBits);
  }
  const order = new Uint32Array(n);
  if (packable) {
    const keys = new Float64Array(n);
    for (let i = 0; i < n; i++) keys[i] = (ids[i] ?? 0) * scale + i;
    keys.sort();
    for (let k = 0; k < n; k++) order[k] = (keys[k] ?? 0) % scale;
    return order;
  }
  for (let i = 0; i < n; i++) order[i] = i;
  return order.sort((a, b) => (ids[a] ?? 0) - (ids[b] ?? 0) || a - b);
}
