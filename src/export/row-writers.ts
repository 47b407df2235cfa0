/**
 * The rows of a spreadsheet a maintainer edits, one subject each: the CSV as Excel opens it on a
 * Croatian locale (UTF-8 with a byte-order mark, `;` between cells, CRLF; a cell a spreadsheet
 * would evaluate guarded by an apostrophe, formula-guard.ts) and the workbook (the OIB, the code
 * and the date as text cells in text columns, flags as boolean cells, text escaped by OOXML's
 * `_xHHHH_`, xstring.ts; a value longer than a cell holds refused with its place). Written for the
 * export (export-records.ts) and for the build's downloads (write-downloads.ts).
 */
import { once } from "node:events";
import { createWriteStream, type WriteStream } from "node:fs";
import { msg } from "../common/messages/message.ts";
import { failure } from "../common/messages/translate.ts";
import type { Subject } from "../core/render-page.ts";
import { FIELD_NAMES } from "../data/rules/subject-schema.ts";
import { guardFormula } from "../data/sources/formula-guard.ts";
import { columnLetters } from "../data/sources/sheet-cells.ts";
import { encodeXstring } from "../data/sources/xstring.ts";
import { loadExcelJs, withZipDate } from "./load-exceljs.ts";

/** Columns Excel must keep as text: its zeros (OIB, code) and an ISO date it would rewrite. */
const TEXT_COLUMNS: ReadonlySet<string> = new Set(["jedinstvena_oznaka", "oib", "datum_postanka"]);

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

/** A CSV cell as Excel writes it (quoted when it holds `;`, a quote or a line break), guarded when Excel would evaluate it. */
function csvCell(value: unknown): string {
  const text = guardFormula(String(value));
  return /[;"\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The CSV's first line: the byte-order mark, then the ten field names. */
export const CSV_HEADER = `\uFEFF${FIELD_NAMES.join(";")}\r\n`;

/** One subject as a line of the CSV. */
export function csvRow(subject: Subject): string {
  return `${FIELD_NAMES.map((f) => csvCell(subject[f])).join(";")}\r\n`;
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

/** The last row of a worksheet (the lists cover every row a person may add). */
const MAX_ROWS = 1_048_576;
/** The most characters a workbook cell holds (Excel's specifications and limits): Excel cuts a longer one when it saves. */
const MAX_CELL_CHARACTERS = 32_767;

/** A subject's cells as a workbook holds them: text escaped where XML cannot hold it, a value too long for a cell refused. */
function workbookCells(subject: Subject): unknown[] {
  return FIELD_NAMES.map((field) => {
    const value = subject[field];
    if (typeof value !== "string") return value;
    if (value.length > MAX_CELL_CHARACTERS) {
      throw failure(
        "EXPORT_CELL_TOO_LONG",
        msg("error.export-cell-too-long", { id: subject.id, field, count: value.length, max: MAX_CELL_CHARACTERS }),
      );
    }
    return encodeXstring(value);
  });
}

/**
 * A workbook written to `path` row by row. With `date`, every date inside it (the document's
 * properties, each zip entry's time) is that one, so the same rows give the same bytes; without,
 * exceljs's own (the clock).
 */
export function xlsxWriter(path: string, date?: Date): RowWriter {
  // The streaming writer commits each row to the zip as it goes: a million rows never sit in memory.
  const { out, abort } = fileStream(path);
  const make = () => new (loadExcelJs().stream.xlsx.WorkbookWriter)({ stream: out, useStyles: true, useSharedStrings: false });
  const workbook = date === undefined ? make() : withZipDate(date, make);
  if (date !== undefined) {
    workbook.created = date;
    workbook.modified = date;
  }
  const sheet = workbook.addWorksheet("subjekti", { views: [{ state: "frozen", ySplit: 1 }] });
  // Help for the person editing it: a filter on every column, the known levels and the two flags
  // offered as lists (suggestions only: another lowercase level is still accepted, with a warning).
  sheet.autoFilter = `A1:${columnLetters(FIELD_NAMES.length)}1`;
  const column = (field: string): string => columnLetters(FIELD_NAMES.indexOf(field as (typeof FIELD_NAMES)[number]) + 1);
  const list = (field: string, values: string): void => {
    // The streaming writer has them (written with the sheet's end), its types do not say so.
    (sheet as unknown as { dataValidations: { add(range: string, rule: object): void } }).dataValidations.add(
      `${column(field)}2:${column(field)}${MAX_ROWS}`,
      { type: "list", allowBlank: true, formulae: [`"${values}"`], showErrorMessage: false },
    );
  };
  list("razina", "lokalna,nacionalna");
  list("status_subjekta", "TRUE,FALSE");
  list("odobreno", "TRUE,FALSE");
  sheet.columns = FIELD_NAMES.map((field) => ({
    header: field,
    key: field,
    width: field === "naziv_subjekta" || field === "institucija_email" ? 48 : 16,
    ...(TEXT_COLUMNS.has(field) ? { style: { numFmt: "@" } } : {}),
  }));
  return {
    row: (s) => sheet.addRow(workbookCells(s)).commit(),
    async end() {
      sheet.commit();
      await workbook.commit();
    },
    abort,
  };
}
