/**
 * Rendered records in id order from input in any order, in bounded memory: an external merge sort.
 *
 * Blocks are added in reading order and held until their rendered bytes reach a run budget
 * (`runBytes`); then the run is sorted in memory by (id, reading order) and written to one file of
 * records in a temporary directory the caller names. At the end the runs are merged k ways (a small
 * binary heap of run readers, each reading a few hundred KB at a time) into batches in id order.
 * Input that fits in one run never touches the disk. Ties (duplicate ids) come out in reading
 * order: within a run by reading index, across runs by run number (runs are cut in reading
 * order), so the rules across records (check-sequence.ts) can run on the sorted stream keeping
 * only the previous record, and the first record read is the one reported as seen first.
 *
 * Memory: one run's blocks (about `runBytes` of rendered bytes, plus their codes and keys), a write
 * buffer while spilling, and while merging one read buffer per run and one batch. Disk: every
 * record's bytes once, plus about 24 bytes and its code.
 *
 * A run file is a sequence of records, each a 24-byte head then two byte strings:
 *   id (float64) | file (uint32) | position (uint32) | code length (uint32) | bytes length (uint32)
 *   | code (UTF-8) | bytes (the rendered record and its "\n")
 * in the machine's byte order (the file never leaves the process that wrote it).
 */
