/**
 * A block is parsed a part at a time (parse-block.ts): every element gives the value its own text
 * parses to, in order and at its position, whichever part it falls in; a broken element is
 * located by itself and costs only its part the element-by-element path; and no JSON.parse takes
 * a text past V8's largest regular object, so no part's text is made in fresh memory of its own.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { PART_BYTES, parseBlock } from "../../../src/data/sources/parse-block.ts";
import type { BlockText } from "../../../src/data/sources/record-sink.ts";
import type { SourceFile } from "../../../src/data/sources/source-file.ts";
import { ProblemCollector } from "../../../src/data/problems/problems.ts";

const file: SourceFile = { name: "subjekti.json", path: "subjekti.json", locateBy: "index", kind: "json" };
/** V8's largest object on its regular heap pages (kMaxRegularHeapObjectSize), in one-byte characters. */
const REGULAR_MOST = 128 * 1024;

/** The block of `texts` as the array reader hands it on: joined by commas, each after the file's line break and indent, starting at element `first`. */
function blockOf(texts: readonly (string | Uint8Array)[], first = 7000): BlockText {
  const parts: Buffer[] = [];
  const starts: number[] = [];
  let at = 0;
  texts.forEach((text, k) => {
    if (k > 0) {
      parts.push(Buffer.from(","));
      at += 1;
    }
    const bytes = Buffer.concat([Buffer.from("\n "), Buffer.from(text)]);
    starts.push(at);
    parts.push(bytes);
    at += bytes.length;
  });
  // At an odd offset of its buffer, as a block inside the reader's own buffer may be.
  const bytes = new Uint8Array(at + 1).subarray(1);
  bytes.set(Buffer.concat(parts));
  return { first, bytes, starts, lines: texts.map((_, k) => 2 + 12 * k), keys: texts.map(() => 3) };
}

/** The records parseBlock gives (position and value) and the positions of the problems it finds. */
function parsed(block: BlockText): { records: [number, unknown][]; problems: (number | undefined)[] } {
  const records: [number, unknown][] = [];
  const problems = new ProblemCollector();
  parseBlock(block, file, { record: (value, position) => records.push([position, value]) }, problems);
  return { records, problems: problems.problems.map((p) => p.index) };
}

/** A record of about 300 bytes, some of its letters past ASCII. */
const subject = (k: number): string =>
  JSON.stringify({
    id: k + 1,
    naziv_subjekta: `Dječji vrtić Čakovec ${k} ${"ž".repeat(k % 40)}`,
    oib: String(10 ** 10 + k),
    filler: "x".repeat(200),
  });

afterEach(() => {
  vi.restoreAllMocks();
});

describe("parseBlock", () => {
  it("gives every element of a block of many parts its own value, in order and at its position", () => {
    const texts = Array.from({ length: 1500 }, (_, k) => subject(k));
    const block = blockOf(texts);
    expect(block.bytes.length).toBeGreaterThan(8 * PART_BYTES);
    const { records, problems } = parsed(block);
    expect(problems).toEqual([]);
    expect(records).toEqual(texts.map((text, k) => [7000 + k, JSON.parse(text)]));
  });

  it("parses no text past V8's largest regular object, and a part at a time, not an element at a time", () => {
    const texts = Array.from({ length: 1500 }, (_, k) => subject(k));
    const block = blockOf(texts);
    const parse = vi.spyOn(JSON, "parse");
    parsed(block);
    const lengths = parse.mock.calls.map(([text]) => String(text).length);
    expect(Math.max(...lengths)).toBeLessThan(REGULAR_MOST);
    expect(lengths.length).toBeLessThan(texts.length / 50);
  });

  it("locates a broken element and a stray byte by themselves, and parses the parts around them whole", () => {
    const texts: (string | Uint8Array)[] = Array.from({ length: 1200 }, (_, k) => subject(k));
    texts[150] = '{"id": 151, "naziv_subjekta": "Škola" "oib": 1}';
    // Not UTF-8: decoded with U+FFFD, as the whole block was.
    texts[900] = Buffer.concat([Buffer.from('{"id": 901, "naziv_subjekta": "'), Buffer.from([0xc4]), Buffer.from('"}')]);
    const { records, problems } = parsed(blockOf(texts));
    expect(problems).toEqual([7150]);
    expect(records.map(([position]) => position)).toEqual(texts.map((_, k) => 7000 + k).filter((p) => p !== 7150));
    expect(records.find(([position]) => position === 7900)?.[1]).toEqual({ id: 901, naziv_subjekta: "\ufffd" });
    expect(records.find(([position]) => position === 7151)?.[1]).toEqual(JSON.parse(subject(151)));
  });

  it("takes an element larger than a part as a part of its own", () => {
    const big = JSON.stringify({ id: 2, text: "č".repeat(PART_BYTES) });
    const texts = [subject(0), big, subject(2)];
    const { records, problems } = parsed(blockOf(texts));
    expect(problems).toEqual([]);
    expect(records).toEqual(texts.map((text, k) => [7000 + k, JSON.parse(text)]));
  });
});
