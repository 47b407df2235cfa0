/**
 * The "(…)" part of a problem: what probably went wrong with a value the schema rejected. The
 * schema says what was expected; these guess why, from the value and the kind of file it came
 * from (a CSV cell is always text, so a spreadsheet's habits show there).
 */
import { explainDate } from "./calendar-date.ts";
import type { Subject } from "./subject-schema.ts";

/** JSON and NDJSON carry typed values; CSV cells are text converted by read-csv.ts; .xlsx cells are typed by the spreadsheet. */
export type SourceKind = "json" | "csv" | "xlsx";

const LOST_ZEROS = "a number loses leading zeros: write it as a string";

function hintId(value: unknown): string | undefined {
  if (typeof value === "string" && /^\s*\d+\s*$/.test(value)) return "a string: write the number without quotes";
  if (typeof value === "number" && !Number.isSafeInteger(value)) return "a whole number, no fraction";
  return undefined;
}

function hintOznaka(value: unknown): string | undefined {
  if (typeof value === "number") return LOST_ZEROS;
  if (typeof value === "string" && /^[0-9]{1,3}$/.test(value)) return `${value.length} digit${value.length === 1 ? "" : "s"} — zero padding lost in a spreadsheet?`;
  return undefined;
}

function hintOib(value: unknown): string | undefined {
  if (typeof value === "number") return LOST_ZEROS;
  if (typeof value !== "string") return undefined;
  // Excel shows long numbers as 2,73562E+10 and saves them that way unless the column is text.
  if (/^\d[.,]\d+E\+\d+$/i.test(value)) return "a spreadsheet wrote it as a number: format the column as text";
  if (/^[0-9]+$/.test(value)) {
    return value.length === 10 ? "10 digits — leading zero lost in a spreadsheet?" : `${value.length} digits`;
  }
  if (/^HR[0-9]{11}$/i.test(value)) return "without the HR prefix";
  if (/^[0-9\s.-]+$/.test(value)) return "digits only, no spaces or separators";
  return undefined;
}

function hintRazina(value: unknown): string | undefined {
  if (typeof value === "string" && /^\p{L}+$/u.test(value)) return `write it in lowercase: ${value.toLowerCase()}`;
  return undefined;
}

function hintDate(value: unknown): string | undefined {
  if (typeof value === "string") return explainDate(value);
  // Spreadsheets count days from 1899-12-30; an unformatted date cell is such a count.
  if (typeof value === "number") return "a spreadsheet day number? format the column as text YYYY-MM-DD";
  return undefined;
}

function hintFlag(value: unknown, source: SourceKind): string | undefined {
  if (typeof value !== "string") return undefined;
  if (source === "json" && (value === "true" || value === "false")) return `a string: write ${value} without quotes`;
  if (/^(true|false)$/i.test(value)) return `write it in lowercase: ${value.toLowerCase()}`;
  return undefined;
}

function hintText(value: unknown): string | undefined {
  return value === null ? 'write "" when there is none' : undefined;
}

const HINTS: Readonly<Record<keyof Subject, (value: unknown, source: SourceKind) => string | undefined>> = {
  id: hintId,
  jedinstvena_oznaka: hintOznaka,
  naziv_subjekta: hintText,
  oib: hintOib,
  razina: hintRazina,
  datum_postanka: hintDate,
  status_subjekta: hintFlag,
  odobreno: hintFlag,
  institucija_grad: hintText,
  institucija_email: hintText,
};

/** A guess at why `value` is wrong for `field`, or undefined when there is nothing useful to say. */
export function hintFor(field: keyof Subject, value: unknown, source: SourceKind): string | undefined {
  if (value === undefined) return "the field is missing";
  return HINTS[field](value, source);
}
