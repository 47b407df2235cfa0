/**
 * Many small files written from worker threads with synchronous fs calls, for the build and the
 * benchmark probe. The callback `fs.writeFile` costs the main thread ~25 µs a file in dispatch and
 * callbacks (open, write, close: three thread-pool round trips), which at 361k files is as much as
 * reading and rendering (BENCHMARKS.md, "Where the time goes now"). Here the main thread only copies
 * each file's bytes into a batch and posts the batch; a thread writes it with `writeFileSync`.
 *
 * Bytes are copied, never transferred one by one: a caller's Buffer may be a slice of a pooled or
 * shared ArrayBuffer that transferring would detach. A batch is one ArrayBuffer (a slab) that goes
 * to a thread and comes back with the reply, so a build reuses a few slabs instead of allocating
 * 2.5 GB. At most BATCHES_PER_THREAD batches per thread are in flight: memory stays flat whatever
 * the disk's speed.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";

/** A batch as a thread receives it: file i is `buffer[ends[i-1] ?? 0, ends[i])`, written to `paths[i]`. */
interface Batch {
  readonly buffer: ArrayBuffer;
  readonly paths: string[];
  readonly ends: number[];
  /** Per file, the previous version to hard-link when it holds the same bytes; null to just write. */
  readonly links: (string | null)[];
}

/** What an fs error keeps when it crosses threads. */
interface ThreadError {
  readonly message: string;
  readonly stack?: string;
  readonly code?: string;
  readonly path?: string;
  readonly syscall?: string;
}

/** A thread's answer to one batch, in the order the batches were sent; the slab comes back with it. */
type Reply = { readonly buffer: ArrayBuffer; readonly linked: Uint8Array } | { readonly buffer: ArrayBuffer; readonly error: ThreadError };

/**
 * Batch size: ~150 pages of ~7 KB, ~3 records chunks. Big enough that one message carries many
 * files, small enough that a few per thread keep both threads fed without holding much memory.
 */
const SLAB_BYTES = 1 << 20;
/** Files in one batch at most, so batches of tiny files still spread over the threads. */
const MAX_FILES = 256;
/** Batches a thread may have queued: one being written, the rest waiting while the main thread fills the next. */
const BATCHES_PER_THREAD = 4;
/**
 * Threads by default: one per core, which on the 2-core machine measured wrote 361k files on tmpfs
 * in ~2.6 s against ~6 s for 64 callback writes in flight. Capped because bytes in flight and
 * thread memory grow with threads and more than 8 were never measured.
 */
const MAX_DEFAULT_THREADS = 8;
const THREAD_URL = new URL("./file-writer-thread.mjs", import.meta.url);

export interface FileWritersOptions<T> {
  /** Worker threads; defaults to one per core (at least 1, at most MAX_DEFAULT_THREADS). */
  readonly threads?: number;
  /** Called on the main thread once each file is on disk: written, or hard-linked from its previous version. */
  onFile(tag: T, linked: boolean, size: number): void;
}

export interface FileWriters<T> {
  /**
   * Queues `bytes` (copied at once) for `path`, or a hard link from `linkFrom` when that file holds
   * the same bytes. Files go out in the order added. Throws the first failure of any thread.
   */
  add(tag: T, path: string, bytes: Uint8Array, linkFrom: string | null): void;
  /** False while the batches in flight are at their bound: await `room()` before adding more. */
  readonly hasRoom: boolean;
  /** Settles when more may be added; rejects with the first failure. */
  room(): Promise<void>;
  /** Sends the batch being filled now, so files do not wait for it to fill up (e.g. while the caller waits for other work). */
  flush(): void;
  /** Sends what is queued; settles once every file added so far is on disk, rejects with the first failure. */
  drain(): Promise<void>;
  /** Stops the threads, mid-batch if need be. Always call it, after a failure too: the threads keep the process alive. */
  close(): Promise<void>;
}

interface Sent<T> {
  readonly batch: Batch;
  readonly tags: T[];
}

interface Thread<T> {
  readonly worker: Worker;
  /** Batches sent and not yet answered, oldest first (a thread answers in order). */
  readonly queue: Sent<T>[];
}

interface Waiter {
  ready(): boolean;
  resolve(): void;
  reject(error: unknown): void;
}

