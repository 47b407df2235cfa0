/**
 * The JSON array's scanner (read-json-array.ts, ArraySplitter.push): what it tells of each element
 * besides its bytes, inside an element as between them. A record's keys are those at its top level
 * (JSON.parse keeps one of a key named twice, so they are counted as written), each element's line
 * is where it starts, and a brace, bracket, colon or line break inside a string is text, not
 * structure; the same when an element lies across two of the reader's 4 MB reads.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readJsonArray } from "../../../src/data/sources/read-json-array.ts";
import type { BlockText } from "../../../src/data/sources/record-sink.ts";
import type { Problem } from "../../../src/data/problems/problems.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "subjekti-array-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

interface Element {
  readonly text: string;
  readonly line: number;
  readonly keys: number;
}

/**
 * Every element of `text` read as a JSON array (`chunkBytes` at a time, or as the reader reads): its text (the last
 * one's runs to the bracket: trimmed), line and keys counted; and the problems.
 */
async function elements(text: string, chunkBytes?: number): Promise<{ elements: Element[]; problems: Problem[] }> {
  const path = join(dir, `a${Math.random().toString(36).slice(2)}.json`);
  await writeFile(path, text);
  const found: Element[] = [];
  const problems: Problem[] = [];
  const block = (_: unknown, t: BlockText): void => {
    const bytes = Buffer.from(t.bytes);
    t.starts.forEach((start, k) => {
      const end = k + 1 < t.starts.length ? (t.starts[k + 1] as number) - 1 : bytes.length;
      found.push({ text: bytes.toString("utf8", start, end).trimEnd(), line: t.lines[k] as number, keys: t.keys[k] as number });
    });
  };
  const file = { name: "a.json", path, locateBy: "index", kind: "json" } as const;
  await readJsonArray(file, { block, record: () => undefined }, problems, undefined, chunkBytes);
  return { elements: found, problems };
}

const NESTED = '{\n  "id": 1,\n  "a": {"b": 1, "c": [1, {"d": 2}]},\n  "id": 2\n}';
const STRINGY = '{"x": "{[:\\"]}\\\\", "y": ":,", "z": "\\u0022}"}';

describe("the JSON array's scanner", () => {
  it("counts a record's keys at its top level only, and each element's line where it starts", async () => {
    const text = `[\n ${NESTED},\n ${STRINGY},\n 7,\n "a:{b}",\n [{"k": 1}, {"k": 2}]\n]\n`;
    const { elements: found, problems } = await elements(text);
    expect(problems).toEqual([]);
    expect(found).toEqual([
      { text: NESTED, line: 2, keys: 3 },
      { text: STRINGY, line: 7, keys: 3 },
      { text: "7", line: 8, keys: 0 },
      { text: '"a:{b}"', line: 9, keys: 0 },
      { text: '[{"k": 1}, {"k": 2}]', line: 10, keys: 0 },
    ]);
  });

  it("tells the same of elements lying across the reader's 4 MB reads", async () => {
    const record = (k: number): string => `{\n  "id": ${k},\n  "naziv": "${"x".repeat(k % 300)}{:}\\"",\n  "o": {"p": [${k}]}\n}`;
    const count = 45_000;
    const text = `[\n${Array.from({ length: count }, (_, k) => record(k)).join(",\n")}\n]`;
    expect(text.length).toBeGreaterThan(9 << 20);
    const { elements: found, problems } = await elements(text);
    expect(problems).toEqual([]);
    expect(found).toEqual(Array.from({ length: count }, (_, k) => ({ text: record(k), line: 2 + 5 * k, keys: 3 })));
  });

  it("tells the same whichever byte ends a read: an escape, the byte it escapes, a quote, a brace, a line break, half a letter", async () => {
    // Read a byte at a time, and a few: every byte of the text, by construction, is the last of a read. A record with
    // nesting, escapes (an escaped quote, an escaped backslash before a closing quote), structure inside strings, a
    // two-byte letter and a line break between its fields; a string that is an element; a number; an array.
    const record = '{"a": "x\\"y\\\\", "b": "{[:]}č",\n "c": [1, {"d": "\\\\\\""}], "e": "\\u0022:"}';
    const text = `[\n${record},\n"s\\"t\\\\" , 7,[{"k":"]"}],\n${record}\n]\n`;
    expect(JSON.parse(text)).toHaveLength(5);
    const whole = await elements(text);
    expect(whole.problems).toEqual([]);
    expect(whole.elements.map((e) => e.line)).toEqual([2, 4, 4, 4, 5]);
    expect(whole.elements.map((e) => e.keys)).toEqual([4, 0, 0, 0, 4]);
    for (const size of [1, 2, 3, 5, 7, 64]) expect(await elements(text, size)).toEqual(whole);
    // Cut short anywhere (in a string, after a backslash, in a nesting): the same problem however it is read.
    for (const end of [12, text.indexOf("\\"), text.indexOf("\\") + 1, text.indexOf("[{") + 2]) {
      const cut = await elements(text.slice(0, end));
      expect(cut.problems).toHaveLength(1);
      for (const size of [1, 2, 3]) expect(await elements(text.slice(0, end), size)).toEqual(cut);
    }
  });
});
