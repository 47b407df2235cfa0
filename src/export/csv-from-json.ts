/**
 * The CSV's rows made from the records' JSON bytes, for the build's downloads (rows-from-json.ts):
 * the common record's row is its values' bytes copied between `;`. Parsing each record and joining
 * its cells (`csvRow`) took ~10 µs a record, ~10 s of the build at 1M.
 *
 * The fast row takes a record whose values `recordSpans` finds plain when its texts also begin with
 * no character the formula guard looks at (`=`, `+`, `-`, `@`, an apostrophe, or any character from
 * U+F000 up, where the full-width triggers are); a text holding `;` or a quote is written in quotes,
 * as `csvCell` writes it (no CR or LF is left: `recordSpans` takes no text with their escapes). Any
 * other record goes through `csvRow` of its parsed JSON, so every row is the bytes
 * `csvRow(JSON.parse(line))` gives.
 */
import { csvRow } from "./csv-row.ts";
import { type ChunkRecords, type JsonRows, KINDS, rowsOf, type Scratch } from "./rows-from-json.ts";

const [NEWLINE, CR, SEMICOLON, QUOTE, BACKSLASH] = [0x0a, 0x0d, 0x3b, 0x22, 0x5c];
const [APOSTROPHE, PLUS, MINUS, EQUALS, AT] = [0x27, 0x2b, 0x2d, 0x3d, 0x40];
/** The lead byte of a three-byte UTF-8 character from U+F000 (the full-width `=`, `+`, `-`, `@` among them). */
const LEAD_EF = 0xef;

const CSV_ROWS: JsonRows = {
  // A fast row is never longer than its line: each field's key and quotes (at least 4 bytes) become one `;` (a text's
  // at least 9 bytes, a `;` and two quotes when quoted; `\"` two quotes), the `}` CRLF.
  room: (length) => length + 2,
  fast(chunk, spans, base, out, at) {
    let o = at;
    for (let f = 0; f < KINDS.length; f++) {
      if (f > 0) out[o++] = SEMICOLON;
      const from = spans[base + 2 * f] as number;
      const to = spans[base + 2 * f + 1] as number;
      if (KINDS[f] === "text") {
        const first = chunk[from];
        if (
          from < to &&
          (first === EQUALS || first === PLUS || first === MINUS || first === AT || first === APOSTROPHE || first === LEAD_EF)
        )
          return -1;
        const start = o;
        let i = from;
        for (; i < to; i++) {
          const c = chunk[i] as number;
          if (c === SEMICOLON || c === BACKSLASH) break;
          out[o++] = c;
        }
        if (i < to) o = quoted(chunk, from, to, out, start);
      } else for (let i = from; i < to; i++) out[o++] = chunk[i] as number;
    }
    out[o++] = CR;
    out[o++] = NEWLINE;
    return o;
  },
  slow: (subject) => csvRow(subject),
};

/**
 * A text holding `;` or a quote (`\"` in its JSON: the only escape `recordSpans` lets a text hold)
 * into `out` at `at` as `csvCell` writes it: in quotes, each quote doubled. The offset after it.
 */
function quoted(chunk: Uint8Array, from: number, to: number, out: Uint8Array, at: number): number {
  let o = at;
  out[o++] = QUOTE;
  for (let i = from; i < to; i++) {
    const c = chunk[i] as number;
    if (c === BACKSLASH) {
      out[o++] = QUOTE;
      out[o++] = QUOTE;
      i++;
    } else out[o++] = c;
  }
  out[o++] = QUOTE;
  return o;
}

/**
 * The CSV's rows (no header) of a chunk's records (chunkRecords), in `into`'s buffer: the bytes
 * `csvRow` gives for each (the workbook's rows read the same records).
 */
export function csvRowsOf(records: ChunkRecords, into: Scratch): Buffer {
  return rowsOf(records, CSV_ROWS, into);
}
