/**
 * The workbook's rows (its sheet's XML) made from the records' JSON bytes, for the build's
 * downloads (rows-from-json.ts): the common record's row is the cells' fixed markup around its
 * values' bytes, copied. Parsing each record, escaping its cells and joining the row's strings,
 * then encoding them to UTF-8 (`rowXml` of `workbookCells`), was most of the workbook's CPU on the
 * main thread.
 *
 * The fast row takes a record whose values `recordSpans` finds plain when its texts also need none
 * of OOXML's `_xHHHH_` (xstring.ts): no DEL, no `_x` (which could read as an escape), no character
 * from U+F000 up (U+FFFE and U+FFFF among them); and are at most 32,767 bytes (so at most the
 * characters a cell holds). `&`, `<` and `>` are written as XML's entities, an escaped quote as the
 * quote, and a text beginning or
 * ending with what JavaScript's `\s` matches gets `xml:space="preserve"`, as `rowXml` does. Any other
 * record goes through `rowXml(workbookCells(JSON.parse(line)))`, so every row is the bytes that gives.
 */
import { type ChunkRecords, type JsonRows, KINDS, rowsOf, type Scratch } from "./rows-from-json.ts";
import { LETTERS, MAX_CELL_CHARACTERS, rowXml, STYLES, workbookCells } from "./xlsx-row.ts";

const latin1 = (text: string): Buffer => Buffer.from(text, "latin1");

/** Each cell's markup before its row number, after it (to a text's `<t`), and after its value. */
const OPEN = LETTERS.map((letter) => latin1(`<c r="${letter}`));
const MIDDLE = KINDS.map((kind, f) =>
  latin1(kind === "text" ? `"${STYLES[f] as string} t="inlineStr"><is><t` : kind === "flag" ? `" t="b"><v>` : `"><v>`),
);
const CLOSE = KINDS.map((kind) => latin1(kind === "text" ? "</t></is></c>" : "</v></c>"));
const ROW_OPEN = latin1('<row r="');
const ROW_MIDDLE = latin1('">');
const ROW_CLOSE = latin1("</row>");
const PRESERVE = latin1(' xml:space="preserve">');
const [AMP, LT, GT] = [latin1("&amp;"), latin1("&lt;"), latin1("&gt;")];
/** The most digits of a row number (`String` of an integer, which from 1e21 on is shorter again). */
const NUMBER_DIGITS = 21;
/** A row's markup at most: each cell's, with the row number in the row and every cell, and each text's `xml:space`. */
const MARKUP =
  ROW_OPEN.length +
  ROW_MIDDLE.length +
  ROW_CLOSE.length +
  [OPEN, MIDDLE, CLOSE].flat().reduce((n, b) => n + b.length, 0) +
  (1 + KINDS.length) * NUMBER_DIGITS +
  KINDS.length * PRESERVE.length;

const [UNDERSCORE, X, DEL, LEAD_EF, TRUE_T, TAG_END, BACKSLASH] = [0x5f, 0x78, 0x7f, 0xef, 0x74, 0x3e, 0x5c];

/**
 * Between one cell's row number and the next's, the markup whole: the row's opening after its
 * number with the first cell's before its own, then each cell's close with the next's opening, the
 * last's with the row's close.
 */
const BEFORE = KINDS.map((_, f) => Buffer.concat([f === 0 ? ROW_MIDDLE : (CLOSE[f - 1] as Buffer), OPEN[f] as Buffer]));
const LAST_CLOSE = Buffer.concat([CLOSE[KINDS.length - 1] as Buffer, ROW_CLOSE]);
const [DIGIT_ZERO, DIGIT_NINE] = [0x30, 0x39];

/**
 * A row's markup around its values with the row's number in place, kept from one row to the next:
 * a piece before each value (the row's opening and the first cell's up to its value, then a cell's
 * close with the next one's opening up to its value) and the last cell's close with the row's, so
 * a row is eleven copies of markup, not twenty-two, and its number is not copied into it eleven
 * times: the next row's number changes the digits that change (most often the last one), in place.
 * Written anew for a number of another length, or one that does not follow the last.
 */
