/**
 * The common record read straight from its bytes: a flat object of the ten fields, each once, its
 * strings without escapes but `\"` and `\\`, valid and with no warning. Such a record's rendered
 * bytes (renderSubject's) are its values' own bytes between the fields' names: JSON.stringify
 * escapes only `"` and `\` (as `\"` and `\\`), control characters and lone surrogates, which a
 * string without other escapes cannot hold, and renderSubject escapes U+2028 and U+2029 besides,
 * which a plain string may not hold here. So the record is neither
 * parsed into an object (JSON.parse made some 14 strings a record, short ones interned in V8's
 * string table: a second of a 1M build's CPU alone) nor stringified and encoded again.
 *
 * Anything else — whitespace aside, any other form JSON allows, a field's value a rule rejects or
 * warns at — is left to JSON.parse and validateSubject (render-block.ts), which explain it: this path
 * only ever takes what they would render without a word, and renders it byte for byte as they
 * would (test/data/read/plain-record.test.ts holds it to that).
 */
import { SUBJECT_FIELDS } from "../../core/render-page.ts";
import { isCalendarDateAt } from "../rules/calendar-date.ts";
import { KNOWN_RAZINA } from "../rules/known-levels.ts";
import { oibCheckDigit } from "../rules/oib-check-digit.ts";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const ZERO = 0x30;
const NINE = 0x39;
const SPACE = 0x20;

/** What a byte in a string is to the rules (text below), as bits: BYTE_KIND[byte]. */
const NOT_DIGIT = 1;
/** An ASCII character that is not white space: a string holding one is not blank once trimmed (Unicode's spaces are left to trim()). */
const VISIBLE = 2;
/** Any byte but plain ASCII: the quote, the backslash, a control character, a byte past ASCII. */
const ODD = 4;
const BYTE_KIND = new Uint8Array(256);
for (let c = 0; c < 256; c++)
  BYTE_KIND[c] =
    (c < 0x30 || c > 0x39 ? NOT_DIGIT : 0) |
    (c > 0x20 && c < 0x80 ? VISIBLE : 0) |
    (c < 0x20 || c >= 0x80 || c === 0x22 || c === 0x5c ? ODD : 0);

/** JSON's whitespace: space, tab, line feed, carriage return. */
const WHITESPACE = new Uint8Array(256);
for (const c of [0x20, 0x09, 0x0a, 0x0d]) WHITESPACE[c] = 1;

/** Field indexes, in SUBJECT_FIELDS' (the output's) order. */
const ID = 0;
const CODE = 1;
const NAME = 2;
const OIB = 3;
const RAZINA = 4;
const DATE = 5;
const STATUS = 6;
const APPROVED = 7;
const CITY = 8;
const FIELD_COUNT = SUBJECT_FIELDS.length;

const encoder = new TextEncoder();
const NAMES = SUBJECT_FIELDS.map((name) => encoder.encode(name));
/** The known levels, as bytes (subject-warnings.ts warns at any other). */
const KNOWN_LEVELS = KNOWN_RAZINA.map((level) => encoder.encode(level));

/**
 * What renderSubject writes before each field's value, the quotes of strings included (so the
 * value's bytes go between), and after the last: `{"id":`, `,"jedinstvena_oznaka":"`, `","naziv…`.
 */
const BEFORE = SUBJECT_FIELDS.map((name, f) => {
  const closeLast = f > 0 && isText(f - 1) ? '"' : "";
  return encoder.encode(`${closeLast}${f === 0 ? "{" : ","}"${name}":${isText(f) ? '"' : ""}`);
});
const AFTER = encoder.encode(`${isText(FIELD_COUNT - 1) ? '"' : ""}}`);
/** The most bytes a record's rendering adds to its values' bytes. */
export const RENDERED_EXTRA = BEFORE.reduce((sum, b) => sum + b.length, AFTER.length);

function isText(f: number): boolean {
  return f !== ID && f !== STATUS && f !== APPROVED;
}

/**
 * A record's fields as `scan` found them: where each value's bytes lie in the block (a string's
 * without its quotes), and the id. One object, filled again for each record.
 */
