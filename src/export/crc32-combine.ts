/**
 * The CRC-32 of two byte strings end to end from theirs and the second's length (zlib's
 * crc32_combine, by Mark Adler): the workbook's sheet is written as segments deflated apart, some
 * copied from the previous workbook unread, and its zip entry needs the CRC of the whole. Appending
 * `length` zero bytes to the first string is a linear map over GF(2) on its CRC register; that map
 * is the operator for one zero bit squared again and again (log2 of the length steps), applied to
 * the first CRC, then XORed with the second.
 */

/** The product of the 32×32 GF(2) matrix `mat` (its columns as words) with the vector `vec`. */
function times(mat: Uint32Array, vec: number): number {
  let sum = 0;
  for (let i = 0; vec !== 0; i++, vec >>>= 1) if (vec & 1) sum ^= mat[i] as number;
  return sum >>> 0;
}

/** `mat` squared, into `square`. */
function squareInto(square: Uint32Array, mat: Uint32Array): void {
  for (let n = 0; n < 32; n++) square[n] = times(mat, mat[n] as number);
}

/** The CRC-32 of A followed by B, from A's CRC, B's CRC and B's length in bytes. */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  if (lengthB <= 0) return crcA >>> 0;
  const even = new Uint32Array(32);
  const odd = new Uint32Array(32);
  // The operator for one zero bit: the reflected polynomial in the first column, then a shift.
  odd[0] = 0xedb88320;
  for (let n = 1, row = 1; n < 32; n++, row <<= 1) odd[n] = row;
  squareInto(even, odd); // two zero bits
  squareInto(odd, even); // four zero bits
  let crc = crcA >>> 0;
  // Lengths past 2^32 bytes (the sheet of ten million rows) halved by division, not by a shift.
  let length = lengthB;
  for (;;) {
    squareInto(even, odd); // the first pass: one zero byte; then each pass doubles it
    if (length % 2 === 1) crc = times(even, crc);
    length = Math.floor(length / 2);
    if (length === 0) break;
    squareInto(odd, even);
    if (length % 2 === 1) crc = times(odd, crc);
    length = Math.floor(length / 2);
    if (length === 0) break;
  }
  return (crc ^ crcB) >>> 0;
}
