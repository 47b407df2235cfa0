/**
 * The shard writer threads: a whole shard (or a part of a large one) a task, its files written with
 * synchronous fs calls in a thread, hard-linked from the old version where the bytes are the same,
 * its temporary directory renamed into place. The build's write stage (write-site.ts) and the
 * benchmark's probe both write through them.
 */
import { availableParallelism } from "node:os";
import type { ShardFile } from "./hand-offs.ts";
import type { ShardTask } from "./shard-task.ts";
import { startWorkerPool, type WorkerPool } from "../threads/worker-pool.ts";

/**
 * Writer threads: one per core, which on the 2-core machine measured wrote 361k files on tmpfs in
 * ~2.6 s against ~6 s for 64 callback writes in flight (BENCHMARKS.md). Capped because bytes in
 * flight grow with threads and more than 8 were never measured.
 */
const MAX_WRITERS = 8;
/** Shards a writer thread may have out: one being written, one waiting while the main thread assembles the next. */
const SHARDS_PER_WRITER = 2;
const WRITER_ENTRY = new URL("./shard-writer-thread.mjs", import.meta.url);

/** Files of a task (by index) whose bytes are those of the same name in `from`, as their producer knows (hand-offs.ts, VouchedFiles). */
export interface Kept {
  readonly from: string;
  readonly files: readonly number[];
}

/** What a writer thread did with a shard. */
export interface ShardWritten {
  readonly written: number;
  readonly linked: number;
  readonly bytesWritten: number;
  /** The files (by index) hard-linked from the old version; every other one was written. */
  readonly linkedFiles: readonly number[];
}

export interface ShardWriters extends Pick<WorkerPool<ShardTask, ShardWritten>, "room" | "close"> {
  /**
   * Writes `files` into `tmp` in a thread (hard-linked from `old` where the bytes are the same, and
   * those `kept` names linked from its directory unread), then renames `tmp` to `dir` unless it is null.
   * The files' bytes are copied before it returns: their buffers may be used again at once.
   */
  write(files: readonly ShardFile[], tmp: string, dir: string | null, old: string | null, kept?: Kept): Promise<ShardWritten>;
  /** Puts the files `names` of the directory `from` into `tmp` in a thread (linked, or copied), as write puts bytes. */
  place(names: readonly string[], from: string, tmp: string, dir: string | null, old: string | null, kept?: Kept): Promise<ShardWritten>;
}

/**
 * Starts the shard writer threads (the build's and the benchmark probe's): `threads` defaults to
 * one per core. A shard's bytes travel in a buffer that comes back with the answer and is reused:
 * a fresh buffer a shard cost the kernel ~30% more time in page faults (300k subjects).
 */
export function startShardWriters(threads = Math.min(MAX_WRITERS, availableParallelism())): ShardWriters {
  const count = Math.max(1, threads);
  const pool = startWorkerPool<ShardTask, ShardWritten & { readonly buffer: ArrayBuffer }>(WRITER_ENTRY, count, SHARDS_PER_WRITER);
  const free: ArrayBuffer[] = [];
  return {
    async write(files, tmp, dir, old, kept) {
      const ends: number[] = [];
      let size = 0;
      for (const file of files) ends.push((size += file.bytes.length));
      const buffer = bufferFor(free, size);
      const view = new Uint8Array(buffer);
      for (const [i, file] of files.entries()) view.set(file.bytes, i === 0 ? 0 : ends[i - 1]);
      const names = files.map((f) => f.name);
      const sources = files.some((f) => f.from !== undefined) ? files.map((f) => f.from ?? null) : [];
      const task = { buffer, names, ends, tmp, dir, old, from: null, sources, ...keptOf(kept) };
      const { buffer: back, ...written } = await pool.run(task, [buffer]);
      // As many kept as can be out at once, the largest: every later shard then fits one.
      free.push(back);
      free.sort((a, b) => b.byteLength - a.byteLength).splice(count * SHARDS_PER_WRITER);
      return written;
    },
    async place(names, from, tmp, dir, old, kept) {
      const task = { buffer: new ArrayBuffer(0), names, ends: [], tmp, dir, old, from, sources: [], ...keptOf(kept) };
      const { written, linked, bytesWritten, linkedFiles } = await pool.run(task);
      return { written, linked, bytesWritten, linkedFiles };
    },
    room: () => pool.room(),
    close: () => {
      free.length = 0;
      return pool.close();
    },
  };
}

/**
 * A buffer for a task of `size` bytes: the smallest of `free` that holds them, taken out of it, else
 * a new one an eighth larger. A task's part is PART_BYTES and a file (write-site.ts), so parts
 * differ by a few hundred bytes: made to size and taken largest first, a part a little larger than
 * every kept buffer made another, ten of 2 MB for an edit at a million subjects where four are out
 * at most, each page new to the kernel (a page fault each, some 10-20 us on the VM measured).
 */
export function bufferFor(free: ArrayBuffer[], size: number): ArrayBuffer {
  let best = -1;
  for (const [i, b] of free.entries())
    if (b.byteLength >= size && (best < 0 || b.byteLength < (free[best] as ArrayBuffer).byteLength)) best = i;
  if (best >= 0) return free.splice(best, 1)[0] as ArrayBuffer;
  return new ArrayBuffer(Math.ceil((size + (size >> 3)) / 4096) * 4096);
}

function keptOf(kept: Kept | undefined): Pick<ShardTask, "kept" | "keptFrom"> {
  return kept === undefined ? { kept: [], keptFrom: null } : { kept: kept.files, keptFrom: kept.from };
}
