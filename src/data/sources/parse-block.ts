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
 * Parses a block's elements with one JSON.parse of `[` + the block + `]` (as ASCII where it can
 * be: ascii-json.ts): a million JSON.parse calls on small texts cost about twice one call on the
 * same bytes. Only when that fails is each element parsed alone, to locate the broken ones.
 */
export function parseBlock(block: BlockText, file: SourceFile, sink: Pick<RecordSink, "record">, problems: ProblemSink): void {
  const { first, starts, lines } = block;
  // A block sent to a record thread arrives as a plain Uint8Array: decode it as a Buffer.
  const bytes = Buffer.from(block.bytes.buffer, block.bytes.byteOffset, block.bytes.byteLength);
  const textOf = (k: number): string => bytes.toString("utf8", starts[k], k + 1 < starts.length ? (starts[k + 1] ?? 0) - 1 : bytes.length);
  // One object for the block, its count set per record: the text is decoded only for a record with a problem.
  const source = { keys: 0, text: (position: number): string => textOf(position - first) };
  let values: unknown;
  try {
    values = JSON.parse(asciiArrayText(bytes) ?? `[${bytes.toString("utf8")}]`);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
  }
  if (Array.isArray(values) && values.length === starts.length) {
    for (let k = 0; k < values.length; k++) {
      source.keys = block.keys[k] ?? 0;
      sink.record(values[k], first + k, source);
    }
    return;
  }
  for (let k = 0; k < starts.length; k++) {
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
    source.keys = block.keys[k] ?? 0;
    sink.record(value, first + k, source);
  }
}
