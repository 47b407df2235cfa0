/**
 * A block's keys in compact form (src/data/rules/block-keys.ts), as a block from the build cache
 * hands them on: the checks across records (SequenceCheck, NextKeys, OibCheck) must find exactly
 * what they find in the same keys as strings, record by record: blocks out of order, codes given
 * twice (padded otherwise), OIBs held twice across a compact block and a plain one, records held
 * only for their keys. And compareDigits orders as the plain reading of it (zeros trimmed, then
 * length, then digits) does.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codesOf, isCompact, type KnownKeys, knownKeysOf, oibTextsOf } from "../../../src/data/rules/block-keys.ts";
import { OibCheck } from "../../../src/data/rules/check-oibs.ts";
import { SequenceCheck } from "../../../src/data/rules/check-sequence.ts";
import { compareDigits } from "../../../src/data/rules/compare-digits.ts";
import { NextKeys } from "../../../src/data/rules/next-keys.ts";
import { ProblemCollector, type Problem } from "../../../src/data/problems/problems.ts";
import type { SourceFile } from "../../../src/data/sources/source-file.ts";
import { ENGLISH } from "../../../src/common/messages/translate.ts";

const FILES: SourceFile[] = [
  { name: "a.json", path: "a.json", locateBy: "index", kind: "json" },
  { name: "b.ndjson", path: "b.ndjson", locateBy: "line", kind: "json" },
];

interface PlainBlock {
  readonly ids: number[];
  readonly codes: string[];
  readonly oibs: string[];
  readonly positions: number[];
  readonly file: number;
}

/** The block as the build cache reads it back: compact keys, `codes` and `oibs` made on first use (counted in `made`). */
function compact(block: PlainBlock, made: { count: number }): PlainBlock & { readonly known: KnownKeys } {
  const known = knownKeysOf(block.ids, block.codes, block.oibs);
  let [codes, oibs] = [undefined as string[] | undefined, undefined as string[] | undefined];
  return {
    ids: block.ids,
    positions: block.positions,
    file: block.file,
    known,
    get codes() {
      return (codes ??= (made.count++, codesOf(known)));
    },
    get oibs() {
      return (oibs ??= (made.count++, oibTextsOf(known)));
    },
  };
}

/** Records mostly in order, some not (ids and codes stepping back or standing), codes padded any way, a few OIBs held twice or not at all. */
const recordsArb = fc.array(
  fc.record({
    idStep: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: -3, max: 0 })),
    codeStep: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: -2, max: 0 })),
    pad: fc.integer({ min: 0, max: 2 }),
    oib: fc.oneof(fc.integer({ min: 0, max: 30 }), fc.constant(-1)),
    file: fc.integer({ min: 0, max: 1 }),
  }),
  { maxLength: 60 },
);
/** Where the records are cut into blocks (empty blocks too). */
const cutsArb = fc.array(fc.integer({ min: 0, max: 12 }), { maxLength: 12 });

type Rec = { idStep: number; codeStep: number; pad: number; oib: number; file: number };

/** The records cut into blocks of `cuts` records (then of 1,000; 0: an empty block first), a block of one file's records, as the reader cuts them. */
function blocksOf(records: readonly Rec[], cuts: readonly number[]): PlainBlock[] {
  const blocks: PlainBlock[] = [];
  let [id, code, c, left] = [1000, 1000, 0, 0];
  let block: PlainBlock | undefined;
  for (const [k, r] of records.entries()) {
    if (block === undefined || left === 0 || block.file !== r.file) {
      if (block !== undefined) blocks.push(block);
      left = cuts[c++] ?? 1000;
      // A block of nothing (its records had errors only).
      if (left === 0) blocks.push({ ids: [], codes: [], oibs: [], positions: [], file: r.file });
      left ||= 5;
      block = { ids: [], codes: [], oibs: [], positions: [], file: r.file };
    }
    [id, code] = [Math.max(1, id + r.idStep), Math.max(0, code + r.codeStep)];
    block.ids.push(id);
    block.codes.push("0".repeat(r.pad) + String(code).padStart(4, "0"));
    // OIBs with leading zeros among them: 11 digits either way.
    block.oibs.push(r.oib < 0 ? "" : String(r.oib * 3_333_333_333).padStart(11, "0"));
    block.positions.push(k);
    left--;
  }
  if (block !== undefined) blocks.push(block);
  return blocks;
}

/** Every block through one SequenceCheck: each block's first break (as order-blocks.ts asks), and the last state seen by a closing record. */
function breaks(blocks: readonly PlainBlock[]): number[] {
  const check = new SequenceCheck();
  const found = blocks.map((block) => check.firstBreak(block));
  // A record after them all: follows the last record the check took, or does not.
  found.push(check.firstBreak({ ids: [1002], codes: ["1002"] }));
  return found;
}

