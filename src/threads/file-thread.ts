/**
 * Files made by a thread of their own (file-thread-entry.mjs) for a synchronous producer: the search
 * thread's (site/search/spilled-shard.ts), so that the kernel's file creation is off the build's
 * critical path. At a million subjects that thread makes 7,366 files (235 MB), each opened, written
 * whole and closed in the scratch directory, which the page writers then link into the site: 0.5
 * to 1.3 s of its system time, more on a machine that has just deleted a site (ext4 without a
 * journal passes over the inodes freed in the last seconds to make one; docs/search.md, "In the
 * build"), while it is the last thing running.
 *
 * The stage is synchronous and never turns its event loop, so it learns nothing from messages: each
 * file's bytes are copied into a ring of shared memory (the caller may reuse its buffers at once;
 * one ring, so that no page of it is new to the kernel after its first turn), named in a message
 * and counted in a shared counter, which the file thread counts down as it writes. The stage waits
 * by Atomics while more than MAX_BYTES are in flight, and for the last file before anything reads
 * a file it made (SpilledShard.pathOf) or its shards cross to the main thread. The file thread's
 * first failure is thrown by the stage at its next file or wait, with its code and path.
 */
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from "node:worker_threads";

/** Bytes of files handed over and not yet written, at most: a few MB beside the stage's peak. */
export const MAX_BYTES = 4 << 20;
/** A message's bytes at most: a larger file (the order files' 4 bytes a subject) goes in pieces. */
const PIECE = 1 << 20;

/** The counters' places in the shared array (file-thread-entry.mjs names the same). */
const BYTES = 0;
const MESSAGES = 1;
const FAILED = 2;

const ENTRY = new URL("./file-thread-entry.mjs", import.meta.url);

export class FileThread {
  /** The file thread, started at the first file (the patch of an edit may make none). */
  #worker: Worker | undefined;
  readonly #state = new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT));
  /** The bytes handed over: a ring, written here at #head and freed by the thread in the same order. */
  readonly #ring = new Uint8Array(new SharedArrayBuffer(MAX_BYTES));
  #head = 0;
  /** Bytes skipped at the ring's end before the piece being filled, freed with it. */
  #skipped = 0;
  #errors: MessagePort | undefined;
  /** The file thread's failure, once seen. */
  #failure: Error | undefined;

  /**
   * Whether the ring has room for a file's first piece now: when it has not (the thread behind, its
   * CPU taken by the build's other threads or other processes), the producer makes that file itself,
   * as it would without a thread, rather than wait for it.
   */
  hasRoom(): boolean {
    this.#check();
    const skip = this.#head + PIECE > MAX_BYTES ? MAX_BYTES - this.#head : 0;
    return Atomics.load(this.#state, BYTES) + skip + PIECE <= MAX_BYTES;
  }

  /** Makes the file `path` of the bytes of `parts` in the thread; `seen` is given each part before the next is asked for (its hash). */
  make(path: string, parts: Iterable<Uint8Array>, seen: (part: Uint8Array) => void): void {
    let at = -1;
    let size = 0;
    for (const part of parts) {
      seen(part);
      for (let from = 0; from < part.length; ) {
        if (at < 0) at = this.#room();
        const n = Math.min(part.length - from, PIECE - size);
        this.#ring.set(part.subarray(from, from + n), at + size);
        size += n;
        from += n;
        if (size === PIECE) {
          this.#post(path, at, size, false);
          [at, size] = [-1, 0];
        }
      }
    }
    this.#post(path, at < 0 ? this.#head : at, size, true);
  }

  /** Returns once every file asked for is made; throws the file thread's failure. */
  drain(): void {
    for (let out = Atomics.load(this.#state, MESSAGES); out > 0; out = Atomics.load(this.#state, MESSAGES)) {
      this.#check();
      Atomics.wait(this.#state, MESSAGES, out);
    }
    this.#check();
  }

  /** Stops the thread (once drained, or when the stage failed). */
  async close(): Promise<void> {
    this.#errors?.close();
    await this.#worker?.terminate();
  }

  /**
   * Where the next piece (PIECE bytes at most) goes in the ring, once that much is free: at #head,
   * or at the ring's start when it would not fit before its end (the bytes skipped are counted as
   * in flight with the piece, and freed with it).
   */
  #room(): number {
    const wrap = this.#head + PIECE > MAX_BYTES;
    const skip = wrap ? MAX_BYTES - this.#head : 0;
    this.#check();
    for (let out = Atomics.load(this.#state, BYTES); out + skip + PIECE > MAX_BYTES; out = Atomics.load(this.#state, BYTES)) {
      Atomics.wait(this.#state, BYTES, out);
      this.#check();
    }
    if (wrap) {
      Atomics.add(this.#state, BYTES, skip);
      this.#skipped = skip;
      this.#head = 0;
    }
    return this.#head;
  }

  #post(path: string, at: number, size: number, last: boolean): void {
    const free = size + this.#skipped;
    this.#skipped = 0;
    Atomics.add(this.#state, BYTES, size);
    Atomics.add(this.#state, MESSAGES, 1);
    this.#head = at + size;
    this.#thread().postMessage({ path, at, size, free, last });
  }

  #thread(): Worker {
    if (this.#worker !== undefined) return this.#worker;
    const { port1, port2 } = new MessageChannel();
    this.#errors = port1;
    const workerData = { state: this.#state, ring: this.#ring, errors: port2 };
    // No execArgv: the entry is plain JavaScript (the parent's `--import tsx` would load it for nothing).
    return (this.#worker = new Worker(ENTRY, { execArgv: [], workerData, transferList: [port2] }));
  }

  #check(): void {
    if (this.#failure !== undefined) throw this.#failure;
    if (Atomics.load(this.#state, FAILED) === 0) return;
    const fields = (this.#errors && receiveMessageOnPort(this.#errors))?.message as
      | { message: string; stack?: string; code?: string; path?: string; syscall?: string }
      | undefined;
    const error: NodeJS.ErrnoException = new Error(fields?.message ?? "the file thread failed");
    if (fields?.stack !== undefined) error.stack = fields.stack;
    if (fields?.code !== undefined) error.code = fields.code;
    if (fields?.path !== undefined) error.path = fields.path;
    if (fields?.syscall !== undefined) error.syscall = fields.syscall;
    throw (this.#failure = error);
  }
}
