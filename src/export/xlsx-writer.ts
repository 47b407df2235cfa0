/**
 * The workbook written as its rows come: the sheet's XML deflated into the zip (xlsx-zip.ts) in
 * segments of a few hundred kilobytes, each on its own, so a records chunk's segment can be copied
 * from the previous workbook into the next. Every text is an inline string in its own cell, so no
 * shared-strings table grows with the list; the OIB, the code and the date are text cells with the
 * text style, the id a number, the flags booleans. Memory is a segment's XML and the file's buffer,
 * whatever the count (exceljs's streaming writer held 886 MB at a million rows).
 */
import { FIELD_NAMES } from "../data/rules/subject-fields.ts";
import { frameParts, SHEET_PATH, sheetHead, sheetTail, workbookPart } from "./xlsx-parts.ts";
import { rowXml } from "./xlsx-row.ts";
import { type DeflatedSegment, DEFLATE_LEVEL, deflateSegment, SYNC_FLUSH_MARK, ZipWriter, type ZipEntryStream } from "./xlsx-zip.ts";
import type { openZip } from "../data/sources/zip-entries.ts";

/** How much sheet XML (about) the export gathers into a segment (characters). */
const BATCH = 1 << 18;

/**
 * What deflates the segments: another zlib, or another level, may give other bytes for the same
 * rows (an earlier workbook's segments are then not copied, so a rebuild writes what a build from
 * scratch would).
 */
export const SEGMENT_WRITER = `zlib ${process.versions.zlib} level ${DEFLATE_LEVEL}`;

/** Rows (their cells as for `XlsxWriter.row`) from row `first` on, as one segment of the sheet (the export's, a batch at a time). */
function rowsSegment(first: number, rows: readonly (readonly unknown[])[]): Promise<DeflatedSegment> {
  return deflateSegment(rows.map((cells, i) => rowXml(first + i, cells)).join(""), false);
}

/** Could `bytes` be a segment of the sheet's rows (copied from an earlier workbook)? Ends in a sync flush, with the CRC and size stated. */
export function isRowsSegment(bytes: Uint8Array, crc: number | undefined, size: number | undefined): boolean {
  return (
    crc !== undefined &&
    size !== undefined &&
    crc <= 0xffffffff &&
    bytes.length >= SYNC_FLUSH_MARK.length &&
    Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).subarray(-SYNC_FLUSH_MARK.length).equals(SYNC_FLUSH_MARK)
  );
}

/**
 * A workbook of one sheet, written into `path`; every date in it `date`. The sheet is deflated in
 * segments (xlsx-zip.ts): its head, then rows given one at a time (`row`, the export's: a segment a
 * few hundred kilobytes of XML) or a records chunk's at once (`segment`, the downloads': one a chunk,
 * the same bytes wherever the chunk falls, so an edit copies the others from the previous workbook),
 * then its tail.
 */
export class XlsxWriter {
  readonly #zip: ZipWriter;
  readonly #ready: Promise<ZipEntryStream>;
  #rows = 0;
  #batch: (readonly unknown[])[] = [];
  #size = 0;

  /** `zip64From` lowers the size from which the zip's fields are zip64's (a test's: 4 GiB otherwise). */
  constructor(path: string, date: Date, zip64From?: number) {
    const zip = new ZipWriter(path, date, zip64From);
    this.#zip = zip;
    this.#ready = (async () => {
      for (const [name, text] of frameParts(date)) await zip.add(name, text);
      const sheet = zip.open(SHEET_PATH);
      await sheet.write(await deflateSegment(sheetHead() + rowXml(1, FIELD_NAMES), false));
      return sheet;
    })();
    // Awaited by the first flush or by end(); a failure before then is theirs to report.
    this.#ready.catch(() => undefined);
  }

  /** Adds a row of cells (texts already escaped); resolves when the zip can take more. */
  row(cells: readonly unknown[]): Promise<void> | void {
    this.#batch.push(cells);
    // A rough measure of the XML (the cells' characters), enough to bound a segment.
    for (const cell of cells) this.#size += typeof cell === "string" ? cell.length + 40 : 20;
    if (this.#size >= BATCH) return this.#flush();
  }

  async #flush(): Promise<void> {
    const rows = this.#batch;
    this.#batch = [];
    this.#size = 0;
    if (rows.length === 0) return;
    const first = this.#rows + 2;
    this.#rows += rows.length;
    await (await this.#ready).write(await rowsSegment(first, rows));
  }

  /** Where the next segment goes in the file (the rows given by `row` written first). */
  async offset(): Promise<number> {
    await this.#flush();
    await this.#ready;
    return this.#zip.offset;
  }

  /** Adds `rows` rows already deflated (a records chunk's, xlsx-from-json.ts, or its bytes copied from an earlier workbook). */
  async segment(segment: DeflatedSegment, rows: number): Promise<void> {
    await this.#flush();
    this.#rows += rows;
    await (await this.#ready).write(segment);
  }

  /** The last rows, the sheet's end, the workbook part, the central directory. */
  /** Finishes the workbook: its SHA-256 (hex) and size, taken as it was written. */
  async end(): Promise<{ sha256: string; bytes: number }> {
    await this.#flush();
    const sheet = await this.#ready;
    await sheet.write(await deflateSegment(sheetTail(this.#rows), true));
    await sheet.end();
    const [name, text] = workbookPart(this.#rows);
    await this.#zip.add(name, text);
    return this.#zip.end();
  }

  abort(): void {
    this.#zip.abort();
  }
}

/**
 * Is the workbook at `path` dated `date` (its docProps' modified)? With the same records, it is then
 * the workbook this writer would write again, so a rebuild of unchanged records may keep it.
 */
export async function isWorkbookDated(path: string, date: Date): Promise<boolean> {
  const [, core] = frameParts(date).find(([name]) => name === "docProps/core.xml") ?? ["", ""];
  let zip: Awaited<ReturnType<typeof openZip>>;
  try {
    // The zip reader is loaded only here: a first build, with no workbook to look at, does without it.
    zip = await (await import("../data/sources/zip-entries.ts")).openZip(path);
  } catch {
    // Not a zip that opens (damaged since, at its size): it is written again from the records.
    return false;
  }
  try {
    const stream = await zip.open("docProps/core.xml");
    if (stream === null) return false;
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8") === core;
  } finally {
    zip.close();
  }
}
