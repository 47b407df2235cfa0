/**
 * A download's rows made from the records' JSON bytes, the part the CSV (csv-from-json.ts) and the
 * workbook (xlsx-from-json.ts) share: a chunk of records is the build's own canonical JSON, one a
 * line (renderSubject, src/core/render-page.ts: the ten fields in a fixed order, no spaces,
 * JSON.stringify's escapes), so where a record's values are plainly its bytes a row is made by
 * copying them, with no parse, no object and no string a cell. `recordSpans` finds those values;
 * `chunkRecords` walks a chunk's lines once for every format, and `rowsOf` takes each record the
 * format's fast row takes and hands any other (and every record of a chunk that is not UTF-8) to the
 * format's row of the parsed record, so every row is the bytes the parsed record's row would be.
 */
import { isUtf8 } from "node:buffer";
import type { Subject } from "../core/render-page.ts";
import { FIELD_NAMES } from "../data/rules/subject-fields.ts";

const [NEWLINE, QUOTE, BACKSLASH, CLOSE_OBJECT, ZERO, NINE] = [0x0a, 0x22, 0x5c, 0x7d, 0x30, 0x39];
const TRUE = Buffer.from("true", "latin1");
const FALSE = Buffer.from("false", "latin1");
/** An id longer than this is left to the parse (a number's text can change form far beyond it). */
const MAX_ID_DIGITS = 15;

/** How each field's value is written in the canonical JSON. */
export type Kind = "digits" | "text" | "flag";
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

/** Each field's kind, in the fields' order. */
export const KINDS: readonly Kind[] = FIELD_NAMES.map((name) => KIND[name]);

/** Each field's bytes before its value (`{"id":`, `,"oib":"`, …; a text's opening quote included). */
const KEYS = FIELD_NAMES.map((name, i) =>
  Buffer.from(`${i === 0 ? "{" : ","}${JSON.stringify(name)}:${KIND[name] === "text" ? '"' : ""}`, "latin1"),
);

/** Does `line` hold `bytes` at `at`? */
function holds(line: Uint8Array, at: number, bytes: Uint8Array): boolean {
  if (at + bytes.length > line.length) return false;
  for (let i = 0; i < bytes.length; i++) if (line[at + i] !== bytes[i]) return false;
  return true;
}

/** Each key's first bytes as little-endian 32-bit words (a key's last `length % 4` bytes compared one by one). */
const KEY_WORDS = KEYS.map((key) => Int32Array.from({ length: key.length >> 2 }, (_, w) => key.readInt32LE(4 * w)));

/** Does `chunk` (read as `view` too) hold key `f` at `at`, before `end`? Four bytes a comparison. */
function holdsKey(chunk: Uint8Array, view: DataView, at: number, end: number, f: number): boolean {
  const key = KEYS[f] as Buffer;
  if (at + key.length > end) return false;
  const words = KEY_WORDS[f] as Int32Array;
  for (let w = 0; w < words.length; w++) if (view.getInt32(at + 4 * w, true) !== words[w]) return false;
  for (let i = 4 * words.length; i < key.length; i++) if (chunk[at + i] !== key[i]) return false;
  return true;
}

/**
 * Finds the values of the record in `chunk[start, end)` when it is in the canonical form with plain
 * values: each key where the form puts it, an id of at most 15 digits with no leading zero,
 * `true`/`false`, and texts whose only JSON escape is `\"` (none for a control character, a
 * backslash, U+2028 or a lone surrogate) and with no raw control byte. Field `f`'s value is then
 * `chunk[spans[2f], spans[2f + 1])` (a text's without its quotes, its quotes still escaped: a backslash
 * in it is always one before a quote; each from `spans[base]` on); false for any other record (what
 * `spans` holds then means nothing). A name in quotes (`Dječji vrtić "Rabra"`, some 2 % of the
 * records) was the parse's, twice a record.
 */
export function recordSpans(
  chunk: Uint8Array,
  start: number,
  end: number,
  spans: Int32Array,
  base = 0,
  view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength),
): boolean {
  let i = start;
  for (let f = 0; f < KEYS.length; f++) {
    if (!holdsKey(chunk, view, i, end, f)) return false;
    i += (KEYS[f] as Buffer).length;
    const from = i;
    const kind = KINDS[f];
    if (kind === "text") {
      for (;;) {
        if (i >= end) return false;
        const c = chunk[i] as number;
        if (c === QUOTE) break;
        if (c < 0x20) return false;
        // An escaped quote is the one escape a text may hold (the formats' rows write it as a quote): any other is the parse's.
        if (c === BACKSLASH) {
          if (chunk[i + 1] !== QUOTE) return false;
          i++;
        }
        i++;
      }
      spans[base + 2 * f] = from;
      spans[base + 2 * f + 1] = i++;
      continue;
    }
    if (kind === "digits") {
      while (i < end && (chunk[i] as number) >= ZERO && (chunk[i] as number) <= NINE) i++;
      // JSON.stringify of an id ≥ 1 never starts with 0; String() of a number of at most 15 digits is those digits.
      if (i === from || i - from > MAX_ID_DIGITS || chunk[from] === ZERO) return false;
    } else {
      const word = chunk[i] === 0x74 ? TRUE : FALSE;
      if (!holds(chunk, i, word)) return false;
      i += word.length;
    }
    spans[base + 2 * f] = from;
    spans[base + 2 * f + 1] = i;
  }
  return i + 1 === end && chunk[i] === CLOSE_OBJECT;
}

