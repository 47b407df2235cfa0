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
import type { Download, DownloadFormat } from "../../src/core/download-files.ts";
import yauzl from "yauzl";
import { type UnreadChunk, workbookDeflate, workbookGathering, writeDownloads } from "../../src/export/write-downloads.ts";
import { siteDir } from "../file-trees.ts";
import { openWorkbook, type SheetRow } from "../../src/data/sources/read-ooxml.ts";
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
    const outDir = await siteDir();
    const first = await written(outDir, records, [], []);
    expect(await written(outDir, unread, first, first)).toEqual(first);
    // Not known to be the same records: they are read (and the check above could fail).
    await expect(written(outDir, unread, first, [])).rejects.toThrow("the records were read");
    expect(await written(outDir, records, first, [])).toEqual(first);
  });

  it("a file cut short is written again from the records, whole", async () => {
    const outDir = await siteDir();
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
    const outDir = await siteDir();
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
    const [outDir, plain] = [await siteDir(), await siteDir()];
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
    const [outDir, plain] = [await siteDir(), await siteDir()];
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
    const [outDir, plain] = [await siteDir(), await siteDir()];
    const first = await write(outDir, chunksOf(LINES[0] as Buffer, LINES[1] as Buffer), ["a", "b"], []);
    const rendered = await write(plain, chunksOf(LINES[1] as Buffer, LINES[0] as Buffer), null, []);
    const swapped = await write(outDir, chunksOf(LINES[1] as Buffer, LINES[0] as Buffer), ["b", "a"], first);
    expect(await readFile(fileOf(outDir, swapped))).toEqual(await readFile(fileOf(plain, rendered)));
    expect(await sheetOf(fileOf(outDir, swapped))).toContain('<row r="2"><c r="A2"><v>2</v></c>');
  });

  it("with no previous workbook, a cut one, an index that is none or another zlib's or level's, or a segment that is not one: every chunk rendered, the same bytes", async () => {
    const plain = await siteDir();
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
      const outDir = await siteDir();
      const first = await write(outDir, chunksOf(LINES[0] as Buffer, LINES[1] as Buffer), ["a", "b"], []);
      await damage(outDir, first);
      const edited = await write(outDir, chunksOf(LINES[0] as Buffer, RENAMED), ["a", "b2"], first);
      expect(await readFile(fileOf(outDir, edited)), name).toEqual(expected);
    }
  });

  it("a chunk copied between two rendered ones: the third's rows are made in the first's buffer only once its deflate has read them (that deflate held back until the third chunk is taken)", async () => {
    const line = (id: number, name: string): Buffer =>
      Buffer.from(`${JSON.stringify({ ...RECORDS[0], id, jedinstvena_oznaka: String(id).padStart(4, "0"), naziv_subjekta: name })}\n`);
    const [a, b, c] = [Buffer.concat([line(1, "Grad Zagreb"), line(2, "Grad Split")]), line(3, "Grad Rijeka"), line(4, "Grad Osijek")];
    // Chunks 0 and 2 edited, chunk 1 copied (it begins at the same row). The rows of 0 and 2 are made in one buffer
    // (by the chunk's index, two in turn); chunk 2's are fewer, so they fit in it and are written over chunk 0's.
    const edited = [Buffer.concat([line(1, "Grad Zagreb (preimenovan)"), line(2, "Grad Split")]), b, line(4, "Grad Osijek (preimenovan)")];
    const [outDir, plain] = [await siteDir(), await siteDir()];
    const first = await write(outDir, chunksOf(a, b, c), ["a", "b", "c"], []);
    const whole = await write(plain, chunksOf(...edited), null, []);

    // Each deflate's input, and whether it was still the rows it was called with when read. The first is held
    // back until the third chunk has been handed to the pass and every microtask that sets off has run (a
    // setImmediate): a render that does not wait for it writes chunk 2's rows over chunk 0's before then.
    const calls: { input: Uint8Array; intact: boolean }[] = [];
    // Only in the pass that deflates (the workbook's: the first pass writes the NDJSON alone).
    const { gate, gated, held } = heldUntilThirdChunk(edited, () => calls.length > 0);
    const deflate = workbookDeflate.segment;
    workbookDeflate.segment = async (text, last) => {
      if (typeof text === "string") throw new Error("the sink deflates bytes");
      const call = { input: text, intact: true };
      const copy = Buffer.from(text);
      calls.push(call);
      if (calls.length === 1) await gate;
      call.intact = copy.equals(text);
      return deflate(text, last);
    };
    let again: readonly Download[];
    try {
      again = await write(outDir, gated, ["a2", "b", "c2"], first);
    } finally {
      workbookDeflate.segment = deflate;
    }
    // The case made: chunks 0 and 2 rendered in one buffer, the first's deflate held while chunk 2 was taken.
    expect(calls).toHaveLength(2);
    expect(held.whenThirdTaken).toBe(true);
    expect(calls[1]?.input.buffer).toBe(calls[0]?.input.buffer);
    expect(
      calls.map((call) => call.intact),
      "each deflate's rows as made (not written over before it read them)",
    ).toEqual([true, true]);

    expect(again).toEqual(whole);
    expect(await readFile(fileOf(outDir, again))).toEqual(await readFile(fileOf(plain, whole)));
    const rows = await rowsOf(fileOf(outDir, again));
    expect(rows).toEqual(await rowsOf(fileOf(plain, whole)));
    expect(rows.map((row) => row.cells[2])).toEqual([
      "naziv_subjekta",
      "Grad Zagreb (preimenovan)",
      "Grad Split",
      "Grad Rijeka",
      "Grad Osijek (preimenovan)",
    ]);
    for (const [name, { stated, computed }] of await crcsOf(fileOf(outDir, again))) expect(computed, name).toBe(stated);
  });

  it("copied segments gathered in buffers used again: a buffer is filled again only once its bytes are written (the first gathering's write held back until the third chunk is taken)", async () => {
    const line = (id: number, name: string): Buffer =>
      Buffer.from(`${JSON.stringify({ ...RECORDS[0], id, jedinstvena_oznaka: String(id).padStart(4, "0"), naziv_subjekta: name })}\n`);
    const chunks = ["Grad Zagreb", "Grad Split", "Grad Rijeka", "Grad Osijek", "Grad Zadar"].map((name, i) => line(i + 1, name));
    const edited = [...chunks.slice(0, 4), line(5, "Grad Zadar (preimenovan)")];
    const [outDir, plain] = [await siteDir(), await siteDir()];
    const first = await write(outDir, chunksOf(...chunks), ["a", "b", "c", "d", "e"], []);
    const whole = await write(plain, chunksOf(...edited), null, []);

    // A gathering of 256 bytes: one copied segment fits (some 180 bytes each here), two do not, so each is gathered
    // alone and written before the next is gathered: the four copied chunks go through the gatherings' buffers in
    // turn. Each write's bytes, and whether they were still the bytes it was called with when it wrote them: the first
    // is held back until the third chunk has been handed to the pass and every microtask that sets off has run (a
    // setImmediate), by then the second chunk's segment is gathered: into the first's buffer, if that buffer were
    // free before its write.
    const calls: { bytes: Uint8Array; intact: boolean }[] = [];
    // Only in the pass that writes the workbook (the first pass writes the NDJSON alone).
    const { gate, gated, held } = heldUntilThirdChunk(edited, () => calls.length > 0);
    const { bytes: gatherBytes, write: writeSegment } = workbookGathering;
    workbookGathering.bytes = 256;
    workbookGathering.write = async (workbook, segment, rows) => {
      const call = { bytes: segment.bytes, intact: true };
      const copy = Buffer.from(segment.bytes);
      calls.push(call);
      if (calls.length === 1) await gate;
      call.intact = copy.equals(segment.bytes);
      return writeSegment(workbook, segment, rows);
    };
    let again: readonly Download[];
    try {
      again = await write(outDir, gated, ["a", "b", "c", "d", "e2"], first);
    } finally {
      Object.assign(workbookGathering, { bytes: gatherBytes, write: writeSegment });
    }
    // The case made: four copied segments written one a gathering, then the rendered one; a buffer used again.
    expect(held.whenThirdTaken).toBe(true);
    expect(calls).toHaveLength(5);
    for (const call of calls.slice(0, 4)) expect(call.bytes.length).toBeGreaterThan(128);
    const buffers = new Set(calls.slice(0, 4).map((call) => call.bytes.buffer));
    expect(buffers.size, "the gatherings' buffers used again").toBeLessThan(4);
    expect(
      calls.map((call) => call.intact),
      "each write's bytes as gathered (not written over before they were written)",
    ).toEqual([true, true, true, true, true]);

    expect(again).toEqual(whole);
    expect(await readFile(fileOf(outDir, again))).toEqual(await readFile(fileOf(plain, whole)));
    for (const [name, { stated, computed }] of await crcsOf(fileOf(outDir, again))) expect(computed, name).toBe(stated);
  });
});

