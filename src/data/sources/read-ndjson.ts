/**
 * An NDJSON file: one subject per line, blank lines allowed, each line parsed on its own. Lines end
 * at `\n` alone (a `\r` before it is dropped), as NDJSON defines them: `node:readline` also ends a
 * line at U+2028 and U+2029 on Node 24, which valid JSON may hold unescaped inside a string.
 */
import { LineCursor } from "../../common/line-cursor.ts";
import { openSource } from "./decode-source.ts";
import type { ProblemSink } from "../problems/problems.ts";
import { showValue } from "../problems/problem-parts.ts";
import { msg } from "../../common/messages/message.ts";
import { countTopLevelKeys } from "./record-text.ts";
import { BLOCK_RECORDS, type RecordSink } from "./record-sink.ts";
import { contentHash } from "../../common/content-hash.ts";
import { locate, type SourceFile } from "./source-file.ts";

/** Marks an NDJSON block's hash: the same bytes in a JSON array's block are another block (located by index, not line). */
const NDJSON_BLOCK = "ndjson\n";
const NEWLINE = new Uint8Array([0x0a]);
/** A block ends sooner past this many bytes: a file of huge lines is never held a thousand lines at a time (the cut depends on the bytes alone, so a block's key is stable). */
const BLOCK_BYTES = 16 * 1024 * 1024;

/**
 * Reads `file`, passing `sink` each non-blank line's value and its 1-based line number. A sink that
 * takes blocks of lines (`lines`, the build's read) is given BLOCK_RECORDS lines at a time with
 * the hash of their bytes, and parses them only when its build cache does not know them: an
 * unchanged rebuild then neither decodes nor parses a line.
 */
export async function readNdjson(file: SourceFile, sink: RecordSink, problems: ProblemSink): Promise<void> {
  const source = openSource(file);
  const lines = await LineCursor.open(source.stream);
  // Not fatal: bytes that are not UTF-8 are located by the source's own check (decode-source.ts).
  const decoder = new TextDecoder("utf-8");
  /** One line's value handed to `record` (none for a blank line); false when the line is not JSON (its problem pushed). */
  const parseLine = (bytes: Uint8Array, line: number, record: RecordSink["record"]): boolean => {
    const raw = decoder.decode(bytes.at(-1) === 0x0d ? bytes.subarray(0, -1) : bytes);
    // Editors on Windows may start the file with a byte-order mark.
    const text = line === 1 && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
    if (text.trim() === "") return true;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      // JSON.parse's own words (Node's, in English) are quoted as they are; the column is the catalogue's.
      const reason = error.message.replace(/,\s+(?:\.\.\.)?".*is not valid JSON$/s, "");
      const at = / in JSON at position (\d+)(?:\D.*)?$/s.exec(reason);
      const hint =
        at === null
          ? msg("hint.syntax", { detail: reason })
          : msg("hint.syntax-at-column", { detail: reason.slice(0, at.index), column: Number(at[1]) + 1 });
      problems.push({ severity: "error", ...locate(file, line), expected: msg("expected.ndjson-line"), value: showValue(text), hint });
      return false;
    }
    // The keys as written: JSON.parse keeps one of a key named twice, silently.
    const keys = typeof value === "object" && value !== null && !Array.isArray(value) ? countTopLevelKeys(text) : 0;
    record(value, line, { keys, text: () => text });
    return true;
  };
  const takeLines = sink.lines?.bind(sink);
  let line = 0;
  if (takeLines === undefined) {
    for (; lines.line !== undefined; await lines.next()) {
      parseLine(lines.line, ++line, (value, position, source) => sink.record(value, position, source));
      await sink.ready?.();
    }
  } else {
    while (lines.line !== undefined) {
      // The lines are held by reference (each a view of the stream's chunk, never reused): one block's, a few hundred kilobytes, at most BLOCK_BYTES and a line.
      const held: Uint8Array[] = [];
      let bytes = 0;
      for (; lines.line !== undefined && held.length < BLOCK_RECORDS && bytes < BLOCK_BYTES; await lines.next()) {
        held.push(lines.line);
        bytes += lines.line.length;
      }
      const first = line + 1;
      line += held.length;
      const hash = contentHash(NDJSON_BLOCK, ...held.flatMap((bytes) => [bytes, NEWLINE]));
      takeLines({ first, count: held.length, hash }, (record) => {
        let clean = true;
        held.forEach((bytes, at) => {
          if (!parseLine(bytes, first + at, record)) clean = false;
        });
        return clean;
      });
      await sink.ready?.();
    }
  }
  for (const problem of await source.problems()) problems.push(problem);
}
