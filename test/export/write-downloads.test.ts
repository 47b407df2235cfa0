/**
 * The downloads of a rebuild whose records are the previous build's very bytes: the NDJSON and CSV
 * are taken as they are, never read from the records again, unless a file is no longer whole; the
 * workbook too while the data's date it carries is the same.
 */
import { createHash } from "node:crypto";
import { readFile, rm, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import * as zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import type { Download } from "../../src/core/download-files.ts";
import { writeDownloads } from "../../src/export/write-downloads.ts";
import { tempDir } from "../file-trees.ts";
import { openZip, readEntryText } from "../../src/data/sources/zip-entries.ts";
import { SYNC_FLUSH_MARK as SYNC_FLUSH } from "../../src/export/xlsx-zip.ts";

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

const LINES = RECORDS.map((record) => Buffer.from(`${JSON.stringify(record)}\n`));
const RENAMED = Buffer.from(`${JSON.stringify({ ...RECORDS[1], naziv_subjekta: "Grad Split (preimenovan)" })}\n`);
const chunksOf = (...chunks: Buffer[]) =>
  async function* (): AsyncIterable<Uint8Array> {
    yield* chunks;
  };

/** The NDJSON and `format` written from `chunks`, by chunk when given the `hashes` (the index beside `outDir`); the stable names switched. */
async function writeByChunk(
  outDir: string,
  format: "csv" | "xlsx",
  chunks: () => AsyncIterable<Uint8Array>,
  hashes: string[] | null,
  keep: readonly Download[],
): Promise<readonly Download[]> {
  const done = await writeDownloads({
    outDir,
    formats: ["ndjson", format],
    chunks,
    date: () => Promise.resolve(new Date(0)),
    keep,
    unchanged: [],
    ...(hashes === null ? {} : { [`${format}Chunks`]: { indexFile: join(outDir, "..", `${format}-chunks.json`), hashes } }),
  });
  done.switchStableNames();
  return done.downloads;
}

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
  const csvOf = async (outDir: string, downloads: readonly Download[]): Promise<string> =>
    readFile(join(outDir, (downloads.find((d) => d.format === "csv") as Download).immutablePath), "utf8");
  const write = (outDir: string, chunks: () => AsyncIterable<Uint8Array>, hashes: string[] | null, keep: readonly Download[]) =>
    writeByChunk(outDir, "csv", chunks, hashes, keep);

  it("an edit renders its chunk alone: the others' rows are copied from the previous CSV (a row changed there shows it), and the result is what rendering all gives", async () => {
    const [outDir, plain] = [await tempDir(), await tempDir()];
    const first = await write(outDir, chunksOf(LINES[0] as Buffer, LINES[1] as Buffer), ["a", "b"], []);
    const rendered = await write(plain, chunksOf(LINES[0] as Buffer, RENAMED), null, []);
    const edited = await write(outDir, chunksOf(LINES[0] as Buffer, RENAMED), ["a", "b2"], first);
    expect(await csvOf(outDir, edited)).toBe(await csvOf(plain, rendered));
    expect(edited).toEqual(rendered);
    // Chunk a's rows altered in the CSV the index names (same length): the next edit copies them as they are.
    const previous = join(outDir, (edited.find((d) => d.format === "csv") as Download).immutablePath);
    await writeFile(previous, (await readFile(previous, "utf8")).replace("Grad Zagreb", "Grad Zagrex"));
    const again = await write(outDir, chunksOf(LINES[0] as Buffer, LINES[1] as Buffer), ["a", "b"], edited);
    expect(await csvOf(outDir, again)).toContain("Grad Zagrex");
    expect(await csvOf(outDir, again)).toContain("Grad Split;");
  });
});

