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

/** Every element of `text` read as a JSON array: its text (the last one's runs to the bracket: trimmed), line and keys counted; and the problems. */
async function elements(text: string): Promise<{ elements: Element[]; problems: Problem[] }> {
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
  await readJsonArray({ name: path, path, locateBy: "index", kind: "json" }, { block, record: () => undefined }, problems);
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
});
