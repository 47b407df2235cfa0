// The thread that makes the search thread's files in the scratch directory (file-thread.ts): each
// message is a piece of one file, `{ path, at, size, free, last }` (its bytes at `at` in the shared
// ring), its first piece opening it and the last closing it; what it has written it takes off the
// shared counters (`free` bytes of the ring), so that the search thread, whose
// synchronous stage never turns its event loop, bounds its bytes in flight and waits for the last
// file by Atomics alone. Plain JavaScript, so that it starts without a TypeScript loader (as
// shard-writer-thread.mjs).
import { closeSync, openSync, writeSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";

/** The counters' places in `state` (file-thread.ts names the same). */
const BYTES = 0;
const MESSAGES = 1;
const FAILED = 2;

const { state, ring, errors } = /** @type {{ state: Int32Array, ring: Uint8Array, errors: MessagePort }} */ (workerData);
if (parentPort === null) throw new Error("the file thread runs as a worker thread (file-thread.ts starts it)");

let fd = -1;
let failed = false;
parentPort.on(
  "message",
  (/** @type {{ path: string, at: number, size: number, free: number, last: boolean }} */ { path, at, size, free, last }) => {
    try {
      if (!failed) {
        if (fd < 0) fd = openSync(path, "w");
        for (let done = 0; done < size; ) done += writeSync(fd, ring, at + done, size - done);
        if (last) {
          const done = fd;
          fd = -1;
          closeSync(done);
        }
      }
    } catch (error) {
      // The first failure only; every later piece is taken off the counters unwritten, so that the
      // search thread, which throws this one at its next file or wait, never waits for it.
      failed = true;
      if (fd >= 0) closeQuietly(fd);
      fd = -1;
      // Plain fields: structured clone keeps an Error's message but not its code or path. Posted before the flag is set, so that whoever sees the flag finds it.
      const { message, stack, code, path: where, syscall } = /** @type {NodeJS.ErrnoException} */ (error);
      errors.postMessage({ message: message ?? String(error), stack, code, path: where, syscall });
      Atomics.store(state, FAILED, 1);
    } finally {
      Atomics.sub(state, BYTES, free);
      Atomics.sub(state, MESSAGES, 1);
      Atomics.notify(state, BYTES);
      Atomics.notify(state, MESSAGES);
    }
  },
);

/** @param {number} at */
function closeQuietly(at) {
  try {
    closeSync(at);
  } catch {
    // Already failing: the first error is the one told.
  }
}