/**
 * The chunks as a pass takes them, and a gate opened once the third has been handed to the pass
 * (in the pass where `armed` holds) and every microtask that sets off has run (a setImmediate):
 * what a test holds back behind the gate is then still pending while the pass takes the second and
 * third chunks.
 */
function heldUntilThirdChunk(chunks: readonly Buffer[], armed: () => boolean) {
  let release = (): void => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const held = { whenThirdTaken: false };
  const gated = async function* (): AsyncIterable<Uint8Array> {
    for (const [index, chunk] of chunks.entries()) {
      if (index === 2 && armed()) {
        held.whenThirdTaken = true;
        setImmediate(release);
      }
      yield chunk;
    }
  };
  return { gate, gated, held };
}

/** The rows of a workbook's sheet as the project's reader reads them. */
async function rowsOf(path: string): Promise<SheetRow[]> {
  const zip = await openZip(path);
  try {
    const rows: SheetRow[] = [];
    for await (const row of (await openWorkbook(zip)).rows("subjekti")) rows.push(row);
    return rows;
  } finally {
    zip.close();
  }
}

/** Each entry's CRC-32 as the zip states it, and that of its bytes inflated (yauzl checks none). */
function crcsOf(path: string): Promise<Map<string, { stated: number; computed: number }>> {
  return new Promise((resolve, reject) => {
    const crcs = new Map<string, { stated: number; computed: number }>();
    yauzl.open(path, { lazyEntries: true }, (error, zip) => {
      if (error !== null) return reject(error);
      zip.on("error", reject);
      zip.on("end", () => resolve(crcs));
      zip.on("entry", (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (failed, stream) => {
          if (failed !== null) return reject(failed);
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("error", reject);
          stream.on("end", () => {
            crcs.set(entry.fileName, { stated: entry.crc32, computed: zlib.crc32(Buffer.concat(chunks)) });
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

describe("the NDJSON's bytes by chunk", () => {
  const formats = ["ndjson", "csv", "xlsx"] as const;
  const THIRD = Buffer.from(`${JSON.stringify({ ...RECORDS[0], id: 3, jedinstvena_oznaka: "0003", naziv_subjekta: "Grad Rijeka" })}\n`);
  const index = (outDir: string): string => join(outDir, "..", "ndjson-chunks.json");
  /** The chunks as the build gives them: those the pass wants read (their indexes pushed to `reads`), the others read only if asked. */
  const lazy = (reads: number[], ...chunks: Buffer[]) =>
    async function* (wanted?: (index: number) => boolean): AsyncIterable<Uint8Array | UnreadChunk> {
      for (const [i, chunk] of chunks.entries()) {
        if (wanted?.(i) === false) {
          yield {
            read: () => {
              reads.push(i);
              return Promise.resolve(chunk);
            },
          };
        } else {
          reads.push(i);
          yield chunk;
        }
      }
    };
  /** The three downloads from `chunks`, by chunk when given the `hashes` (the three indexes beside `outDir`); the stable names switched. */
  const write = async (
    outDir: string,
    chunks: (wanted?: (index: number) => boolean) => AsyncIterable<Uint8Array | UnreadChunk>,
    hashes: string[] | null,
    keep: readonly Download[],
  ) => {
    const byChunk = (format: string) => ({ [`${format}Chunks`]: { indexFile: join(outDir, "..", `${format}-chunks.json`), hashes } });
    const done = await writeDownloads({
      outDir,
      formats,
      chunks,
      date: () => Promise.resolve(new Date(0)),
      expectedDate: new Date(0),
      keep,
      unchanged: [],
      ...(hashes === null ? {} : { ...byChunk("ndjson"), ...byChunk("csv"), ...byChunk("xlsx") }),
    });
    done.switchStableNames();
    return done.downloads;
  };
  const files = (outDir: string, downloads: readonly Download[]) =>
    Promise.all(downloads.map((d) => readFile(join(outDir, d.immutablePath))));
  const ndjsonOf = (outDir: string, downloads: readonly Download[]): string =>
    join(outDir, (downloads.find((d) => d.format === "ndjson") as Download).immutablePath);

  it("an edit reads its chunk alone: the others' bytes copied from the previous NDJSON (their rows from the CSV and the workbook), the same bytes as reading every chunk", async () => {
    const [outDir, plain] = [await siteDir(), await siteDir()];
    const reads: number[] = [];
    const first = await write(outDir, lazy(reads, LINES[0] as Buffer, LINES[1] as Buffer, THIRD), ["a", "b", "c"], []);
    // No index yet: every chunk read.
    expect(reads).toEqual([0, 1, 2]);
    const rendered = await write(plain, chunksOf(LINES[0] as Buffer, RENAMED, THIRD), null, []);
    reads.length = 0;
    const edited = await write(outDir, lazy(reads, LINES[0] as Buffer, RENAMED, THIRD), ["a", "b2", "c"], first);
    expect(reads).toEqual([1]);
    expect(edited).toEqual(rendered);
    expect(await files(outDir, edited)).toEqual(await files(plain, rendered));
    // The index of the new NDJSON: the next edit (back) reads its chunk alone too.
    reads.length = 0;
    const back = await write(outDir, lazy(reads, LINES[0] as Buffer, LINES[1] as Buffer, THIRD), ["a", "b", "c"], edited);
    expect(reads).toEqual([1]);
    expect(back).toEqual(first);
    // Chunk a's bytes altered in the NDJSON the index names (same length): the next edit copies them as they are (they are copied).
    const previous = ndjsonOf(outDir, back);
    await writeFile(previous, (await readFile(previous, "utf8")).replace("Grad Zagreb", "Grad Zagrex"));
    const again = await write(outDir, lazy(reads, LINES[0] as Buffer, RENAMED, THIRD), ["a", "b2", "c"], back);
    expect(await readFile(ndjsonOf(outDir, again), "utf8")).toContain("Grad Zagrex");
  });

  it("with no previous NDJSON, a cut one, another file under its name, or an index that is none or another's: every chunk read, the same bytes", async () => {
    const plain = await siteDir();
    const rendered = await write(plain, chunksOf(LINES[0] as Buffer, RENAMED, THIRD), null, []);
    const expected = await files(plain, rendered);
    const damages: Record<string, (outDir: string, first: readonly Download[]) => Promise<void>> = {
      missing: (outDir, first) => rm(ndjsonOf(outDir, first)),
      cut: (outDir, first) => truncate(ndjsonOf(outDir, first), 100),
      // Another file of another size where the index's names it (a rebuild's of other records, a writer's by hand).
      replaced: (outDir, first) => writeFile(ndjsonOf(outDir, first), "{}\n"),
      "no index": (outDir) => writeFile(index(outDir), "{not json"),
      // The CSV's index in its place: the file it names is the CSV's, no NDJSON.
      "the CSV's index": async (outDir) => writeFile(index(outDir), await readFile(join(outDir, "..", "csv-chunks.json"))),
      "another writer's": async (outDir) => {
        const saved = JSON.parse(await readFile(index(outDir), "utf8")) as Record<string, unknown>;
        await writeFile(index(outDir), JSON.stringify({ ...saved, writer: "another" }));
      },
      // Offsets past the file's end: no index.
      "past the end": async (outDir) => {
        const saved = JSON.parse(await readFile(index(outDir), "utf8")) as { bytes: number; chunks: [string, number, number][] };
        (saved.chunks[0] as [string, number, number])[1] = saved.bytes;
        await writeFile(index(outDir), JSON.stringify(saved));
      },
    };
    for (const [name, damage] of Object.entries(damages)) {
      const outDir = await siteDir();
      const reads: number[] = [];
      const first = await write(outDir, lazy(reads, LINES[0] as Buffer, LINES[1] as Buffer, THIRD), ["a", "b", "c"], []);
      await damage(outDir, first);
      reads.length = 0;
      const edited = await write(outDir, lazy(reads, LINES[0] as Buffer, RENAMED, THIRD), ["a", "b2", "c"], first);
      expect(reads, name).toEqual([0, 1, 2]);
      expect(await files(outDir, edited), name).toEqual(expected);
    }
  });

  it("without the NDJSON download, every chunk is read (the list's hash needs them); with it alone, the unchanged ones are copied", async () => {
    const outDir = await siteDir();
    const reads: number[] = [];
    const only = async (formats: readonly DownloadFormat[], chunks: ReturnType<typeof lazy>, keep: readonly Download[]) => {
      const done = await writeDownloads({
        outDir,
        formats,
        chunks,
        date: () => Promise.resolve(new Date(0)),
        keep,
        unchanged: [],
        ndjsonChunks: { indexFile: index(outDir), hashes: ["a", "b", "c"] },
        csvChunks: { indexFile: join(outDir, "..", "csv-chunks.json"), hashes: ["a", "b", "c"] },
      });
      done.switchStableNames();
      return done;
    };
    const first = await only(["ndjson", "csv"], lazy(reads, LINES[0] as Buffer, LINES[1] as Buffer, THIRD), []);
    reads.length = 0;
    const csv = await only(["csv"], lazy(reads, LINES[0] as Buffer, LINES[1] as Buffer, THIRD), first.downloads);
    expect(reads).toEqual([0, 1, 2]);
    expect(csv.list).toEqual({ ...first.list, file: null });
    reads.length = 0;
    const ndjson = await only(["ndjson"], lazy(reads, LINES[0] as Buffer, LINES[1] as Buffer, THIRD), first.downloads);
    expect(reads).toEqual([]);
    expect(ndjson.list).toEqual(first.list);
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
      const outDir = await siteDir();
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
    const outDir = await siteDir();
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
