/**
 * A block of records' texts as the JSON array reader hands it on (src/data/sources/record-sink.ts):
 * joined by commas, at an odd offset of its buffer (a block begins anywhere in the file's), with
 * where each starts, its line and the keys it names; for the tests that read records from bytes.
 */
import type { BlockText } from "../../../src/data/sources/record-sink.ts";

/** The block of `texts`, its first record the array's element `first`. */
export function blockOf(texts: readonly string[], first: number): BlockText {
  const starts: number[] = [];
  let at = 0;
  for (const text of texts) {
    starts.push(at);
    at += Buffer.byteLength(text) + 1;
  }
  const joined = Buffer.from(texts.join(","));
  const bytes = new Uint8Array(joined.length + 1).subarray(1);
  bytes.set(joined);
  return { first, bytes, starts, lines: texts.map((_, k) => 2 + k), keys: texts.map((t) => keysOf(t)) };
}

/** The keys a record's text names at its top level, as the array reader counts them (a colon outside strings). */
export function keysOf(text: string): number {
  return (text.replace(/"(?:[^"\\]|\\.)*"/g, '""').match(/:/g) ?? []).length;
}
