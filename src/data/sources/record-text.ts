/**
 * A record's JSON text read again for what JSON.parse drops: how many keys the text names (a key
 * named twice is kept once, with its last value), and each value as written (a number too large
 * for a double becomes Infinity). Only records that fail the quick check are read this way.
 * Loops, not recursion: the text may be nested 100,000 deep.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;

/** Where the string starting at `at` (its opening quote) ends: the index after its closing quote. */
function stringEnd(text: string, at: number): number {
  let i = at + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) return i + 1;
    i += c === BACKSLASH ? 2 : 1;
  }
  return text.length;
}

/** Keys at the top level of the JSON object `text`, counted as written (a repeated key counts each time). */
export function countTopLevelKeys(text: string): number {
  let depth = 0;
  let keys = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) i = stringEnd(text, i) - 1;
    else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === COLON && depth === 1) keys++;
  }
  return keys;
}

/** A key at the top level of a record, and its value's text as written (trimmed). */
export interface WrittenEntry {
  readonly key: string;
  readonly raw: string;
}

/** The top-level key/value pairs of the JSON object `text`, in the order written (repeats included). */
export function topLevelEntries(text: string): WrittenEntry[] {
  const entries: WrittenEntry[] = [];
  let depth = 0;
  let key: string | undefined;
  let valueStart = -1;
  const finish = (end: number): void => {
    if (key !== undefined && valueStart >= 0) entries.push({ key, raw: text.slice(valueStart, end).trim() });
    key = undefined;
    valueStart = -1;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (depth === 1 && valueStart < 0) {
        try {
          key = JSON.parse(text.slice(i, end)) as string;
        } catch {
          key = text.slice(i + 1, end - 1);
        }
      }
      i = end - 1;
    } else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      if (depth === 1) finish(i);
      depth--;
    } else if (depth === 1 && c === COLON) valueStart = i + 1;
    else if (depth === 1 && c === COMMA) finish(i);
  }
  return entries;
}

/**
 * The record `value` parsed from `text`, its top-level keys as the text writes them. V8 13.6
 * (Node 24; nodejs/node#63785) can read an escaped key — `"\""`, or `"\u010d"` as ascii-json.ts
 * writes every key past ASCII — as a like key holding a backslash that an earlier parse saw (`"\\"`):
 * then a key past ASCII was named wrongly in a problem, or a field written with an escape was taken
 * for missing. A key so misread always holds a backslash, so only an object with such a key is read
 * again: its keys from the text (as strings, which the bug spares), each value parsed alone, the
 * last of a key named twice kept where the first stood, as JSON.parse does. A value's own nested keys are
 * not read again (a field's value is no object in a valid record; the problem shows it as parsed).
 */
export function withKeysAsWritten(value: unknown, text: string): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  if (!Object.keys(value).some((key) => key.includes("\\"))) return value;
  return Object.fromEntries(topLevelEntries(text).map(({ key, raw }) => [key, JSON.parse(raw) as unknown]));
}
