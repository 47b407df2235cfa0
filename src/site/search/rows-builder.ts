/** The stored form of a set of places (core/search/row-sets.ts), from the places in rising order. */

/**
 * The set of the distinct rising places `places[from, to)`, of a list of `count`: kind 0, its size,
 * then its gaps as varints (the first from 0), or kind 1, its size and its bitmap when it has more
 * members than the bitmap has bytes.
 */
export function encodeRows(places: ArrayLike<number>, from: number, to: number, count: number): Uint8Array {
  const out = new Uint8Array(rowsLength(places, from, to, count));
  writeRows(out, 0, places, from, to, count);
  return out;
}

/** The length of encodeRows's bytes for the same places. */
export function rowsLength(places: ArrayLike<number>, from: number, to: number, count: number): number {
  const size = to - from;
  const bitmapBytes = Math.ceil(count / 8);
  let length = 1 + varintLength(size);
  if (size > bitmapBytes) return length + bitmapBytes;
  let last = 0;
  for (let i = from; i < to; i++) {
    const place = places[i] as number;
    length += varintLength(place - last);
    last = place;
  }
  return length;
}

/**
 * encodeRows's bytes written into `out` from `at` (rowsLength's room there): where the whole stage
 * lays a bucket's sets one after another in one buffer, not an array each.
 */
export function writeRows(out: Uint8Array, at: number, places: ArrayLike<number>, from: number, to: number, count: number): void {
  const size = to - from;
  const bitmap = size > Math.ceil(count / 8);
  let body = writeHeader(out, at, bitmap, size);
  if (bitmap) {
    out.fill(0, body, body + Math.ceil(count / 8));
    for (let i = from; i < to; i++) {
      const place = places[i] as number;
      out[body + (place >>> 3)] = (out[body + (place >>> 3)] as number) | (1 << (place & 7));
    }
    return;
  }
  let last = 0;
  for (let i = from; i < to; i++) {
    const place = places[i] as number;
    let gap = place - last;
    last = place;
    for (; gap >= 0x80; gap >>>= 7) out[body++] = (gap & 0x7f) | 0x80;
    out[body++] = gap;
  }
}

/**
 * The set of `size` places whose bits are already `bitmap` (ceil(count / 8) bytes, as encodeRows
 * would write them, and `size` more than that): kind 1, its size and the bits.
 */
export function encodeBitmap(bitmap: Uint8Array, size: number): Uint8Array {
  const out = new Uint8Array(1 + varintLength(size) + bitmap.length);
  out.set(bitmap, writeHeader(out, 0, true, size));
  return out;
}

/** A set's kind and size in `out` from `start`; returns where its body begins. */
function writeHeader(out: Uint8Array, start: number, bitmap: boolean, size: number): number {
  out[start] = bitmap ? 1 : 0;
  let at = start + 1;
  let v = size;
  for (; v >= 0x80; v >>>= 7) out[at++] = (v & 0x7f) | 0x80;
  out[at++] = v;
  return at;
}

function varintLength(value: number): number {
  let length = 1;
  for (let v = value; v >= 0x80; v >>>= 7) length++;
  return length;
}
