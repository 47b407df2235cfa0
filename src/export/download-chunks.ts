/**
 * A download's bytes by records chunk, so that an edit renders one chunk: the CSV's rows (parsing a
 * million records and writing their cells again cost most of the downloads stage's CPU), the
 * workbook's deflated segments (its sheet re-rendered and deflated whole was 583 MB of XML at 1M;
 * xlsx-writer.ts), and the NDJSON's bytes (the chunk files' own: copied from one large file, an
 * edit at 1M reads the edited chunk's file alone, not 1,000 small ones). A small index (in the build cache's directory, beside the site's cache) names,
 * for the file a build wrote, each chunk's content hash, where its bytes lie in that file and what
 * else the format needs of them (the workbook: the segment's CRC-32 and inflated size). The next
 * build copies the bytes of every chunk whose hash the index holds from that file, as long as the
 * file is there whole under its content name; a chunk's bytes decide its rows, so the copy is what
 * rendering would give. The copies are read from that file a run of consecutive chunks at a time
 * (`plan`). The index is an optimisation: one that cannot be read or written is no index.
 */
import { type FileHandle, open, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { readCacheNote, saveCacheNote } from "../common/cache-note.ts";
import { readIntoAsync } from "../common/read-into.ts";
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
  /**
   * Each chunk taken, by its index: its hash, length and the format's numbers (their offsets are
   * their lengths summed from the first's: the bytes lie end to end). By index, not in the order
   * taken: the workbook takes a rendered chunk once it is deflated, maybe after the next one's copy.
   */
  readonly #taken: (readonly [hash: string | undefined, length: number, extra: readonly number[]])[] = [];
  /** Where the first chunk's bytes go in the new file (the CSV's header, the workbook's zip before them, counted in by the caller). */
  #start: number;
  /** The previous file's bytes of the chunks to copy, read a run at a time (`plan`). */
  #runs: Runs | null = null;
  /** Chunks whose bytes were copied, and rendered; reads of the previous file (for the tests and the report). */
  readonly counts = { copied: 0, rendered: 0, reads: 0 };

  private constructor(input: ChunksInput, old: OldFile | null, start: number, writer: string) {
    this.#input = input;
    this.#writer = writer;
    this.#old = old;
    this.#start = start;
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

  /** The new file's offset of the first chunk, when the caller learns it only as it writes (the workbook's zip). */
  moveTo(offset: number): void {
    this.#start = offset;
  }

  /** Does the previous file hold chunk `index` (its bytes may be copied)? */
  holds(index: number): boolean {
    const hash = this.#input.hashes[index];
    return hash !== undefined && this.#old?.at.has(hash) === true;
  }

  /**
   * The chunks to be copied, in the order they will be taken (`copies`: of those the previous file
   * holds, the ones the caller will take): the previous file's bytes of consecutive chunks are then
   * read as runs of a few megabytes, the next run read while one is copied from, not with a read a
   * chunk (some 3,000 reads of the thread pool in an edit at a million subjects, each waking the
   * main thread). The bytes `take` copies then last until the next `take` (or `put`) only.
   */
  plan(copies: (index: number) => boolean): void {
    if (this.#old === null) return;
    const chunks: Located[] = [];
    for (const [index, hash] of this.#input.hashes.entries()) {
      const found = this.#old.at.get(hash);
      if (found !== undefined && copies(index)) chunks.push({ index, offset: found[1], length: found[2] });
    }
    this.#runs = new Runs(this.#old.file, chunks, this.counts);
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
      let bytes = await this.#runs?.bytesOf(index);
      if (bytes === undefined) {
        this.counts.reads++;
        bytes = await readAt(this.#old.file, offset, length);
      }
      // Cut short since the size was checked, or not what the format expects there: rendered instead.
      if (bytes !== null && usable({ bytes, extra })) chunk = { bytes, extra };
    }
    this.counts[chunk === null ? "rendered" : "copied"]++;
    chunk ??= await render();
    this.#taken[index] = [hash, chunk.bytes.length, chunk.extra];
    return chunk;
  }

  /** Chunk `index`'s bytes, at hand already (the NDJSON's, a chunk read for another format): in the new file's index, not copied. */
  put(index: number, bytes: Uint8Array): void {
    this.counts.rendered++;
    this.#taken[index] = [this.#input.hashes[index], bytes.length, []];
  }

  /** The CSV's rows of chunk `index` (the CSV has no numbers of its own). */
  async rows(index: number, render: () => Uint8Array | Promise<Uint8Array>): Promise<Uint8Array> {
    return (await this.take(index, async () => ({ bytes: await render(), extra: [] }))).bytes;
  }

  /** Writes the index of the file just written (its SHA-256 and size), under a temporary name renamed into place. */
  async save(sha256: string, bytes: number): Promise<void> {
    const chunks: Entry[] = [];
    let offset = this.#start;
    for (let i = 0; i < this.#taken.length; i++) {
      const taken = this.#taken[i];
      if (taken === undefined) throw new Error(`download chunk ${i} was never taken`);
      const [hash, length, extra] = taken;
      if (hash !== undefined) chunks.push([hash, offset, length, ...extra]);
      offset += length;
    }
    const index: Index = { sha256, bytes, chunks, ...(this.#writer === "" ? {} : { writer: this.#writer }) };
    await saveCacheNote(this.#input.indexFile, index);
  }

  /** Once the reads ahead started so far have ended (for the tests: the bytes a take handed out are still its chunk's then). */
  async settled(): Promise<void> {
    await this.#runs?.settle();
  }

  async close(): Promise<void> {
    // The reads ahead done first: the file is not closed under them.
    await this.#runs?.settle();
    await this.#old?.file.close();
  }
}

/** The index in `file`, or null when there is none or it is not one. */
async function readIndex(file: string): Promise<Index | null> {
  // Missing, unreadable or no JSON (a build killed while it was replaced is not possible: it is renamed whole).
  const read = await readCacheNote(file);
  const json = "json" in read ? read.json : null;
  return isIndex(json) ? json : null;
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

/** A chunk to copy: where its bytes lie in the previous file. */
interface Located {
  readonly index: number;
  readonly offset: number;
  readonly length: number;
}

/** Consecutive chunks whose bytes lie end to end in the previous file, read at once: where they begin, and their length. */
interface Run {
  readonly offset: number;
  length: number;
}

/** Bytes of the previous file read at once for a run of chunks (a chunk longer than that a run of its own). */
const RUN_BYTES = 2 << 20;
/**
 * Runs read ahead of the one copied from: one, the kernel reading further ahead within the file (in
 * an edit at 1M, two ahead took the stage's memory a few megabytes higher for no time measured).
 */
const RUNS_AHEAD = 1;

/** A buffer runs are read into in turn, and its last read, settled (the next read into it waits for it). */
interface Slot {
  buffer: Buffer | null;
  read: Promise<unknown>;
}

/**
 * The previous file's bytes of the chunks to copy, in order, a run at a time, `RUNS_AHEAD` runs read
 * ahead, into `RUNS_AHEAD + 1` buffers used in turn (a buffer a run would be fresh memory for the
 * kernel to hand out, some 500 MB an edit at a million subjects). Run `n` is read into buffer
 * `n % (RUNS_AHEAD + 1)` once a chunk of run `n - RUNS_AHEAD` or later is asked for: the buffer's
 * run before it is then left behind (asked for no more), its bytes handed out by an earlier take,
 * which lasted only until this one.
 */
class Runs {
  readonly #file: FileHandle;
  readonly #counts: { reads: number };
  readonly #runs: Run[] = [];
  /** Each chunk's run (its number) and its place in it, by chunk index. */
  readonly #of = new Map<number, { run: number; at: number; length: number }>();
  readonly #slots: Slot[] = Array.from({ length: RUNS_AHEAD + 1 }, () => ({ buffer: null, read: Promise.resolve() }));
  /** Each run's read, by run number, from its start until it is left behind: its bytes and how many came. */
  readonly #reads: (Promise<{ bytes: Buffer; read: number }> | undefined)[] = [];
  /** The run copied from last (-1: none yet), and the next run to start reading. */
  #current = -1;
  #next = 0;
  /** The longest run's length: each buffer's, made on its first read. */
  readonly #longest: number;

  constructor(file: FileHandle, chunks: readonly Located[], counts: { reads: number }) {
    this.#file = file;
    this.#counts = counts;
    for (const chunk of chunks) {
      const last = this.#runs[this.#runs.length - 1];
      if (last !== undefined && last.offset + last.length === chunk.offset && last.length + chunk.length <= RUN_BYTES) {
        this.#of.set(chunk.index, { run: this.#runs.length - 1, at: last.length, length: chunk.length });
        last.length += chunk.length;
      } else {
        this.#of.set(chunk.index, { run: this.#runs.length, at: 0, length: chunk.length });
        this.#runs.push({ offset: chunk.offset, length: chunk.length });
      }
    }
    this.#longest = Math.max(0, ...this.#runs.map((run) => run.length));
  }

  /**
   * Chunk `index`'s bytes in the previous file, lasting until the next take; null when the file
   * ended before them; undefined when the chunk is none planned, or its run is left behind (a
   * chunk asked for out of order: the caller reads it on its own).
   */
  async bytesOf(index: number): Promise<Buffer | null | undefined> {
    const place = this.#of.get(index);
    if (place === undefined || place.run < this.#current) return undefined;
    if (place.run > this.#current) {
      for (let run = Math.max(0, this.#current); run < place.run; run++) this.#reads[run] = undefined;
      this.#current = place.run;
      // The runs skipped never read; this one and those ahead of it started.
      this.#next = Math.max(this.#next, place.run);
      for (; this.#next < this.#runs.length && this.#next <= place.run + RUNS_AHEAD; this.#next++) this.#start(this.#next);
    }
    const { bytes, read } = await (this.#reads[place.run] as Promise<{ bytes: Buffer; read: number }>);
    return place.at + place.length <= read ? bytes.subarray(place.at, place.at + place.length) : null;
  }

  #start(number: number): void {
    const run = this.#runs[number] as Run;
    const slot = this.#slots[number % this.#slots.length] as Slot;
    this.#counts.reads++;
    // After the slot's last read (a run skipped may still be being read into it).
    const read = slot.read.then(async () => {
      slot.buffer ??= Buffer.allocUnsafeSlow(this.#longest);
      return { bytes: slot.buffer, read: await readIntoAsync(this.#file, slot.buffer, 0, run.length, run.offset) };
    });
    // Awaited when its chunks are asked for; one failing before then must not be unhandled meanwhile.
    slot.read = read.catch(() => undefined);
    this.#reads[number] = read;
  }

  /** Every read started, settled. */
  async settle(): Promise<void> {
    await Promise.all(this.#slots.map((slot) => slot.read));
  }
}

/** `length` bytes of `file` at `offset` in a buffer of their own, or null when the file ends before them. */
async function readAt(file: FileHandle, offset: number, length: number): Promise<Buffer | null> {
  const buffer = Buffer.allocUnsafe(length);
  return (await readIntoAsync(file, buffer, 0, length, offset)) === length ? buffer : null;
}
