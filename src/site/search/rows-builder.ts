/** The stored form of a set of places (core/search/row-sets.ts), from the places in rising order. */

/**
 * The set of the distinct rising places `places[from, to)`, of a list of `count`: kind 0, its size,
 * then its gaps as varints (the first from 0), or kind 1, its size and its bitmap when it has more
 * members than the bitmap has bytes.
 */
export function encodeRows(places: ArrayLike<number>, from: number, to: number, count: number): Uint8Array {
  const size = to - from;
  const bitmapBytes = Math.ceil(count / 8);
  const bitmap = size > bitmapBytes;
  let length = 1 + varintLength(size);
  if (bitmap) length += bitmapBytes;
  else {
    let last = 0;
    for (let i = from; i < to; i++) {
      const place = places[i] as number;
      length += varintLength(place - last);
      last = place;
    }
  }
  const out = new Uint8Array(length);
  let at = writeHeader(out, bitmap, size);
  if (bitmap) {
    for (let i = from; i < to; i++) {
      const place = places[i] as number;
      out[at + (place >>> 3)] = (out[at + (place >>> 3)] as number) | (1 << (place & 7));
    }
    return out;
  }
  let last = 0;
  for (let i = from; i < to; i++) {
    const place = places[i] as number;
    let gap = place - last;
    last = place;
    for (; gap >= 0x80; gap >>>= 7) out[at++] = (gap & 0x7f) | 0x80;
    out[at++] = gap;
  }
  return out;
}

/**
 * The set of `size` places whose bits are already `bitmap` (ceil(count / 8) bytes, as encodeRows
 * would write them, and `size` more than that): kind 1, its size and the bits.
 */
export function encodeBitmap(bitmap: Uint8Array, size: number): Uint8Array {
  const out = new Uint8Array(1 + varintLength(size) + bitmap.length);
  out.set(bitmap, writeHeader(out, true, size));
  return out;
}

/** A set's kind and size at the start of `out`; returns where its body begins. */
function writeHeader(out: Uint8Array, bitmap: boolean, size: number): number {
  out[0] = bitmap ? 1 : 0;
  let at = 1;
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
