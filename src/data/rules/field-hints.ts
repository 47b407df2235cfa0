/**
 * The "(…)" part of a problem: what probably went wrong with a value the schema rejected. The
 * schema says what was expected; these guess why, from the value and the kind of file it came
 * from (a CSV cell is always text, so a spreadsheet's habits show there).
 */
import { daysInMonth, fromCroatianDate, isCalendarDate } from "./calendar-date.ts";
import { type Message, msg } from "../../common/messages/message.ts";
import type { Subject } from "./subject-schema.ts";

/** JSON and NDJSON carry typed values; CSV cells are text converted by read-csv.ts; .xlsx cells are typed by the spreadsheet. */
export type SourceKind = "json" | "csv" | "xlsx";

function hintId(value: unknown): Message | undefined {
  // An empty cell is a row being added: the read names the free id and code at its end (next-keys.ts).
  if (value === "") return msg("hint.new-subject");
  if (typeof value === "string" && /^\s*\d+\s*$/.test(value)) return msg("hint.id-quoted");
  if (typeof value === "number" && !Number.isSafeInteger(value)) return msg("hint.id-fraction");
  return undefined;
}

function hintOznaka(value: unknown): Message | undefined {
  if (value === "") return msg("hint.new-subject");
  if (typeof value === "number") return msg("hint.lost-zeros");
  if (typeof value === "string" && /^[0-9]{1,3}$/.test(value)) return msg("hint.code-padding", { digits: value.length });
  return undefined;
}

function hintOib(value: unknown): Message | undefined {
  if (typeof value === "number") return msg("hint.lost-zeros");
  if (typeof value !== "string") return undefined;
  // Excel shows long numbers as 2,73562E+10 and saves them that way unless the column is text.
  if (/^\d[.,]\d+E\+\d+$/i.test(value)) return msg("hint.oib-scientific");
  if (/^[0-9]+$/.test(value)) {
    return value.length === 10 ? msg("hint.oib-zero-lost") : msg("hint.digit-count", { digits: value.length });
  }
  if (/^HR[0-9]{11}$/i.test(value)) return msg("hint.oib-prefix");
  if (/^[0-9\s.-]+$/.test(value)) return msg("hint.oib-separators");
  return undefined;
}

function hintRazina(value: unknown): Message | undefined {
  if (typeof value === "string" && /^\p{L}+$/u.test(value)) return msg("hint.lowercase", { value: value.toLowerCase() });
  return undefined;
}

function hintDate(value: unknown): Message | undefined {
  if (typeof value === "string") return explainDate(value);
  // Spreadsheets count days from 1899-12-30; an unformatted date cell is such a count.
  if (typeof value === "number") return msg("hint.day-number");
  return undefined;
}

/** Every refused flag is told the forms its kind of source takes (a spreadsheet's own words are read in English and Croatian). */
function hintFlag(value: unknown, source: SourceKind): Message {
  if (source !== "json") return msg("hint.flag-words");
  if (typeof value === "string" && /^(?:true|false)$/i.test(value)) return msg("hint.flag-quoted", { value: value.toLowerCase() });
  return msg("hint.flag-json");
}

function hintText(value: unknown, source: SourceKind): Message | undefined {
  if (value === null) return msg("hint.null-text");
  // A spreadsheet types a cell of digits (a phone number, an OIB as a contact) as a number unless the column is text.
  if (typeof value === "number") return source === "xlsx" ? msg("hint.text-number-cell") : msg("hint.lost-zeros");
  return undefined;
}

const HINTS: Readonly<Record<keyof Subject, (value: unknown, source: SourceKind) => Message | undefined>> = {
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
export function hintFor(field: keyof Subject, value: unknown, source: SourceKind): Message | undefined {
  if (value === undefined) return msg("hint.missing-field");
  return HINTS[field](value, source);
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Why a `YYYY-MM-DD`-shaped text is not a day, or how to rewrite a date written another way: a
 * hint, so it lives with the hints (calendar-date.ts only answers whether a text is a day).
 */
export function explainDate(text: string): Message | undefined {
  const iso = ISO_DATE.exec(text);
  if (iso !== null) {
    const [year, month] = [Number(iso[1]), Number(iso[2])];
    if (month < 1 || month > 12) return msg("hint.no-month", { month: iso[2] ?? "" });
    if (year < 1) return msg("hint.no-year-zero");
    return msg("hint.days-in-month", { year: iso[1] ?? "", month, days: daysInMonth(year, month) });
  }
  const croatian = fromCroatianDate(text.trim());
  // A hint is a value the tool accepts: a day that does not exist is explained, not rewritten.
  if (croatian !== undefined) return isCalendarDate(croatian) ? msg("hint.croatian-date", { date: croatian }) : explainDate(croatian);
  if (/^\d{4}-\d{2}-\d{2}[T ]/.test(text)) return msg("hint.date-only");
  // 1/2/2020 is 1 February in Croatia and 2 January in the US: only the writer knows.
  if (/^\s*\d{1,2}\/\d{1,2}\/\d{2,4}\s*$/.test(text)) return msg("hint.day-month-order");
  return undefined;
}
