/**
 * A page assembled from its records' bytes (page-bytes.ts), compact or pretty-printed part by part,
 * against the page written whole by JSON.stringify (toJson): random records whose strings hold
 * every kind of escape, cut into runs as chunks hold them, at every indent from 0 to 8.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assemblePageBytes } from "../../src/core/page-bytes.ts";
import type { RecordRun } from "../../src/core/record-offsets.ts";
import { renderPageHead, toJson } from "../../src/core/render-page.ts";

const UTF8 = new TextEncoder();
const TEXT = new TextDecoder();

/** Characters that JSON escapes or that the pass must not take for structure, and multi-byte UTF-8. */
const TRICKY = ['"', "\\", "/", "\b", "\f", "\n", "\r", "\t", "\u0000", "\u001f", "\u007f", "\u2028", "\u2029"];
const STRUCTURE = ["{", "}", "[", "]", ",", ":", "{}", "[]", '\\"', '"}', '",'];
const WIDE = ["č", "Ž", "€", "😀", "\ud800", "\uffff"];
const text = fc
  .array(fc.oneof(fc.constantFrom(...TRICKY, ...STRUCTURE, ...WIDE), fc.string({ maxLength: 9 }), fc.string({ unit: "grapheme" })), {
    maxLength: 12,
  })
  .map((parts) => parts.join(""));
/** A record: mostly a flat object of strings like a subject, sometimes any JSON value. */
const record = fc.oneof(
  { weight: 3, arbitrary: fc.dictionary(text, fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null)), { maxKeys: 10 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** The records as chunks hold them: lines of compact JSON, cut into runs, the last line's "\n" sometimes missing. */
function runsOf(records: readonly string[], cuts: readonly number[], lastNewline: boolean): RecordRun[] {
  const bounds = [...new Set([0, ...cuts.map((cut) => cut % (records.length + 1)), records.length])].sort((a, b) => a - b);
  const runs: RecordRun[] = [];
  for (let k = 0; k + 1 < bounds.length; k++) {
    const lines = records.slice(bounds[k], bounds[k + 1]);
    const ends: number[] = [];
    let at = 0;
    for (const line of lines) {
      at += UTF8.encode(line).length;
      ends.push(at);
      at += 1;
    }
    const bytes = UTF8.encode(lines.map((line) => `${line}\n`).join(""));
    runs.push({ bytes: lastNewline ? bytes : bytes.subarray(0, bytes.length - 1), ends });
  }
  return runs;
}

describe("assemblePageBytes: the page JSON.stringify writes, compact or indented", () => {
  it("random records with every escape, in random runs, at every indent 0..8", () => {
    fc.assert(
      fc.property(
        fc.array(record, { maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 4 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 8 }),
        fc.nat(),
        fc.option(fc.webUrl(), { nil: null }),
        (values, cuts, lastNewline, indent, count, next) => {
          const head = renderPageHead(count, { next, previous: null });
          const page = assemblePageBytes(
            head,
            runsOf(
              values.map((value) => toJson(value)),
              cuts,
              lastNewline,
            ),
            indent,
          );
          // The page written whole, not through JSON.parse: V8 13.6 (Node 24) can read an escaped
          // key back wrongly once its key cache holds a like one ('"' as '\\': nodejs/node#63785),
          // which made the oracle, not the page, wrong (seed 963002075).
          const whole = { count, next, previous: null, results: values };
          expect(TEXT.decode(page)).toBe(toJson(whole, indent));
        },
      ),
      { numRuns: 1500 },
    );
  });

  it.each([0, 1, 2, 8])('an empty page at indent %i -> `"results": []` on one line', (indent) => {
    const head = renderPageHead(0, { next: null, previous: null });
    const whole = { count: 0, next: null, previous: null, results: [] };
    expect(TEXT.decode(assemblePageBytes(head, [], indent))).toBe(toJson(whole, indent));
    expect(TEXT.decode(assemblePageBytes(head, [{ bytes: new Uint8Array(0), ends: [] }], indent))).toBe(toJson(whole, indent));
  });

  it("records of empty objects and arrays, and strings of every length around a word, at indent 8", () => {
    const values = [{}, [], { a: [] }, [{}], ...Array.from({ length: 12 }, (_, n) => ({ ["k".repeat(n)]: `${"x".repeat(n)}"\\` }))];
    const head = renderPageHead(values.length, { next: null, previous: null });
    const page = assemblePageBytes(
      head,
      runsOf(
        values.map((value) => toJson(value)),
        [3, 7],
        true,
      ),
      8,
    );
    expect(TEXT.decode(page)).toBe(toJson({ count: values.length, next: null, previous: null, results: values }, 8));
  });
});
