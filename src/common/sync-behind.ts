/**
 * A large file's bytes sent to the disk while it is still being written, from the thread pool.
 *
 * ext4 allocates a written file's blocks only when its pages go to the disk (delayed allocation),
 * and a rename that replaces a file (`auto_da_alloc`) first sends every page of the file renamed
 * over it, in the thread that renames. The downloads' stable names are renamed over the old ones in
 * the site's synchronous switch: the main thread spent 118 ms there for a new NDJSON of 286 MB, 211
 * ms for the three downloads of an edit at a million subjects. An `fdatasync` started every 32 MB
 * written, one at a time, does that work meanwhile in the thread pool (a 286 MB file was written
 * in 198 ms instead of 186 ms, and renamed over another in 0 ms instead of 121 ms); the file is on
 * the disk, but for its last few megabytes, before the manifest names it.
 */
import { fdatasync, type WriteStream } from "node:fs";

const EVERY = 32 << 20;

/** Syncs started (for the tests). */
export const syncsStarted = { count: 0 };

type Sync = (fd: number, done: (error: Error | null) => void) => void;

export class SyncBehind {
  readonly #out: WriteStream;
  readonly #sync: Sync;
  #since = 0;
  #syncing: Promise<void> | null = null;

  /** `sync`: fdatasync, or a test's stand-in. */
  constructor(out: WriteStream, sync: Sync = fdatasync) {
    this.#out = out;
    this.#sync = sync;
  }

  /** Counts `bytes` handed to the stream; a sync starts once 32 MB have been since the last, unless one is running. */
  wrote(bytes: number): void {
    this.#since += bytes;
    const fd = this.#out.fd;
    if (this.#since < EVERY || this.#syncing !== null || typeof fd !== "number" || this.#out.destroyed) return;
    this.#since = 0;
    syncsStarted.count++;
    this.#syncing = new Promise<void>((resolve) => {
      // A failing sync is no failure of the file: its writes report their own errors, and the rename sends what is left.
      this.#sync(fd, () => {
        this.#syncing = null;
        resolve();
      });
    });
  }

  /** Waits for the running sync, if any: called before the stream closes its file. */
  async settled(): Promise<void> {
    await this.#syncing;
  }
}
