/**
 * A download's bytes by records chunk, so that an edit renders one chunk: the CSV's rows (parsing a
 * million records and writing their cells again cost most of the downloads stage's CPU) and the
 * workbook's deflated segments (its sheet re-rendered and deflated whole was 583 MB of XML at 1M;
 * xlsx-writer.ts). A small index (in the build cache's directory, beside the site's cache) names,
 * for the file a build wrote, each chunk's content hash, where its bytes lie in that file and what
 * else the format needs of them (the workbook: the segment's CRC-32 and inflated size). The next
 * build copies the bytes of every chunk whose hash the index holds from that file, as long as the
 * file is there whole under its content name; a chunk's bytes decide its rows, so the copy is what
 * rendering would give. The index is an optimisation: one that cannot be read or written is no index.
 */
import { type FileHandle, open, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { cleanUpOnInterrupt } from "../common/interrupt-cleanup.ts";
import { removeLeftovers } from "../common/remove-leftovers.ts";
import { contentNamedPath, type DownloadFormat } from "../core/download-files.ts";

/** What a build knows to find the previous bytes: the index's file and each chunk's hash, in order. */
export interface ChunksInput {
  readonly indexFile: string;
  readonly hashes: readonly string[];
}

/** Where a chunk's bytes lie in the file: its hash, first byte and length, then the format's own numbers. */
type Entry = readonly [hash: string, offset: number, length: number, ...extra: number[]];

/** A chunk's bytes and the format's numbers about them (none for the CSV). */
export interface ChunkBytes {
  readonly bytes: Uint8Array;
  readonly extra: readonly number[];
}

interface Index {
  /** The SHA-256 of the file the offsets are in. */
  readonly sha256: string;
  readonly bytes: number;
  readonly chunks: readonly Entry[];
  /** What rendered the bytes, when another version would render them differently (the workbook's: zlib's version). */
  readonly writer?: string;
}

const CANNOT_WRITE = new Set(["EACCES", "EPERM", "EROFS", "ENOSPC", "EDQUOT", "ENOENT", "ENOTDIR"]);

/** The previous file, open, and where each chunk's bytes lie in it, by chunk hash. */
interface OldFile {
  readonly file: FileHandle;
  readonly at: ReadonlyMap<string, Entry>;
}

/** The previous build's bytes of a download by chunk hash, and the new file's index as it is written. */
export class DownloadChunks {
  readonly #input: ChunksInput;
  readonly #writer: string;
  readonly #old: OldFile | null;
  readonly #entries: Entry[] = [];
  /** Where the next chunk's bytes go in the new file (the CSV's header, the workbook's zip before them, counted in by the caller). */
  #offset: number;
  /** Chunks whose bytes were copied, and rendered (for the tests and the report). */
  readonly counts = { copied: 0, rendered: 0 };

  private constructor(input: ChunksInput, old: OldFile | null, start: number, writer: string) {
    this.#input = input;
    this.#writer = writer;
    this.#old = old;
    this.#offset = start;
  }

  /**
   * The index of `input.indexFile` when the `format` download it describes is in `outDir` whole;
   * else none (every chunk rendered). `start`: the new file's offset of the first chunk, when known;
   * `writer`: what renders the bytes (an index another wrote is none: its copies would not be what
   * rendering gives now, and a rebuild must write the bytes a build from scratch would).
   */
  static async open(outDir: string, format: DownloadFormat, input: ChunksInput, start = 0, writer = ""): Promise<DownloadChunks> {
    // A temporary of the index that a killed build left (a stopped one removes its own).
    await removeLeftovers(dirname(input.indexFile), (name) => name.startsWith(`${basename(input.indexFile)}.`));
    const index = await readIndex(input.indexFile);
    if (index === null || (index.writer ?? "") !== writer) return new DownloadChunks(input, null, start, writer);
    const path = join(
      outDir,
      ...contentNamedPath(format, index.sha256)
        .split("/")
        .filter((part) => part !== ""),
    );
    const size = await stat(path).then(
      (s) => (s.isFile() ? s.size : -1),
      () => -1,
    );
    if (size !== index.bytes) return new DownloadChunks(input, null, start, writer);
    const at = new Map(index.chunks.map((entry) => [entry[0], entry]));
    return new DownloadChunks(input, { file: await open(path, "r"), at }, start, writer);
  }

  /** The new file's offset of the next chunk, when the caller learns it only as it writes (the workbook's zip). */
  moveTo(offset: number): void {
    this.#offset = offset;
  }

  /** Does the previous file hold chunk `index` (its bytes may be copied)? */
  holds(index: number): boolean {
    const hash = this.#input.hashes[index];
    return hash !== undefined && this.#old?.at.has(hash) === true;
  }

  /**
   * The bytes of chunk `index`: copied from the previous file when it holds that chunk (and `usable`
   * finds them so), else `render`ed.
   */
  async take(
    index: number,
    render: () => ChunkBytes | Promise<ChunkBytes>,
    usable: (copied: ChunkBytes) => boolean = () => true,
  ): Promise<ChunkBytes> {
    const hash = this.#input.hashes[index];
    const found = hash === undefined ? undefined : this.#old?.at.get(hash);
    let chunk: ChunkBytes | null = null;
    if (found !== undefined && this.#old !== null) {
      const [, offset, length, ...extra] = found;
      const buffer = Buffer.allocUnsafe(length);
      const { bytesRead } = await this.#old.file.read(buffer, 0, length, offset);
      // Cut short since the size was checked, or not what the format expects there: rendered instead.
      if (bytesRead === length && usable({ bytes: buffer, extra })) chunk = { bytes: buffer, extra };
    }
    this.counts[chunk === null ? "rendered" : "copied"]++;
    chunk ??= await render();
    if (hash !== undefined) this.#entries.push([hash, this.#offset, chunk.bytes.length, ...chunk.extra]);
    this.#offset += chunk.bytes.length;
    return chunk;
  }

  /** The CSV's rows of chunk `index` (the CSV has no numbers of its own). */
  async rows(index: number, render: () => Uint8Array): Promise<Uint8Array> {
    return (await this.take(index, () => ({ bytes: render(), extra: [] }))).bytes;
  }

  /** Writes the index of the file just written (its SHA-256 and size), under a temporary name renamed into place. */
  async save(sha256: string, bytes: number): Promise<void> {
    const index: Index = { sha256, bytes, chunks: this.#entries, ...(this.#writer === "" ? {} : { writer: this.#writer }) };
    const temp = `${this.#input.indexFile}.tmp-${process.pid}`;
    const forget = cleanUpOnInterrupt(() => rmSync(temp, { force: true }));
    try {
      await writeFile(temp, JSON.stringify(index));
      await rename(temp, this.#input.indexFile);
    } catch (error) {
      // The build cache warns about a directory it cannot write; the index is only an optimisation.
      if (!CANNOT_WRITE.has((error as NodeJS.ErrnoException).code ?? "")) throw error;
      await rm(temp, { force: true });
    } finally {
      forget();
    }
  }

  async close(): Promise<void> {
    await this.#old?.file.close();
  }
}

/** The index in `file`, or null when there is none or it is not one. */
async function readIndex(file: string): Promise<Index | null> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    // Missing, unreadable or no JSON (a build killed while it was replaced is not possible: it is renamed whole).
    if (error instanceof SyntaxError || CANNOT_WRITE.has((error as NodeJS.ErrnoException).code ?? "") || isErrno(error, "EISDIR"))
      return null;
    throw error;
  }
  return isIndex(json) ? json : null;
}

function isErrno(error: unknown, code: string): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === code;
}

function isIndex(value: unknown): value is Index {
  if (typeof value !== "object" || value === null) return false;
  const { sha256, bytes, chunks, writer } = value as Record<string, unknown>;
  return (
    (writer === undefined || typeof writer === "string") &&
    typeof sha256 === "string" &&
    /^[0-9a-f]{64}$/.test(sha256) &&
    Number.isSafeInteger(bytes) &&
    Array.isArray(chunks) &&
    chunks.every(
      (e) =>
        Array.isArray(e) &&
        e.length >= 3 &&
        typeof e[0] === "string" &&
        e.slice(1).every((n) => Number.isSafeInteger(n) && (n as number) >= 0) &&
        (e[1] as number) + (e[2] as number) <= (bytes as number),
    )
  );
}
