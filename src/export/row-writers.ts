/**
 * The rows of a spreadsheet a maintainer edits, one subject each: the CSV (each row as csv-row.ts
 * makes it) and the workbook (each row as xlsx-row.ts makes it: the OIB, the code and the date as
 * text cells in text columns, flags as boolean cells, text escaped by OOXML's `_xHHHH_`; a value
 * longer than a cell holds refused with its place). Written for the export (export-records.ts); the
 * build's downloads make the same rows from the records' bytes (csv-from-json.ts, xlsx-from-json.ts).
 */
import { once } from "node:events";
import { createWriteStream, type WriteStream } from "node:fs";
import type { Subject } from "../core/render-page.ts";
import { CSV_HEADER, csvRow } from "./csv-row.ts";
import { XlsxWriter } from "./xlsx-writer.ts";
import { workbookCells } from "./xlsx-row.ts";

/** Takes rows, one subject each, in order; then ends the file, or abandons it (a rule across records broken after some rows). */
export interface RowWriter {
  row(subject: Subject): Promise<void> | void;
  end(): Promise<void>;
  abort(): void;
}

/** The file a writer writes to; an abandoned one is closed quietly (its writes then fail, unheard). */
function fileStream(path: string): { readonly out: WriteStream; readonly abort: () => void } {
  const out = createWriteStream(path);
  return { out, abort: () => void out.on("error", () => undefined).destroy() };
}

/** A CSV written to `path` row by row. */
export function csvWriter(path: string): RowWriter {
  const { out, abort } = fileStream(path);
  const write = async (text: string): Promise<void> => {
    if (!out.write(text)) await once(out, "drain");
  };
  // The header alone is far below the stream's buffer: it never waits for a drain.
  out.write(CSV_HEADER);
  return {
    row: (s) => write(csvRow(s)),
    async end() {
      out.end();
      await once(out, "finish");
    },
    abort,
  };
}

/**
 * A workbook written to `path` row by row (xlsx-writer.ts). Every date inside it (the document's
 * properties, each zip entry's time) is `date`, so the same rows give the same bytes; the export,
 * which has no data's date, passes the clock's.
 */
export function xlsxWriter(path: string, date: Date = new Date()): RowWriter {
  const workbook = new XlsxWriter(path, date);
  return {
    row: (s) => workbook.row(workbookCells(s)),
    end: async () => void (await workbook.end()),
    abort: () => workbook.abort(),
  };
}
