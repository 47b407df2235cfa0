/**
 * Python's `int(text)` for a decoded query value, as DRF's `_positive_int` calls it.
 *
 * CPython (`PyLong_FromUnicodeObject`) first maps every non-ASCII whitespace character to ' ' and
 * every non-ASCII decimal digit to its ASCII digit (`_PyUnicode_TransformDecimalAndSpaceToASCII`),
 * keeping ASCII as it is, then parses (`PyLong_FromString`): optional ASCII whitespace (C's
 * `isspace`: \t \n \v \f \r and space — not \x1c-\x1f, although `str.isspace()` holds for
 * them), one sign, digits with single underscores between them, optional whitespace. Strings of
 * more than 4300 digits are refused (`sys.int_info.default_max_str_digits`).
 */
import { isIntSpace, trimBy } from "./trim-spaces.ts";

const ASCII_INT = /^[+-]?[0-9](?:_?[0-9])*$/;
const NON_ASCII = /[^\x00-\x7f]/u;
const NON_ASCII_CHAR = /[^\x00-\x7f]/gu;

/**
 * The first code point (digit zero) of every run of ten non-ASCII decimal digits in Unicode 14.0,
 * the database of CPython 3.11 (`unicodedata.decimal`; test/oracle/python-golden.py checks it).
 * A table, not `\p{Nd}`, so every JavaScript engine reads the same digits whatever its Unicode
 * version (Node 20 knows Kawi and later digits that CPython 3.11 refuses).
 */
const DIGIT_ZEROS: readonly number[] = [
  0x660, 0x6f0, 0x7c0, 0x966, 0x9e6, 0xa66, 0xae6, 0xb66, 0xbe6, 0xc66, 0xce6, 0xd66, 0xde6, 0xe50, 0xed0, 0xf20, 0x1040, 0x1090, 0x17e0,
  0x1810, 0x1946, 0x19d0, 0x1a80, 0x1a90, 0x1b50, 0x1bb0, 0x1c40, 0x1c50, 0xa620, 0xa8d0, 0xa900, 0xa9d0, 0xa9f0, 0xaa50, 0xabf0, 0xff10,
  0x104a0, 0x10d30, 0x11066, 0x110f0, 0x11136, 0x111d0, 0x112f0, 0x11450, 0x114d0, 0x11650, 0x116c0, 0x11730, 0x118e0, 0x11950, 0x11c50,
  0x11d50, 0x11da0, 0x16a60, 0x16ac0, 0x16b50, 0x1d7ce, 0x1d7d8, 0x1d7e2, 0x1d7ec, 0x1d7f6, 0x1e140, 0x1e2f0, 0x1e950, 0x1fbf0,
];

/** CPython's default limit on the digits of an integer string. */
export const MAX_INT_DIGITS = 4300;

/** Parses like Python's `int()`; null where Python raises `ValueError`. */
export function parsePythonInt(text: string): bigint | null {
  let s = trimBy(text, isIntSpace);
  if (NON_ASCII.test(s)) s = s.replace(NON_ASCII_CHAR, toAsciiDigit);
  if (!ASCII_INT.test(s)) return null;
  const digits = s.replace(/[+_-]/g, "");
  if (digits.length > MAX_INT_DIGITS) return null;
  const value = BigInt(digits);
  return s.startsWith("-") ? -value : value;
}

/** A non-ASCII decimal digit's ASCII digit; anything else becomes `?`, which no integer holds. */
export function toAsciiDigit(char: string): string {
  const codePoint = char.codePointAt(0) ?? 0;
  for (const zero of DIGIT_ZEROS) {
    if (codePoint < zero) break;
    if (codePoint - zero < 10) return String(codePoint - zero);
  }
  return "?";
}
