/**
 * A workbook, .xlsx or .ods, read as a stream (read-ooxml.ts, read-ods.ts: the format as ECMA-376 defines it, whoever
 * wrote it: Excel, LibreOffice, Gnumeric, openpyxl and pandas, xlsxwriter, exceljs; rows are handed
 * on one at a time, so a million rows never sit in memory at once). The worksheet read is the one
 * named `subjekti`, else the first. Its first non-empty row is the header, as in a CSV; cells keep
 * their types (text, number, boolean, date), which spreadsheet-forms.ts turns into the values the
 * schema expects. Problems are located by cell: `data/subjekti.xlsx!subjekti!F118`.
 */
import type { Problem, ProblemSink } from "../problems/problems.ts";
import { showValue } from "../problems/problem-parts.ts";
import { msg } from "../../common/messages/message.ts";
import type { RecordSink } from "./record-sink.ts";
import { readHeader } from "./read-csv.ts";
import { openOdsWorkbook } from "./read-ods.ts";
import { openWorkbook, type SheetRow } from "./read-ooxml.ts";
import { columnLetters, placeInCells } from "./sheet-cells.ts";
import type { SheetLayout, SourceFile } from "./source-file.ts";
import { type Cell, type FormNote, readCell } from "./spreadsheet-forms.ts";
import { openZip } from "./zip-entries.ts";

/** The sheet read when a workbook has several. */
const SHEET_NAME = "subjekti";

/** The text of a header cell. */
function headerText(cell: Cell): string {
  return cell === undefined ? "" : cell instanceof Date ? cell.toISOString() : String(cell);
}

const isBlank = (cell: Cell): boolean => cell === undefined || cell === "";

/** Reads the rows of one worksheet: the header, then each record. */
async function readSheet(
  rows: AsyncIterable<SheetRow>,
  file: SourceFile,
  sheet: SheetLayout,
  sink: RecordSink,
  problems: ProblemSink,
): Promise<void> {
  let fields: (string | undefined)[] | undefined;
  for await (const row of rows) {
    const values = row.cells;
    if (!values.some((v) => !isBlank(v))) continue;
    if (fields === undefined) {
      const cells = Array.from({ length: values.length }, (_, i) => headerText(values[i]));
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
      const field = fields[i];
      // A column the header reported (not a field) is left out: its records are still checked.
      if (field !== undefined) subject[field] = readCell(field, values[i], notes);
    }
    for (let i = fields.length; i < values.length; i++) {
      const extra = values[i];
      if (isBlank(extra)) continue;
      problems.push({
        severity: "error",
        file: file.name,
        line: row.number,
        cell: `${sheet.name}!${columnLetters(i + 1)}${row.number}`,
        value: showValue(extra),
        expected: msg("expected.cells-in-columns"),
        hint: msg("hint.unnamed-column"),
      });
    }
    sink.record(subject, row.number, undefined, notes);
    await sink.ready?.();
  }
  if (fields === undefined)
    problems.push({
      severity: "error",
      file: file.name,
      cell: sheet.name,
      expected: msg("expected.header-row"),
      value: msg("value.empty-sheet"),
    });
}

/** Reads the `subjekti` (or first) worksheet of `file`, passing `sink` each row as an object with its row number. */
export async function readXlsx(file: SourceFile, sink: RecordSink, problems: ProblemSink): Promise<void> {
  const sheet = file.sheet ?? { name: "", columns: new Map<string, string>() };
  let zip;
  try {
    zip = await openZip(file.path);
  } catch (error) {
    problems.push({
      severity: "error",
      file: file.name,
      expected: msg("expected.workbook"),
      hint: msg("hint.unreadable", { detail: (error as Error).message }),
    });
    return;
  }
  try {
    const workbook = await (file.path.toLowerCase().endsWith(".ods") ? openOdsWorkbook(zip) : openWorkbook(zip));
    const target = workbook.sheets.find((n) => n.toLowerCase() === SHEET_NAME) ?? workbook.sheets[0];
    if (target === undefined) {
      problems.push({ severity: "error", file: file.name, expected: msg("expected.worksheet"), value: msg("value.none") });
      return;
    }
    sheet.name = target;
    await readSheet(workbook.rows(target), file, sheet, sink, problems);
  } catch (error) {
    // A part that is missing, not XML, or not UTF-8 (plain Errors): not a workbook this reader can read.
    if (!(error instanceof Error) || error instanceof TypeError || error instanceof RangeError) throw error;
    problems.push({
      severity: "error",
      file: file.name,
      expected: msg("expected.workbook"),
      hint: msg("hint.unreadable", { detail: error.message }),
    });
  } finally {
    zip.close();
  }
}
