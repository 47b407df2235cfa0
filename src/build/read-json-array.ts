/**
 * A JSON file holding one array of subjects, read as a stream: a small scanner splits the
 * top-level array into element texts (tracking strings, escapes and nesting depth) and each is
 * parsed (a chunk's worth at a time, see `#flush`). A 280 MB file is then never one string, and a broken element
 * is reported by its index while the rest are still read.
 *
 * The scanner works on bytes, not decoded text: the structural characters are ASCII, which never
 * occurs inside a multi-byte UTF-8 sequence, and decoding each element on its own keeps records
 * without diacritics as one-byte strings (decoding whole chunks made every chunk two-byte and
 * cost as much as the parsing). Lines are counted outside strings only (a raw line break inside
 * a string is invalid JSON anyway), for the hints of syntax errors.
 */
import { createReadStream } from "node:fs";
import { type Problem, showValue } from "./problems.ts";
import { locate, type SourceFile } from "./source-file.ts";

/** Receives each record's parsed value with its position: array index, or line. */
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
/** The UTF-8 byte-order mark is EF BB BF; editors on Windows may start a file with it. */
const BOM_BYTES = [0xef, 0xbb, 0xbf];

/** JSON.parse's complaint, with its position (inside the element) turned into a line of the file. */
function describeSyntaxError(error: SyntaxError, text: string, firstLine: number): string {
  const message = error.message.replace(/,\s+(?:\.\.\.)?".*is not valid JSON$/s, "");
  const at = /at position (\d+)/.exec(message);
  if (at === null) return `${message}, in the record starting on line ${firstLine}`;
  const offset = Number(at[1]);
  let line = firstLine;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === LINE_FEED) line++;
  return `${message.replace(/ in JSON at position \d+.*$/s, "")} on line ${line}`;
}

/** What the splitter reports: an element's text, or a problem with the array itself. */
interface SplitterEvents {
  /** An element's value, parsed. */
  value(value: unknown, index: number): void;
  /** An element that is not valid JSON. */
  invalid(text: string, error: SyntaxError, index: number, firstLine: number): void;
  problem(expected: string, got: string | undefined, hint?: string, index?: number): void;
}

/**
 * The scanner, fed chunk by chunk. A class with its hot state copied into locals for the loop:
 * the same loop written inside the async reader, over variables its closures capture, ran
 * several times slower in V8.
 */
class ArraySplitter {
  readonly #events: SplitterEvents;
  #phase: "before" | "inside" | "after" = "before";
  #depth = 0;
  #inString = false;
  #line = 1;
  #fileOffset = 0;
  /** Bytes of the next chunk already consumed: the character escaped by a `\` ending a chunk. */
  #carry = 0;
  /** The element being collected: pieces from earlier chunks, and where it starts in this one. */
  #pieces: Buffer[] = [];
  #inElement = false;
  #start = 0;
  #elementLine = 1;
  #index = 0;
  /** Whether the last thing seen at the top level was a comma, so `[1,]` and `[,1]` are caught. */
  #commaPending = false;

  constructor(events: SplitterEvents) {
    this.#events = events;
  }

  /**
   * The elements that start and end in the current chunk, as byte offsets: parsed together by one
   * JSON.parse of `[` + their span + `]`, because a million JSON.parse calls on small texts cost
   * about twice one call on the same bytes. Only when that fails is each parsed alone, to locate
   * the broken one.
   */
  #batchStarts: number[] = [];
  #batchEnds: number[] = [];
  #batchLines: number[] = [];
  #batchIndex = 0;