export class PlainRecord {
  /** [start, end) of field f's value: at[2f], at[2f + 1]. */
  readonly at = new Int32Array(2 * FIELD_COUNT);
  id = 0;
  /** The bytes of the element scanned: the most its values take. */
  size = 0;
  /** The bytes the record was scanned in. */
  bytes: Buffer = Buffer.alloc(0);

  /**
   * Whether `bytes[from, to)` (one element of a JSON array, well-formed UTF-8) is a plain record
   * (see above), taking in its fields when it is. `maxLength`: the longest a text field may be,
   * in UTF-16 units as validateSubject counts them.
   */
  // long: one pass over the record's bytes, each field's rules on the bytes as they pass
  scan(bytes: Buffer, from: number, to: number, maxLength: number): boolean {
    let i = skip(bytes, from, to);
    if (bytes[i++] !== OPEN_BRACE) return false;
    let seen = 0;
    for (let count = 0; count < FIELD_COUNT; count++) {
      i = skip(bytes, i, to);
      if (count > 0) {
        if (bytes[i] !== COMMA) return false;
        i = skip(bytes, i + 1, to);
      }
      if (bytes[i] !== QUOTE) return false;
      // The key: most files name the fields in the output's order, so the next is tried first.
      const f = fieldAt(bytes, i + 1, to, count);
      // A field named twice is left to JSON.parse, which keeps the last value, and to validateSubject, which says so.
      if (f < 0 || (seen & (1 << f)) !== 0) return false;
      seen |= 1 << f;
      i = skip(bytes, i + 2 + (NAMES[f] as Uint8Array).length, to);
      if (bytes[i] !== COLON) return false;
      i = skip(bytes, i + 1, to);
      const start = f === ID || f === STATUS || f === APPROVED ? i : i + 1;
      const end =
        f === ID ? this.#id(bytes, i, to) : f === STATUS || f === APPROVED ? flag(bytes, i, to) : text(bytes, i, to, f, maxLength);
      if (end < 0) return false;
      this.at[2 * f] = start;
      this.at[2 * f + 1] = end;
      i = f === ID || f === STATUS || f === APPROVED ? end : end + 1;
    }
    i = skip(bytes, i, to);
    if (bytes[i++] !== CLOSE_BRACE || skip(bytes, i, to) !== to) return false;
    this.bytes = bytes;
    this.size = to - from;
    return true;
  }

  /** The id at `i`: 1 to 15 digits, no leading zero (a safe integer, written as JSON.stringify writes it); where it ends, or -1. */
  #id(bytes: Uint8Array, i: number, to: number): number {
    let c = bytes[i] as number;
    if (c <= ZERO || c > NINE) return -1;
    let value = 0;
    const start = i;
    while (i < to && c >= ZERO && c <= NINE) {
      value = value * 10 + c - ZERO;
      c = bytes[++i] as number;
    }
    // More digits than a safe integer surely holds: JSON.parse decides (as it does a fraction or an
    // exponent, which the comma or brace expected next is not).
    if (i - start > 15) return -1;
    this.id = value;
    return i;
  }

  /** Writes the record last scanned as renderSubject renders it, and a line feed, at `out[o]`; where the next byte goes. */
  write(out: Uint8Array, o: number): number {
    const { bytes, at } = this;
    for (let f = 0; f < FIELD_COUNT; f++) {
      o = put(BEFORE[f] as Uint8Array, 0, (BEFORE[f] as Uint8Array).length, out, o);
      o = put(bytes, at[2 * f] as number, at[2 * f + 1] as number, out, o);
    }
    o = put(AFTER, 0, AFTER.length, out, o);
    out[o++] = 0x0a;
    return o;
  }

  /** The code, as a string. */
  code(): string {
    return this.bytes.toString("latin1", this.at[2 * CODE], this.at[2 * CODE + 1]);
  }

  /** The OIB, as a string. */
  oib(): string {
    return this.bytes.toString("latin1", this.at[2 * OIB], this.at[2 * OIB + 1]);
  }
}

function put(from: Uint8Array, start: number, end: number, out: Uint8Array, o: number): number {
  for (let i = start; i < end; i++) out[o++] = from[i] as number;
  return o;
}

/** Past JSON whitespace from `i`. */
function skip(bytes: Uint8Array, i: number, to: number): number {
  while (i < to && WHITESPACE[bytes[i] as number] === 1) i++;
  return i;
}

