/** The OIB's last digit, ISO 7064 MOD 11,10 (the scheme the Croatian OIB law prescribes). */

const ZERO = 48;

/**
 * The check digit the first ten digits of an 11-digit OIB call for: of a string, or of the bytes
 * at `start` (the record threads' plain records, read/plain-record.ts, checked before any string is made).
 */
export function oibCheckDigit(oib: string | Uint8Array, start = 0): number {
  let carry = 10;
  for (let i = start; i < start + 10; i++) {
    const code = typeof oib === "string" ? oib.charCodeAt(i) : (oib[i] as number);
    carry = (carry + code - ZERO) % 10;
    if (carry === 0) carry = 10;
    carry = (carry * 2) % 11;
  }
  return (11 - carry) % 10;
}