import { open, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { makeScratchDir, type ScratchDir } from "../../common/scratch-dir.ts";
import { utf8Length, writeUtf8 } from "../../common/utf8-text.ts";
import type { RenderedBlock } from "../hand-offs.ts";

/** What the sorter reads of a rendered block (its problems are the caller's to collect). */
export type SortableBlock = Pick<RenderedBlock, "bytes" | "ends" | "ids" | "codes" | "positions">;

/**
 * Records in id order, in the shape of a rendered block, with the file each came from. Batches
 * hold exactly `batchRecords` records but the last, so with batchRecords = CHUNK_SIZE each batch
 * is one records chunk.
 */
export interface SortedRecords {
  /** Each record's rendered bytes and a "\n", one after another. */
  readonly bytes: Uint8Array;
  /** Where each record's bytes end (its "\n" included). */
  readonly ends: Uint32Array;
  readonly ids: Float64Array;
  readonly codes: readonly string[];
  /** Each record's position in its file (index or line). */
  readonly positions: Uint32Array;
  /** Each record's file number, as given to `add`. */
  readonly files: Uint32Array;
}

/** Sorts rendered records by id: add every block, take the sorted batches once, close. */
export interface RecordSorter {
  /**
   * Takes a block's records, in reading order, from file number `file`; may write a run to disk
   * before it resolves. The block is not changed (its bytes are read once, here); it is held until
   * its run is written, so the caller must not reuse its buffers.
   */
  add(block: SortableBlock, file: number): Promise<void>;
  /** Every record added, in ascending id order (ties in reading order), in batches of up to `batchRecords`; once, after the last add. */
  sorted(): AsyncIterable<SortedRecords>;
  /** Records added so far. */
  readonly count: number;
  /** Runs written to disk so far (0: everything is in memory). */
  readonly runs: number;
  /** Closes and removes its temporary files; safe to call more than once, and after an error. */
  close(): Promise<void>;
}

export interface SorterOptions {
  /** Where the temporary directory of runs is made (kept out of the site's directory by the caller). */
  readonly dir: string;
  /** Rendered bytes held in memory before a run is written (DEFAULT_RUN_BYTES). */
  readonly runBytes?: number;
  /** Records per sorted batch (DEFAULT_BATCH_RECORDS). */
  readonly batchRecords?: number;
}

/** 64 MB of rendered bytes a run: about 200,000 subjects, so 10M make about 50 runs and the merge's buffers stay small. */
export const DEFAULT_RUN_BYTES = 64 * 1024 * 1024;
/** The reader's block size, so a batch is the size of the blocks it replaces. */
export const DEFAULT_BATCH_RECORDS = 1000;
/** Each run reader's buffer: large enough that reads are few, small enough that 50 runs take 12 MB. */
const READ_BYTES = 256 * 1024;
/** The spill's write buffer. */
const WRITE_BYTES = 1024 * 1024;
const HEAD_BYTES = 24;

/** Makes a sorter whose runs go to a new directory under `options.dir`, made only when a run is written. */
export function createRecordSorter(options: SorterOptions): RecordSorter {
  return new ExternalSorter(options);
}

/** A block of the current run, with the file it came from. */
interface HeldBlock {
  readonly block: SortableBlock;
  /** The block's bytes, taken once (a cached block may read them from disk on first use), as a Buffer view. */
  readonly bytes: Buffer;
  readonly file: number;
}

/** One run's records in (id, reading index) order: for each, its block and its index there. */
interface RunOrder {
  readonly blocks: readonly HeldBlock[];
  readonly blockOf: Uint32Array;
  readonly indexIn: Uint32Array;
}

class ExternalSorter implements RecordSorter {
  readonly #parent: string;
  readonly #runBytes: number;
  readonly #batchRecords: number;
  #held: HeldBlock[] = [];
  #heldBytes = 0;
  #count = 0;
  #dir: ScratchDir | undefined;
  #runFiles: string[] = [];
  #state: "adding" | "sorting" | "closed" = "adding";
  /** Open run readers while merging, closed by `close` if the merge is abandoned. */
  #readers: RunReader[] = [];

  constructor(options: SorterOptions) {
    this.#parent = options.dir;
    this.#runBytes = options.runBytes ?? DEFAULT_RUN_BYTES;
    this.#batchRecords = Math.max(1, options.batchRecords ?? DEFAULT_BATCH_RECORDS);
  }

  get count(): number {
    return this.#count;
  }

  get runs(): number {
    return this.#runFiles.length;
  }

  async add(block: SortableBlock, file: number): Promise<void> {
    if (this.#state !== "adding") throw new Error(`RecordSorter.add after ${this.#state === "closed" ? "close" : "sorted"}`);
    if (block.ends.length === 0) return;
    const bytes = Buffer.from(block.bytes.buffer, block.bytes.byteOffset, block.bytes.byteLength);
    this.#held.push({ block, bytes, file });
    this.#heldBytes += bytes.length;
    this.#count += block.ends.length;
    if (this.#heldBytes >= this.#runBytes) await this.#spill();
  }

  sorted(): AsyncIterable<SortedRecords> {
    if (this.#state !== "adding") throw new Error(`RecordSorter.sorted called twice, or after close`);
    this.#state = "sorting";
    return this.#runFiles.length === 0 ? this.#sortedInMemory() : this.#merged();
  }

  async close(): Promise<void> {
    this.#state = "closed";
    this.#held = [];
    const readers = this.#readers;
    this.#readers = [];
    await Promise.allSettled(readers.map((r) => r.close()));
    if (this.#dir !== undefined) {
      const dir = this.#dir;
      this.#dir = undefined;
      await dir.remove();
    }
  }

  /** Writes the held blocks as one sorted run file, and lets them go. */
  async #spill(): Promise<void> {
    const order = sortRun(this.#held);
    this.#held = [];
    this.#heldBytes = 0;
    // A working directory named for this process: removed on a signal, or by the next build after a kill.
    this.#dir ??= await makeScratchDir("sort", this.#parent);
    const path = join(this.#dir.path, `run-${this.#runFiles.length}`);
    this.#runFiles.push(path);
    const handle = await open(path, "w");
    try {
      await writeRun(order, handle);
    } finally {
      await handle.close();
    }
  }

  async *#sortedInMemory(): AsyncGenerator<SortedRecords> {
    const order = sortRun(this.#held);
    this.#held = [];
    const batch = new BatchBuilder(this.#batchRecords);
    for (let k = 0; k < order.blockOf.length; k++) {
      const held = order.blocks[order.blockOf[k] ?? 0] as HeldBlock;
      const i = order.indexIn[k] ?? 0;
      const { block } = held;
      const start = i === 0 ? 0 : (block.ends[i - 1] ?? 0);
      batch.push(block.ids[i] ?? 0, held.file, block.positions[i] ?? 0, block.codes[i] ?? "", held.bytes, start, block.ends[i] ?? 0);
      if (batch.full) yield batch.take();
    }
    if (batch.length > 0) yield batch.take();
  }

  async *#merged(): AsyncGenerator<SortedRecords> {
    try {
      if (this.#held.length > 0) await this.#spill();
      for (const [run, path] of this.#runFiles.entries()) this.#readers.push(await RunReader.open(path, run));
      const heap: RunReader[] = [];
      for (const reader of this.#readers) if (await reader.next()) heapPush(heap, reader);
      const batch = new BatchBuilder(this.#batchRecords);
      while (heap.length > 0) {
        const top = heap[0] as RunReader;
        batch.push(top.id, top.file, top.position, top.code(), top.buffer, top.bytesStart, top.bytesEnd);
        if (batch.full) yield batch.take();
        // The usual case: the next record is already in the buffer, no await.
        const more = top.nextBuffered() ?? (await top.next());
        if (more) heapSiftDown(heap, 0);
        else {
          const last = heap.pop() as RunReader;
          if (heap.length > 0) {
            heap[0] = last;
            heapSiftDown(heap, 0);
          }
        }
      }
      if (batch.length > 0) yield batch.take();
    } finally {
      // Done, abandoned (break) or failed: the runs are read once, so they go now.
      await this.close();
    }
  }
}

// ---------------------------------------------------------------------------------------------
// A run in memory

/** The index of a run's records in (id, reading index) order. */
function sortRun(blocks: readonly HeldBlock[]): RunOrder {
  let n = 0;
  for (const { block } of blocks) n += block.ends.length;
  const ids = new Float64Array(n);
  const blockOf = new Uint32Array(n);
  const indexIn = new Uint32Array(n);
  let r = 0;
  for (const [b, { block }] of blocks.entries()) {
    ids.set(block.ids, r);
    for (let i = 0; i < block.ends.length; i++, r++) {
      blockOf[r] = b;
      indexIn[r] = i;
    }
  }
  const order = sortedIndex(ids);
  const sortedBlockOf = new Uint32Array(n);
  const sortedIndexIn = new Uint32Array(n);
  for (let k = 0; k < n; k++) {
    const r = order[k] ?? 0;
    sortedBlockOf[k] = blockOf[r] ?? 0;
    sortedIndexIn[k] = indexIn[r] ?? 0;
  }
  return { blocks, blockOf: sortedBlockOf, indexIn: sortedIndexIn };
}

/** Writes a run's records in order through a buffer of WRITE_BYTES (a larger record on its own). */
async function writeRun(order: RunOrder, handle: FileHandle): Promise<void> {
  let buffer = Buffer.allocUnsafe(WRITE_BYTES);
  let length = 0;
  let at = 0;
  const flush = async (): Promise<void> => {
    let done = 0;
    while (done < length) done += (await handle.write(buffer, done, length - done, at + done)).bytesWritten;
    at += length;
    length = 0;
  };
  for (let k = 0; k < order.blockOf.length; k++) {
    const { block, bytes, file } = order.blocks[order.blockOf[k] ?? 0] as HeldBlock;
    const i = order.indexIn[k] ?? 0;
    const start = i === 0 ? 0 : (block.ends[i - 1] ?? 0);
    const end = block.ends[i] ?? 0;
    const code = block.codes[i] ?? "";
    // Codes are digits: an ASCII string is its UTF-16 length in bytes (no native call per record).
    const size = HEAD_BYTES + utf8Length(code) + (end - start);
    if (length + size > buffer.length) {
      await flush();
      if (size > buffer.length) buffer = Buffer.allocUnsafe(size);
    }
    buffer.writeDoubleLE(block.ids[i] ?? 0, length);
    buffer.writeUInt32LE(file, length + 8);
    buffer.writeUInt32LE(block.positions[i] ?? 0, length + 12);
    const codeLength = writeUtf8(code, buffer, length + HEAD_BYTES);
    buffer.writeUInt32LE(codeLength, length + 16);
    buffer.writeUInt32LE(end - start, length + 20);
    bytes.copy(buffer, length + HEAD_BYTES + codeLength, start, end);
    length += size;
  }
  await flush();
}

// ---------------------------------------------------------------------------------------------
// The merge

/** Reads a run file record by record through a buffer; its fields describe the current record. */
class RunReader {
  readonly run: number;
  readonly #handle: FileHandle;
  buffer = Buffer.allocUnsafe(READ_BYTES);
  /** Valid bytes in the buffer: [0, #filled). */
  #filled = 0;
  /** The file offset where the next read starts. */
  #read = 0;
  #ended = false;
  #closed = false;
  id = 0;
  file = 0;
  position = 0;
  #codeStart = 0;
  #codeEnd = 0;
  bytesStart = 0;
  bytesEnd = 0;
  /** The next record's offset in the buffer. */
  #next = 0;

  private constructor(handle: FileHandle, run: number) {
    this.#handle = handle;
    this.run = run;
  }

  static async open(path: string, run: number): Promise<RunReader> {
    return new RunReader(await open(path, "r"), run);
  }

  code(): string {
    return this.buffer.toString("utf8", this.#codeStart, this.#codeEnd);
  }

  /** Moves to the next record if it is whole in the buffer: true; false at the end; undefined if a read is needed. */
  nextBuffered(): boolean | undefined {
    const at = this.#next;
    if (at + HEAD_BYTES > this.#filled) return this.#ended && at === this.#filled ? false : undefined;
    const end = at + HEAD_BYTES + this.buffer.readUInt32LE(at + 16) + this.buffer.readUInt32LE(at + 20);
    if (end > this.#filled) return undefined;
    this.#take(at);
    return true;
  }

  /** Moves to the next record, reading more of the file as needed; false at the end. */
  async next(): Promise<boolean> {
    for (;;) {
      const moved = this.nextBuffered();
      if (moved !== undefined) return moved;
      if (this.#ended) throw new Error(`sort run ${this.run} ends inside a record`);
      await this.#fill();
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#handle.close();
  }

  #take(at: number): void {
    const b = this.buffer;
    this.id = b.readDoubleLE(at);
    this.file = b.readUInt32LE(at + 8);
    this.position = b.readUInt32LE(at + 12);
    this.#codeStart = at + HEAD_BYTES;
    this.#codeEnd = this.#codeStart + b.readUInt32LE(at + 16);
    this.bytesStart = this.#codeEnd;
    this.bytesEnd = this.bytesStart + b.readUInt32LE(at + 20);
    this.#next = this.bytesEnd;
  }

  /** Keeps the unread tail (from the next record on), grows the buffer if one record needs it, and reads on. */
  async #fill(): Promise<void> {
    const keep = this.#next;
    const tail = this.#filled - keep;
    let need = READ_BYTES;
    if (tail >= HEAD_BYTES) need = Math.max(need, HEAD_BYTES + this.buffer.readUInt32LE(keep + 16) + this.buffer.readUInt32LE(keep + 20));
    if (need > this.buffer.length) {
      const grown = Buffer.allocUnsafe(need);
      this.buffer.copy(grown, 0, keep, this.#filled);
      this.buffer = grown;
    } else {
      this.buffer.copy(this.buffer, 0, keep, this.#filled);
    }
    this.#filled = tail;
    this.#next = 0;
    const { bytesRead } = await this.#handle.read(this.buffer, this.#filled, this.buffer.length - this.#filled, this.#read);
    this.#read += bytesRead;
    this.#filled += bytesRead;
    if (bytesRead === 0) this.#ended = true;
  }
}

/** Is run reader `a`'s record before `b`'s: lower id, or the same id from an earlier run. */
function before(a: RunReader, b: RunReader): boolean {
  return a.id < b.id || (a.id === b.id && a.run < b.run);
}

function heapPush(heap: RunReader[], reader: RunReader): void {
  heap.push(reader);
  let i = heap.length - 1;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!before(heap[i] as RunReader, heap[parent] as RunReader)) break;
    [heap[i], heap[parent]] = [heap[parent] as RunReader, heap[i] as RunReader];
    i = parent;
  }
}

function heapSiftDown(heap: RunReader[], from: number): void {
  let i = from;
  for (;;) {
    const left = 2 * i + 1;
    if (left >= heap.length) return;
    const right = left + 1;
    const child = right < heap.length && before(heap[right] as RunReader, heap[left] as RunReader) ? right : left;
    if (!before(heap[child] as RunReader, heap[i] as RunReader)) return;
    [heap[i], heap[child]] = [heap[child] as RunReader, heap[i] as RunReader];
    i = child;
  }
}

// ---------------------------------------------------------------------------------------------
// Batches

/**
 * Copies records into reused scratch buffers; a batch taken is a trimmed copy of them, so it
 * outlives the run buffers it came from and holds no unused space.
 */
class BatchBuilder {
  readonly #capacity: number;
  #bytes = new Uint8Array(512 * 1024);
  #bytesLength = 0;
  readonly #ends: Uint32Array;
  readonly #ids: Float64Array;
  #codes: string[] = [];
  readonly #positions: Uint32Array;
  readonly #files: Uint32Array;
  length = 0;

  constructor(capacity: number) {
    this.#capacity = capacity;
    this.#ends = new Uint32Array(capacity);
    this.#ids = new Float64Array(capacity);
    this.#positions = new Uint32Array(capacity);
    this.#files = new Uint32Array(capacity);
  }

  get full(): boolean {
    return this.length === this.#capacity;
  }

  push(id: number, file: number, position: number, code: string, source: Uint8Array, start: number, end: number): void {
    const size = end - start;
    if (this.#bytesLength + size > this.#bytes.length) {
      const grown = new Uint8Array(Math.max(this.#bytes.length * 2, this.#bytesLength + size));
      grown.set(this.#bytes.subarray(0, this.#bytesLength));
      this.#bytes = grown;
    }
    this.#bytes.set(source.subarray(start, end), this.#bytesLength);
    this.#bytesLength += size;
    const k = this.length++;
    this.#ends[k] = this.#bytesLength;
    this.#ids[k] = id;
    this.#codes.push(code);
    this.#positions[k] = position;
    this.#files[k] = file;
  }

  /** The batch so far, copied out of the scratch buffers; the builder starts the next one. */
  take(): SortedRecords {
    const n = this.length;
    const batch: SortedRecords = {
      bytes: this.#bytes.slice(0, this.#bytesLength),
      ends: this.#ends.slice(0, n),
      ids: this.#ids.slice(0, n),
      codes: this.#codes,
      positions: this.#positions.slice(0, n),
      files: this.#files.slice(0, n),
    };
    this.#bytesLength = 0;
    this.#codes = [];
    this.length = 0;
    return batch;
  }
}

/**
 * Reading indexes in (id, reading index) order. When every id is a non-negative integer small
 * enough, (id, index) is packed into one exact float64 and sorted by the typed array's own numeric
 * sort, several times faster than a comparator; otherwise a stable comparator sort.
 */
function sortedIndex(ids: ArrayLike<number>): Uint32Array {
  const n = ids.length;
  const indexBits = Math.max(1, Math.ceil(Math.log2(n + 1)));
  const scale = 2 ** indexBits;
  let packable = indexBits < 53;
  for (let i = 0; i < n && packable; i++) {
    const id = ids[i] ?? 0;
    packable = Number.isInteger(id) && id >= 0 && id < 2 ** (53 - indexBits);
  }
  const order = new Uint32Array(n);
  if (packable) {
    const keys = new Float64Array(n);
    for (let i = 0; i < n; i++) keys[i] = (ids[i] ?? 0) * scale + i;
    keys.sort();
    for (let k = 0; k < n; k++) order[k] = (keys[k] ?? 0) % scale;
    return order;
  }
  for (let i = 0; i < n; i++) order[i] = i;
  return order.sort((a, b) => (ids[a] ?? 0) - (ids[b] ?? 0) || a - b);
}
