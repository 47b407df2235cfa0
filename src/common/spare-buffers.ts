/**
 * Buffers given back once their bytes were copied, kept to be written into again rather than
 * made afresh: a fresh buffer a page or block is memory the kernel zeroes and faults in, and
 * external memory that V8 counts toward the main thread's old generation until a collection frees
 * it (docs/architecture.md, "A Buffer dropped costs a full collection"). The pool keeps what it is
 * given up to a number of bytes; which buffer to take, and which to give, is its callers' choice
 * (the record threads' texts and rendered blocks, data/read/record-threads.ts; the pages read back
 * from chunk files, site/read-chunks.ts).
 */
export class SpareBuffers {
  readonly #maxBytes: number;
  readonly #spares: ArrayBuffer[] = [];
  #kept = 0;

  /** Keeps at most `maxBytes` of buffers given back. */
  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  /** The buffer given back last (no longer kept), or none. */
  pop(): ArrayBuffer | undefined {
    return this.#taken(this.#spares.pop());
  }

  /** The smallest buffer kept of `size` bytes or more (the first given back of those alike; no longer kept), or none. */
  fitting(size: number): ArrayBuffer | undefined {
    let best = -1;
    for (const [i, spare] of this.#spares.entries())
      if (spare.byteLength >= size && (best < 0 || spare.byteLength < (this.#spares[best] as ArrayBuffer).byteLength)) best = i;
    return best < 0 ? undefined : this.#taken(this.#spares.splice(best, 1)[0]);
  }

  /** Keeps `buffer` (nothing else may hold it) unless that would keep more than the bytes allowed; whether it was kept. */
  give(buffer: ArrayBuffer): boolean {
    if (this.#kept + buffer.byteLength > this.#maxBytes) return false;
    this.#spares.push(buffer);
    this.#kept += buffer.byteLength;
    return true;
  }

  /** Keeps none: those kept are left to the GC. */
  clear(): void {
    this.#spares.length = 0;
    this.#kept = 0;
  }

  #taken(buffer: ArrayBuffer | undefined): ArrayBuffer | undefined {
    if (buffer !== undefined) this.#kept -= buffer.byteLength;
    return buffer;
  }
}
