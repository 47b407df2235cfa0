/**
 * Every record's rendered bytes (as DRF writes it) in id order, one buffer a chunk: the buffer is
 * the chunk file's bytes, each record a line. Pages copy a run of lines and turn the separators
 * into commas. A thousand buffers instead of a million strings keep the heap small (a 1M-subject
 * build must stay under 1 GB), and, unlike one buffer for the whole list, they are allocated as
 * the reader's blocks are dropped, so the bytes are never held twice.
 *
 * The reader renders records block by block in reading order (render-block.ts); the arena puts
 * them in id order chunk by chunk (`renderChunk`), so the writer can already write the shards
 * whose records are ready while later ones are still being placed: CPU and disk work overlap.
 */
import { contentHash } from "./content-hash.ts";
import type { RenderedBlock } from "./render-block.ts";

export interface RecordArena {
  readonly count: number;
  readonly chunkSize: number;
  readonly chunkCount: number;
  /** Chunks rendered so far (from the first). */
  readonly renderedChunks: number;
  /** Puts the next chunk's records in place and hashes them. */
  renderChunk(): void;
  /** The content hash of a rendered chunk. */
  chunkHash(chunk: number): string;
  /** A chunk file's bytes: its records, one a line. */
  chunkBytes(chunk: number): Buffer;
  /** A page's bytes: `head`, rendered records [from, to) joined by commas, `tail`. */
  pageBytes(head: Buffer, from: number, to: number, tail: Buffer): Buffer;
}

/** Where each record's rendered bytes are (read-records.ts's RecordSet). */
export interface RenderedRecords {
  readonly count: number;
  /** Blocks of rendered records; the arena drops each once it has copied all its records. */
  readonly rendered: (RenderedBlock | undefined)[];
  /** For each record in id order: its block in `rendered`. */
  readonly blockOf: Uint32Array;
  /** For each record in id order: its index in that block. */
  readonly indexIn: Uint32Array;
}

const COMMA = 0x2c;

/** A chunk's bytes with where each of its records starts (and, last, its length). */
interface Chunk {
  readonly bytes: Buffer;
  readonly lines: Uint32Array;
}

/**
 * An arena for `records` (in id order), nothing copied yet. It takes the rendered blocks over:
 * each is dropped once its records are copied into chunks.
 */
export function createRecordArena(records: RenderedRecords, chunkSize: number): RecordArena {
  const { count, rendered: blocks, blockOf, indexIn } = records;
  const chunkCount = Math.ceil(count / chunkSize);
  /** Records of each block not yet copied: at 0 the block is dropped. */
  const left = Uint32Array.from(blocks, (b) => b?.ends.length ?? 0);
  const hashes: string[] = [];
  const chunks: Chunk[] = [];

  /** Record `i`'s rendered bytes ("\n" included); drops its block after its last record. */
  const recordBytes = (i: number): Uint8Array => {
    const b = blockOf[i] ?? 0;
    const k = indexIn[i] ?? 0;
    const block = blocks[b];
    if (block === undefined) throw new Error(`record ${i}: its block was already dropped`);
    const bytes = block.bytes.subarray(k === 0 ? 0 : block.ends[k - 1], block.ends[k]);
    if (--left[b]! === 0) blocks[b] = undefined;
    return bytes;
  };
  /**
   * The usual case (one sorted file): records [first, last) are exactly one block, in order; the
   * chunk takes the block's bytes over. Undefined otherwise.
   */
  const takeWholeBlock = (first: number, last: number): Chunk | undefined => {
    const b = blockOf[first] ?? 0;
    const block = blocks[b];
    if (block === undefined || block.ends.length !== last - first) return undefined;
    for (let i = first; i < last; i++) if (blockOf[i] !== b || indexIn[i] !== i - first) return undefined;
    blocks[b] = undefined;
    const lines = new Uint32Array(block.ends.length + 1);
    lines.set(block.ends, 1);
    return { bytes: Buffer.from(block.bytes.buffer, block.bytes.byteOffset, block.bytes.byteLength), lines };
  };
  /** Records [first, last) copied one by one into a buffer of their size. */
  const copyRecords = (first: number, last: number): Chunk => {
    const parts = Array.from({ length: last - first }, (_, k) => recordBytes(first + k));
    const bytes = Buffer.allocUnsafeSlow(parts.reduce((sum, part) => sum + part.length, 0));
    const lines = new Uint32Array(parts.length + 1);
    for (const [k, part] of parts.entries()) {
      bytes.set(part, lines[k]);
      lines[k + 1] = (lines[k] ?? 0) + part.length;
    }
    return { bytes, lines };
  };
  /** A rendered chunk's bytes. */
  const chunkOf = (chunk: number): Chunk => {
    const made = chunks[chunk];
    if (made === undefined) throw new Error(`chunk ${chunk} is not rendered yet`);
    return made;
  };
  /** Copies records [from, to) into `target` at `at` as a JSON list's items: each "\n" becomes a comma. */
  const copyAsList = (from: number, to: number, target: Buffer, at: number): void => {
    for (let i = from; i < to; ) {
      const chunk = Math.floor(i / chunkSize);
      const { bytes, lines } = chunkOf(chunk);
      const last = Math.min(to, (chunk + 1) * chunkSize);
      const [a, b] = [i - chunk * chunkSize, last - chunk * chunkSize];
      const [start, end] = [lines[a] ?? 0, lines[b] ?? 0];
      bytes.copy(target, at, start, end);
      for (let k = a + 1; k <= b; k++) target[at + (lines[k] ?? 0) - start - 1] = COMMA;
      at += end - start;
      i = last;
    }
  };
  /** The bytes of records [from, to), "\n"s included. */
  const span = (from: number, to: number): number => {
    let total = 0;
    for (let i = from; i < to; ) {
      const chunk = Math.floor(i / chunkSize);
      const last = Math.min(to, (chunk + 1) * chunkSize);
      const { lines } = chunkOf(chunk);
      total += (lines[last - chunk * chunkSize] ?? 0) - (lines[i - chunk * chunkSize] ?? 0);
      i = last;
    }
    return total;
  };

  return {
    count,
    chunkSize,
    chunkCount,
    get renderedChunks() {
      return hashes.length;
    },
    renderChunk() {
      const chunk = hashes.length;
      const first = chunk * chunkSize;
      const last = Math.min(count, first + chunkSize);
      const made = takeWholeBlock(first, last) ?? copyRecords(first, last);
      chunks[chunk] = made;
      hashes.push(contentHash(made.bytes));
    },
    chunkHash(chunk) {
      const hash = hashes[chunk];
      if (hash === undefined) throw new Error(`chunk ${chunk} is not rendered yet`);
      return hash;
    },
    chunkBytes: (chunk) => chunkOf(chunk).bytes,
    pageBytes(head, from, to, tail) {
      const records = span(from, to);
      const page = Buffer.allocUnsafe(head.length + records + tail.length);
      head.copy(page, 0);
      copyAsList(from, to, page, head.length);
      // The last record's "\n" (now a comma) is where the tail starts.
      const end = head.length + Math.max(0, records - 1);
      tail.copy(page, end);
      return page.subarray(0, end + tail.length);
    },
  };
}
