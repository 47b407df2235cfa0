/**
 * A JSON file holding one array of subjects, read as a stream: a small scanner splits the
 * top-level array into element texts (tracking strings, escapes and nesting depth) and each is
 * given to JSON.parse on its own. A 280 MB file is then never one string, and a broken element
 * is reported by its index while the rest are still read.
 */
import { createReadStream } from "node:fs";
import { type Problem, showValue } from "./problems.ts";
import { locate, type SourceFile } from "./source-file.ts";

/** Receives each element's parsed value with its index in the array. */
export type OnRecord = (value: unknown, position: number) => void;

const CHUNK_BYTES = 1 << 20;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;
const BYTE_ORDER_MARK = 0xfeff;

function isSpace(c: number): boolean {
  return c === SPACE || c === LINE_FEED || c === CARRIAGE_RETURN || c === TAB;
}

/** JSON.parse's complaint, with its position (inside the element) turned into a line of the file. */
function describeSyntaxError(error: SyntaxError, text: string, firstLine: number): string {
  const message = error.message.replace(/, ".*" is not valid JSON$/s, "");
  const at = /at position (\d+)/.exec(message);
  if (at === null) return `${message}, in the record starting on line ${firstLine}`;
  const offset = Number(at[1]);
  let line = firstLine;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === LINE_FEED) line++;
  return `${message.replace(/ in JSON at position \d+.*$/s, "")} on line ${line}`;
}

/** Reads `file` (a JSON array), calling `onRecord` per element; problems of the file itself go to `problems`. */
export async function readJsonArray(file: SourceFile, onRecord: OnRecord, problems: Problem[]): Promise<void> {
  type Phase = "before" | "inside" | "after";
  let phase: Phase = "before";
  let depth = 0;
  let inString = false;
  let escaped = false;
  let line = 1;
  // The element being collected: pieces from earlier chunks, and where it starts in this one.
  let pieces: string[] = [];
  let inElement = false;
  let start = 0;
  let elementLine = 1;
  let index = 0;
  // Whether a comma has been seen since the last element, so `[1,]` and `[,1]` are caught.
  let commaPending = false;

  const problem = (expected: string, got: string | undefined, hint?: string, position?: number): void => {
    problems.push({ severity: "error", ...locate(file, position), expected, ...(got === undefined ? {} : { value: got }), ...(hint === undefined ? {} : { hint }) });
  };

  const finishElement = (chunk: string, end: number): void => {
    const text = (pieces.length === 0 ? chunk.slice(start, end) : pieces.join("") + chunk.slice(start, end)).trimEnd();
    pieces = [];
    inElement = false;
    try {
      onRecord(JSON.parse(text), index);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      problem("a JSON object", showValue(text), describeSyntaxError(error, text, elementLine), index);
    }
    index++;
  };

  const stream = createReadStream(file.path, { encoding: "utf8", highWaterMark: CHUNK_BYTES });
  let stopped = false;
  scan: for await (const chunk of stream as AsyncIterable<string>) {
    const n = chunk.length;
    for (let i = 0; i < n; i++) {
      const c = chunk.charCodeAt(i);
      if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) inString = false;
        else if (c === LINE_FEED) line++;
        continue;
      }
      if (c === LINE_FEED) {
        line++;
        continue;
      }
      if (isSpace(c)) continue;
      if (phase === "before") {
        if (c === BYTE_ORDER_MARK) continue;
        if (c === OPEN_BRACKET) {
          phase = "inside";
          continue;
        }
        const hint = c === OPEN_BRACE ? "one object, not a list: put the subjects in [ ]" : undefined;
        problem("a JSON array of subjects", showValue(chunk.slice(i, i + 40)), hint);
        stopped = true;
        break scan;
      }
      if (phase === "after") {
        problem("nothing after the array's closing ]", showValue(chunk.slice(i, i + 40)), `on line ${line}`);
        stopped = true;
        break scan;
      }
      if (depth === 0 && (c === COMMA || c === CLOSE_BRACKET)) {
        if (inElement) finishElement(chunk, i);
        else if (c === COMMA || commaPending) {
          problem("a value", "nothing", `${c === COMMA ? "an extra" : "a trailing"} comma on line ${line}?`, index);
          index++;
        }
        commaPending = c === COMMA;
        if (c === CLOSE_BRACKET) phase = "after";
        continue;
      }
      if (!inElement) {
        inElement = true;
        start = i;
        elementLine = line;
      }
      if (c === QUOTE) inString = true;
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth = Math.max(0, depth - 1);
    }
    if (inElement) {
      pieces.push(chunk.slice(start));
      start = 0;
    }
  }
  if (stopped) {
    stream.destroy();
    return;
  }
  if (phase === "before") problem("a JSON array of subjects", "an empty file", "write [] for no subjects");
  else if (phase === "inside") problem("the array's closing ]", "the end of the file", "is the file cut short?", inElement ? index : undefined);
}