describe("the workbook's sheet by chunk", () => {
  const index = (outDir: string): string => join(outDir, "..", "xlsx-chunks.json");
  const fileOf = (outDir: string, downloads: readonly Download[]): string =>
    join(outDir, (downloads.find((d) => d.format === "xlsx") as Download).immutablePath);
  const write = (outDir: string, chunks: () => AsyncIterable<Uint8Array>, hashes: string[] | null, keep: readonly Download[]) =>
    writeByChunk(outDir, "xlsx", chunks, hashes, keep);
  /** The sheet's XML as yauzl inflates it (its CRC-32 checked against the entry's). */
  const sheetOf = async (path: string): Promise<string> => {
    const zip = await openZip(path);
    try {
      return (await readEntryText(zip, "xl/worksheets/sheet1.xml")) ?? "";
    } finally {
      zip.close();
    }
  };

  it("an edit deflates its chunk alone, the others' segments copied from the previous workbook: the same bytes as writing it whole", async () => {
    const [outDir, plain] = [await tempDir(), await tempDir()];
    const first = await write(outDir, chunksOf(LINES[0] as Buffer, LINES[1] as Buffer), ["a", "b"], []);
    const rendered = await write(plain, chunksOf(LINES[0] as Buffer, RENAMED), null, []);
    const edited = await write(outDir, chunksOf(LINES[0] as Buffer, RENAMED), ["a", "b2"], first);
    expect(edited).toEqual(rendered);
    expect(await readFile(fileOf(outDir, edited))).toEqual(await readFile(fileOf(plain, rendered)));
    expect(await sheetOf(fileOf(outDir, edited))).toContain("Grad Split (preimenovan)");

    // Chunk a's segment replaced in the previous workbook by another of the same length (a stored
    // block, then the sync flush's empty one), the index stating its CRC and size: the next edit copies it as it is.
    const path = fileOf(outDir, edited);
    const saved = JSON.parse(await readFile(index(outDir), "utf8")) as {
      chunks: [string, number, number, number, number, number, number][];
    };
    const entry = saved.chunks.find(([hash]) => hash === "a") as [string, number, number, number, number, number, number];
    const [, offset, length] = entry;
    const xml = Buffer.from(`<row r="2"><c r="C2" t="inlineStr"><is><t>${"Grad Zagrex".padEnd(length - 10 - 61, ".")}</t></is></c></row>`);
    expect(xml.length).toBe(length - 10);
    const stored = Buffer.concat([
      Buffer.from([0x00, xml.length & 0xff, xml.length >> 8, ~xml.length & 0xff, (~xml.length >> 8) & 0xff]),
      xml,
      Buffer.from([0x00]),
      SYNC_FLUSH,
    ]);
    const file = await readFile(path);
    stored.copy(file, offset);
    await writeFile(path, file);
    entry[3] = zlib.crc32(xml);
    entry[4] = xml.length;
    await writeFile(index(outDir), JSON.stringify(saved));
    const again = await write(outDir, chunksOf(LINES[0] as Buffer, LINES[1] as Buffer), ["a", "b"], edited);
    const sheet = await sheetOf(fileOf(outDir, again));
    expect(sheet).toContain("Grad Zagrex");
    expect(sheet).not.toContain("Grad Zagreb");
    expect(sheet).toContain("<t>Grad Split</t>");
  });

  it("a chunk the previous workbook holds at another row is rendered (its rows carry their numbers): the same bytes as writing it whole", async () => {
    const [outDir, plain] = [await tempDir(), await tempDir()];
    const first = await write(outDir, chunksOf(LINES[0] as Buffer, LINES[1] as Buffer), ["a", "b"], []);
    const rendered = await write(plain, chunksOf(LINES[1] as Buffer, LINES[0] as Buffer), null, []);
    const swapped = await write(outDir, chunksOf(LINES[1] as Buffer, LINES[0] as Buffer), ["b", "a"], first);
    expect(await readFile(fileOf(outDir, swapped))).toEqual(await readFile(fileOf(plain, rendered)));
    expect(await sheetOf(fileOf(outDir, swapped))).toContain('<row r="2"><c r="A2"><v>2</v></c>');
  });

  it("with no previous workbook, a cut one, an index that is none or another zlib's or level's, or a segment that is not one: every chunk rendered, the same bytes", async () => {
    const plain = await tempDir();
    const whole = await write(plain, chunksOf(LINES[0] as Buffer, RENAMED), null, []);
    const expected = await readFile(fileOf(plain, whole));
    const damages: Record<string, (outDir: string, first: readonly Download[]) => Promise<void>> = {
      missing: (outDir, first) => rm(fileOf(outDir, first)),
      cut: (outDir, first) => truncate(fileOf(outDir, first), 100),
      "no index": (outDir) => writeFile(index(outDir), "{not json"),
      "another zlib's": async (outDir) => {
        const saved = JSON.parse(await readFile(index(outDir), "utf8")) as { writer?: string };
        expect(saved.writer).toBe(`zlib ${process.versions.zlib} level 5`);
        await writeFile(index(outDir), JSON.stringify({ ...saved, writer: "zlib 0.0" }));
      },
      // An index written before the level was chosen (the default's, 6): its segments are other bytes.
      "another level's": async (outDir) => {
        const saved = JSON.parse(await readFile(index(outDir), "utf8")) as { writer?: string };
        await writeFile(index(outDir), JSON.stringify({ ...saved, writer: `zlib ${process.versions.zlib}` }));
      },
      "not a segment": async (outDir, first) => {
        const [, offset, length] =
          (JSON.parse(await readFile(index(outDir), "utf8")) as { chunks: [string, number, number][] }).chunks[0] ?? [];
        const file = await readFile(fileOf(outDir, first));
        file[(offset ?? 0) + (length ?? 0) - 1] = 0;
        await writeFile(fileOf(outDir, first), file);
      },
    };
    for (const [name, damage] of Object.entries(damages)) {
      const outDir = await tempDir();
      const first = await write(outDir, chunksOf(LINES[0] as Buffer, LINES[1] as Buffer), ["a", "b"], []);
      await damage(outDir, first);
      const edited = await write(outDir, chunksOf(LINES[0] as Buffer, RENAMED), ["a", "b2"], first);
      expect(await readFile(fileOf(outDir, edited)), name).toEqual(expected);
    }
  });
});

