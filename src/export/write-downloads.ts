/**
 * Stage 5 of a build, written records -> downloads: the whole list (src/core/download-files.ts)
 * written from the records chunks in one pass. The NDJSON is the chunks' bytes as they are (each
 * record's bytes as in a page, one a line, in id order: the same bytes as the change feed's
 * snapshot), the CSV and the workbook the same records through the export's row writers. Each is streamed into a temporary
 * file while its SHA-256 is computed, so memory stays flat whatever the count; then renamed to its
 * content-named path and linked to its stable one (a rename: a reader gets the old file or the
 * new, never a part). An unchanged download is left as it was.
 */
import { link, mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import { createReadStream } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { contentNamedPath, type Download, type DownloadFormat, downloadPath, DOWNLOADS_DIR } from "../core/download-files.ts";
import type { ShardHashes } from "../core/layout.ts";
import type { Subject } from "../core/render-page.ts";
import { HashedWriter } from "../feed/hashed-writer.ts";
import { readManifestFile } from "../common/read-site-manifest.ts";
import { removeLeftovers } from "../common/remove-leftovers.ts";
import { CSV_HEADER, csvRow, type RowWriter, xlsxWriter } from "./row-writers.ts";
import { isWorkbookDated } from "./xlsx-writer.ts";

export interface DownloadsInput {
  /** The site's directory. */
  readonly outDir: string;
  readonly formats: readonly DownloadFormat[];
  /** The records as whole lines: each chunk ends at a line's end. */
  chunks(): AsyncIterable<Uint8Array>;
  /** The data's date, written into the workbook so that the same data gives the same bytes. */
  readonly date: Date;
  /** Content-named files to keep besides the new ones (the previous build's: a reader may be fetching them). */
  readonly keep: readonly Download[];
  /**
   * The previous build's downloads when its records were these very bytes (none otherwise): an
   * NDJSON or CSV whose file is still whole is taken as it is, not written again (an unchanged
   * rebuild at 1M spent seconds rewriting and hashing them); the workbook too when it carries the
   * same data's date.
   */
  readonly unchanged: readonly Download[];
}

/** The formats whose bytes are the records' alone. */
const RECORDS_ONLY: ReadonlySet<DownloadFormat> = new Set(["ndjson", "csv"]);

const NEWLINE = 0x0a;

/** A download on its way: its bytes taken a chunk at a time. */
interface Sink {
  take(chunk: Uint8Array, lines: () => readonly Subject[]): Promise<void>;
  /** Its SHA-256 and size once it is complete on disk. */
  end(): Promise<{ sha256: string; bytes: number }>;
  abort(): void;
}

/** NDJSON and CSV: bytes handed to a HashedWriter, flushed a block at a time. */
function hashedSink(path: string, head: string, render: (chunk: Uint8Array, lines: () => readonly Subject[]) => Uint8Array): Sink {
  const out = new HashedWriter(path);
  if (head !== "") out.add(Buffer.from(head, "utf8"));
  return {
    async take(chunk, lines) {
      out.add(render(chunk, lines));
      if (out.full) await out.flush();
    },
    async end() {
      const sha256 = await out.end();
      return { sha256, bytes: out.bytes };
    },
    abort: () => void out.destroy(),
  };
}

/** The workbook: streamed row by row into its zip (xlsx-writer.ts), hashed once written (it is compressed: a fraction of the CSV). */
function workbookSink(path: string, date: Date): Sink {
  const rows: RowWriter = xlsxWriter(path, date);
  return {
    async take(_chunk, lines) {
      for (const subject of lines()) await rows.row(subject);
    },
    async end() {
      await rows.end();
      return hashFile(path);
    },
    abort: () => rows.abort(),
  };
}

async function hashFile(path: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { sha256: hash.digest("hex"), bytes };
}

/** The records of a chunk of whole lines, parsed. */
function parseLines(chunk: Uint8Array): Subject[] {
  const subjects: Subject[] = [];
  const text = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  let start = 0;
  for (let end = text.indexOf(NEWLINE); end >= 0; start = end + 1, end = text.indexOf(NEWLINE, start)) {
    subjects.push(JSON.parse(text.toString("utf8", start, end)) as Subject);
  }
  if (start < text.length) subjects.push(JSON.parse(text.toString("utf8", start)) as Subject);
  return subjects;
}

function sinkOf(format: DownloadFormat, path: string, date: Date): Sink {
  switch (format) {
    case "ndjson":
      return hashedSink(path, "", (chunk) => chunk);
    case "csv":
      return hashedSink(path, CSV_HEADER, (_chunk, lines) => Buffer.from(lines().map(csvRow).join(""), "utf8"));
    case "xlsx":
      return workbookSink(path, date);
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

/** Writes the downloads; what each is (its paths, size and hash), in the order of `formats`. */
export async function writeDownloads(input: DownloadsInput): Promise<Download[]> {
  const dir = join(input.outDir, DOWNLOADS_DIR);
  await mkdir(dir, { recursive: true });
  await removeLeftovers(dir);
  if (input.formats.length === 0) {
    await prune(dir, input.keep, []);
    return [];
  }
  const temp = (format: DownloadFormat): string => join(dir, `${format}.tmp-${process.pid}`);
  // The downloads taken as they are, by format; those written join them below.
  const ready = new Map<DownloadFormat, Download>();
  for (const d of input.unchanged) {
    if (!input.formats.includes(d.format) || !(await isWhole(input.outDir, d))) continue;
    // The workbook also carries the data's date: kept when it is the same (an unchanged rebuild at 1M wrote it again for seconds).
    if (RECORDS_ONLY.has(d.format) || (d.format === "xlsx" && (await isWorkbookDated(fileOf(input.outDir, d.immutablePath), input.date))))
      ready.set(d.format, d);
  }
  const formats = input.formats.filter((format) => !ready.has(format));
  const sinks = formats.map((format) => sinkOf(format, temp(format), input.date));
  try {
    if (formats.length > 0) {
      for await (const chunk of input.chunks()) {
        let parsed: Subject[] | undefined;
        const lines = (): Subject[] => (parsed ??= parseLines(chunk));
        for (const sink of sinks) await sink.take(chunk, lines);
      }
    }
    for (const [i, format] of formats.entries()) {
      const { sha256, bytes } = await (sinks[i] as Sink).end();
      ready.set(format, { format, path: downloadPath(format), immutablePath: contentNamedPath(format, sha256), bytes, sha256 });
    }
    const downloads: Download[] = [];
    for (const format of input.formats) {
      const download = ready.get(format) as Download;
      await publish(input.outDir, temp(format), download);
      downloads.push(download);
    }
    await prune(dir, input.keep, downloads);
    return downloads;
  } catch (error) {
    for (const sink of sinks) sink.abort();
    throw error;
  } finally {
    for (const format of input.formats) await rm(temp(format), { force: true });
  }
}

/** Is the download's content-named file there with its size? (One cut short or removed is written again.) */
async function isWhole(outDir: string, download: Download): Promise<boolean> {
  try {
    const file = await stat(fileOf(outDir, download.immutablePath));
    return file.isFile() && file.size === download.bytes;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

/** The new bytes at their content name (unless already there), then linked over the stable name. */
async function publish(outDir: string, temp: string, download: Download): Promise<void> {
  const named = fileOf(outDir, download.immutablePath);
  const stable = fileOf(outDir, download.path);
  // Already there whole (the same bytes, by their name): kept; cut short or missing: the new bytes take its place.
  if (await isWhole(outDir, download)) await rm(temp, { force: true });
  else await rename(temp, named);
  // The stable name already the same file (an unchanged build): nothing to do.
  const [a, b] = await Promise.all([stat(named), stat(stable).catch(() => null)]);
  if (b !== null && a.ino === b.ino && a.dev === b.dev) return;
  const linkTemp = `${stable}.tmp-${process.pid}`;
  await rm(linkTemp, { force: true });
  await link(named, linkTemp);
  await rename(linkTemp, stable);
}

/** Removes content-named downloads that neither this build nor the previous one names, and stable files of formats no longer written. */
async function prune(dir: string, keep: readonly Download[], downloads: readonly Download[]): Promise<void> {
  const names = new Set([...keep, ...downloads].map((d) => d.immutablePath.split("/").pop()));
  for (const d of downloads) names.add(d.path.split("/").pop());
  for (const name of await readdir(dir)) {
    if (!names.has(name)) await rm(join(dir, name), { force: true });
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
