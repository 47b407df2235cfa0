/**
 * A file written in large blocks while its SHA-256 is computed: the records a merge emits are
 * gathered synchronously and flushed a block at a time, so a million lines cost a few hundred
 * writes, not a million awaits.
 */
import { createHash, type Hash } from "node:crypto";
import { once } from "node:events";
import { createWriteStream, type WriteStream } from "node:fs";
import { finished } from "node:stream/promises";

const BLOCK = 1 << 20;

export class HashedWriter {
  #out: WriteStream;
  #hash: Hash = createHash("sha256");
  #parts: Uint8Array[] = [];
  #pending = 0;
  /** Bytes written so far. */
  bytes = 0;

  constructor(path: string) {
    this.#out = createWriteStream(path);
  }

  /** Adds bytes (kept by reference until the next flush: the caller must not change them). */
  add(bytes: Uint8Array): void {
    this.#parts.push(bytes);
    this.#pending += bytes.length;
    this.bytes += bytes.length;
  }

  /** Is a block gathered (time to `flush`)? */
  get full(): boolean {
    return this.#pending >= BLOCK;
  }

  async flush(): Promise<void> {
    if (this.#pending === 0) return;
    const block = Buffer.concat(this.#parts, this.#pending);
    this.#parts = [];
    this.#pending = 0;
    this.#hash.update(block);
    if (!this.#out.write(block)) await once(this.#out, "drain");
  }

  /** Flushes, closes the file; its SHA-256 (hex). */
  async end(): Promise<string> {
    await this.flush();
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
