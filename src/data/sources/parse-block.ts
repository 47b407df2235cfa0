/**
 * A block of a JSON array's elements parsed into records: in the record threads and on the main
 * thread alike (render-block.ts), apart from the streaming scanner that cut the block
 * (read-json-array.ts), which a thread never needs.
 */
import type { ProblemSink } from "../problems/problems.ts";
import { showValue } from "../problems/problem-parts.ts";
import { type Message, msg } from "../../common/messages/message.ts";
import type { BlockText, RecordSink } from "./record-sink.ts";
import { locate, type SourceFile } from "./source-file.ts";
import { asciiArrayText } from "./ascii-json.ts";

const LINE_FEED = 0x0a;

/** JSON.parse's complaint, with its position (inside the element) turned into a line of the file. */
function describeSyntaxError(error: SyntaxError, text: string, firstLine: number): Message {
  const message = error.message.replace(/,\s+(?:\.\.\.)?".*is not valid JSON$/s, "");
  const at = /at position (\d+)/.exec(message);
  // JSON.parse's own words (Node's, in English) are quoted as they are; the sentence around them is the catalogue's.
  if (at === null) return msg("hint.syntax-in-record", { detail: message, line: firstLine });
  const offset = Number(at[1]);
  let line = firstLine;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === LINE_FEED) line++;
  return msg("hint.syntax-on-line", { detail: message.replace(/ in JSON at position \d.*$/s, ""), line });
}

/**
 * The most bytes of a block one JSON.parse takes (a part: whole elements, at least one). Escaped
 * (at most 3 bytes out a byte in, ascii-json.ts) and bracketed, a part's text stays under 128 KB,
 * V8's largest object on its regular heap pages: made on the young generation's pages, which are
 * used again and again, where a whole block's text (some 330 KB at 1M) was an object of its own in
 * fresh memory a block, each of its pages faulted in, then unmapped. On a machine that charges
 * 20 µs a page faulted in (a VM's), the 1M set's read took some 80,000 faults fewer; parts of
 * 40 KB parse as fast as whole blocks (docs/architecture.md, "Fresh memory").
 */
export const PART_BYTES = 40 * 1024;

/**
 * Takes a block's plain records straight from their bytes, before JSON.parse sees them (the
 * renderer's: read/plain-record.ts). A record it does not take is parsed and handed to the sink.
 */
export interface PlainTaker {
  /** Whether it takes the element `bytes[from, to)`; what it found is kept for `take`, until the next scan. */
  scan(bytes: Buffer, from: number, to: number): boolean;
  /** Takes the element last scanned, at `position`. */
  take(position: number): void;
}

/**
 * Parses a block's elements, a part at a time (PART_BYTES), with one JSON.parse of `[` + the part
 * + `]` (as ASCII where it can be: ascii-json.ts): a million JSON.parse calls on small texts cost
 * about twice one call on the same bytes. Only a part that fails so is parsed an element at a
 * time, to locate the broken ones. The elements `plain` takes are not parsed: a part is a run of
 * those it does not take, so every record still comes in order.
 */
export function parseBlock(
  block: BlockText,
  file: SourceFile,
  sink: Pick<RecordSink, "record">,
  problems: ProblemSink,
  plain?: PlainTaker,
): void {
  const { first, starts, lines } = block;
  // A block sent to a record thread arrives as a plain Uint8Array: decode it as a Buffer.
  const bytes = Buffer.from(block.bytes.buffer, block.bytes.byteOffset, block.bytes.byteLength);
  const n = starts.length;
  /** Where element k ends: before the comma that precedes the next. */
  const end = (k: number): number => (k + 1 < n ? (starts[k + 1] ?? 0) - 1 : bytes.length);
  const textOf = (k: number): string => bytes.toString("utf8", starts[k], end(k));
  // One object for the block, its count set per record: the text is decoded only for a record with a problem.
  const source = { keys: 0, text: (position: number): string => textOf(position - first) };
  const record = (value: unknown, k: number): void => {
    source.keys = block.keys[k] ?? 0;
    sink.record(value, first + k, source);
  };
  /** The element `plain` last said it takes (its scan is still the one kept), or -1. */
  let scanned = -1;
  for (let from = 0; from < n; ) {
    const begin = starts[from] ?? 0;
    if (plain !== undefined && (scanned === from || plain.scan(bytes, begin, end(from)))) {
      plain.take(first + from++);
      continue;
    }
    let to = from + 1;
    while (to < n && end(to) - begin <= PART_BYTES) {
      if (plain?.scan(bytes, starts[to] ?? 0, end(to)) === true) {
        scanned = to;
        break;
      }
      to++;
    }
    const part = bytes.subarray(begin, end(to - 1));
    let values: unknown;
    try {
      values = JSON.parse(asciiArrayText(part) ?? `[${part.toString("utf8")}]`);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
    }
    if (Array.isArray(values) && values.length === to - from) {
      for (let k = from; k < to; k++) record(values[k - from], k);
    } else {
      for (let k = from; k < to; k++) {
        const text = textOf(k);
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch (error) {
          if (!(error instanceof SyntaxError)) throw error;
          const hint = describeSyntaxError(error, text, lines[k] ?? 0);
          problems.push({
            severity: "error",
            ...locate(file, first + k),
            expected: msg("expected.json-object"),
            value: showValue(text.trim()),
            hint,
          });
          continue;
        }
        record(value, k);
      }
    }
    from = to;
  }
}
