/**
 * OOXML's escape for what XML cannot hold (ECMA-376 Part 1, §22.9.2.19 ST_Xstring): `_xHHHH_` is
 * the UTF-16 code unit HHHH, so `_x000D_` is a CR and `_x005F_` an underscore. The workbook reader
 * decodes it; the export encodes with it every character a workbook would otherwise lose.
 */

/** `_xHHHH_` for the code unit `unit`. */
const escape = (unit: number): string => `_x${unit.toString(16).toUpperCase().padStart(4, "0")}_`;

/**
 * Does `text` hold `_xHHHH` at `at`? Followed by `_`, a reader would decode it; followed by a
 * character that is itself escaped (a CR: `_x000D_`), the escape's underscore would close it. So
 * the underscore of every `_xHHHH` is escaped, whatever follows.
 */
function isEscapeAt(text: string, at: number): boolean {
  if (text.charCodeAt(at + 1) !== 0x78 || at + 6 > text.length) return false;
  for (let i = at + 2; i < at + 6; i++) {
    const c = text.charCodeAt(i);
    if (!((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66))) return false;
  }
  return true;
}

/**
 * Must the code unit at `at` be escaped? What XML 1.0 cannot hold (controls but tab and line feed,
 * U+FFFE, U+FFFF, a surrogate without its pair); a CR, which an XML parser reads as a line feed; DEL,
 * which exceljs drops; and an underscore that could begin what a reader would decode.
 */
function mustEscape(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  if (c < 0x20) return c !== 0x09 && c !== 0x0a;
  if (c === 0x7f || c === 0xfffe || c === 0xffff) return true;
  if (c === 0x5f) return isEscapeAt(text, at);
  if (c >= 0xd800 && c <= 0xdbff) {
    const next = text.charCodeAt(at + 1);
    return !(next >= 0xdc00 && next <= 0xdfff);
  }
  if (c >= 0xdc00 && c <= 0xdfff) {
    const previous = text.charCodeAt(at - 1);
    return !(previous >= 0xd800 && previous <= 0xdbff);
  }
  return false;
}

/** `text` as a workbook cell holds it: every character a workbook would lose written as `_xHHHH_`. */
export function encodeXstring(text: string): string {
  let out = "";
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    if (!mustEscape(text, i)) continue;
    out += text.slice(from, i) + escape(text.charCodeAt(i));
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** A workbook cell's text with its `_xHHHH_` escapes decoded. */
export function decodeXstring(text: string): string {
  if (!text.includes("_x")) return text;
  return text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
