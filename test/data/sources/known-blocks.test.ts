/**
 * A JSON array's blocks skipped unsplit (read-json-array.ts, BlockSpan): where the last read found a
 * block's bytes after a block's closing comma, the same bytes there again are the same block. Every
 * read must hand on the blocks a read that skips nothing hands on (first index, count, text hash),
 * in order; only blocks whose bytes are where and what they were may be skipped.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readJsonArray } from "../../../src/data/sources/read-json-array.ts";
import type { BlockSpan, RecordSink, SourceBlock } from "../../../src/data/sources/record-sink.ts";
import type { SourceFile } from "../../../src/data/sources/source-file.ts";
import type { Problem } from "../../../src/data/problems/problems.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "subjekti-known-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Records of about 300 bytes (a long name every so often), `n` of them, one renamed when `renamed` is given. */
function records(n: number, renamed?: number): object[] {
  return Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    naziv_subjekta: `Subjekt ${i}${i === renamed ? " (izmijenjeno)" : ""}${i % 97 === 0 ? ' "s navodnicima" \\ i\nrecima'.repeat(20) : ""}`,
    oib: String(10_000_000_000 + i),
    prazno: [],
  }));
}

interface Read {
  /** Every block handed on, split or skipped, in order. */
  readonly blocks: SourceBlock[];
  /** The first index of each block skipped unsplit. */
  readonly skipped: number[];
  readonly spans: Map<number, BlockSpan>;
  readonly problems: Problem[];
}

/** Reads `text` as a JSON array with the spans of an earlier read (`known`: the blocks the sink holds, by first index). */
async function read(
  text: string,
  spans: ReadonlyMap<number, BlockSpan> = new Map(),
  holds: (first: number) => boolean = () => true,
  /** Spans of another file's blocks, offered first at each place. */
  others: ReadonlyMap<number, BlockSpan> = new Map(),
): Promise<Read> {
  const path = join(dir, `s${Math.random().toString(36).slice(2)}.json`);
  await writeFile(path, text);
  const file: SourceFile = { name: path, path, locateBy: "index", kind: "json" };
  const result: Read = { blocks: [], skipped: [], spans: new Map(), problems: [] };
  const sink: RecordSink = {
    block: (block) => void result.blocks.push({ first: block.first, count: block.count, hash: block.hash }),
    record: () => undefined,
    spans: new Map([...spans].map(([first, span]) => [first, [...(others.has(first) ? [others.get(first) as BlockSpan] : []), span]])),
    known(span) {
      if (!holds(span.first)) return false;
      result.blocks.push({ first: span.first, count: span.count, hash: span.hash });
      result.skipped.push(span.first);
      return true;
    },
    span: (span) => void result.spans.set(span.first, span),
  };
  await readJsonArray(file, sink, result.problems);
  return result;
}

describe("blocks skipped unsplit", () => {
  it.each([
    ["compact", (list: object[]) => JSON.stringify(list)],
    ["pretty", (list: object[]) => JSON.stringify(list, null, 1)],
    ["spaced around commas", (list: object[]) => `[ ${list.map((r) => JSON.stringify(r)).join(" ,\n\t")} ]`],
  ])("%s: an unchanged read skips every block after the first but the last; an edit splits only its own block", async (_, format) => {
    const before = format(records(12_345));
    const first = await read(before);
    expect(first.skipped).toEqual([]);
    expect(first.blocks.map((b) => b.first)).toEqual(Array.from({ length: 13 }, (_, k) => k * 1000));
    // The first block begins after `[`, the last ends at `]`: neither has a span; a block lying across two reads of the file may have none either.
    expect(first.spans.size).toBeGreaterThanOrEqual(8);
    expect(first.spans.has(0) || first.spans.has(12_000)).toBe(false);

    const again = await read(before, first.spans);
    expect(again.blocks).toEqual(first.blocks);
    expect(again.skipped).toEqual([...first.spans.keys()]);
    expect(again.spans).toEqual(first.spans);

    // Record 5,500 renamed: its block's bytes changed, and every later block's bytes lie elsewhere in the file.
    const after = format(records(12_345, 5500));
    const fresh = await read(after);
    const edited = await read(after, first.spans);
    expect(edited.blocks).toEqual(fresh.blocks);
    expect(edited.blocks.filter((b, k) => b.hash !== first.blocks[k]?.hash).map((b) => b.first)).toEqual([5000]);
    expect(edited.skipped).not.toContain(5000);
    expect(edited.skipped).toEqual([...first.spans.keys()].filter((f) => f !== 5000 && fresh.spans.has(f)));
    expect(edited.problems).toEqual([]);
  });

  it("a block the sink does not hold is split after all, the same as in a read that skips nothing", async () => {
    const text = JSON.stringify(records(6000));
    const first = await read(text);
    const partly = await read(text, first.spans, (f) => f !== 2000);
    expect(partly.blocks).toEqual(first.blocks);
    expect(partly.skipped).not.toContain(2000);
    expect(partly.skipped.length).toBeGreaterThan(0);
  });

  it("another file's spans at the same places are passed over for this file's", async () => {
    const text = JSON.stringify(records(6000));
    const first = await read(text);
    const other = await read(JSON.stringify(records(6000, 10)).replace(/Subjekt/g, "Ustanova"));
    const both = await read(text, first.spans, () => true, other.spans);
    expect(both.skipped).toEqual([...first.spans.keys()]);
    expect(both.blocks).toEqual(first.blocks);
  });

  it("spans of other bytes at the same places (a record inserted before them) are never taken", async () => {
    const first = await read(JSON.stringify(records(6000)));
    const list = records(6000);
    list.splice(100, 0, { id: 0.5, naziv_subjekta: "Umetnut", oib: "10000000001", prazno: [] });
    const moved = JSON.stringify(list);
    const edited = await read(moved, first.spans);
    expect(edited.skipped).toEqual([]);
    expect(edited.blocks).toEqual((await read(moved)).blocks);
  });

  it("an array broken after a skipped block is reported as in a read that skips nothing", async () => {
    const text = JSON.stringify(records(4000));
    const first = await read(text);
    // An extra comma between the last two records: `[…},,{…}]`.
    const at = text.lastIndexOf("},{") + 1;
    const broken = `${text.slice(0, at)},${text.slice(at)}`;
    const edited = await read(broken, first.spans);
    const fresh = await read(broken);
    expect(edited.skipped.length).toBeGreaterThan(0);
    // Each read is of a file of its own: the problems compared but for its name.
    const unnamed = (problems: readonly Problem[]): Problem[] => problems.map((p) => ({ ...p, file: "" }));
    expect(unnamed(edited.problems)).toEqual(unnamed(fresh.problems));
    expect(edited.problems).toHaveLength(1);
    expect(edited.blocks).toEqual(fresh.blocks);
  });

  it("a known block's bytes closed by the array's end, not by a comma, are split as in a read that skips nothing", async () => {
    const first = await read(JSON.stringify(records(3000)));
    expect(first.spans.has(1000)).toBe(true);
    // Block 1,000's bytes as before, but `]` where its comma was: the array ends with it.
    const shorter = JSON.stringify(records(2000));
    const edited = await read(shorter, first.spans);
    const fresh = await read(shorter);
    expect(edited.skipped).toEqual([]);
    expect(edited.problems).toEqual([]);
    expect(edited.blocks).toEqual(fresh.blocks);
  });
});
