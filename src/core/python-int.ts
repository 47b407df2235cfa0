/**
 * Python's `int(text)` for a decoded query value, as DRF's `_positive_int` calls it.
 *
 * CPython first maps Unicode whitespace to ' ' and Unicode decimal digits (category Nd) to
 * ASCII (`_PyUnicode_TransformDecimalAndSpaceToASCII`), then parses: optional whitespace, one
 * sign, digits with single underscores between them, optional whitespace. Strings of more than
 * 4300 digits are refused (`sys.int_info.default_max_str_digits`).
 */

/** Characters for which CPython's `Py_UNICODE_ISSPACE` holds (types WS, B, S and category Zs). */
const PY_SPACE = /^[\t\n\v\f\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;
const ASCII_INT = /^[+-]?[0-9](?:_?[0-9])*$/;
const NON_ASCII_DIGIT = /\p{Nd}/gu;
const IS_ND = /^\p{Nd}$/u;

/** CPython's default limit on the digits of an integer string. */
export const MAX_INT_DIGITS = 4300;

/** Parses like Python's `int()`; null where Python raises `ValueError`. */
export function parsePythonInt(text: string): bigint | null {
  let s = text.replace(PY_SPACE, "");
  if (/[^\x00-\x7f]/.test(s)) s = s.replace(NON_ASCII_DIGIT, toAsciiDigit);
  if (!ASCII_INT.test(s)) return null;
  const digits = s.replace(/[+_-]/g, "");
  if (digits.length > MAX_INT_DIGITS) return null;
  const value = BigInt(digits);
  return s.startsWith("-") ? -value : value;
}

/** Unicode keeps every Nd digit in a run of ten from 0 to 9, so a digit's value is its place in its run. */
function toAsciiDigit(digit: string): string {
  let codePoint = digit.codePointAt(0) ?? 0;
  let place = 0;
  while (IS_ND.test(String.fromCodePoint(codePoint - 1))) {
    codePoint -= 1;
    place += 1;
  }
  return String(place % 10);
}