function nextKeys(blocks: readonly PlainBlock[]): string {
  const next = new NextKeys();
  for (const block of blocks) next.add(block);
  const problem = {
    severity: "warning",
    file: "a.json",
    expected: { key: "expected.id" },
    hint: { key: "hint.new-subject" },
  } as unknown as Problem;
  return JSON.stringify(next.guide([problem]));
}

async function oibWarnings(blocks: readonly PlainBlock[]): Promise<string[]> {
  const check = new OibCheck();
  const problems = new ProblemCollector(Number.POSITIVE_INFINITY);
  for (const block of blocks) await check.add(block, FILES[block.file] as SourceFile, false);
  await check.finish(problems);
  return problems.problems.map((p) => `${p.file}:${p.index ?? p.line} ${String(p.value)} ${ENGLISH.say(p.hint ?? p.expected)}`);
}

describe("a block's compact keys", () => {
  it("give the checks across records the same answers as the keys as strings, and make no string for a block in order", async () => {
    await fc.assert(
      fc.asyncProperty(recordsArb, cutsArb, fc.array(fc.boolean(), { maxLength: 20 }), async (records, cuts, cached) => {
        const plain = blocksOf(records, cuts);
        const made = { count: 0 };
        // Some blocks compact (from the cache), some plain (parsed in this build), as a rebuild mixes them.
        const mixed = plain.map((block, b) => ((cached[b] ?? true) ? compact(block, made) : block));
        expect(breaks(mixed)).toEqual(breaks(plain));
        expect(nextKeys(mixed)).toEqual(nextKeys(plain));
        made.count = 0;
        expect(await oibWarnings(mixed)).toEqual(await oibWarnings(plain));
        // The OIB check reads the compact keys themselves.
        expect(made.count).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it("a block in order is taken whole, its codes never made; one out of order (or a code given twice) is checked record by record", () => {
    const made = { count: 0 };
    const inOrder = compact({ ids: [1, 2, 3], codes: ["0001", "0002", "00003"], oibs: ["", "", ""], positions: [0, 1, 2], file: 0 }, made);
    const repeated = compact({ ids: [4, 5, 6], codes: ["0004", "00004", "0006"], oibs: ["", "", ""], positions: [3, 4, 5], file: 0 }, made);
    const check = new SequenceCheck();
    expect(inOrder.known.rising).toBe(true);
    expect(check.firstBreak(inOrder)).toBe(-1);
    expect(made.count).toBe(0);
    expect(repeated.known.rising).toBe(false);
    expect(check.firstBreak(repeated)).toBe(1);
    expect(made.count).toBe(1);
  });

  it("read back as strings, are the strings they were made from", () => {
    const block = { ids: [7, 3], codes: ["0007", "000000000000000000003"], oibs: ["00000000000", ""] };
    const known = knownKeysOf(block.ids, block.codes, block.oibs);
    expect(codesOf(known)).toEqual(block.codes);
    expect(oibTextsOf(known)).toEqual(block.oibs);
    expect(known.highestCode).toBe("0007");
    expect(knownKeysOf([], [], []).highestCode).toBe("");
  });
});

describe("isCompact", () => {
  it("holds codes of ASCII digits and OIBs of 11 (or none): any other key is not stored, so never read back changed", () => {
    expect(isCompact(["0001", "12345678901234567890"], ["00000000000", ""])).toBe(true);
    expect(isCompact(["0001", "00\n2"], ["", ""])).toBe(false);
    expect(isCompact(["٠٠٠١"], [""])).toBe(false);
    expect(isCompact(["0001"], ["1234567890"])).toBe(false);
    expect(isCompact(["0001"], ["1234567890a"])).toBe(false);
  });
});

describe("compareDigits", () => {
  /** The plain reading: leading zeros trimmed (one kept), then the longer is greater, then by digits. */
  const plain = (a: string, b: string): number => {
    const [x, y] = [a.replace(/^0+(?=.)/, ""), b.replace(/^0+(?=.)/, "")];
    return x.length !== y.length ? x.length - y.length : x < y ? -1 : x > y ? 1 : 0;
  };
  it("orders digit strings, padded any way, as the plain reading does", () => {
    const digits = fc.stringMatching(/^0{0,3}[0-9]{0,6}$/);
    fc.assert(
      fc.property(digits, digits, (a, b) => {
        expect(Math.sign(compareDigits(a, b))).toBe(Math.sign(plain(a, b)));
      }),
      { numRuns: 2000 },
    );
    expect(compareDigits("000", "0")).toBe(0);
    expect(compareDigits("", "0")).toBeLessThan(0);
    expect(compareDigits("010000", "9999")).toBeGreaterThan(0);
  });
});
