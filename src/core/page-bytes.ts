/**
 * A derived page put together from bytes: the head encoded once, the records copied from their
 * chunks as they are (never decoded to text and encoded again), each record's "\n" turned into
 * the `,` between records, and `]}` over the last one. The cost follows the page, not the chunk.
 * With an indent, the same parts are fed straight to the pretty-printing pass (render-page.ts),
 * so the compact page is never written first: a run of records in one part, the pass reading
 * their "\n"s as the commas (a part a record and a `,` fed between, 2,000 parts a page, each
 * switching the pass's input, cost the pass 1.6 times as much).
 */
import type { RecordRun } from "./record-offsets.ts";
import { indentInto, indentJsonBytes, PAGE_TAIL, startIndenting } from "./render-page.ts";

const COMMA = 0x2c;
const [CLOSE_ARRAY, CLOSE_OBJECT] = [PAGE_TAIL.charCodeAt(0), PAGE_TAIL.charCodeAt(1)];
const UTF8 = new TextEncoder();
const SEPARATOR = UTF8.encode(",");
const TAIL = UTF8.encode(PAGE_TAIL);

/** The page `head` + the runs' records joined by `,` + `]}`, pretty-printed by `indent` (0: compact). */
export function assemblePageBytes(head: string, runs: readonly RecordRun[], indent = 0): Uint8Array {
  const headBytes = UTF8.encode(head);
  let length = headBytes.length + 2;
  let records = 0;
  for (const run of runs) {
    records += run.ends.length;
    if (run.ends.length > 0) length += (run.ends[run.ends.length - 1] as number) + 1;
  }
  // Each record's "\n" became a `,`, the last one none.
  if (records > 0) length -= 1;
  // An empty page's `[]` spans the head and the tail, which the pass sees apart: it is indented whole.
  if (indent > 0 && records > 0) return indentPage(headBytes, runs, length, indent);
  const page = new Uint8Array(length);
  page.set(headBytes);
  let at = headBytes.length;
  for (const run of runs) {
    if (run.ends.length === 0) continue;
    page.set(run.bytes, at);
    for (const end of run.ends) page[at + end] = COMMA;
    at += (run.ends[run.ends.length - 1] as number) + 1;
  }
  // Over the last record's `,` when there is one.
  if (records > 0) at -= 1;
  page[at] = CLOSE_ARRAY;
  page[at + 1] = CLOSE_OBJECT;
  return indentJsonBytes(page, indent);
}

/** The page pretty-printed from its parts: `length` bytes of compact JSON in all. */
function indentPage(headBytes: Uint8Array, runs: readonly RecordRun[], length: number, indent: number): Uint8Array {
  const pass = startIndenting(length, indent);
  indentInto(pass, headBytes, 0, headBytes.length);
  let first = true;
  for (const run of runs) {
    if (run.ends.length === 0) continue;
    if (!first) indentInto(pass, SEPARATOR, 0, 1);
    // The last record's "\n" is not fed: a `,` or the tail follows it.
    indentInto(pass, run.bytes, 0, run.ends[run.ends.length - 1] as number);
    first = false;
  }
  indentInto(pass, TAIL, 0, TAIL.length);
  return pass.out.subarray(0, pass.at);
}
