/**
 * A file written in large blocks while its SHA-256 is computed: the records a merge emits are
 * gathered synchronously and flushed a block at a time, so a million lines cost a few hundred
 * writes, not a million awaits.
 *
 * The bytes added are copied into one of two blocks the writer keeps for its whole file: one is
 * filled while the other is being written, then they change places. A fresh block a flush
 * (Buffer.concat) was a fresh megabyte of memory for the kernel to hand out a megabyte written, some
 * 2 GB of them for the downloads of five million subjects, and a caller's bytes can be reused (or
 * changed) as soon as `add` returns. With one block, each flush waited for its write: the caller
 * (the downloads' main thread) idle a few hundred times a file.
 */
import { createHash, type Hash } from "node:crypto";
import { once } from "node:events";
import { createWriteStream, type WriteStream } from "node:fs";
import { finished } from "node:stream/promises";

const BLOCK = 1 << 20;

export class HashedWriter {
  #out: WriteStream;
  #hash: Hash = createHash("sha256");
  /** The block the bytes gather in (grown, rarely, for bytes added past a full block before a flush). */
  #block: Buffer = Buffer.allocUnsafeSlow(2 * BLOCK);
  /** The other block: being written, or free once `#writing` has resolved (made at the first flush). */
  #other: Buffer | null = null;
  /** The other block's write. */
  #writing: Promise<void> = Promise.resolve();
  #pending = 0;
  /** Bytes written so far. */
  bytes = 0;

  constructor(path: string) {
    // A high-water mark of one byte: every write waits for "drain", so a block is on disk (no longer the stream's) before it is filled again.
    this.#out = createWriteStream(path, { highWaterMark: 1 });
  }

  /** Adds bytes (copied: the caller may reuse them once this returns). */
  add(bytes: Uint8Array): void {
    const need = this.#pending + bytes.length;
    if (need > this.#block.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(need, 2 * this.#block.length));
      this.#block.copy(grown, 0, 0, this.#pending);
      this.#block = grown;
    }
    this.#block.set(bytes, this.#pending);
    this.#pending = need;
    this.bytes += bytes.length;
  }

  /** Is a block gathered (time to `flush`)? */
  get full(): boolean {
    return this.#pending >= BLOCK;
  }

  /** Starts writing the bytes gathered; resolves once the block they go on gathering in is free (its own write done). */
  async flush(): Promise<void> {
    if (this.#pending === 0) return;
    const block = this.#block.subarray(0, this.#pending);
    this.#pending = 0;
    this.#hash.update(block);
    // The other block's write done: it is filled next, while this one is written.
    await this.#writing;
    this.#writing = this.#write(block);
    // Awaited by the next flush or by end(); the file's failure is theirs to report (or the caller's, who destroys it).
    this.#writing.catch(() => undefined);
    const free = this.#other ?? Buffer.allocUnsafeSlow(this.#block.length);
    this.#other = this.#block;
    this.#block = free;
  }

  /** Waits for whatever the stream answers: the block is filled again once it has. */
  async #write(block: Buffer): Promise<void> {
    if (!this.#out.write(block)) await once(this.#out, "drain");
  }

  /** Flushes, closes the file; its SHA-256 (hex). */
  async end(): Promise<string> {
    await this.flush();
    await this.#writing;
    this.#out.end();
    await finished(this.#out);
    return this.#hash.digest("hex");
  }

  /**
   * Closes the file without finishing it (the caller removes it), once it is closed: a stream
   * destroyed while its file is still being opened creates the file after, and would put it back
   * beside a copy the caller has just cleaned up.
   */
  async destroy(): Promise<void> {
    if (this.#out.closed) return;
    const closed = once(this.#out, "close");
    this.#out.destroy();
    await closed;
  }
}

/** Writes the byte chunks to `path`: their SHA-256 (hex) and size. */
export async function writeHashed(chunks: AsyncIterable<Uint8Array>, path: string): Promise<{ sha256: string; bytes: number }> {
  const out = new HashedWriter(path);
  try {
    for await (const chunk of chunks) {
      out.add(chunk);
      if (out.full) await out.flush();
    }
  } catch (error) {
    await out.destroy();
    throw error;
  }
  return { sha256: await out.end(), bytes: out.bytes };
}