describe("chunks in one reused buffer", () => {
  it("a chunk's bytes are needed only until the next is asked for: each overwritten then, the downloads are those of fresh chunks", async () => {
    /** Each line in the same buffer, scribbled over as soon as the next chunk is asked for (as the build's chunk reader reuses its buffer). */
    const reused = async function* (): AsyncIterable<Uint8Array> {
      const buffer = Buffer.alloc(Math.max(...LINES.map((line) => line.length)));
      for (const line of LINES) {
        line.copy(buffer);
        yield buffer.subarray(0, line.length);
        buffer.fill(0x78);
      }
    };
    const formats = ["ndjson", "csv", "xlsx"] as const;
    const write = async (chunks: () => AsyncIterable<Uint8Array>) => {
      const outDir = await tempDir();
      const done = await writeDownloads({ outDir, formats, chunks, date: () => Promise.resolve(new Date(0)), keep: [], unchanged: [] });
      done.switchStableNames();
      return { list: done.list.sha256, files: await Promise.all(done.downloads.map((d) => readFile(join(outDir, d.immutablePath)))) };
    };
    const fresh = await write(chunksOf(...LINES));
    expect(fresh.list).toBe(sha256(Buffer.concat(LINES)));
    expect(await write(reused)).toEqual(fresh);
  });
});

describe("the workbook in the records' one pass", () => {
  const formats = ["ndjson", "csv", "xlsx"] as const;
  /** The downloads' bytes, and how many times the records were read. */
  const write = async (expectedDate: Date | undefined, date: Date) => {
    const outDir = await tempDir();
    let passes = 0;
    const chunks = async function* (): AsyncIterable<Uint8Array> {
      passes++;
      yield* LINES;
    };
    const done = await writeDownloads({
      outDir,
      formats,
      chunks,
      date: () => Promise.resolve(date),
      ...(expectedDate === undefined ? {} : { expectedDate }),
      keep: [],
      unchanged: [],
    });
    done.switchStableNames();
    return { passes, files: await Promise.all(done.downloads.map((d) => readFile(join(outDir, d.immutablePath)))) };
  };

  it("with the date known beforehand, the records are read once and the downloads are those of two passes; a known date that is not the list's is not written", async () => {
    const date = new Date("2024-05-06T00:00:00Z");
    const twice = await write(undefined, date);
    expect(twice.passes).toBe(2);
    expect(await write(date, date)).toEqual({ passes: 1, files: twice.files });
    expect(await write(new Date(0), date)).toEqual({ passes: 2, files: twice.files });
  });
});
