/** An NDJSON file: one subject per line, blank lines allowed, each line parsed on its own. */
import { createInterface } from "node:readline";
import { openSource } from "./decode-source.ts";
import { type ProblemSink, showValue } from "../problems/problems.ts";
import { countTopLevelKeys } from "./record-text.ts";
import type { RecordSink } from "./read-json-array.ts";
import { locate, type SourceFile } from "./source-file.ts";

/** Reads `file`, passing `sink` each non-blank line's value and its 1-based line number. */
export async function readNdjson(file: SourceFile, sink: RecordSink, problems: ProblemSink): Promise<void> {
  const source = openSource(file);
  const lines = createInterface({ input: source.stream, crlfDelay: Infinity });
  let line = 0;
  for await (const raw of lines) {
    line++;
    // Editors on Windows may start the file with a byte-order mark.
    const text = line === 1 && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
    if (text.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      const reason = error.message.replace(/,\s+(?:\.\.\.)?".*is not valid JSON$/s, "").replace(/ in JSON at position (\d+)(?:\D.*)?$/s, (_, at: string) => ` at column ${Number(at) + 1}`);
      problems.push({ severity: "error", ...locate(file, line), expected: "one JSON object on the line", value: showValue(text), hint: reason });
      continue;
    }
    // The keys as written: JSON.parse keeps one of a key named twice, silently.
    const keys = typeof value === "object" && value !== null && !Array.isArray(value) ? countTopLevelKeys(text) : 0;
    sink.record(value, line, { keys, text: () => text });
    await sink.ready?.();
  }
  for (const problem of await source.problems()) problems.push(problem);
}
