/**
 * The CSV download's rows by records chunk, so that an edit renders one chunk: parsing a million
 * records and writing their cells again cost most of the downloads stage's CPU (BENCHMARKS.md). A
 * small index (in the build cache's directory, beside the site's cache) names, for the CSV a build
 * wrote, each chunk's content hash and where its rows lie in that file. The next build copies the
 * rows of every chunk whose hash the index holds from that file, as long as the file is there whole
 * under its content name; a chunk's bytes decide its rows, so the copy is what rendering would give.
 * The index is an optimisation: one that cannot be read or written is no index.
 */
import { type FileHandle, open, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { cleanUpOnInterrupt } from "../common/interrupt-cleanup.ts";
import { removeLeftovers } from "../common/remove-leftovers.ts";
import { contentNamedPath } from "../core/download-files.ts";

/** What a build knows to find the previous rows: the index's file and each chunk's hash, in order. */
export interface CsvChunksInput {
  readonly indexFile: string;
  readonly hashes: readonly string[];
}

/** Where a chunk's rows lie in the CSV: its hash, first byte and length. */
type Entry = readonly [hash: string, offset: number, length: number];

interface Index {
  /** The SHA-256 of the CSV the offsets are in. */
  readonly sha256: string;
  readonly bytes: number;
  readonly chunks: readonly Entry[];
}

const CANNOT_WRITE = new Set(["EACCES", "EPERM", "EROFS", "ENOSPC", "EDQUOT", "ENOENT", "ENOTDIR"]);

/** The previous CSV, open, and where each chunk's rows lie in it, by chunk hash. */
interface OldCsv {
  readonly file: FileHandle;
  readonly at: ReadonlyMap<string, readonly [number, number]>;
}

/** The previous build's CSV rows by chunk hash, and the new CSV's index as it is written. */
export class CsvChunks {
  readonly #input: CsvChunksInput;
  readonly #old: OldCsv | null;
  readonly #entries: Entry[] = [];
  /** Bytes of rows taken so far (the header comes first: its length is added by the caller's offset). */
  #offset: number;
  /** Chunks whose rows were copied, and rendered (for the tests and the report). */
  readonly counts = { copied: 0, rendered: 0 };

  private constructor(input: CsvChunksInput, old: OldCsv | null, headerBytes: number) {
    this.#input = input;
    this.#old = old;
    this.#offset = headerBytes;
  }

  /** The index of `input.indexFile` when the CSV it describes is in `outDir` whole; else none (every chunk rendered). */
  static async open(outDir: string, input: CsvChunksInput, headerBytes: number): Promise<CsvChunks> {
    // A temporary of the index that a killed build left (a stopped one removes its own).
    await removeLeftovers(dirname(input.indexFile), (name) => name.startsWith(`${basename(input.indexFile)}.`));
    const index = await readIndex(input.indexFile);
    if (index === null) return new CsvChunks(input, null, headerBytes);
    const path = join(
      outDir,
      ...contentNamedPath("csv", index.sha256)
        .split("/")
        .filter((part) => part !== ""),
    );
    const size = await stat(path).then(
      (s) => (s.isFile() ? s.size : -1),
      () => -1,
    );
    if (size !== index.bytes) return new CsvChunks(input, null, headerBytes);
    const at = new Map(index.chunks.map(([hash, offset, length]) => [hash, [offset, length] as const]));
    return new CsvChunks(input, { file: await open(path, "r"), at }, headerBytes);
  }

  /** The rows of chunk `index`: copied from the previous CSV when it holds that chunk, else `render`ed. */
  async rows(index: number, render: () => Uint8Array): Promise<Uint8Array> {
    const hash = this.#input.hashes[index];
    const found = hash === undefined ? undefined : this.#old?.at.get(hash);
    let bytes: Uint8Array;
    if (found === undefined || this.#old === null) {
      bytes = render();
      this.counts.rendered++;
    } else {
      const [offset, length] = found;
      const buffer = Buffer.allocUnsafe(length);
      const { bytesRead } = await this.#old.file.read(buffer, 0, length, offset);
      // Cut short since the size was checked: rendered instead.
      bytes = bytesRead === length ? buffer : render();
      this.counts[bytesRead === length ? "copied" : "rendered"]++;
    }
    if (hash !== undefined) this.#entries.push([hash, this.#offset, bytes.length]);
    this.#offset += bytes.length;
    return bytes;
  }

  /** Writes the index of the CSV just written (its SHA-256 and size), under a temporary name renamed into place. */
  async save(sha256: string, bytes: number): Promise<void> {
    const index: Index = { sha256, bytes, chunks: this.#entries };
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
  const { sha256, bytes, chunks } = value as Record<string, unknown>;
  return (
    typeof sha256 === "string" &&
    /^[0-9a-f]{64}$/.test(sha256) &&
    Number.isSafeInteger(bytes) &&
    Array.isArray(chunks) &&
    chunks.every(
      (e) =>
        Array.isArray(e) &&
        e.length === 3 &&
        typeof e[0] === "string" &&
        Number.isSafeInteger(e[1]) &&
        Number.isSafeInteger(e[2]) &&
        (e[1] as number) >= 0 &&
        (e[2] as number) >= 0 &&
        (e[1] as number) + (e[2] as number) <= (bytes as number),
    )
  );
}
