/**
 * A cell of a spreadsheet (a CSV cell's text, or an .xlsx cell's typed value) as the value the
 * schema expects. Spreadsheets rewrite what they show: Excel drops an OIB's leading zero, writes
 * `TRUE`, shows dates as `14.5.1966.` on a Croatian locale. Where such a form can mean only one
 * thing, it is read as that value and noted as a warning of its own kind (`--strict` refuses
 * it); anything ambiguous (`1/2/2020`, `2,73562E+10`) is left as it is, for the schema to reject
 * with its hint.
 */
import { fromCroatianDate, isCalendarDate } from "../rules/calendar-date.ts";
import type { FieldWarning } from "../rules/subject-warnings.ts";

/** A spreadsheet form that was read as the data's own value: a warning, located by the reader. */
export interface FormNote extends FieldWarning {
  /** The form's name: one kind of warning per form. */
  readonly form: string;
}

/** A cell: text (CSV, or an .xlsx text cell), or an .xlsx number, boolean or date cell; undefined when empty. */
export type Cell = string | number | boolean | Date | undefined;

const DIGITS = /^[0-9]+$/;
const FLAG = /^(?:true|false)$/i;

/** A whole number a spreadsheet holds, as digits (`27356152120`), or undefined. */
function wholeNumber(value: number): string | undefined {
  return Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
}

/** Digits zero-padded to `width` when the spreadsheet lost the zeros (text, or a number cell). */
function padded(field: "oib" | "jedinstvena_oznaka", cell: Cell, width: number, notes: FormNote[]): unknown {
  const digits = typeof cell === "number" ? wholeNumber(cell) : typeof cell === "string" && DIGITS.test(cell) && cell.length < width ? cell : undefined;
  // An OIB has exactly 11 digits; a code at least 4 (a longer number cell is still read as text).
  if (digits === undefined || (field === "oib" && digits.length > width)) return cell;
  const value = digits.padStart(width, "0");
  const what = field === "oib" ? "an OIB" : "a code";
  const form = typeof cell === "number" ? `${what} in a number cell` : `${what} without its leading zeros`;
  // Each form a kind of its own: the expectation names it (problems are grouped by field and expectation).
  const expected = `${field === "oib" ? "11 digits" : "at least 4 digits"} ${typeof cell === "number" ? "in a text cell" : "as text"}`;
  notes.push({ field, value: cell, form, expected, hint: `read as ${JSON.stringify(value)}; format the column as text to keep the zeros` });
  return value;
}

/** A Croatian `d.m.yyyy.` date, or an .xlsx date cell, as `YYYY-MM-DD`. */
function date(cell: Cell, notes: FormNote[]): unknown {
  if (cell instanceof Date) {
    // Date cells are days: exceljs gives midnight UTC; a time of day makes the cell ambiguous.
    const iso = Number.isNaN(cell.getTime()) ? "" : cell.toISOString();
    if (!iso.endsWith("T00:00:00.000Z")) return iso === "" ? "an invalid date cell" : iso;
    const value = iso.slice(0, 10);
    notes.push({ field: "datum_postanka", value: iso, form: "a date cell", expected: "a date YYYY-MM-DD as text", hint: `read as ${JSON.stringify(value)}` });
    return value;
  }
  if (typeof cell !== "string") return cell;
  const value = fromCroatianDate(cell);
  if (value === undefined || !isCalendarDate(value)) return cell;
  notes.push({ field: "datum_postanka", value: cell, form: "a date d.m.yyyy.", expected: "a date YYYY-MM-DD", hint: `read as ${JSON.stringify(value)}` });
  return value;
}

/** `true`/`false` (a CSV's own flags), `TRUE`/`False` (a spreadsheet's), or a boolean cell. */
function flag(field: "status_subjekta" | "odobreno", cell: Cell, notes: FormNote[]): unknown {
  if (typeof cell !== "string" || !FLAG.test(cell)) return cell;
  const value = cell.toLowerCase() === "true";
  if (cell !== "true" && cell !== "false") {
    notes.push({ field, value: cell, form: "TRUE/FALSE in capitals", expected: "true or false in lowercase", hint: `read as ${value}` });
  }
  return value;
}

/** The value of `field` from a spreadsheet cell, noting every spreadsheet form it was read from. */
export function readCell(field: string, cell: Cell, notes: FormNote[]): unknown {
  // An empty cell is empty text, as in a CSV.
  if (cell === undefined) return "";
  switch (field) {
    case "id":
      // Digits too many for an exact number stay text, so the problem shows them as written.
      return typeof cell === "string" && /^-?[0-9]+$/.test(cell) && Number.isSafeInteger(Number(cell)) ? Number(cell) : cell;
    case "oib":
      return padded("oib", cell, 11, notes);
    case "jedinstvena_oznaka":
      return padded("jedinstvena_oznaka", cell, 4, notes);
    case "datum_postanka":
      return date(cell, notes);
    case "status_subjekta":
    case "odobreno":
      return flag(field, cell, notes);
    default:
      return cell;
  }
}
