/**
 * A subject as a line of the CSV: UTF-8 with a byte-order mark, `;` between cells, CRLF, the form
 * a Croatian Excel saves and the build reads back; a cell a spreadsheet would evaluate guarded by
 * an apostrophe (formula-guard.ts). Apart from the writers (row-writers.ts) so that the build's
 * downloads, which make the same rows from the records' bytes (csv-from-json.ts), reach it without
 * the workbook's code.
 */
import type { Subject } from "../core/render-page.ts";
import { FIELD_NAMES } from "../data/rules/subject-fields.ts";
import { guardFormula } from "../data/sources/formula-guard.ts";

/** A CSV cell as Excel writes it (quoted when it holds `;`, a quote or a line break), guarded when Excel would evaluate it. */
function csvCell(value: unknown): string {
  const text = guardFormula(String(value));
  return /[;"\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The CSV's first line: the byte-order mark, then the ten field names. */
export const CSV_HEADER = `\uFEFF${FIELD_NAMES.join(";")}\r\n`;

/** One subject as a line of the CSV (the build's downloads make the same bytes from the records' JSON: csv-from-json.ts). */
export function csvRow(subject: Subject): string {
  return `${FIELD_NAMES.map((f) => csvCell(subject[f])).join(";")}\r\n`;
}
