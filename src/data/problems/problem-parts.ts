/**
 * A problem's parts as its line shows them: a value (JSON, shortened), a number as it was written,
 * and the place. A leaf beside problems.ts, so a rule or a reader that shows a value loads no
 * collector and no catalogue.
 */
import { type Message, msg } from "../../common/messages/message.ts";

/** Where a problem is: its file, and the record, line or cell in it. */
export interface ProblemPlace {
  /** The file, relative to the working directory, as the maintainer named it. */
  readonly file: string;
  /** The record's index in a JSON array (0-based), shown as `file[12]`. */
  readonly index?: number;
  /** The line in an NDJSON or CSV file (1-based; a CSV record's first line), shown as `file:118`. */
  readonly line?: number;
  /** The column on that line (1-based, in characters), for a problem with the bytes, shown as `file:3:17`. */
  readonly column?: number;
  /** The cell of a spreadsheet (`sheet!F118`), shown as `file.xlsx!subjekti!F118`. */
  readonly cell?: string;
}

const MAX_VALUE_LENGTH = 60;

/**
 * A value as a problem line shows it: JSON, shortened to MAX_VALUE_LENGTH characters. It writes
 * only what it shows, walking arrays and objects with a stack of its own, so neither a value
 * nested 100,000 deep nor a 200 MB string costs more than the line.
 */
export function showValue(value: unknown): string {
  if (value === undefined) return "nothing";
  let text = "";
  // Pieces still to write, last first: values, or literal text such as "," and "]".
  const stack: { value?: unknown; text?: string }[] = [{ value }];
  while (stack.length > 0 && text.length <= MAX_VALUE_LENGTH) {
    const next = stack.pop() as { value?: unknown; text?: string };
    if (next.text !== undefined) {
      text += next.text;
      continue;
    }
    const v = next.value;
    if (typeof v === "string") text += JSON.stringify(v.length > MAX_VALUE_LENGTH ? v.slice(0, MAX_VALUE_LENGTH + 1) : v);
    // A number too large for a double is Infinity here; it is shown as written where the text is known (showNumberText).
    else if (typeof v === "number") text += String(v);
    // A date cell is a day (1999-12-31), or a day and a time when it holds one; never the Date's JSON.
    else if (v instanceof Date)
      text += Number.isNaN(v.getTime())
        ? "null"
        : v
            .toISOString()
            .replace(/T00:00:00\.000Z$/, "")
            .replace(/\.000Z$/, "")
            .replace("T", " ");
    else if (typeof v !== "object" || v === null) text += v === null ? "null" : String(v);
    else {
      const entries: [string | undefined, unknown][] = Array.isArray(v)
        ? v.slice(0, MAX_VALUE_LENGTH).map((x) => [undefined, x])
        : Object.entries(v).slice(0, MAX_VALUE_LENGTH);
      const close = Array.isArray(v) ? "]" : "}";
      text += Array.isArray(v) ? "[" : "{";
      stack.push({ text: close });
      for (let k = entries.length - 1; k >= 0; k--) {
        const [key, item] = entries[k] as [string | undefined, unknown];
        stack.push({ value: item });
        const prefix = `${k > 0 ? "," : ""}${key === undefined ? "" : `${JSON.stringify(key.length > MAX_VALUE_LENGTH ? key.slice(0, MAX_VALUE_LENGTH) : key)}:`}`;
        if (prefix !== "") stack.push({ text: prefix });
      }
    }
  }
  return text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH - 1)}…` : text;
}

/**
 * A number as it was written in the source, shortened when long: `1000…0 (100,001 digits)`.
 * JSON.parse turns a number too large for a double into Infinity, which JSON shows as `null`.
 */
export function showNumberText(raw: string): string | Message {
  if (raw.length <= MAX_VALUE_LENGTH) return raw;
  const digits = raw.replace(/[^0-9]/g, "").length;
  return msg("value.long-number", { shown: `${raw.slice(0, 4)}…${raw.slice(-1)}`, digits });
}

/** Where a problem is: `data/x.json[12]`, `data/x.csv:118`, `data/x.csv:3:17`, `data/x.xlsx!subjekti!F118`, or the file alone. */
export function formatLocation(place: ProblemPlace): string {
  return place.cell !== undefined
    ? `${place.file}!${place.cell}`
    : place.index !== undefined
      ? `${place.file}[${place.index}]`
      : place.line !== undefined
        ? `${place.file}:${place.line}${place.column === undefined ? "" : `:${place.column}`}`
        : place.file;
}
