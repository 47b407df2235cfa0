/**
 * The previous download's bytes by chunk, read in runs: consecutive chunks that lie end to end in the
 * previous file come with one read of it (a few megabytes at most), into buffers used again, and
 * whatever order or subset of the planned chunks is taken, each take's bytes are the chunk's.
 */
import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { contentNamedPath } from "../../src/core/download-files.ts";
import { DownloadChunks } from "../../src/export/download-chunks.ts";
import { siteDir } from "../file-trees.ts";

/** Chunk `i` of `size` bytes, each byte telling its chunk and place (another chunk's bytes never pass for it). */
const chunkOf = (i: number, size: number): Buffer => {
  const bytes = Buffer.alloc(size);
  for (let at = 0; at < size; at += 4) bytes.writeUInt32LE((i * 0x1000000 + at) >>> 0, at);
  return bytes;
};

/** A previous CSV of `chunks` (after a header of `start` bytes) in `outDir`, and its index in `indexFile`, written as a build would. */
async function previous(outDir: string, indexFile: string, chunks: readonly Buffer[], start: number): Promise<string[]> {
  const hashes = chunks.map((_, i) => `h${i}`);
  const index = await DownloadChunks.open(outDir, "csv", { indexFile, hashes }, start);
  for (const [i, chunk] of chunks.entries()) await index.rows(i, () => chunk);
  const file = Buffer.concat([Buffer.alloc(start, 0x2c), ...chunks]);
  const sha256 = createHash("sha256").update(file).digest("hex");
  const path = join(outDir, ...contentNamedPath("csv", sha256).split("/").filter(Boolean));
  await mkdir(join(path, ".."), { recursive: true });
  await writeFile(path, file);
  await index.save(sha256, file.length);
  await index.close();
  return hashes;
}

/** Takes chunks `order` (each planned unless `unplanned`), checking each take's bytes as it returns: the previous file's reads. */
async function takeAll(
  outDir: string,
  indexFile: string,
  hashes: readonly string[],
  chunks: readonly Buffer[],
  order: readonly number[],
  planned: (i: number) => boolean = () => true,
): Promise<DownloadChunks["counts"]> {
  const index = await DownloadChunks.open(outDir, "csv", { indexFile, hashes }, 7);
  index.plan(planned);
  try {
    for (const i of order) {
      const bytes = await index.rows(i, () => {
        throw new Error(`chunk ${i} rendered`);
      });
      // Still the chunk's once the reads ahead have ended: none was into its buffer.
      await index.settled();
      expect(Buffer.from(bytes).equals(chunks[i] as Buffer), `chunk ${i}`).toBe(true);
    }
  } finally {
    await index.close();
  }
  return index.counts;
}

describe("the previous file's chunks read in runs", () => {
  it("small chunks end to end: one read for them all", async () => {
    const outDir = await siteDir();
    const indexFile = join(outDir, "..", "csv-chunks.json");
    const chunks = Array.from({ length: 12 }, (_, i) => chunkOf(i, 1000 + 40 * i));
    const hashes = await previous(outDir, indexFile, chunks, 7);
    const order = chunks.map((_, i) => i);
    expect(await takeAll(outDir, indexFile, hashes, chunks, order)).toEqual({ copied: 12, rendered: 0, reads: 1 });
    // Unplanned, a read a chunk (as before the runs).
    expect(await takeAll(outDir, indexFile, hashes, chunks, order, () => false)).toEqual({ copied: 12, rendered: 0, reads: 12 });
  });

  it("a chunk not planned splits the run: the chunks on either side read in two", async () => {
    const outDir = await siteDir();
    const indexFile = join(outDir, "..", "csv-chunks.json");
    const chunks = Array.from({ length: 12 }, (_, i) => chunkOf(i, 1000));
    const hashes = await previous(outDir, indexFile, chunks, 7);
    // Chunk 5 (an edit's) is not in the previous file: its hash is another's.
    const edited = hashes.map((hash, i) => (i === 5 ? "edited" : hash));
    const index = await DownloadChunks.open(outDir, "csv", { indexFile, hashes: edited }, 7);
    index.plan(() => true);
    for (const i of chunks.keys()) {
      const bytes = await index.rows(i, () => chunkOf(99, 12));
      expect(Buffer.from(bytes).equals(i === 5 ? chunkOf(99, 12) : (chunks[i] as Buffer)), `chunk ${i}`).toBe(true);
    }
    await index.close();
    expect(index.counts).toEqual({ copied: 11, rendered: 1, reads: 2 });
  });

  it("runs of a few megabytes, read into buffers used again: every take's bytes right, in order, skipping runs, or out of order", async () => {
    const outDir = await siteDir();
    const indexFile = join(outDir, "..", "csv-chunks.json");
    // 1.5 MB each: a run a chunk (two would pass the run's bound), more runs than the buffers.
    const chunks = Array.from({ length: 9 }, (_, i) => chunkOf(i, 1.5 * 2 ** 20 + 4 * i));
    const hashes = await previous(outDir, indexFile, chunks, 7);
    expect(await takeAll(outDir, indexFile, hashes, chunks, [0, 1, 2, 3, 4, 5, 6, 7, 8])).toMatchObject({ copied: 9, reads: 9 });
    // Runs skipped (never taken), then taken again from an earlier one (read on its own), then on.
    expect(await takeAll(outDir, indexFile, hashes, chunks, [0, 4, 5, 1, 8])).toMatchObject({ copied: 5 });
    expect(await takeAll(outDir, indexFile, hashes, chunks, [8, 7, 6, 5, 4, 3, 2, 1, 0])).toMatchObject({ copied: 9 });
    expect(await takeAll(outDir, indexFile, hashes, chunks, [2, 0, 3, 1, 6, 4, 8, 5, 7])).toMatchObject({ copied: 9 });
  });
});
