/** Dates as the registry writes them: `YYYY-MM-DD`, proleptic Gregorian, like Python's `date`. */
function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** The days of `month` (1–12) in `year`. */
export function daysInMonth(year: number, month: number): number {
  return month === 2 ? (isLeapYear(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** The character code at `i` of a string, or the byte at `i`. */
function codeAt(text: string | Uint8Array, i: number): number {
  return typeof text === "string" ? text.charCodeAt(i) : (text[i] as number);
}

function digitsAt(text: string | Uint8Array, from: number, count: number): number {
  let value = 0;
  for (let i = from; i < from + count; i++) {
    const digit = codeAt(text, i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** Whether `text` is `YYYY-MM-DD` naming a day that exists (year 1 onwards, as Python's `date.min`). */
export function isCalendarDate(text: string): boolean {
  return text.length === 10 && isCalendarDateAt(text, 0);
}

/**
 * Whether the ten characters of `text` at `start` are a calendar date (isCalendarDate): of a
 * string, or of bytes (the record threads' plain records, read/plain-record.ts).
 */
export function isCalendarDateAt(text: string | Uint8Array, start: number): boolean {
  // Character arithmetic rather than a regex match: this runs once per record.
  if (codeAt(text, start + 4) !== 0x2d || codeAt(text, start + 7) !== 0x2d) return false;
  const [year, month, day] = [digitsAt(text, start, 4), digitsAt(text, start + 5, 2), digitsAt(text, start + 8, 2)];
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** Croatian documents write 14.5.1966. (the trailing dot optional, a space after a dot allowed); spreadsheets keep that form. */
const CROATIAN_DATE = /^(\d{1,2})\. ?(\d{1,2})\. ?(\d{4})\.?$/;

/** A Croatian `d.m.yyyy.` date rewritten `YYYY-MM-DD` (not checked to be a day), or undefined when `text` is not one. */
export function fromCroatianDate(text: string): string | undefined {
  const match = CROATIAN_DATE.exec(text);
  return match === null ? undefined : `${match[3]}-${match[2]?.padStart(2, "0")}-${match[1]?.padStart(2, "0")}`;
}
