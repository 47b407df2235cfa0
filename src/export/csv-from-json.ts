/**
 * The CSV's rows made from the records' JSON bytes, for the build's downloads: a chunk of records
 * is the build's own canonical JSON, one a line (renderSubject, src/core/render-page.ts: the ten
 * fields in a fixed order, no spaces, JSON.stringify's escapes), so the common record's row is its
 * values' bytes copied between `;`, with no parse, no object and no string a cell. Parsing each
 * record and joining its cells (`csvRow`) took ~10 µs a record, ~10 s of the build at 1M.
 *
 * The fast path takes a record only when its row is plainly its bytes: each key where the canonical
 * form puts it, an id of digits, `true`/`false`, and text with no backslash (an escaped quote, line
 * break, tab or U+2028), no `;`, no control byte, and no first character that the formula guard
 * looks at (`=`, `+`, `-`, `@`, an apostrophe, or any character from U+F000 up, where the full-width
 * triggers are). Any other record (and a chunk that is not UTF-8) goes through `csvRow` of its
 * parsed JSON, so every row is the bytes `csvRow(JSON.parse(line))` gives.
 */
import { isUtf8 } from "node:buffer";
import type { Subject } from "../core/render-page.ts";
import { FIELD_NAMES } from "../data/rules/subject-schema.ts";
import { csvRow } from "./csv-row.ts";

const [NEWLINE, CR, QUOTE, BACKSLASH, SEMICOLON, CLOSE_OBJECT] = [0x0a, 0x0d, 0x22, 0x5c, 0x3b, 0x7d];
const [ZERO, NINE, APOSTROPHE, PLUS, MINUS, EQUALS, AT] = [0x30, 0x39, 0x27, 0x2b, 0x2d, 0x3d, 0x40];
/** The lead byte of a three-byte UTF-8 character from U+F000 (the full-width `=`, `+`, `-`, `@` among them). */
const LEAD_EF = 0xef;
const TRUE = Buffer.from("true", "latin1");
const FALSE = Buffer.from("false", "latin1");
/** An id longer than this is left to the slow path (a number's text can change form far beyond it). */
const MAX_ID_DIGITS = 15;

/** How each field's value is written in the canonical JSON. */
type Kind = "digits" | "text" | "flag";
const KIND: Readonly<Record<keyof Subject, Kind>> = {
  id: "digits",
  jedinstvena_oznaka: "text",
  naziv_subjekta: "text",
  oib: "text",
  razina: "text",
  datum_postanka: "text",
  status_subjekta: "flag",
  odobreno: "flag",
  institucija_grad: "text",
  institucija_email: "text",
};

/** Each field's bytes before its value (`{"id":`, `,"oib":"`, …; a text's opening quote included). */
const KEYS = FIELD_NAMES.map((name, i) =>
  Buffer.from(`${i === 0 ? "{" : ","}${JSON.stringify(name)}:${KIND[name] === "text" ? '"' : ""}`, "latin1"),
);
const KINDS = FIELD_NAMES.map((name) => KIND[name]);

/** Does `line` hold `bytes` at `at`? */
function holds(line: Uint8Array, at: number, bytes: Uint8Array): boolean {
  if (at + bytes.length > line.length) return false;
  for (let i = 0; i < bytes.length; i++) if (line[at + i] !== bytes[i]) return false;
  return true;
}

/**
 * Writes the row of the record in `chunk[start, end)` into `out` at `at` when the fast path takes it:
 * the offset after the row, or -1 (what was written then means nothing). `out` has room for `end - start + 1` bytes.
 */
function fastRow(chunk: Uint8Array, start: number, end: number, out: Uint8Array, at: number): number {
  let i = start;
  let o = at;
  for (let f = 0; f < KEYS.length; f++) {
    const key = KEYS[f] as Buffer;
    const kind = KINDS[f];
    if (!holds(chunk, i, key)) return -1;
    i += key.length;
    if (f > 0) out[o++] = SEMICOLON;
    if (kind === "text") {
      const first = chunk[i];
      if (first === EQUALS || first === PLUS || first === MINUS || first === AT || first === APOSTROPHE || first === LEAD_EF) return -1;
      for (;;) {
        if (i >= end) return -1;
        const c = chunk[i++] as number;
        if (c === QUOTE) break;
        if (c === BACKSLASH || c === SEMICOLON || c < 0x20) return -1;
        out[o++] = c;
      }
    } else if (kind === "digits") {
      const from = i;
      while (i < end && (chunk[i] as number) >= ZERO && (chunk[i] as number) <= NINE) out[o++] = chunk[i++] as number;
      // JSON.stringify of an id ≥ 1 never starts with 0; String() of a number of at most 15 digits is those digits.
      if (i === from || i - from > MAX_ID_DIGITS || chunk[from] === ZERO) return -1;
    } else {
      const word = chunk[i] === 0x74 ? TRUE : FALSE;
      if (!holds(chunk, i, word)) return -1;
      for (const b of word) out[o++] = b;
      i += word.length;
    }
  }
  if (i + 1 !== end || chunk[i] !== CLOSE_OBJECT) return -1;
  out[o++] = CR;
  out[o++] = NEWLINE;
  return o;
}

/** Where a chunk's rows are made (a chunk is rendered synchronously, so one serves them all), grown to the largest. */
let scratch = Buffer.allocUnsafe(0);

/** The CSV's rows (no header) of a chunk of whole records, one a line: the bytes `csvRow` gives for each. */
export function csvRowsFromJson(chunk: Uint8Array): Buffer {
  const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  // Not UTF-8 (never so in the build's own records): decoding would replace bytes, so every record is parsed.
  const fast = isUtf8(bytes);
  let out = scratch;
  let o = 0;
  const room = (needed: number): void => {
    if (o + needed <= out.length) return;
    const larger = Buffer.allocUnsafe(Math.max(out.length * 2, o + needed));
    out.copy(larger, 0, 0, o);
    out = scratch = larger;
  };
  let start = 0;
  while (start < bytes.length) {
    const newline = bytes.indexOf(NEWLINE, start);
    const end = newline < 0 ? bytes.length : newline;
    // A fast row is never longer than its line: each field's key and quotes (at least 4 bytes) become one `;`, the `}` CRLF.
    room(end - start + 2);
    const next = fast ? fastRow(bytes, start, end, out, o) : -1;
    if (next >= 0) o = next;
    else {
      const row = csvRow(JSON.parse(bytes.toString("utf8", start, end)) as Subject);
      room(Buffer.byteLength(row, "utf8"));
      o += out.write(row, o, "utf8");
    }
    start = end + 1;
  }
  // The rows copied out at their size: the caller keeps them a while (a block's worth), the scratch is the next chunk's.
  return Buffer.from(out.subarray(0, o));
}
