/**
 * The way back to a spreadsheet: the validated records, in id order, as a workbook or a CSV a
 * maintainer edits and saves as a source again. In the workbook the OIB, the code and the date
 * are text cells in columns formatted as text, so Excel keeps their zeros and does not turn
 * dates into its own form; flags are boolean cells. The CSV is what Excel opens correctly on a
 * Croatian locale: UTF-8 with a byte-order mark, `;` between cells, CRLF. Reading either back
 * gives the same site, without a single warning of a spreadsheet form. Written to a temporary
 * file renamed into place, so a failed export leaves no half-written file.
 */
import { once } from "node:events";
import { createWriteStream, type WriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import type { Subject } from "../core/render-page.ts";
import { loadExcelJs, withZipDate } from "./load-exceljs.ts";
import type { Problem, ProblemKind } from "../data/problems/problems.ts";
import { readInIdOrder } from "../data/order/read-in-order.ts";
import type { ReadOptions } from "../data/order/read-records.ts";
import type { RenderedBlock } from "../data/order/render-block.ts";
import { FIELD_NAMES } from "../data/rules/subject-schema.ts";
import { columnLetters } from "../data/sources/sheet-cells.ts";

export type ExportFormat = "xlsx" | "csv";

export interface ExportOptions extends ReadOptions {
  readonly format: ExportFormat;
  /** The file written. */
  readonly out: string;
}

export interface ExportReport {
  readonly count: number;
  /** The first few warnings of each kind, and every kind's count. */
  readonly warnings: readonly Problem[];
  readonly kinds: readonly ProblemKind[];
}

/** Columns Excel must keep as text: its zeros (OIB, code) and an ISO date it would rewrite. */
const TEXT_COLUMNS: ReadonlySet<string> = new Set(["jedinstvena_oznaka", "oib", "datum_postanka"]);

/** A block's records, parsed back one at a time. */
export function* subjectsOf(block: RenderedBlock): Generator<Subject> {
  const bytes = Buffer.from(block.bytes.buffer, block.bytes.byteOffset, block.bytes.byteLength);
  for (let k = 0; k < block.ends.length; k++) yield JSON.parse(bytes.toString("utf8", k === 0 ? 0 : block.ends[k - 1], block.ends[k])) as Subject;
}

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

/** A CSV cell as Excel writes it: quoted when it holds `;`, a quote or a line break. */
function csvCell(value: unknown): string {
  const text = String(value);
  return /[;"\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The CSV's first line: the byte-order mark, then the ten field names. */
export const CSV_HEADER = `\uFEFF${FIELD_NAMES.join(";")}\r\n`;

/** One subject as a line of the CSV. */
export function csvRow(subject: Subject): string {
  return `${FIELD_NAMES.map((f) => csvCell(subject[f])).join(";")}\r\n`;
}

function csvWriter(path: string): RowWriter {
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
    (sheet as unknown as { dataValidations: { add(range: string, rule: object): void } }).dataValidations.add(`${column(field)}2:${column(field)}${MAX_ROWS}`, { type: "list", allowBlank: true, formulae: [`"${values}"`], showErrorMessage: false });
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
    row: (s) => sheet.addRow(FIELD_NAMES.map((f) => s[f])).commit(),
    async end() {
      sheet.commit();
      await workbook.commit();
    },
    abort,
  };
}

/**
 * Reads and validates `options.dataDir`, writing its records to `options.out` as they come in id
 * order (through the sort: a row once written is never taken back). On a DataError the file is
 * not written.
 */
export async function exportRecords(options: ExportOptions): Promise<ExportReport> {
  const temporary = `${options.out}.tmp-${process.pid}`;
  // Opened at the first row: a read that fails before one (the usual bad data) opens nothing.
  let rows: RowWriter | undefined;
  const open = (): RowWriter => (options.format === "xlsx" ? xlsxWriter : csvWriter)(temporary);
  try {
    const read = await readInIdOrder(options, {
      async take(block) {
        rows ??= open();
        for (const subject of subjectsOf(block)) await rows.row(subject);
      },
    });
    rows ??= open();
    await rows.end();
    await rename(temporary, options.out);
    return { count: read.count, warnings: read.warnings, kinds: read.kinds };
  } catch (error) {
    rows?.abort();
    throw error;
  } finally {
    await rm(temporary, { force: true });
  }
}
