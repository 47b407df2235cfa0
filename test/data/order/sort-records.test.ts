/** The external merge sort gives what a plain stable sort gives, whatever the run budget, and leaves no file behind. */
import { mkdir, readdir, rm, truncate } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, expect, test } from "vitest";
import { generateFile } from "../../../scripts/generate-subjects.ts";
import { forEachItem } from "../../../src/common/stage-iterables.ts";
import { readBlocks } from "../../../src/data/read/read-blocks.ts";
import { resolveReadOptions } from "../../../src/data/read-options.ts";
import { createRecordSorter, type RecordSorter, type SortableBlock, type SortedRecords } from "../../../src/data/order/sort-records.ts";
import { tempDir } from "../../file-trees.ts";

/** One record as the sorter sees it; `text` is its rendered line without the "\n". */
interface Row {
  readonly id: number;
  readonly code: string;
  readonly file: number;
  readonly position: number;
  readonly text: string;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The rows as rendered blocks of `size` records (a block never spans two files), each with its file. */
function toBlocks(rows: readonly Row[], size: number): { block: SortableBlock; file: number }[] {
  const blocks: { block: SortableBlock; file: number }[] = [];
  let start = 0;
  while (start < rows.length) {
    const file = rows[start]?.file ?? 0;
    let end = start;
    while (end < rows.length && end - start < size && rows[end]?.file === file) end++;
    const part = rows.slice(start, end);
    const lines = part.map((r) => encoder.encode(`${r.text}\n`));
    const bytes = new Uint8Array(lines.reduce((n, l) => n + l.length, 0));
    const ends = new Uint32Array(part.length);
    let at = 0;
    lines.forEach((line, i) => {
      bytes.set(line, at);
      at += line.length;
      ends[i] = at;
    });
    blocks.push({
      file,
      block: {
        bytes,
        ends,
        ids: Float64Array.from(part, (r) => r.id),
        codes: part.map((r) => r.code),
        positions: Uint32Array.from(part, (r) => r.position),
      },
    });
    start = end;
  }
  return blocks;
}

/** Every record of the batches, back as rows, checking that each batch's arrays agree in length. */
function fromBatches(batches: readonly SortedRecords[]): Row[] {
  const rows: Row[] = [];
  for (const b of batches) {
    const n = b.ends.length;
    expect([b.ids.length, b.codes.length, b.positions.length, b.files.length]).toEqual([n, n, n, n]);
    expect(b.ends[n - 1]).toBe(b.bytes.length);
    for (let i = 0; i < n; i++) {
      const line = decoder.decode(b.bytes.subarray(i === 0 ? 0 : b.ends[i - 1], b.ends[i]));
      expect(line.endsWith("\n")).toBe(true);
      rows.push({
        id: b.ids[i] ?? NaN,
        code: b.codes[i] ?? "",
        file: b.files[i] ?? NaN,
        position: b.positions[i] ?? NaN,
        text: line.slice(0, -1),
      });
    }
  }
  return rows;
}

async function sortAll(sorter: RecordSorter, rows: readonly Row[], blockSize: number): Promise<SortedRecords[]> {
  for (const { block, file } of toBlocks(rows, blockSize)) await sorter.add(block, file);
  const batches: SortedRecords[] = [];
  for await (const batch of sorter.sorted()) batches.push(batch);
  return batches;
}

/** What the sort must equal: a stable sort by id (Array.prototype.sort is stable). */
function expected(rows: readonly Row[]): Row[] {
  return [...rows].sort((a, b) => a.id - b.id);
}

let parent = "";
beforeAll(async () => {
  parent = await tempDir("subjekti-sort-");
});
afterAll(async () => {
  await rm(parent, { recursive: true, force: true });
});

// Lines of any length and any characters (multi-byte ones included), codes too.
const rowArb = (ids: fc.Arbitrary<number>): fc.Arbitrary<Omit<Row, "position">> =>
  fc.record({
    id: ids,
    code: fc.string({ maxLength: 8, unit: "binary" }),
    file: fc.nat(2),
    text: fc.string({ maxLength: 60, unit: "binary" }).map((t) => t.replaceAll("\n", " ")),
  });
const rowsArb = (ids: fc.Arbitrary<number>): fc.Arbitrary<Row[]> =>
  fc.array(rowArb(ids), { maxLength: 200 }).map((rows) => {
    // Files are read one after another, so rows are grouped by file; positions rise within one.
    const sorted = [...rows].sort((a, b) => a.file - b.file);
    return sorted.map((r, i) => ({ ...r, position: i }));
  });

test.each([
  ["small non-negative integer ids (packed keys), many duplicates", fc.integer({ min: 0, max: 40 })],
  ["any doubles but NaN (the comparator), negatives and fractions", fc.double({ noNaN: true, min: -1e300, max: 1e300 })],
])("any rows, any run budget: %s -> a stable sort by id, bytes intact, no file left", async (_name, ids) => {
  await fc.assert(
    fc.asyncProperty(
      rowsArb(ids),
      fc.integer({ min: 256, max: 4000 }),
      fc.integer({ min: 1, max: 50 }),
      fc.integer({ min: 1, max: 40 }),
      async (rows, runBytes, blockSize, batchRecords) => {
        const sorter = createRecordSorter({ dir: parent, runBytes, batchRecords });
        try {
          const batches = await sortAll(sorter, rows, blockSize);
          expect(fromBatches(batches)).toEqual(expected(rows));
          expect(batches.every((b) => b.ends.length > 0 && b.ends.length <= batchRecords)).toBe(true);
          expect(sorter.count).toBe(rows.length);
        } finally {
          await sorter.close();
        }
        expect(await readdir(parent)).toEqual([]);
      },
    ),
    { numRuns: 30 },
  );
});

const ROWS: Row[] = Array.from({ length: 2000 }, (_, i) => ({
  id: (i * 7919) % 500,
  code: String(i).padStart(4, "0"),
  file: i < 1000 ? 0 : 1,
  position: i % 1000,
  text: `{"n":${i},"naziv":"Čakovec ${"ž".repeat(i % 50)}"}`,
}));

test("input within one run budget -> sorted in memory, no directory made", async () => {
  const sorter = createRecordSorter({ dir: parent });
  const batches = await sortAll(sorter, ROWS, 100);
  expect(sorter.runs).toBe(0);
  expect(await readdir(parent)).toEqual([]);
  expect(fromBatches(batches)).toEqual(expected(ROWS));
  expect(batches.map((b) => b.ends.length)).toEqual([1000, 1000]);
  await sorter.close();
});

test("records larger than a run reader's buffer and the write buffer (1.5 MB) -> merged whole", async () => {
  const big = (id: number, n: number): Row => ({ id, code: "0001", file: 0, position: n, text: `${"x".repeat(1_500_000)}${n}` });
  const rows = [big(5, 0), ...ROWS.slice(0, 300), big(1, 301), big(5, 302)];
  const sorter = createRecordSorter({ dir: parent, runBytes: 16 * 1024 });
  const batches = await sortAll(sorter, rows, 50);
  expect(sorter.runs).toBeGreaterThan(2);
  expect(fromBatches(batches)).toEqual(expected(rows));
  await sorter.close();
  expect(await readdir(parent)).toEqual([]);
});

test("a consumer that stops early or throws -> its run files are removed", async () => {
  for (const stop of ["break", "throw"] as const) {
    const sorter = createRecordSorter({ dir: parent, runBytes: 4096, batchRecords: 10 });
    for (const { block, file } of toBlocks(ROWS, 100)) await sorter.add(block, file);
    expect(sorter.runs).toBeGreaterThan(10);
    expect((await readdir(parent)).length).toBe(1);
    const consume = async (): Promise<void> => {
      for await (const batch of sorter.sorted()) {
        expect(batch.ends.length).toBe(10);
        if (stop === "break") break;
        throw new Error("the consumer failed");
      }
    };
    if (stop === "throw") await expect(consume()).rejects.toThrow("the consumer failed");
    else await consume();
    expect(await readdir(parent)).toEqual([]);
    await sorter.close();
  }
});

test("a run file cut short on disk -> the merge fails naming the run, and its files are removed", async () => {
  const sorter = createRecordSorter({ dir: parent, runBytes: 4096 });
  for (const { block, file } of toBlocks(ROWS, 100)) await sorter.add(block, file);
  const [dir] = await readdir(parent);
  await truncate(join(parent, dir ?? "", "run-3"), 100);
  const consume = async (): Promise<number> => {
    let n = 0;
    for await (const batch of sorter.sorted()) n += batch.ends.length;
    return n;
  };
  await expect(consume()).rejects.toThrow(/sort run 3 ends inside a record/);
  expect(await readdir(parent)).toEqual([]);
  await sorter.close();
});

test("closed before sorting (a data error elsewhere) -> its run files are removed; add and sorted refuse after", async () => {
  const sorter = createRecordSorter({ dir: parent, runBytes: 4096 });
  const blocks = toBlocks(ROWS, 100);
  for (const { block, file } of blocks) await sorter.add(block, file);
  expect((await readdir(parent)).length).toBe(1);
  await sorter.close();
  expect(await readdir(parent)).toEqual([]);
  const first = blocks[0];
  if (first === undefined) throw new Error("no block");
  await expect(sorter.add(first.block, first.file)).rejects.toThrow(/after close/);
  expect(() => sorter.sorted()).toThrow(/after close/);
});

test("a directory that cannot be made -> add rejects, close still succeeds", async () => {
  const sorter = createRecordSorter({ dir: join(parent, "missing", "deeper"), runBytes: 1 });
  const [first] = toBlocks(ROWS, 100);
  if (first === undefined) throw new Error("no block");
  await expect(sorter.add(first.block, first.file)).rejects.toThrow(/ENOENT/);
  await sorter.close();
  expect(await readdir(parent)).toEqual([]);
});

test("a shuffled generated list read by the real reader -> its rows in a plain stable sort by id, byte for byte", async () => {
  const dataDir = join(parent, "data");
  await mkdir(dataDir);
  try {
    await generateFile({ count: 5000, seed: "sort", format: "json", shuffle: true }, join(dataDir, "subjekti.json"));
    const sorter = createRecordSorter({ dir: parent, runBytes: 256 * 1024 });
    const read: Row[] = [];
    const reading: Row[] = [];
    await forEachItem(readBlocks(resolveReadOptions({ dataDir, strict: true, threads: 0 })), async (item) => {
      if (item.kind === "end") return;
      const { block } = item;
      for (let k = 0; k < block.ends.length; k++) {
        const text = decoder.decode(block.bytes.subarray(k === 0 ? 0 : block.ends[k - 1], block.ends[k]));
        read.push({
          id: block.ids[k] ?? NaN,
          code: block.codes[k] ?? "",
          file: 0,
          position: block.positions[k] ?? NaN,
          text: text.slice(0, -1),
        });
      }
      await sorter.add(block, 0);
    });
    expect(sorter.runs).toBeGreaterThan(4);
    const inIdOrder = read
      .map((row, i) => ({ row, i }))
      .sort((a, b) => a.row.id - b.row.id || a.i - b.i)
      .map(({ row }) => row);
    for await (const batch of sorter.sorted()) reading.push(...fromBatches([batch]));
    expect(reading).toEqual(inIdOrder);
    await sorter.close();
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  expect(await readdir(parent)).toEqual([]);
});