  #parseOne(text: string, index: number, firstLine: number): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      this.#events.invalid(text, error, index, firstLine);
      return;
    }
    this.#events.value(value, index);
  }

  #flush(chunk: Buffer): void {
    const count = this.#batchStarts.length;
    if (count === 0) return;
    const first = this.#batchIndex;
    let values: unknown;
    try {
      values = JSON.parse(`[${chunk.toString("utf8", this.#batchStarts[0], this.#batchEnds[count - 1])}]`);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
    }
    if (Array.isArray(values) && values.length === count) {
      for (let k = 0; k < count; k++) this.#events.value(values[k], first + k);
    } else {
      for (let k = 0; k < count; k++) {
        this.#parseOne(chunk.toString("utf8", this.#batchStarts[k], this.#batchEnds[k]), first + k, this.#batchLines[k] ?? 0);
      }
    }
    this.#batchStarts = [];
    this.#batchEnds = [];
    this.#batchLines = [];
  }

  #problem(chunk: Buffer, expected: string, got: string | undefined, hint?: string, index?: number): void {
    this.#flush(chunk);
    this.#events.problem(expected, got, hint, index);
  }

  #finishElement(chunk: Buffer, end: number): void {
    if (this.#pieces.length === 0) {
      if (this.#batchStarts.length === 0) this.#batchIndex = this.#index;
      this.#batchStarts.push(this.#start);
      this.#batchEnds.push(end);
      this.#batchLines.push(this.#elementLine);
      this.#index++;
      return;
    }
    // Begun in an earlier chunk, so it precedes everything batched from this one.
    const text = Buffer.concat([...this.#pieces, chunk.subarray(this.#start, end)]).toString("utf8");
    this.#pieces = [];
    this.#parseOne(text, this.#index++, this.#elementLine);
  }

  /** Scans one chunk; false when the file cannot be an array of subjects and reading should stop. */
  push(chunk: Buffer): boolean {
    const n = chunk.length;
    let i = this.#carry;
    let depth = this.#depth;
    let inString = this.#inString;
    let inElement = this.#inElement;
    let line = this.#line;
    let inside = this.#phase === "inside";
    this.#carry = 0;
    while (i < n) {
      if (inString) {
        // The tight loop most bytes go through: string contents, up to the closing quote.
        // (`as number`: i < n here, and `?? 0` on every byte measurably slowed this loop.)
        let b = chunk[i] as number;
        while (b !== QUOTE) {
          i += b === BACKSLASH ? 2 : 1;
          if (i >= n) break;
          b = chunk[i] as number;
        }
        if (i >= n) {
          this.#carry = i - n;
          break;
        }
        inString = false;
        i++;
        continue;
      }
      const c = chunk[i++] as number;
      if (c === LINE_FEED) {
        line++;
        continue;
      }
      if (c === SPACE || c === CARRIAGE_RETURN || c === TAB) continue;
      if (!inside) {
        if (this.#phase === "before") {
          const at = this.#fileOffset + i - 1;
          if (at < BOM_BYTES.length && c === BOM_BYTES[at]) continue;
          if (c === OPEN_BRACKET) {
            this.#phase = "inside";
            inside = true;
            continue;
          }
          const hint = c === OPEN_BRACE ? "one object, not a list: put the subjects in [ ]" : undefined;
          this.#problem(chunk, "a JSON array of subjects", showValue(chunk.toString("utf8", i - 1, i + 39)), hint);
        } else {
          this.#problem(chunk, "nothing after the array's closing ]", showValue(chunk.toString("utf8", i - 1, i + 39)), `on line ${line}`);
        }
        return false;
      }
      if (depth === 0 && (c === COMMA || c === CLOSE_BRACKET)) {
        if (inElement) {
          inElement = false;
          this.#finishElement(chunk, i - 1);
        } else if (c === COMMA || this.#commaPending) {
          this.#problem(chunk, "a value", "nothing", `${c === COMMA ? "an extra" : "a trailing"} comma on line ${line}?`, this.#index++);
        }
        this.#commaPending = c === COMMA;
        if (c === CLOSE_BRACKET) {
          this.#phase = "after";
          inside = false;
        }
        continue;
      }
      if (!inElement) {
        inElement = true;
        this.#start = i - 1;
        this.#elementLine = line;
      }
      if (c === QUOTE) inString = true;
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth = Math.max(0, depth - 1);
    }
    this.#flush(chunk);
    if (inElement) {
      // Copied: the stream may reuse its buffers.
      this.#pieces.push(Buffer.from(chunk.subarray(this.#start)));
      this.#start = 0;
    }
    this.#fileOffset += n;
    this.#depth = depth;
    this.#inString = inString;
    this.#inElement = inElement;
    this.#line = line;
    return true;
  }

  /** Reports an array that never started or never closed. */
  end(): void {
    if (this.#phase === "before") this.#events.problem("a JSON array of subjects", "an empty file", "write [] for no subjects");
    else if (this.#phase === "inside") this.#events.problem("the array's closing ]", "the end of the file", "is the file cut short?", this.#inElement ? this.#index : undefined);
  }
}

/** Reads `file` (a JSON array), calling `onRecord` per element; problems of the file itself go to `problems`. */
export async function readJsonArray(file: SourceFile, onRecord: OnRecord, problems: Problem[]): Promise<void> {
  const splitter = new ArraySplitter({
    value: onRecord,
    invalid(text, error, index, firstLine) {
      problems.push({ severity: "error", ...locate(file, index), expected: "a JSON object", value: showValue(text.trim()), hint: describeSyntaxError(error, text, firstLine) });
    },
    problem(expected, got, hint, index) {
      problems.push({ severity: "error", ...locate(file, index), expected, ...(got === undefined ? {} : { value: got }), ...(hint === undefined ? {} : { hint }) });
    },
  });
  const stream = createReadStream(file.path, { highWaterMark: CHUNK_BYTES });
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    if (!splitter.push(chunk)) {
      stream.destroy();
      return;
    }
  }
  splitter.end();
}
