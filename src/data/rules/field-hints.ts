/**
 * The "(…)" part of a problem: what probably went wrong with a value the schema rejected. The
 * schema says what was expected; these guess why, from the value and the kind of file it came
 * from (a CSV cell is always text, so a spreadsheet's habits show there).
 */
import { explainDate } from "./calendar-date.ts";
import { type Message, msg } from "../../common/messages/message.ts";
import type { Subject } from "./subject-schema.ts";

/** JSON and NDJSON carry typed values; CSV cells are text converted by read-csv.ts; .xlsx cells are typed by the spreadsheet. */
export type SourceKind = "json" | "csv" | "xlsx";


function hintId(value: unknown): Message | undefined {
  if (typeof value === "string" && /^\s*\d+\s*$/.test(value)) return msg("hint.id-quoted");
  if (typeof value === "number" && !Number.isSafeInteger(value)) return msg("hint.id-fraction");
  return undefined;
}

function hintOznaka(value: unknown): Message | undefined {
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

function hintFlag(value: unknown, source: SourceKind): Message | undefined {
  if (typeof value !== "string") return undefined;
  if (source === "json" && (value === "true" || value === "false")) return msg("hint.flag-quoted", { value });
  if (/^(true|false)$/i.test(value)) return msg("hint.lowercase", { value: value.toLowerCase() });
  return undefined;
}

function hintText(value: unknown): Message | undefined {
  return value === null ? msg("hint.null-text") : undefined;
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
