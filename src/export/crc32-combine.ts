/**
 * The CRC-32 of two byte strings end to end from theirs and the second's length (zlib's
 * crc32_combine, by Mark Adler): the workbook's sheet is written as segments deflated apart, some
 * copied from the previous workbook unread, and its zip entry needs the CRC of the whole. Appending
 * `length` zero bytes to the first string multiplies its CRC by x^(8·length) modulo the CRC's
 * polynomial; that power is made of the powers x^(2^k) (a table of 32: they repeat with period 32),
 * one for each bit set in the length, as zlib 1.2.12 on does. Its earlier way, 32×32 matrices
 * squared some twenty times a call (kept here until it cost 70 µs a segment, 0.07 s of a 1M
 * build's main thread), gives the same CRC at thirty times the work.
 */

/** The CRC-32's polynomial, reflected (bit 31 is x^0). */
const POLY = 0xedb88320;

/** `a` times `b` modulo the polynomial (`a` not 0). */
function multModP(a: number, b: number): number {
  let product = 0;
  for (let m = 0x80000000; ; m >>>= 1) {
    if (a & m) {
      product ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return product >>> 0;
}

/** x^(2^k) modulo the polynomial, for k from 0 to 31. */
const X2N = new Uint32Array(32);
X2N[0] = 0x40000000; // x^1
for (let k = 1; k < 32; k++) X2N[k] = multModP(X2N[k - 1] as number, X2N[k - 1] as number);

/** The CRC-32 of A followed by B, from A's CRC, B's CRC and B's length in bytes. */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  if (lengthB <= 0) return crcA >>> 0;
  // x^(8 · lengthB): its bits from the lowest, each bit k of the length a factor x^(2^(k + 3)). Lengths past 2^32
  // bytes (the sheet of ten million rows) halved by division, not by a shift.
  let power = 0x80000000; // x^0
  for (let length = lengthB, k = 3; length > 0; length = Math.floor(length / 2), k++) {
    if (length % 2 === 1) power = multModP(X2N[k & 31] as number, power);
  }
  return (multModP(power, crcA >>> 0) ^ crcB) >>> 0;
}