class RowMarkup {
  /** The pieces, views of one buffer: value `f` goes after `pieces[f]`, the row ends with the last. */
  pieces: readonly Uint8Array[] = [];
  #bytes = new Uint8Array(0);
  /** Where the number's digits begin in `#bytes` (once in the row's opening, once a cell). */
  #at: readonly number[] = [];
  /** The number the pieces hold (none at first: NaN is no number's), and its digits. */
  #number = Number.NaN;
  #digits = new Uint8Array(0);

  /** The pieces of row `number`. */
  of(number: number): readonly Uint8Array[] {
    if (number === this.#number) return this.pieces;
    // Its digits as `String` writes them (as rowXml does), unless it follows the last, both digits alone (no sign, no
    // exponent, exact), and is as long.
    if (number !== this.#number + 1 || number < 1 || !Number.isSafeInteger(number) || !this.#increment()) this.#write(String(number));
    this.#number = number;
    return this.pieces;
  }

  /** Adds 1 to the number's digits, in place (most often the last one alone): false when the sum has one digit more. */
  #increment(): boolean {
    const digits = this.#digits;
    let k = digits.length - 1;
    while (k >= 0 && digits[k] === DIGIT_NINE) k--;
    if (k < 0) return false;
    digits[k] = (digits[k] as number) + 1;
    digits.fill(DIGIT_ZERO, k + 1);
    const bytes = this.#bytes;
    for (const at of this.#at) for (let d = k; d < digits.length; d++) bytes[at + d] = digits[d] as number;
    return true;
  }

  /** The pieces with `text` as the row's number: its digits written in place when as long as the last's, else every piece made anew. */
  #write(text: string): void {
    const digits = Buffer.from(text, "latin1");
    if (digits.length === this.#digits.length) {
      this.#digits.set(digits);
      for (const at of this.#at) this.#bytes.set(digits, at);
      return;
    }
    const pieces = KINDS.map((_, f) => [...(f === 0 ? [ROW_OPEN, digits] : []), BEFORE[f] as Buffer, digits, MIDDLE[f] as Buffer]);
    pieces.push([LAST_CLOSE]);
    this.#bytes = new Uint8Array(pieces.flat().reduce((n, part) => n + part.length, 0));
    const at: number[] = [];
    const starts: number[] = [];
    let o = 0;
    for (const piece of pieces) {
      starts.push(o);
      for (const part of piece) {
        if (part === digits) at.push(o);
        this.#bytes.set(part, o);
        o += part.length;
      }
    }
    this.pieces = starts.map((start, p) => this.#bytes.subarray(start, starts[p + 1] ?? o));
    this.#at = at;
    this.#digits = new Uint8Array(digits);
  }
}

/** The markup of the last row made, for the next (the rows of one chunk follow each other, and the next chunk's the last's). */
const markup = new RowMarkup();

/**
 * The bytes a text's loop copies as they are, by byte (1): all but `&`, `<`, `>`, those the escape
 * may need (DEL, `_`, 0xEF), and the backslash of an escaped quote.
 */
const PLAIN = Uint8Array.from({ length: 256 }, (_, c) =>
  c === 0x26 || c === 0x3c || c === 0x3e || c === DEL || c === LEAD_EF || c === UNDERSCORE || c === BACKSLASH ? 0 : 1,
);

/** The code points JavaScript's `\s` matches (the test checks the list against every code point). */
export const WHITE_SPACE: ReadonlySet<number> = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a,
  0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
]);

/** The code point of the UTF-8 character whose lead byte is at `at` (`bytes` is UTF-8). */
function codePointAt(bytes: Uint8Array, at: number): number {
  const lead = bytes[at] as number;
  if (lead < 0x80) return lead;
  if (lead < 0xe0) return ((lead & 0x1f) << 6) | ((bytes[at + 1] as number) & 0x3f);
  if (lead < 0xf0) return ((lead & 0x0f) << 12) | (((bytes[at + 1] as number) & 0x3f) << 6) | ((bytes[at + 2] as number) & 0x3f);
  // Four bytes: beyond the BMP, where no white space is.
  return 0x10000;
}

/** Can the byte begin or end a white space character? (ASCII's are space and controls; the others are from U+0080 on.) */
const mayBeSpace = (byte: number): boolean => byte <= 0x20 || byte >= 0x80;

/** Does the text `bytes[from, to)` (not empty) begin or end with white space? */
function hasSpaceAtEnds(bytes: Uint8Array, from: number, to: number): boolean {
  // Most texts begin and end with a letter or a digit: no look into the set.
  if (!mayBeSpace(bytes[from] as number) && !mayBeSpace(bytes[to - 1] as number)) return false;
  if (WHITE_SPACE.has(codePointAt(bytes, from))) return true;
  let last = to - 1;
  while (((bytes[last] as number) & 0xc0) === 0x80) last--;
  return WHITE_SPACE.has(codePointAt(bytes, last));
}

/** `bytes` into `out` at `at`: the offset after them (by `set`: faster than a loop of bytes even at a few dozen, measured on Node 20). */
function put(out: Uint8Array, at: number, bytes: Uint8Array): number {
  out.set(bytes, at);
  return at + bytes.length;
}

/** A text's bytes into `out` at `at`, `&`, `<` and `>` as entities, `\"` as a quote: the offset after them, or -1 when it needs `_xHHHH_`. */
function putText(chunk: Uint8Array, from: number, to: number, out: Uint8Array, at: number): number {
  let o = at;
  for (let i = from; i < to; i++) {
    const c = chunk[i] as number;
    // Most bytes first: none of them needs a thought.
    if (PLAIN[c] === 1) out[o++] = c;
    else if (c === 0x26) o = put(out, o, AMP);
    else if (c === 0x3c) o = put(out, o, LT);
    else if (c === 0x3e) o = put(out, o, GT);
    else if (c === DEL || c === LEAD_EF) return -1;
    // `\"` (the only escape `recordSpans` lets a text hold): the quote, which XML's text holds as it is.
    else if (c === BACKSLASH) out[o++] = chunk[++i] as number;
    // An underscore before an `x` might begin `_xHHHH`, which the escape writes as `_x005F_xHHHH` (the text's closing quote ends the look).
    else if (c === UNDERSCORE && chunk[i + 1] === X) return -1;
    else out[o++] = c;
  }
  return o;
}

/** The rows of a chunk whose first record is row `first` of the sheet. */
function xlsxRows(first: number): JsonRows {
  return {
    // An `&` becomes five bytes.
    room: (length) => MARKUP + 5 * length,
    fast(chunk, spans, base, out, at, line) {
      const pieces = markup.of(first + line);
      let o = at;
      for (let f = 0; f < KINDS.length; f++) {
        const from = spans[base + 2 * f] as number;
        const to = spans[base + 2 * f + 1] as number;
        o = put(out, o, pieces[f] as Uint8Array);
        const kind = KINDS[f];
        if (kind === "text") {
          if (to - from > MAX_CELL_CHARACTERS) return -1;
          if (from < to && hasSpaceAtEnds(chunk, from, to)) o = put(out, o, PRESERVE);
          else out[o++] = TAG_END;
          o = putText(chunk, from, to, out, o);
          if (o < 0) return -1;
        } else if (kind === "flag") out[o++] = chunk[from] === TRUE_T ? 0x31 : 0x30;
        else for (let i = from; i < to; i++) out[o++] = chunk[i] as number;
      }
      return put(out, o, pieces[KINDS.length] as Uint8Array);
    },
    slow: (subject, line) => rowXml(first + line, workbookCells(subject)),
  };
}

/**
 * The sheet's rows of a chunk's records (chunkRecords) from row `first` on, in `into`'s buffer: the
 * bytes `rowXml(workbookCells(record))` gives for each (the CSV's rows read the same records).
 */
export function xlsxRowsOf(records: ChunkRecords, first: number, into: Scratch): Buffer {
  return rowsOf(records, xlsxRows(first), into);
}
