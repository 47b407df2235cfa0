/**
 * A cell of a spreadsheet (a CSV cell's text, or a workbook cell's typed value) as the value the
 * schema expects. Spreadsheets rewrite what they show: Excel and LibreOffice write `TRUE`, show
 * dates as `14.5.1966.` on a Croatian locale, keep dates as date cells, and drop an OIB's leading
 * zero. Forms every spreadsheet writes and that lose nothing (`TRUE`/`FALSE` or `TOČNO`/`NETOČNO` in any case, a date
 * cell, `d.m.yyyy.`) are read silently. Forms that lose information (an OIB or code whose zeros
 * are gone, a number cell) are read and noted as a warning of their own kind (`--strict` refuses
 * them); anything ambiguous (`1/2/2020`, `2,73562E+10`) is left as it is, for the schema to reject
 * with its hint.
 */
import { fromCroatianDate, isCalendarDate } from "../rules/calendar-date.ts";
import type { FieldWarning } from "../rules/subject-warnings.ts";
import { type Message, msg } from "../../common/messages/message.ts";

/** A spreadsheet form that was read as the data's own value: a warning, located by the reader. */
export interface FormNote extends FieldWarning {
  /** The form's name: one kind of warning per form. */
  readonly form: Message;
}

/** A cell: text (CSV, or an .xlsx text cell), or an .xlsx number, boolean or date cell; undefined when empty. */
export type Cell = string | number | boolean | Date | undefined;

const DIGITS = /^[0-9]+$/;
/**
 * A spreadsheet's own words for a boolean cell, in lowercase: what it writes into a CSV (and into
 * a text cell) in the locales the registry lives in. LibreOffice Calc and Excel in a Croatian
 * locale write TOČNO/NETOČNO, in English TRUE/FALSE.
 */
const FLAG_WORDS: ReadonlyMap<string, boolean> = new Map([
  ["true", true],
  ["false", false],
  ["točno", true],
  ["netočno", false],
]);

/** A whole number a spreadsheet holds, as digits (`27356152120`), or undefined. */
function wholeNumber(value: number): string | undefined {
  return Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
}

/** Digits zero-padded to `width` when the spreadsheet lost the zeros (text, or a number cell). */
function padded(field: "oib" | "jedinstvena_oznaka", cell: Cell, width: number, notes: FormNote[]): unknown {
  const digits =
    typeof cell === "number" ? wholeNumber(cell) : typeof cell === "string" && DIGITS.test(cell) && cell.length < width ? cell : undefined;
  // An OIB has exactly 11 digits; a code at least 4 (a longer number cell is still read as text).
  if (digits === undefined || (field === "oib" && digits.length > width)) return cell;
  const value = digits.padStart(width, "0");
  const number = typeof cell === "number";
  const form =
    field === "oib"
      ? msg(number ? "form.oib-number-cell" : "form.oib-zeros-lost")
      : msg(number ? "form.code-number-cell" : "form.code-zeros-lost");
  // Each form a kind of its own: the expectation names it (problems are grouped by field and expectation).
  const expected =
    field === "oib"
      ? msg(number ? "expected.oib-text-cell" : "expected.oib-as-text")
      : msg(number ? "expected.code-text-cell" : "expected.code-as-text");
  notes.push({ field, value: cell, form, expected, hint: msg("hint.read-as", { value: JSON.stringify(value) }) });
  return value;
}

/** A Croatian `d.m.yyyy.` date, or a date cell, as `YYYY-MM-DD`: silently, as every spreadsheet writes them. */
function date(cell: Cell): unknown {
  if (cell instanceof Date) {
    // Date cells are days at midnight UTC; a time of day makes the cell ambiguous (left for the schema to refuse).
    const iso = Number.isNaN(cell.getTime()) ? "" : cell.toISOString();
    if (!iso.endsWith("T00:00:00.000Z")) return iso === "" ? "an invalid date cell" : iso;
    return iso.slice(0, 10);
  }
  if (typeof cell !== "string") return cell;
  const value = fromCroatianDate(cell);
  return value === undefined || !isCalendarDate(value) ? cell : value;
}

/** `true`/`false` or `točno`/`netočno` in any case (a CSV's own flags, a spreadsheet's `TRUE` or `TOČNO`), or a boolean cell: silently. */
function flag(cell: Cell): unknown {
  // Short texts only: a flag word is 7 letters (a long cell is left whole for the schema to refuse).
  if (typeof cell !== "string" || cell.length > 16) return cell;
  return FLAG_WORDS.get(cell.normalize("NFC").toLowerCase()) ?? cell;
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
      return date(cell);
    case "status_subjekta":
    case "odobreno":
      return flag(cell);
    default:
      return cell;
  }
}
