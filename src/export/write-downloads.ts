/**
 * Stage 5 of a build, written records -> downloads: the whole list (src/core/download-files.ts)
 * written from the records chunks. The NDJSON is the chunks' bytes as they are (each record's bytes
 * as in a page, one a line, in id order: the same bytes as the change feed's snapshot, and their
 * SHA-256 the feed's version, taken here once for both), the CSV and the workbook's sheet the rows
 * the export's row writers give, made from the records' bytes (csv-from-json.ts, xlsx-from-json.ts;
 * the CSV's rows and the workbook's deflated segment of an unchanged chunk copied from the previous
 * file: download-chunks.ts). Each is streamed into a temporary file while its SHA-256 is computed, so
 * memory stays flat whatever the count; then renamed to its content-named path. The stable names are
 * not touched here: each waits as a hard link under a temporary name, and the site's switch renames
 * them right after the manifest (write-site.ts), so a build that fails or is stopped before the
 * switch leaves them the old manifest's bytes. An unchanged download is left as it was.
 */
import { link, mkdir, rename, rm, stat } from "node:fs/promises";
import { readdirSync, renameSync, rmSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import {
  contentNamedPath,
  type Download,
  DOWNLOAD_FORMATS,
  type DownloadFormat,
  downloadPath,
  DOWNLOADS_DIR,
} from "../core/download-files.ts";
import type { ShardHashes } from "../core/layout.ts";
import { HashedWriter } from "../feed/hashed-writer.ts";
import { readManifestFile } from "../common/read-site-manifest.ts";
import { cleanUpOnInterrupt } from "../common/interrupt-cleanup.ts";
import { removeLeftovers, writerOf } from "../common/remove-leftovers.ts";
import { type ChunkBytes, DownloadChunks, type ChunksInput } from "./download-chunks.ts";
import { csvRowsOf } from "./csv-from-json.ts";
import { CSV_HEADER } from "./csv-row.ts";
import { type ChunkRecords, chunkRecords, Scratch } from "./rows-from-json.ts";
import { xlsxRowsOf } from "./xlsx-from-json.ts";
import { isRowsSegment, isWorkbookDated, SEGMENT_WRITER, XlsxWriter } from "./xlsx-writer.ts";
import { crc32Combine } from "./crc32-combine.ts";
import { type DeflatedSegment, deflateSegment } from "./xlsx-zip.ts";
import { isErrno } from "../common/machine-error.ts";

export interface DownloadsInput {
  /** The site's directory. */
  readonly outDir: string;
  readonly formats: readonly DownloadFormat[];
  /**
   * The records as whole lines: each chunk ends at a line's end. A chunk's bytes need last only
   * until the next is asked for (each sink takes, or copies, a chunk before the next): the build
   * reads every chunk into one buffer. `wanted` (when given) names the chunks whose bytes the pass
   * needs (a sink renders it, or no sink copies it): any other may come unread, its bytes read only
   * if asked for (a copy that will not do), so that an edit reads one chunk file, not every one.
   */
  chunks(wanted?: (index: number) => boolean): AsyncIterable<Uint8Array | UnreadChunk>;
  /**
   * The data's date, written into the workbook so that the same data gives the same bytes: asked
   * once the list's hash is known (it is the previous feed's date while the list is its version).
   */
  date(listSha256: string): Promise<Date>;
  /**
   * The data's date as the caller expects the list's hash to give it (the sources' when the list is
   * new, the previous feed's when it is not): the workbook is then written in the records' one pass
   * with the NDJSON and CSV, not in a second pass over every chunk (1.4 GB read again at five million
   * subjects; at a million, an edit's 1,000 chunk files opened and read again). Checked against
   * `date` once the list's hash is known: a workbook of another date is written again in a second pass.
   */
  readonly expectedDate?: Date;
  /** Content-named files to keep besides the new ones (the previous build's: a reader may be fetching them). */
  readonly keep: readonly Download[];
  /**
   * The previous build's downloads when its records were these very bytes (none otherwise): an
   * NDJSON or CSV whose file is still whole is taken as it is, not written again (an unchanged
   * rebuild at 1M spent seconds rewriting and hashing them); the workbook too when it carries the
   * same data's date.
   */
  readonly unchanged: readonly Download[];
  /**
   * Where the NDJSON's bytes are found by chunk (download-chunks.ts), and each chunk's content hash
   * in order: a chunk whose hash the previous NDJSON holds is copied from it (a few large reads of
   * one file), its chunk file not read, unless another format must render it. Absent: every chunk read.
   */
  readonly ndjsonChunks?: ChunksInput;
  /**
   * Where the CSV's rows are found by chunk (download-chunks.ts), and each chunk's content hash in
   * order: a chunk whose hash the previous CSV holds is copied from it, not parsed and rendered
   * again, so an edit renders one chunk. Absent: every chunk rendered (`--no-cache`).
   */
  readonly csvChunks?: ChunksInput;
  /** The same for the workbook's sheet: each chunk's rows one deflated segment, copied from the previous workbook. */
  readonly xlsxChunks?: ChunksInput;
}

/** A chunk the pass did not want (DownloadsInput.chunks): its bytes read on asking, lasting until the next chunk is asked for. */
export interface UnreadChunk {
  read(): Promise<Uint8Array>;
}

/** Passes over the records' chunks (for the tests: an edit's build makes one). */
export const recordPasses = { count: 0 };

/** Chunks whose bytes the passes took from the records (read from their files, in a build): for the tests, an edit's few. */
export const chunksRead = { count: 0 };

/**
 * What deflates a rendered chunk of the workbook's sheet (xlsx-zip.ts), for the tests: one holds a
 * deflate back to see that its rows' buffer is not written again before it has read them.
 */
export const workbookDeflate = { segment: deflateSegment };

/** The formats whose bytes are the records' alone. */
const RECORDS_ONLY: ReadonlySet<DownloadFormat> = new Set(["ndjson", "csv"]);

const NEWLINE = 0x0a;

/**
 * A chunk as the sinks take it: its bytes, read already or read on the first asking, and its records
 * (rows-from-json.ts), found on the first format's asking and read by the others': the CSV's rows and
 * the workbook's are made from the one pass over the chunk's bytes.
 */
class PassChunk {
  readonly index: number;
  #bytes: Uint8Array | UnreadChunk;
  #records: ChunkRecords | undefined;

  constructor(index: number, bytes: Uint8Array | UnreadChunk) {
    this.index = index;
    this.#bytes = bytes;
    if (bytes instanceof Uint8Array) chunksRead.count++;
  }

  /** The bytes when they were read already (none read for asking). */
  get read(): Uint8Array | null {
    return this.#bytes instanceof Uint8Array ? this.#bytes : null;
  }

  async bytes(): Promise<Uint8Array> {
    if (!(this.#bytes instanceof Uint8Array)) {
      this.#bytes = await this.#bytes.read();
      chunksRead.count++;
    }
    return this.#bytes;
  }

  async records(): Promise<ChunkRecords> {
    return (this.#records ??= chunkRecords(await this.bytes()));
  }
}

/** A download on its way: its bytes taken a chunk at a time. */
interface Sink {
  take(chunk: PassChunk): Promise<void>;
  /** Its SHA-256 and size once it is complete on disk. */
  end(): Promise<{ sha256: string; bytes: number }>;
  abort(): void;
}

type Render = (chunk: PassChunk) => Uint8Array | Promise<Uint8Array>;

/** NDJSON and CSV: bytes handed to a HashedWriter, flushed a block at a time. */
function hashedSink(path: string, head: string, render: Render): Sink {
  const out = new HashedWriter(path);
  if (head !== "") out.add(Buffer.from(head, "utf8"));
  return {
    async take(chunk) {
      out.add(await render(chunk));
      if (out.full) await out.flush();
    },
    async end() {
      const sha256 = await out.end();
      return { sha256, bytes: out.bytes };
    },
    abort: () => void out.destroy(),
  };
}

/**
 * How the workbook's sink gathers copied segments, for the tests: `bytes` gathered into one write (a
 * write a segment was some 1,000 calls of the thread pool at 1M), lowered by a test so that a few
 * chunks fill several gatherings; `write` puts a segment into the workbook, held back by a test to
 * see that a gathering's buffer is not filled again before its bytes are written.
 */
export const workbookGathering = {
  bytes: 1 << 20,
  write: (workbook: XlsxWriter, segment: DeflatedSegment, rows: number): Promise<void> => workbook.segment(segment, rows),
};

/** A segment on its way into the workbook; `written`, once it is (a gathering's buffer is then free again). */
interface Taken {
  readonly segment: DeflatedSegment;
  readonly rows: number;
  readonly written?: () => void;
}

/**
 * Deflated segments end to end, their CRC-32 combined and sizes summed (xlsx-zip.ts), as one segment
 * of so many rows. Gathered in buffers kept for the whole file: one is handed back once its bytes are
 * written, and filled again. A fresh megabyte a gathering (83 of them at 1M) was fresh memory for the
 * kernel to hand out and then to read from, on a machine where a new page costs ten times a page used
 * again (BENCHMARKS.md: "the machine's price for new memory").
 */
class Gathered {
  #bytes: Buffer | null = null;
  /** Buffers whose bytes are written: filled again (two at most are in use: the one filling, the one being written). */
  readonly #free: Buffer[] = [];
  #length = 0;
  #crc = 0;
  #size = 0;
  #rows = 0;

  /** Adds a segment (its bytes copied); false when they do not fit (`take` the gathered first). */
  add({ bytes, crc, size }: DeflatedSegment, rows: number): boolean {
    if (this.#bytes === null) {
      const free = this.#free.pop();
      this.#bytes =
        free !== undefined && free.length >= bytes.length ? free : Buffer.allocUnsafeSlow(Math.max(workbookGathering.bytes, bytes.length));
    }
    if (this.#length + bytes.length > this.#bytes.length) return false;
    this.#bytes.set(bytes, this.#length);
    this.#length += bytes.length;
    this.#crc = crc32Combine(this.#crc, crc, size);
    this.#size += size;
    this.#rows += rows;
    return true;
  }

  /**
   * The segments gathered, as one, in their buffer until `written` is called (once the workbook has
   * written them: the next gathering fills another); none when there are none.
   */
  take(): Taken | null {
    const buffer = this.#bytes;
    if (buffer === null || this.#length === 0) return null;
    const written = (): void => void (this.#free.length < 2 && this.#free.push(buffer));
    const taken = { segment: { bytes: buffer.subarray(0, this.#length), crc: this.#crc, size: this.#size }, rows: this.#rows, written };
    [this.#bytes, this.#length, this.#crc, this.#size, this.#rows] = [null, 0, 0, 0, 0];
    return taken;
  }
}

/**
 * The workbook: a chunk's rows (made from its bytes: xlsx-from-json.ts) one deflated segment of its
 * sheet (xlsx-writer.ts), copied from the previous workbook when it holds that chunk; hashed as it
 * is written. A rendered chunk's segment is deflated in zlib's thread pool while the records' next
 * chunk is taken (its NDJSON, its CSV's rows and its own rows made on the main thread), and written
 * when the next one is taken: the main thread sat idle through each deflate (most of the 5 s it
 * sat idle in the stage at 1M). Copied segments are gathered, a megabyte at a time, and written
 * the same way.
 */
function workbookSink(path: string, date: Date, byChunk: DownloadChunks | null): Sink {
  const workbook = new XlsxWriter(path, date);
  // A chunk's rows are read by its deflate until the next chunk's are made: two buffers in turn, each
  // written again only once the deflate that reads it is done (a copied chunk between two rendered
  // ones awaits no deflate: the third chunk's rows overwrote the first's while it was deflated).
  const scratch = [new Scratch(), new Scratch()] as const;
  const reading: [Promise<unknown>, Promise<unknown>] = [Promise.resolve(), Promise.resolve()];
  // The rows taken so far (the header is row 1).
  let rows = 0;
  // The last segment taken, written into the file once ready (after the segments before it).
  let written: Promise<void> = Promise.resolve();
  // Has the index learnt where the first segment goes (the zip's head before it)? The others lie end to end after it.
  let placed = false;
  const gathered = new Gathered();
  /** Writes the segment once ready, after those before it: the previous segment's write, for the caller to await. */
  const write = (segment: Promise<Taken>): Promise<void> => {
    // Awaited in the chain below; one failing before then must not be unhandled meanwhile.
    segment.catch(() => undefined);
    const previous = written;
    written = (async () => {
      await previous;
      const ready = await segment;
      // Resolved once the file's stream has written the bytes (xlsx-zip.ts): a gathering's buffer is free then.
      await workbookGathering.write(workbook, ready.segment, ready.rows);
      ready.written?.();
    })();
    // Awaited by the next take or by end(); a failure of the pass before then is its own to report.
    written.catch(() => undefined);
    return previous;
  };
  /** The copied segments gathered so far, into the file (after those before them). */
  const writeGathered = (): Promise<void> => {
    const taken = gathered.take();
    return taken === null ? written : write(Promise.resolve(taken));
  };
  const segmentOf = ({ bytes, extra }: ChunkBytes): Taken => {
    const [crc, size, count] = extra as [number, number, number];
    return { segment: { bytes, crc, size }, rows: count };
  };
  return {
    async take(chunk) {
      const first = rows + 2;
      // The rows made now, while the chunk's bytes last (once the deflate of the last chunk rendered in the same buffer is
      // done: `reading`, not the previous take, which awaits no deflate when that chunk was copied); deflated meanwhile.
      const render = async (): Promise<{ count: number; deflated: Promise<ChunkBytes> }> => {
        const turn = chunk.index % 2;
        await reading[turn];
        // Its records' lines, as the rows' one walk of the chunk found them (linesOf's walk would count the same).
        const records = await chunk.records();
        const { count } = records;
        const xml = xlsxRowsOf(records, first, scratch[turn] as Scratch);
        const deflated = workbookDeflate.segment(xml, false).then(({ bytes, crc, size }) => ({ bytes, extra: [crc, size, count, first] }));
        reading[turn] = deflated.catch(() => undefined);
        return { count, deflated };
      };
      if (byChunk !== null && !placed) {
        byChunk.moveTo(await workbook.offset());
        placed = true;
      }
      if (byChunk !== null && byChunk.holds(chunk.index)) {
        // Copied from the previous workbook, its count of rows the index's (as its CRC and size), rendered if the copy will not do.
        // Its rows carry their numbers: copied only where the chunk begins at the same row (an edit's every chunk does).
        const read = chunk.read;
        const usable = ({ bytes, extra }: ChunkBytes): boolean =>
          extra[3] === first &&
          Number.isSafeInteger(extra[2]) &&
          (read === null || extra[2] === linesOf(read)) &&
          isRowsSegment(bytes, extra[0], extra[1]);
        const copied = segmentOf(await byChunk.take(chunk.index, async () => (await render()).deflated, usable));
        rows += copied.rows;
        // Gathered (its bytes copied: they last until the next take); a segment that does not fit after those gathered, alone.
        if (gathered.add(copied.segment, copied.rows)) return;
        await writeGathered();
        if (!gathered.add(copied.segment, copied.rows)) throw new Error("a segment did not fit an empty gathering");
        return;
      }
      const { count, deflated } = await render();
      rows += count;
      // After the copies gathered before it; into the index once deflated (by the chunk's place, whatever is taken meanwhile).
      void writeGathered();
      await write((byChunk === null ? deflated : byChunk.take(chunk.index, () => deflated)).then(segmentOf));
    },
    // Hashed as it is written (xlsx-zip.ts), not read back: some 420 MB read again at five million subjects.
    async end() {
      await writeGathered();
      await written;
      return workbook.end();
    },
    abort: () => workbook.abort(),
  };
}

/** How many records a chunk of whole lines holds (the last line may lack its newline). */
function linesOf(chunk: Uint8Array): number {
  const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  let lines = 0;
  for (let at = bytes.indexOf(NEWLINE); at >= 0; at = bytes.indexOf(NEWLINE, at + 1)) lines++;
  return bytes.length > 0 && bytes[bytes.length - 1] !== NEWLINE ? lines + 1 : lines;
}

function sinkOf(format: DownloadFormat, path: string, date: Date, byChunk: ReadonlyMap<DownloadFormat, DownloadChunks>): Sink {
  switch (format) {
    case "ndjson": {
      const ndjson = byChunk.get("ndjson") ?? null;
      // The chunk's bytes when read (for another format), else copied from the previous NDJSON (read if the copy will not do).
      return hashedSink(path, "", async (chunk) => {
        const { read } = chunk;
        if (ndjson === null) return chunk.bytes();
        if (read !== null) {
          ndjson.put(chunk.index, read);
          return read;
        }
        return (await ndjson.take(chunk.index, async () => ({ bytes: await chunk.bytes(), extra: [] }))).bytes;
      });
    }
    case "csv": {
      const csv = byChunk.get("csv") ?? null;
      // Rows made from the records' bytes, not from parsed records (csv-from-json.ts): the same bytes, several times faster.
      // Made in one buffer kept for the whole file: the writer copies them.
      const scratch = new Scratch();
      const render = async (chunk: PassChunk): Promise<Uint8Array> => csvRowsOf(await chunk.records(), scratch);
      return hashedSink(path, CSV_HEADER, (chunk) => (csv === null ? render(chunk) : csv.rows(chunk.index, () => render(chunk))));
    }
    case "xlsx":
      return workbookSink(path, date, byChunk.get("xlsx") ?? null);
    default: {
      const never: never = format;
      throw new Error(`no writer for ${String(never)}`);
    }
  }
}

/** The file of a public path, in `outDir`. */
function fileOf(outDir: string, path: string): string {
  return join(outDir, ...path.split("/").filter((part) => part !== ""));
}

/** The whole list's NDJSON (each record's bytes as in a page, one a line): the change feed's version and snapshot are these bytes. */
export interface ListBytes {
  /** The SHA-256 of the bytes, hex: the change feed's version. */
  readonly sha256: string;
  readonly bytes: number;
  /** The content-named NDJSON download holding them, when the build writes one (the feed's snapshot is linked to it). */
  readonly file: string | null;
}

/** What the downloads stage hands on: the downloads, the list's hash, and the stable names waiting for the site's switch. */
export interface WrittenDownloads {
  readonly downloads: readonly Download[];
  readonly list: ListBytes;
  /** The data's date the workbook was written with. */
  readonly date: Date;
  /**
   * Puts the stable names in place: synchronous renames of hard links made beforehand, called by the
   * site's switch right after the manifest's rename, so that no signal handler runs between the two.
   * Then removes the content-named downloads neither this build nor the previous one names: after
   * the switch, so that a build failing before it leaves the site's files as they were.
   */
  switchStableNames(): void;
  /** A failed build: removes the stable names' temporaries and the content-named files this build added. */
  discard(): Promise<void>;
}

/** Writes the downloads under their content names; the stable names wait for `switchStableNames` (see above). */
export async function writeDownloads(input: DownloadsInput): Promise<WrittenDownloads> {
  const dir = join(input.outDir, DOWNLOADS_DIR);
  await mkdir(dir, { recursive: true });
  await removeLeftovers(dir);
  const temp = (format: DownloadFormat): string => join(dir, `${format}.tmp-${process.pid}`);
  // The downloads taken as they are, by format; those written join them below.
  const ready = new Map<DownloadFormat, Download>();
  for (const d of input.unchanged) {
    if (RECORDS_ONLY.has(d.format) && input.formats.includes(d.format) && (await isWhole(input.outDir, d))) ready.set(d.format, d);
  }
  const unchangedList = input.unchanged.find((d) => d.format === "ndjson");
  // Pass 1: the formats made of the records alone, and the list's hash (once, whatever is written).
  const first = input.formats.filter((format) => RECORDS_ONLY.has(format) && !ready.has(format));
  const knownList = unchangedList !== undefined && (await isWhole(input.outDir, unchangedList)) ? unchangedList : undefined;
  const added: string[] = [];
  const forget = cleanUpOnInterrupt(() => {
    for (const path of added) rmSync(path, { force: true });
  });
  try {
    let list: ListBytes;
    const firstPass = first.length > 0 || knownList === undefined;
    // The workbook in that pass too when its date is expected (and no unchanged workbook might be kept instead).
    const { expectedDate } = input;
    const early =
      firstPass && expectedDate !== undefined && input.formats.includes("xlsx") && !input.unchanged.some((d) => d.format === "xlsx")
        ? expectedDate
        : null;
    if (firstPass) {
      const listSink = first.includes("ndjson") ? null : listHash();
      const written = await writeSinks(input, early === null ? first : [...first, "xlsx"], temp, listSink, early ?? undefined);
      for (const [format, { sha256, bytes }] of written) ready.set(format, downloadOf(format, sha256, bytes));
      const ndjson = written.get("ndjson") ?? (await (listSink as Sink).end());
      list = { sha256: ndjson.sha256, bytes: ndjson.bytes, file: null };
    } else {
      list = { sha256: knownList.sha256, bytes: knownList.bytes, file: null };
    }
    // Pass 2: the workbook, which carries the data's date (known once the list's hash is), unless pass 1 wrote it.
    const date = await input.date(list.sha256);
    // Written early with another date than the list's (the caller expected another): written again below.
    if (early !== null && early.getTime() !== date.getTime()) ready.delete("xlsx");
    // The workbook also carries the data's date: kept when it is the same (an unchanged rebuild at 1M wrote it again for seconds).
    const workbook = input.unchanged.find((d) => d.format === "xlsx" && input.formats.includes("xlsx"));
    if (
      workbook !== undefined &&
      (await isWhole(input.outDir, workbook)) &&
      (await isWorkbookDated(fileOf(input.outDir, workbook.immutablePath), date))
    )
      ready.set("xlsx", workbook);
    const rest = input.formats.filter((format) => !RECORDS_ONLY.has(format) && !ready.has(format));
    const second = await writeSinks(input, rest, temp, null, date);
    for (const [format, { sha256, bytes }] of second) ready.set(format, downloadOf(format, sha256, bytes));
    const downloads = input.formats.map((format) => ready.get(format) as Download);
    for (const download of downloads) {
      const named = fileOf(input.outDir, download.immutablePath);
      // Already there whole (the same bytes, by their name): kept; cut short or missing: the new bytes take its place.
      if (await isWhole(input.outDir, download)) continue;
      added.push(named);
      await rename(temp(download.format), named);
    }
    const ndjson = downloads.find((d) => d.format === "ndjson");
    if (ndjson !== undefined) list = { ...list, file: fileOf(input.outDir, ndjson.immutablePath) };
    const stable = await stableLinks(input.outDir, downloads, added, () => prune(dir, input.keep, downloads));
    forget();
    return { downloads, list, date, ...stable };
  } catch (error) {
    forget();
    await removeAll(added);
    throw error;
  } finally {
    for (const format of input.formats) await rm(temp(format), { force: true });
  }
}

function downloadOf(format: DownloadFormat, sha256: string, bytes: number): Download {
  return { format, path: downloadPath(format), immutablePath: contentNamedPath(format, sha256), bytes, sha256 };
}

async function removeAll(paths: readonly string[]): Promise<void> {
  for (const path of paths) await rm(path, { force: true });
}

/** A sink that only hashes: the list's NDJSON when no NDJSON download is written. */
function listHash(): Sink {
  const hash = createHash("sha256");
  let bytes = 0;
  return {
    async take(chunk) {
      const read = await chunk.bytes();
      hash.update(read);
      bytes += read.length;
    },
    end: () => Promise.resolve({ sha256: hash.digest("hex"), bytes }),
    abort: () => undefined,
  };
}

/**
 * Streams the records once through a sink a format (and `extra`, when given): each format's SHA-256
 * and size. `date` is the workbook's (the formats of the records alone carry none).
 */
async function writeSinks(
  input: DownloadsInput,
  formats: readonly DownloadFormat[],
  temp: (format: DownloadFormat) => string,
  extra: Sink | null,
  date: Date = new Date(0),
): Promise<Map<DownloadFormat, { sha256: string; bytes: number }>> {
  const done = new Map<DownloadFormat, { sha256: string; bytes: number }>();
  if (formats.length === 0 && extra === null) return done;
  const byChunk = new Map<DownloadFormat, DownloadChunks>();
  if (formats.includes("ndjson") && input.ndjsonChunks !== undefined)
    byChunk.set("ndjson", await DownloadChunks.open(input.outDir, "ndjson", input.ndjsonChunks));
  if (formats.includes("csv") && input.csvChunks !== undefined)
    byChunk.set("csv", await DownloadChunks.open(input.outDir, "csv", input.csvChunks, Buffer.byteLength(CSV_HEADER, "utf8")));
  // The workbook's first segment's offset is known as its zip is written (the sink moves the index there).
  if (formats.includes("xlsx") && input.xlsxChunks !== undefined)
    byChunk.set("xlsx", await DownloadChunks.open(input.outDir, "xlsx", input.xlsxChunks, 0, SEGMENT_WRITER));
  // A chunk's bytes are read when a format must render it, or when none copies it (the list's hash alone needs it).
  const held = (format: DownloadFormat, index: number): boolean => byChunk.get(format)?.holds(index) === true;
  const wanted = (index: number): boolean => extra !== null || formats.some((format) => !held(format, index));
  // Copied: the NDJSON's chunks not read; every chunk the CSV's and the workbook's hold (cheaper than rendering it).
  byChunk.get("ndjson")?.plan((index) => !wanted(index));
  byChunk.get("csv")?.plan(() => true);
  byChunk.get("xlsx")?.plan(() => true);
  const sinks = formats.map((format) => sinkOf(format, temp(format), date, byChunk));
  const all = extra === null ? sinks : [...sinks, extra];
  try {
    let index = 0;
    recordPasses.count++;
    for await (const bytes of input.chunks(wanted)) {
      const chunk = new PassChunk(index, bytes);
      for (const sink of all) await sink.take(chunk);
      index++;
    }
    for (const [i, format] of formats.entries()) done.set(format, await (sinks[i] as Sink).end());
    for (const [format, chunks] of byChunk) {
      const written = done.get(format);
      if (written !== undefined) await chunks.save(written.sha256, written.bytes);
    }
    return done;
  } catch (error) {
    for (const sink of all) sink.abort();
    throw error;
  } finally {
    for (const chunks of byChunk.values()) await chunks.close();
  }
}

/**
 * Each stable name as a hard link to its content-named file, under a temporary name beside it
 * (none when it is that file already): renamed over the stable name by the switch, removed by
 * discard with the content-named files this build `added`. A signal before the switch removes them too.
 * `prune` runs after the switch.
 */
async function stableLinks(
  outDir: string,
  downloads: readonly Download[],
  added: readonly string[],
  prune: () => void,
): Promise<Pick<WrittenDownloads, "switchStableNames" | "discard">> {
  const pending: [string, string][] = [];
  for (const download of downloads) {
    const [named, stable] = [fileOf(outDir, download.immutablePath), fileOf(outDir, download.path)];
    const [a, b] = await Promise.all([stat(named), stat(stable).catch(() => null)]);
    // The stable name already the same file (an unchanged build): nothing to switch.
    if (b !== null && a.ino === b.ino && a.dev === b.dev) continue;
    const linkTemp = `${stable}.tmp-${process.pid}`;
    await rm(linkTemp, { force: true });
    await link(named, linkTemp);
    pending.push([linkTemp, stable]);
  }
  // A format no longer written: its stable name goes with the switch (the old manifest still names it).
  const written = new Set(downloads.map((d) => d.format));
  const dropped = DOWNLOAD_FORMATS.filter((format) => !written.has(format)).map((format) => fileOf(outDir, downloadPath(format)));
  // Not switched to: the links and the content-named files this build added (no manifest names them).
  const removeTemps = (): void => {
    for (const [linkTemp] of pending.splice(0)) rmSync(linkTemp, { force: true });
    for (const path of added) rmSync(path, { force: true });
  };
  const forget = cleanUpOnInterrupt(removeTemps);
  let switched = false;
  return {
    switchStableNames() {
      forget();
      switched = true;
      for (const [linkTemp, stable] of pending.splice(0)) renameSync(linkTemp, stable);
      for (const stable of dropped) rmSync(stable, { force: true });
      prune();
    },
    async discard() {
      forget();
      // After the switch the new manifest names them: a later stage's failure leaves them.
      if (!switched) removeTemps();
    },
  };
}

/** Is the download's content-named file there with its size? (One cut short or removed is written again.) */
async function isWhole(outDir: string, download: Download): Promise<boolean> {
  try {
    const file = await stat(fileOf(outDir, download.immutablePath));
    return file.isFile() && file.size === download.bytes;
  } catch (error) {
    if (isErrno(error, "ENOENT")) return false;
    throw error;
  }
}

/**
 * Removes content-named downloads that neither this build nor the previous one names. Every stable
 * name stays (the switch replaces or removes them), and so do temporaries (a live build's, or this one's).
 */
function prune(dir: string, keep: readonly Download[], downloads: readonly Download[]): void {
  const names = new Set([...keep, ...downloads].map((d) => d.immutablePath.split("/").pop()));
  for (const format of DOWNLOAD_FORMATS) names.add(downloadPath(format).split("/").pop());
  for (const name of readdirSync(dir)) {
    if (!names.has(name) && writerOf(name) === null) rmSync(join(dir, name), { force: true });
  }
}

/** The downloads the site in `outDir` names now (its manifest's, of any version), and its shard directories; none of either when there is none. */
export async function previousDownloads(outDir: string): Promise<{ readonly downloads: readonly Download[]; readonly dirs: ShardHashes }> {
  // No previous site, or a manifest that is no JSON: nothing of it to keep.
  const { json } = await readManifestFile(outDir);
  const manifest = typeof json === "object" && json !== null ? (json as { downloads?: unknown; dirs?: unknown }) : {};
  const dirs = typeof manifest.dirs === "object" && manifest.dirs !== null ? (manifest.dirs as ShardHashes) : {};
  return { downloads: Array.isArray(manifest.downloads) ? (manifest.downloads as Download[]) : [], dirs };
}
