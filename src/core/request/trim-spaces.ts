/**
 * Trimming by a set of space characters in linear time. A pattern of the shape `^[…]+|[…]+$`
 * backtracks quadratically over a long inner run of spaces (a megabyte of them froze a host for
 * minutes), so every trim on request bytes walks in from both ends instead.
 */

/** `text` without the leading and trailing characters that `isSpace` holds for (by UTF-16 code unit). */
export function trimBy(text: string, isSpace: (code: number) => boolean): string {
  let start = 0;
  let end = text.length;
  while (start < end && isSpace(text.charCodeAt(start))) start++;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/** What Python's `int()` skips around a number: C's `isspace` (\t \n \v \f \r, space) and non-ASCII `Py_UNICODE_ISSPACE`. */
export function isIntSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  return code >= 0x85 && isUnicodeSpace(code);
}

/** What Python's `str.strip()` strips: `str.isspace()`, which adds \x1c-\x1f to `int()`'s set. */
export function isStrSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d) || (code >= 0x1c && code <= 0x1f);
  return code >= 0x85 && isUnicodeSpace(code);
}

/** Python's non-ASCII whitespace (Unicode 14.0: Zs, Zl, Zp and the bidi classes WS, B, S). */
function isUnicodeSpace(code: number): boolean {
  return (
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}