/** A format's rows from the records' JSON. */
export interface JsonRows {
  /** The most bytes `fast` writes for a line of `length` bytes. */
  room(length: number): number;
  /**
   * Writes the row of the `line`th record (from 0), its values at `spans` (from `base` on) in `chunk`, into `out` at
   * `at` when the format takes it as its bytes: the offset after the row, or -1 (what was written
   * then means nothing).
   */
  fast(chunk: Uint8Array, spans: Int32Array, base: number, out: Uint8Array, at: number, line: number): number;
  /** The row of the `line`th record, parsed: what `fast` writes when it takes it. */
  slow(subject: Subject, line: number): string;
}

/**
 * Where each record of a chunk lies and, for those `recordSpans` finds plain, its values: found once
 * a chunk and read by every format's rows (finding them was half of a format's rows' CPU, and the
 * CSV and the workbook took the same chunk's in turn). Its arrays are reused by the next chunk's.
 */
export interface ChunkRecords {
  readonly bytes: Buffer;
  readonly count: number;
  /** Record `r`'s line is `bytes[lines[2r], lines[2r + 1])` (no newline). */
  readonly lines: Int32Array;
  /** Is record `r` plain (its values at `spans[2 * FIELDS * r]` on), as `recordSpans` finds it? */
  readonly plain: Uint8Array;
  readonly spans: Int32Array;
}

const FIELDS = KEYS.length;
/** The chunk the arrays describe now (grown for a larger one). */
let records: { lines: Int32Array; plain: Uint8Array; spans: Int32Array } = {
  lines: new Int32Array(0),
  plain: new Uint8Array(0),
  spans: new Int32Array(0),
};

/** The records of a chunk of whole records, one a line (the last may lack its newline). */
export function chunkRecords(chunk: Uint8Array): ChunkRecords {
  const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  // Not UTF-8 (never so in the build's own records): decoding would replace bytes, so every record is parsed.
  const utf8 = isUtf8(bytes);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let count = 0;
  let start = 0;
  while (start < bytes.length) {
    const newline = bytes.indexOf(NEWLINE, start);
    const end = newline < 0 ? bytes.length : newline;
    if (count === records.plain.length) {
      const size = Math.max(1024, 2 * count);
      const larger = { lines: new Int32Array(2 * size), plain: new Uint8Array(size), spans: new Int32Array(2 * FIELDS * size) };
      larger.lines.set(records.lines);
      larger.plain.set(records.plain);
      larger.spans.set(records.spans);
      records = larger;
    }
    records.lines[2 * count] = start;
    records.lines[2 * count + 1] = end;
    records.plain[count] = utf8 && recordSpans(bytes, start, end, records.spans, 2 * FIELDS * count, view) ? 1 : 0;
    count++;
    start = end + 1;
  }
  return { bytes, count, ...records };
}

/** A buffer rows are made in, grown to the largest chunk's and kept for the next (a fresh one a chunk was fresh memory for the kernel). */
export class Scratch {
  buffer = Buffer.allocUnsafe(0);
}

/**
 * The rows of a chunk's records: the bytes `rows.slow` of each parsed record gives, in `into`'s
 * buffer (valid until it is used again).
 */
export function rowsOf(chunk: ChunkRecords, rows: JsonRows, into: Scratch): Buffer {
  const { bytes, lines, plain } = chunk;
  let out = into.buffer;
  let o = 0;
  const room = (needed: number): void => {
    if (o + needed <= out.length) return;
    const larger = Buffer.allocUnsafe(Math.max(out.length * 2, o + needed));
    out.copy(larger, 0, 0, o);
    out = into.buffer = larger;
  };
  for (let line = 0; line < chunk.count; line++) {
    const start = lines[2 * line] as number;
    const end = lines[2 * line + 1] as number;
    room(rows.room(end - start));
    const next = plain[line] === 1 ? rows.fast(bytes, chunk.spans, 2 * FIELDS * line, out, o, line) : -1;
    if (next >= 0) o = next;
    else {
      const row = rows.slow(JSON.parse(bytes.toString("utf8", start, end)) as Subject, line);
      room(Buffer.byteLength(row, "utf8"));
      o += out.write(row, o, "utf8");
    }
  }
  return out.subarray(0, o);
}
