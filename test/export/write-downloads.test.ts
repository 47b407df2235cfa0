/**
 * The downloads of a rebuild whose records are the previous build's very bytes: the NDJSON and CSV
 * are taken as they are, never read from the records again, unless a file is no longer whole; the
 * workbook too while the data's date it carries is the same.
 */
import { createHash } from "node:crypto";
import { readFile, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Download } from "../../src/core/download-files.ts";
import { writeDownloads } from "../../src/export/write-downloads.ts";
import { tempDir } from "../file-trees.ts";

const RECORDS = [
  {
    id: 1,
    jedinstvena_oznaka: "0001",
    naziv_subjekta: "Grad Zagreb",
    oib: "61817894937",
    razina: "lokalna",
    datum_postanka: "1990-01-01",
    status_subjekta: true,
    odobreno: true,
    institucija_grad: "Zagreb",
    institucija_email: "grad@zagreb.hr",
  },
  {
    id: 2,
    jedinstvena_oznaka: "0002",
    naziv_subjekta: "Grad Split",
    oib: "69506064376",
    razina: "lokalna",
    datum_postanka: "1991-02-03",
    status_subjekta: false,
    odobreno: true,
    institucija_grad: "Split",
    institucija_email: "",
  },
];
const BYTES = Buffer.from(RECORDS.map((record) => JSON.stringify(record)).join("\n"));

async function* records(): AsyncIterable<Uint8Array> {
  yield BYTES;
}

async function* unread(): AsyncIterable<Uint8Array> {
  throw new Error("the records were read");
}

const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

async function written(
  outDir: string,
  chunks: () => AsyncIterable<Uint8Array>,
  previous: readonly Download[],
  unchanged: readonly Download[],
) {
  const done = await writeDownloads({
    outDir,
    formats: ["ndjson", "csv"],
    chunks,
    date: () => Promise.resolve(new Date(0)),
    keep: previous,
    unchanged,
  });
  done.switchStableNames();
  return done.downloads;
}

describe("downloads of unchanged records", () => {
  it("are the previous build's files, the records not read again", async () => {
    const outDir = await tempDir();
    const first = await written(outDir, records, [], []);
    expect(await written(outDir, unread, first, first)).toEqual(first);
    // Not known to be the same records: they are read (and the check above could fail).
    await expect(written(outDir, unread, first, [])).rejects.toThrow("the records were read");
    expect(await written(outDir, records, first, [])).toEqual(first);
  });

  it("a file cut short is written again from the records, whole", async () => {
    const outDir = await tempDir();
    const first = await written(outDir, records, [], []);
    const csv = first.find((d) => d.format === "csv") as Download;
    await truncate(join(outDir, csv.immutablePath), 5);
    await expect(written(outDir, unread, first, first)).rejects.toThrow("the records were read");
    expect(await written(outDir, records, first, first)).toEqual(first);
    for (const d of first) {
      expect(sha256(await readFile(join(outDir, d.path))), d.path).toBe(d.sha256);
      expect(sha256(await readFile(join(outDir, d.immutablePath))), d.immutablePath).toBe(d.sha256);
    }
  });

  it("the workbook is kept when the data's date is the same too, and written again for another date", async () => {
    const outDir = await tempDir();
    // With the NDJSON: the list's hash (which dates the workbook) is then known without reading the records.
    const workbook = async (chunks: () => AsyncIterable<Uint8Array>, previous: readonly Download[], date: Date) => {
      const done = await writeDownloads({
        outDir,
        formats: ["ndjson", "xlsx"],
        chunks,
        date: () => Promise.resolve(date),
        keep: previous,
        unchanged: previous,
      });
      done.switchStableNames();
      return done.downloads;
    };
    const xlsx = (downloads: readonly Download[]) => downloads.find((d) => d.format === "xlsx");
    const first = await workbook(records, [], new Date(0));
    expect(await workbook(unread, first, new Date(0))).toEqual(first);
    await expect(workbook(unread, first, new Date(1000))).rejects.toThrow("the records were read");
    const later = await workbook(records, first, new Date(1000));
    expect(xlsx(later)?.sha256).not.toBe(xlsx(first)?.sha256);
  });
});

describe("the CSV's rows by chunk", () => {
  const lines = RECORDS.map((record) => Buffer.from(`${JSON.stringify(record)}\n`));
  const renamed = Buffer.from(`${JSON.stringify({ ...RECORDS[1], naziv_subjekta: "Grad Split (preimenovan)" })}\n`);
  const chunksOf = (...chunks: Buffer[]) =>
    async function* (): AsyncIterable<Uint8Array> {
      yield* chunks;
    };
  const csvOf = async (outDir: string, downloads: readonly Download[]): Promise<string> =>
    readFile(join(outDir, (downloads.find((d) => d.format === "csv") as Download).immutablePath), "utf8");
  const write = async (outDir: string, chunks: () => AsyncIterable<Uint8Array>, hashes: string[] | null, keep: readonly Download[]) => {
    const done = await writeDownloads({
      outDir,
      formats: ["ndjson", "csv"],
      chunks,
      date: () => Promise.resolve(new Date(0)),
      keep,
      unchanged: [],
      ...(hashes === null ? {} : { csvChunks: { indexFile: join(outDir, "..", "csv-chunks.json"), hashes } }),
    });
    done.switchStableNames();
    return done.downloads;
  };

  it("an edit renders its chunk alone: the others' rows are copied from the previous CSV (a row changed there shows it), and the result is what rendering all gives", async () => {
    const [outDir, plain] = [await tempDir(), await tempDir()];
    const first = await write(outDir, chunksOf(lines[0] as Buffer, lines[1] as Buffer), ["a", "b"], []);
    const rendered = await write(plain, chunksOf(lines[0] as Buffer, renamed), null, []);
    const edited = await write(outDir, chunksOf(lines[0] as Buffer, renamed), ["a", "b2"], first);
    expect(await csvOf(outDir, edited)).toBe(await csvOf(plain, rendered));
    expect(edited).toEqual(rendered);
    // Chunk a's rows altered in the CSV the index names (same length): the next edit copies them as they are.
    const previous = join(outDir, (edited.find((d) => d.format === "csv") as Download).immutablePath);
    await writeFile(previous, (await readFile(previous, "utf8")).replace("Grad Zagreb", "Grad Zagrex"));
    const again = await write(outDir, chunksOf(lines[0] as Buffer, lines[1] as Buffer), ["a", "b"], edited);
    expect(await csvOf(outDir, again)).toContain("Grad Zagrex");
    expect(await csvOf(outDir, again)).toContain("Grad Split;");
  });
});
