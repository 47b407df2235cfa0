/**
 * An .xlsx workbook, read as a stream with exceljs's WorkbookReader (the zip's entries and their
 * XML are parsed as they arrive; rows are handed on one at a time, so a million rows never sit in
 * memory at once; load-exceljs.ts fixes how it decodes that XML). The worksheet read is the one named `subjekti`, else the first. Its first
 * non-empty row is the header, as in a CSV; cells keep their types (text, number, boolean, date),
 * which spreadsheet-forms.ts turns into the values the schema expects. Problems are located by
 * cell: `data/subjekti.xlsx!subjekti!F118`.
 */
import type ExcelJS from "exceljs";
import { loadExcelJs } from "./load-exceljs.ts";
import type { Problem, ProblemSink } from "../problems/problems.ts";
import type { RecordSink } from "./read-json-array.ts";
import { readHeader } from "./read-csv.ts";
import { columnLetters, placeInCells } from "./sheet-cells.ts";
import type { SheetLayout, SourceFile } from "./source-file.ts";
import { type Cell, type FormNote, readCell } from "./spreadsheet-forms.ts";

/** The sheet read when a workbook has several. */
const SHEET_NAME = "subjekti";

/** What exceljs's stream reader gives for a cell (its `Row.values`); rich text, formulas and links are objects. */
function cellOf(value: unknown): Cell {
  if (value === null || value === undefined) return undefined;
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean" || value instanceof Date) return value;
  if (typeof value === "object") {
    const v = value as { richText?: { text?: string }[]; result?: unknown; error?: string; text?: unknown };
    if (Array.isArray(v.richText)) return v.richText.map((r) => r.text ?? "").join("");
    if ("result" in v) return cellOf(v.result);
    if (typeof v.error === "string") return v.error;
    if ("text" in v) return cellOf(v.text);
  }
  return String(value);
}

/** The text of a header cell. */
function headerText(value: unknown): string {
  const cell = cellOf(value);
  return cell === undefined ? "" : cell instanceof Date ? cell.toISOString() : String(cell);
}

/** Reads the rows of one worksheet: the header, then each record. */
async function readSheet(rows: AsyncIterable<ExcelJS.Row>, file: SourceFile, sheet: SheetLayout, sink: RecordSink, problems: ProblemSink): Promise<void> {
  let fields: (string | undefined)[] | undefined;
  for await (const row of rows) {
    const values = row.values as unknown[];
    if (!values.some((v) => cellOf(v) !== undefined && cellOf(v) !== "")) continue;
    if (fields === undefined) {
      // Columns are 1-based; a header of the ten names in any order, as in a CSV.
      const cells = Array.from({ length: values.length - 1 }, (_, i) => headerText(values[i + 1]));
      while (cells.length > 0 && cells[cells.length - 1] === "") cells.pop();
      cells.forEach((name, i) => sheet.columns.set(name.trim(), columnLetters(i + 1)));
      const header: Problem[] = [];
      const names = readHeader(cells, file, row.number, (p) => header.push(p));
      placeInCells(header, 0, sheet, row.number);
      for (const p of header) problems.push(p);
      if (names === undefined) return;
      fields = names;
      continue;
    }
    const subject: Record<string, unknown> = {};
    const notes: FormNote[] = [];
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i] as string;
      subject[field] = readCell(field, cellOf(values[i + 1]), notes);
    }
    for (let i = fields.length + 1; i < values.length; i++) {
      const extra = cellOf(values[i]);
      if (extra === undefined || extra === "") continue;
      problems.push({ severity: "error", file: file.name, line: row.number, cell: `${sheet.name}!${columnLetters(i)}${row.number}`, value: JSON.stringify(extra), expected: "cells only in the header's columns", hint: "a column without a field name: delete it, or name it" });
    }
    sink.record(subject, row.number, undefined, notes);
    await sink.ready?.();
  }
  if (fields === undefined) problems.push({ severity: "error", file: file.name, cell: sheet.name, expected: "a header row of field names", value: "an empty sheet" });
}

/** Reads the `subjekti` (or first) worksheet of `file`, passing `sink` each row as an object with its row number. */
export async function readXlsx(file: SourceFile, sink: RecordSink, problems: ProblemSink): Promise<void> {
  const sheet = file.sheet ?? { name: "", columns: new Map<string, string>() };
  const excel = loadExcelJs();
  // Styles are read only to tell date cells from number cells; hyperlinks are not needed.
  const reader = new excel.stream.xlsx.WorkbookReader(file.path, { sharedStrings: "cache", styles: "cache", hyperlinks: "ignore", worksheets: "emit", entries: "ignore" });
  let read = false;
  try {
    for await (const worksheet of reader) {
      const ws = worksheet as ExcelJS.stream.xlsx.WorksheetReader & { name: string };
      const names = ((reader as unknown as { model?: { sheets?: { name: string }[] } }).model?.sheets ?? []).map((s) => s.name);
      const target = names.find((n) => n.toLowerCase() === SHEET_NAME) ?? names[0] ?? ws.name;
      if (read || ws.name !== target) {
        // Another sheet: its rows are passed over (the zip is one stream, they must be read through).
        for await (const _ of ws) continue;
        continue;
      }
      read = true;
      sheet.name = ws.name;
      await readSheet(ws as unknown as AsyncIterable<ExcelJS.Row>, file, sheet, sink, problems);
    }
  } catch (error) {
    // exceljs and its unzipper throw plain Errors for a file that is not a workbook.
    if (!(error instanceof Error) || error instanceof TypeError || error instanceof RangeError) throw error;
    problems.push({ severity: "error", file: file.name, expected: "an .xlsx workbook", hint: `it cannot be read: ${error.message}` });
    return;
  }
  if (!read) problems.push({ severity: "error", file: file.name, expected: "a worksheet", value: "none" });
}
