/**
 * Pages from the chunk files through a small window: chunks dropped from it and read again into
 * the buffers of others dropped (of other sizes, smaller and larger), pages spanning chunks, asked
 * for in order and out of it, are the records' bytes joined as a page joins them.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { pagesFromChunkFiles } from "../../src/site/read-chunks.ts";
import { useTempDir } from "../file-trees.ts";

const work = useTempDir();
const CHUNK = 10;

/** Records of varied lengths (some chunks several times the bytes of others), a chunk file a CHUNK of them. */
function writeChunks(count: number): { records: string[]; fileOf: (chunk: number) => { path: string } } {
  const records = Array.from(
    { length: count },
    (_, i) => `{"id":${i + 1},"x":"${"y".repeat(((i * 37) % 11) * (Math.floor(i / CHUNK) % 4) * 20)}"}`,
  );
  const paths: string[] = [];
  for (let first = 0; first < count; first += CHUNK) {
    const path = join(work.path, `${first / CHUNK}.ndjson`);
    writeFileSync(path, records.slice(first, first + CHUNK).join("\n") + "\n");
    paths.push(path);
  }
  return { records, fileOf: (chunk) => ({ path: paths[chunk] as string }) };
}

describe("pagesFromChunkFiles", () => {
  it("makes every page whole through a window of a few chunks, whatever the order pages are asked in", () => {
    const count = 237;
    const { records, fileOf } = writeChunks(count);
    const head = Buffer.from('{"results":[');
    const tail = Buffer.from("]}");
    const want = (from: number, to: number): string => `{"results":[${records.slice(from, to).join(",")}]}`;
    // Pages of 7 and 25 records: some within a chunk, some across two or three.
    const spans: [number, number][] = [];
    for (const limit of [7, 25]) for (let from = 0; from < count; from += limit) spans.push([from, Math.min(count, from + limit)]);
    const backwards = [...spans].reverse();
    const skipping = spans.filter((_, i) => i % 3 === 0).concat(spans.filter((_, i) => i % 3 !== 0));
    for (const order of [spans, backwards, skipping]) {
      // A window of some two or three chunks' bytes: most chunks are dropped and read again.
      const pages = pagesFromChunkFiles(fileOf, CHUNK, 2000);
      for (const [from, to] of order) expect(pages(head, from, to, tail).toString(), `${from}-${to}`).toBe(want(from, to));
    }
  });

  it("renders a page into the memory of one given back, never into that of a page still out", () => {
    const count = 120;
    const { records, fileOf } = writeChunks(count);
    const head = Buffer.from("[");
    const tail = Buffer.from("]");
    const want = (from: number, to: number): string => `[${records.slice(from, to).join(",")}]`;
    const pages = pagesFromChunkFiles(fileOf, CHUNK);
    const giveBack = pages.giveBack?.bind(pages);
    expect(giveBack).toBeDefined();
    // Pages kept (never given back) keep their bytes while every later one is made.
    const kept = [0, 1, 2].map((p) => ({ p, page: pages(head, p * 10, p * 10 + 10, tail) }));
    const first = pages(head, 30, 40, tail);
    giveBack?.(first);
    // Given back twice, and a buffer not lent: ignored (one page a buffer).
    giveBack?.(first);
    giveBack?.(Buffer.from("[not a page]"));
    const second = pages(head, 40, 50, tail);
    expect(second.buffer).toBe(first.buffer);
    const third = pages(head, 50, 60, tail);
    expect(third.buffer).not.toBe(second.buffer);
    expect(second.toString()).toBe(want(40, 50));
    expect(third.toString()).toBe(want(50, 60));
    // A larger page than the one given back: a buffer of its own.
    giveBack?.(second);
    const wide = pages(head, 60, 120, tail);
    expect(wide.buffer).not.toBe(second.buffer);
    expect(wide.toString()).toBe(want(60, 120));
    for (const { p, page } of kept) expect(page.toString()).toBe(want(p * 10, p * 10 + 10));
  });
});
