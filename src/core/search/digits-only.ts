/**
 * Texts of digits and dashes only: two such texts order as plain text under the search's order
 * (match-record.ts compareOrderValues, which compares them so, far cheaper than the collation), so
 * as their bytes (the order files' runs take such a text as its own key, site/search/sorted-runs.ts).
 */

/** Whether `value` is digits and dashes only. */
export function digitsOnly(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if ((unit < 0x30 || unit > 0x39) && unit !== 0x2d) return false;
  }
  return true;
}
