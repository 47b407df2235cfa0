/**
 * Compares zero-padded digit strings by value, so "10000" follows "9999" whatever the padding:
 * leading zeros skipped (a string of zeros keeps its last), then the longer is the greater, then
 * the first digit that differs. By index, not by a regular expression's replace: two new strings a
 * call were a tenth of a rebuild's checks across records.
 */
export function compareDigits(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length - 1 && a.charCodeAt(i) === ZERO) i++;
  while (j < b.length - 1 && b.charCodeAt(j) === ZERO) j++;
  const length = a.length - i;
  if (length !== b.length - j) return length - (b.length - j);
  for (let k = 0; k < length; k++) {
    const x = a.charCodeAt(i + k);
    const y = b.charCodeAt(j + k);
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}
const ZERO = 0x30;