/** Starts a pool of file-writing threads; see the module comment. */
export function startFileWriters<T>(options: FileWritersOptions<T>): FileWriters<T> {
  const count = Math.max(1, Math.floor(options.threads ?? Math.min(MAX_DEFAULT_THREADS, availableParallelism())));
  const limit = count * BATCHES_PER_THREAD;
  const freeSlabs: ArrayBuffer[] = [];
  const waiters: Waiter[] = [];
  let inFlight = 0;
  let failure: { error: unknown } | undefined;
  let closing: Promise<void> | undefined;

  const fail = (error: unknown): void => {
    failure ??= { error };
    for (const waiter of waiters.splice(0)) waiter.reject(failure.error);
  };
  const wake = (): void => {
    for (let i = waiters.length - 1; i >= 0; i--) {
      const waiter = waiters[i] as Waiter;
      if (waiter.ready()) {
        waiters.splice(i, 1);
        waiter.resolve();
      }
    }
  };
  const wait = (ready: () => boolean): Promise<void> => {
    if (failure !== undefined) return Promise.reject(failure.error);
    if (ready()) return Promise.resolve();
    return new Promise((resolve, reject) => waiters.push({ ready, resolve, reject }));
  };

  const answer = (thread: Thread<T>, reply: Reply): void => {
    const sent = thread.queue.shift();
    inFlight -= 1;
    if (reply.buffer.byteLength === SLAB_BYTES) freeSlabs.push(reply.buffer);
    if (sent === undefined) {
      fail(new Error("a file writer thread answered a batch it was never sent"));
    } else if ("error" in reply) {
      fail(threadError(reply.error));
    } else if (failure === undefined) {
      const { ends, paths } = sent.batch;
      for (let i = 0, start = 0; i < paths.length; i++) {
        const end = ends[i] as number;
        options.onFile(sent.tags[i] as T, reply.linked[i] === 1, end - start);
        start = end;
      }
    }
    wake();
  };

  const threads: Thread<T>[] = Array.from({ length: count }, () => {
    // No execArgv: the parent's `--import tsx` would load a TypeScript loader the plain-JS thread does not need.
    const thread: Thread<T> = { worker: new Worker(THREAD_URL, { execArgv: [] }), queue: [] };
    thread.worker.on("message", (reply: Reply) => answer(thread, reply));
    thread.worker.on("error", fail);
    thread.worker.on("exit", (code) => {
      if (closing === undefined) fail(new Error(`a file writer thread stopped (exit code ${code}) before the pool was closed`));
    });
    return thread;
  });

  /** The batch being filled; its slab is taken when the first file arrives. */
  let filling: { view: Buffer; used: number; paths: string[]; ends: number[]; links: (string | null)[]; tags: T[] } | undefined;

  const send = (): void => {
    if (filling === undefined) return;
    const { view, paths, ends, links, tags } = filling;
    filling = undefined;
    const batch: Batch = { buffer: view.buffer as ArrayBuffer, paths, ends, links };
    // The thread with the fewest batches waiting gets the next one (ties: the first).
    const thread = threads.reduce((best, t) => (t.queue.length < best.queue.length ? t : best));
    thread.queue.push({ batch, tags });
    inFlight += 1;
    thread.worker.postMessage(batch, [batch.buffer]);
  };

  const writers: FileWriters<T> = {
    add(tag, path, bytes, linkFrom) {
      if (failure !== undefined) throw failure.error;
      if (filling !== undefined && (filling.used + bytes.length > filling.view.length || filling.paths.length >= MAX_FILES)) send();
      if (filling === undefined) {
        // A file bigger than a slab travels alone in a buffer of its own size (not reused).
        const slab = bytes.length > SLAB_BYTES ? new ArrayBuffer(bytes.length) : (freeSlabs.pop() ?? new ArrayBuffer(SLAB_BYTES));
        filling = { view: Buffer.from(slab), used: 0, paths: [], ends: [], links: [], tags: [] };
      }
      filling.view.set(bytes, filling.used);
      filling.used += bytes.length;
      filling.paths.push(path);
      filling.ends.push(filling.used);
      filling.links.push(linkFrom);
      filling.tags.push(tag);
    },
    get hasRoom() {
      return inFlight < limit;
    },
    room: () => wait(() => inFlight < limit),
    flush: send,
    drain() {
      if (failure === undefined) send();
      return wait(() => inFlight === 0);
    },
    close() {
      closing ??= Promise.all(threads.map((t) => t.worker.terminate())).then(() => undefined);
      return closing;
    },
  };
  return writers;
}

/** An fs error from a thread as an Error of this thread, keeping its code and path for callers and messages. */
function threadError(fields: ThreadError): Error {
  const error: NodeJS.ErrnoException = new Error(fields.message);
  if (fields.stack !== undefined) error.stack = fields.stack;
  if (fields.code !== undefined) error.code = fields.code;
  if (fields.path !== undefined) error.path = fields.path;
  if (fields.syscall !== undefined) error.syscall = fields.syscall;
  return error;
}
