/** The OIB's last digit, ISO 7064 MOD 11,10 (the scheme the Croatian OIB law prescribes). */

const ZERO = 48;

/** The check digit the first ten digits of an 11-digit OIB call for. */
export function oibCheckDigit(oib: string): number {
  let carry = 10;
  for (let i = 0; i < 10; i++) {
    carry = (carry + oib.charCodeAt(i) - ZERO) % 10;
    if (carry === 0) carry = 10;
    carry = (carry * 2) % 11;
  }
  return (11 - carry) % 10;
}
