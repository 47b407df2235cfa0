/**
 * A subject as a row of the workbook's sheet XML: the OIB, the code and the date as text cells with
 * the text style, the id a number, the flags booleans, every text an inline string (no shared-strings
 * table grows with the list) escaped by OOXML's `_xHHHH_` (xstring.ts) where XML cannot hold it.
 * Apart from the writer (xlsx-writer.ts) so that the build's downloads, which make the same rows from
 * the records' bytes (xlsx-from-json.ts), reach it without the zip's code.
 */
import { msg } from "../common/messages/message.ts";
import { failure } from "../common/messages/translate.ts";
import type { Subject } from "../core/render-page.ts";
import { FIELD_NAMES } from "../data/rules/subject-fields.ts";
import { columnLetters } from "../data/sources/sheet-cells.ts";
import { encodeXstring } from "../data/sources/xstring.ts";
import { TEXT_COLUMNS, TEXT_STYLE } from "./xlsx-parts.ts";

/** Each field's column letter, and its style attribute (the text style's, or none). */
export const LETTERS = FIELD_NAMES.map((_, i) => columnLetters(i + 1));
export const STYLES = FIELD_NAMES.map((field) => (TEXT_COLUMNS.has(field) ? ` s="${TEXT_STYLE}"` : ""));

const XML_ESCAPES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };

/** Text inside an element: `&`, `<` and `>` escaped (the rest is OOXML's `_xHHHH_`, done by the caller). */
function xmlText(text: string): string {
  return /[&<>]/.test(text) ? text.replace(/[&<>]/g, (c) => XML_ESCAPES[c] ?? c) : text;
}

/** An inline string cell; white space at either end kept (Excel trims it otherwise). */
function textCell(reference: string, style: string, text: string): string {
  const space = /^\s|\s$/.test(text) ? ' xml:space="preserve"' : "";
  return `<c r="${reference}"${style} t="inlineStr"><is><t${space}>${xmlText(text)}</t></is></c>`;
}

/**
 * One row's XML: `cells` in the fields' order (a string already in OOXML's escape). The row number
 * and the cell references are written although SpreadsheetML makes them optional: exceljs's reader
 * refuses a row without its number ("Invalid row number in model"), its streaming reader a cell
 * without its reference, and Gnumeric (1.12.55) reads such a cell as empty; without them the sheet
 * deflated a third smaller, for a third less CPU (docs/open-data.md). So a chunk's segment holds its
 * rows' numbers, and is copied into a workbook only where the chunk begins at the same row.
 */
export function rowXml(number: number, cells: readonly unknown[]): string {
  let xml = `<row r="${number}">`;
  for (let i = 0; i < cells.length; i++) {
    const value = cells[i];
    const reference = `${LETTERS[i] as string}${number}`;
    if (typeof value === "string") xml += textCell(reference, STYLES[i] as string, value);
    else if (typeof value === "boolean") xml += `<c r="${reference}" t="b"><v>${value ? 1 : 0}</v></c>`;
    else if (typeof value === "number") xml += `<c r="${reference}"><v>${value}</v></c>`;
  }
  return `${xml}</row>`;
}

/** The most characters a workbook cell holds (Excel's specifications and limits): Excel cuts a longer one when it saves. */
export const MAX_CELL_CHARACTERS = 32_767;

/** A subject's cells as a workbook holds them: text escaped where XML cannot hold it, a value too long for a cell refused. */
export function workbookCells(subject: Subject): unknown[] {
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
