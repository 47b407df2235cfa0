/**
 * The CSV's rows made from the records' JSON bytes, for the build's downloads (rows-from-json.ts):
 * the common record's row is its values' bytes copied between `;`. Parsing each record and joining
 * its cells (`csvRow`) took ~10 µs a record, ~10 s of the build at 1M.
 *
 * The fast row takes a record whose values `recordSpans` finds plain when its texts also hold no
 * `;` and begin with no character the formula guard looks at (`=`, `+`, `-`, `@`, an apostrophe, or
 * any character from U+F000 up, where the full-width triggers are). Any other record goes through
 * `csvRow` of its parsed JSON, so every row is the bytes `csvRow(JSON.parse(line))` gives.
 */
import { csvRow } from "./csv-row.ts";
import { type ChunkRecords, type JsonRows, KINDS, rowsOf, type Scratch } from "./rows-from-json.ts";

const [NEWLINE, CR, SEMICOLON] = [0x0a, 0x0d, 0x3b];
const [APOSTROPHE, PLUS, MINUS, EQUALS, AT] = [0x27, 0x2b, 0x2d, 0x3d, 0x40];
/** The lead byte of a three-byte UTF-8 character from U+F000 (the full-width `=`, `+`, `-`, `@` among them). */
const LEAD_EF = 0xef;

const CSV_ROWS: JsonRows = {
  // A fast row is never longer than its line: each field's key and quotes (at least 4 bytes) become one `;`, the `}` CRLF.
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
        for (let i = from; i < to; i++) {
          const c = chunk[i] as number;
          if (c === SEMICOLON) return -1;
          out[o++] = c;
        }
      } else for (let i = from; i < to; i++) out[o++] = chunk[i] as number;
    }
    out[o++] = CR;
    out[o++] = NEWLINE;
    return o;
  },
  slow: (subject) => csvRow(subject),
};

/**
 * The CSV's rows (no header) of a chunk's records (chunkRecords), in `into`'s buffer: the bytes
 * `csvRow` gives for each (the workbook's rows read the same records).
 */
export function csvRowsOf(records: ChunkRecords, into: Scratch): Buffer {
  return rowsOf(records, CSV_ROWS, into);
}