/** The field whose name, closed by a quote, is at `i` (the `expected`th field tried first), or -1. */
function fieldAt(bytes: Uint8Array, i: number, to: number, expected: number): number {
  if (named(bytes, i, to, expected)) return expected;
  for (let f = 0; f < FIELD_COUNT; f++) if (f !== expected && named(bytes, i, to, f)) return f;
  return -1;
}

function named(bytes: Uint8Array, i: number, to: number, f: number): boolean {
  const name = NAMES[f] as Uint8Array;
  if (i + name.length >= to || bytes[i + name.length] !== QUOTE) return false;
  for (let k = 0; k < name.length; k++) if (bytes[i + k] !== name[k]) return false;
  return true;
}

/** `true` or `false` at `i`: where it ends, or -1. */
function flag(bytes: Uint8Array, i: number, to: number): number {
  const c = bytes[i];
  const end = c === 0x74 ? i + 4 : c === 0x66 ? i + 5 : -1;
  if (end < 0 || end > to) return -1;
  const word = c === 0x74 ? "true" : "false";
  for (let k = 1; k < word.length; k++) if (bytes[i + k] !== word.charCodeAt(k)) return -1;
  return end;
}

/**
 * The string at `i` (its opening quote) as field f takes it without a word: where it ends (its
 * closing quote), or -1 for a string with an escape, a control character (JSON.parse's error),
 * U+2028 or U+2029 (renderSubject escapes them), longer than `maxLength` UTF-16 units, or whose
 * field's rule it breaks or warns at.
 */
function text(bytes: Uint8Array, i: number, to: number, f: number, maxLength: number): number {
  if (bytes[i] !== QUOTE) return -1;
  const start = ++i;
  /** Bytes that are no UTF-16 unit of their own: continuation bytes, the backslash of an escape (less one a unit past the BMP). */
  let extra = 0;
  /** The KIND bits of every byte, ORed. */
  let kinds = 0;
  for (; i < to; i++) {
    const c = bytes[i] as number;
    const kind = BYTE_KIND[c] as number;
    // Most bytes: ASCII, neither quote nor backslash nor control character.
    if ((kind & ODD) === 0) {
      kinds |= kind;
      continue;
    }
    if (c === QUOTE) break;
    kinds |= kind;
    if (c === BACKSLASH) {
      // `\"` and `\\` (a name in quotes: Dječji vrtić \"Rabra\") are JSON.stringify's own escapes: one
      // character, written again as it is. Any other escape is left to JSON.parse.
      const next = bytes[i + 1];
      if (next !== QUOTE && next !== BACKSLASH) return -1;
      extra++;
      i++;
      continue;
    }
    if (c < SPACE) return -1;
    // A lead byte is a character (past the BMP: two UTF-16 units); a continuation byte is not.
    if (c < 0xc0) extra++;
    else if (c >= 0xf0) extra--;
    // E2 80 A8 and E2 80 A9: U+2028 and U+2029.
    if (c === 0xe2 && bytes[i + 1] === 0x80 && ((bytes[i + 2] as number) & 0xfe) === 0xa8) return -1;
  }
  if (i >= to || i - start - extra > maxLength) return -1;
  const digits = (kinds & NOT_DIGIT) === 0;
  const visible = (kinds & VISIBLE) !== 0;
  const length = i - start;
  switch (f) {
    case CODE:
      return digits && length >= 4 ? i : -1;
    case NAME:
      return length > 0 ? i : -1;
    case OIB:
      return digits && length === 11 && oibCheckDigit(bytes, start) === (bytes[start + 10] as number) - ZERO ? i : -1;
    case RAZINA:
      return KNOWN_LEVELS.some((level) => same(bytes, start, length, level)) ? i : -1;
    case DATE:
      return length === 10 && isCalendarDateAt(bytes, start) ? i : -1;
    case CITY:
      return visible ? i : -1;
    default:
      return i;
  }
}

function same(bytes: Uint8Array, start: number, length: number, word: Uint8Array): boolean {
  if (length !== word.length) return false;
  for (let k = 0; k < length; k++) if (bytes[start + k] !== word[k]) return false;
  return true;
}
