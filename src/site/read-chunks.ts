/**
 * Pages from records chunks read back from the site's own chunk files: once the records are on
 * disk, a page shard's records are read in a window of recent chunks (CACHED_BYTES at most), not
 * held in memory for the whole list. Page shards come in the order of their first record, so the
 * chunks one shard reads are mostly still in the window for the next (another form, another limit).
 */
import { closeSync, fstatSync, openSync, statSync } from "node:fs";
import { contentHash } from "../common/content-hash.ts";
import { readInto } from "../common/read-into.ts";
import { SpareBuffers } from "../common/spare-buffers.ts";

/** The bytes of recently read chunks kept at most: a page shard of limit 100 spans 100 chunks (~30 MB). */
const CACHED_BYTES = 96 * 1024 * 1024;
const NEWLINE = 0x0a;
const COMMA = 0x2c;

/** A chunk file's bytes with where each record starts (and, last, the length); `store`, the buffer they were read into. */
interface ReadChunk {
  readonly bytes: Buffer;
  readonly lines: Uint32Array;
  readonly store: Buffer;
}

/**
 * Renders a page: `head`, records [from, to) joined by commas, `tail`. A consumer that has copied
 * a page and reads it no more may give it back (`giveBack`), and a later page is rendered into its
 * memory; a page not given back is never written again.
 */
export interface PageBytes {
  (head: Uint8Array, from: number, to: number, tail: Uint8Array): Buffer;
  giveBack?(page: Uint8Array): void;
}

/** The pages' buffers kept given back: as many as a writer task's part holds of the default pages (some 350 of 6 KB at 1M), bounded by bytes. */
const SPARE_PAGE_BYTES = 8 * 1024 * 1024;

/** Where a chunk file is, and the hash its bytes must have when this build did not write it itself. */
export interface ChunkFile {
  readonly path: string;
  readonly check?: string;
}

/** The buffer a chunk of `size` bytes is read into: an eighth more, so that the next chunks, a little larger, fit it still. */
const storeSize = (size: number): number => size + (size >> 3);

/**
 * The window that keeps `chunks` chunks read, each the size of the chunk file `first` (its buffer's
 * size, as the window counts them), never more than CACHED_BYTES.
 */
export function windowOf(chunks: number, first: ChunkFile): number {
  return Math.min(CACHED_BYTES, chunks * storeSize(statSync(first.path).size));
}

/**
 * Page bytes over the chunk files `fileOf(chunk)`, `chunkSize` records each, `windowBytes` of them
 * kept read (the tests' windows are small). A file an earlier build left (its shard unchanged) is
 * checked against its hash: a page never copies bytes changed behind the build's back.
 */
export function pagesFromChunkFiles(fileOf: (chunk: number) => ChunkFile, chunkSize: number, windowBytes = CACHED_BYTES): PageBytes {
  const cache = new Map<number, ReadChunk>();
  let cached = 0;
  /**
   * The buffers of chunks dropped from the window, read into again: a fresh buffer a chunk
   * (readFileSync) was the whole list's bytes in fresh memory for the kernel to hand out (some
   * 1.4 GB at five million subjects), where the window needs only its own.
   */
  const spare: Buffer[] = [];
  const read = (path: string): { bytes: Buffer; store: Buffer } => {
    const fd = openSync(path, "r");
    try {
      const { size } = fstatSync(fd);
      let store = spare.pop();
      if (store === undefined || store.length < size) store = Buffer.allocUnsafeSlow(storeSize(size));
      return { bytes: store.subarray(0, readInto(fd, store, 0, size, 0)), store };
    } finally {
      closeSync(fd);
    }
  };
  const chunkOf = (chunk: number): ReadChunk => {
    const hit = cache.get(chunk);
    if (hit !== undefined) {
      cache.delete(chunk);
      cache.set(chunk, hit);
      return hit;
    }
    const { path, check } = fileOf(chunk);
    const { bytes, store } = read(path);
    if (check !== undefined && contentHash(bytes) !== check) {
      throw new Error(
        `${path}: not the records its directory's name promises (changed behind the build's back?); remove that directory and build again`,
      );
    }
    const lines = new Uint32Array(chunkSize + 1);
    let n = 0;
    for (let at = bytes.indexOf(NEWLINE); at >= 0; at = bytes.indexOf(NEWLINE, at + 1)) lines[++n] = at + 1;
    const taken = { bytes, lines: lines.subarray(0, n + 1), store };
    cache.set(chunk, taken);
    // The window counts the buffers it holds (an eighth larger than their chunks), not the chunks' bytes: the same memory as before they were reused.
    cached += store.length;
    for (const [old, { store: free }] of cache) {
      if (cached <= windowBytes || old === chunk) break;
      cache.delete(old);
      cached -= free.length;
      spare.push(free);
    }
    return taken;
  };
  /** Visits records [from, to) chunk by chunk: the chunk, and the first and last line in it. */
  const eachSpan = (from: number, to: number, visit: (read: ReadChunk, a: number, b: number) => void): void => {
    for (let i = from; i < to; ) {
      const chunk = Math.floor(i / chunkSize);
      const last = Math.min(to, (chunk + 1) * chunkSize);
      visit(chunkOf(chunk), i - chunk * chunkSize, last - chunk * chunkSize);
      i = last;
    }
  };
  /**
   * The pages' buffers given back (each its own ArrayBuffer), and those lent out: a fresh buffer a
   * page (100,000 of some 6 KB at 1M, 590 MB in all) was external memory that V8 counts toward its
   * old generation's limit until a collection frees it, so that the main thread's heap of some
   * 15 MB took a full collection (a mark-compact) every 20 to 30 MB of pages: the main thread's
   * mark-compacts at 1M 49 and 37, 25 and 29 with the pages' buffers given back (not quiet).
   */
  const sparePages = new SpareBuffers(SPARE_PAGE_BYTES);
  // Weak: a consumer that gives none back (a plain site's writer) leaves its pages to the GC.
  const lent = new WeakSet<ArrayBuffer>();
  const pageOf = (size: number): Buffer => {
    // The last given back (the pages of a shard are alike in size), else a new one an eighth larger.
    let memory = sparePages.pop();
    if (memory === undefined || memory.byteLength < size) memory = new ArrayBuffer(size + (size >> 3));
    lent.add(memory);
    return Buffer.from(memory, 0, size);
  };
  const render: PageBytes = (head, from, to, tail) => {
    let records = 0;
    eachSpan(from, to, ({ lines }, a, b) => (records += (lines[b] ?? 0) - (lines[a] ?? 0)));
    const page = pageOf(head.length + records + tail.length);
    page.set(head, 0);
    let at = head.length;
    eachSpan(from, to, ({ bytes, lines }, a, b) => {
      const [start, end] = [lines[a] ?? 0, lines[b] ?? 0];
      bytes.copy(page, at, start, end);
      // Each record's "\n" becomes the comma of a JSON list.
      for (let k = a + 1; k <= b; k++) page[at + (lines[k] ?? 0) - start - 1] = COMMA;
      at += end - start;
    });
    // The last record's "\n" (now a comma) is where the tail starts.
    const end = head.length + Math.max(0, records - 1);
    page.set(tail, end);
    return page.subarray(0, end + tail.length);
  };
  render.giveBack = (page) => {
    const memory = page.buffer as ArrayBuffer;
    // Only a page lent out and not yet given back (a second call, or another buffer, is ignored).
    if (lent.delete(memory)) sparePages.give(memory);
  };
  return render;
}
