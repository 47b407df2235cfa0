// The thread behind src/build/file-writers.ts: writes batches of files with synchronous fs calls.
// Plain JavaScript so that the thread starts without a TypeScript loader (~35 ms instead of ~170 ms
// with tsx registered) under the CLI, tsx and vitest alike; the message shapes are declared in
// file-writers.ts (`Batch`, `Reply`).
import { linkSync, readFileSync, writeFileSync } from "node:fs";
import { parentPort } from "node:worker_threads";

/** Link errors that mean "this file system cannot hard-link here": write the bytes instead. */
const NO_LINK = new Set(["EXDEV", "EPERM", "ENOTSUP", "EMLINK", "EOPNOTSUPP"]);

if (parentPort === null) throw new Error("file-writer-thread.mjs runs as a worker thread (src/build/file-writers.ts starts it)");
const port = parentPort;

port.on("message", (/** @type {{ buffer: ArrayBuffer, paths: string[], ends: number[], links: (string | null)[] }} */ batch) => {
  const { buffer, paths, ends, links } = batch;
  const bytes = Buffer.from(buffer);
  const linked = new Uint8Array(paths.length);
  try {
    let start = 0;
    for (let i = 0; i < paths.length; i++) {
      const end = /** @type {number} */ (ends[i]);
      const path = /** @type {string} */ (paths[i]);
      const view = bytes.subarray(start, end);
      const old = links[i] ?? null;
      if (old !== null && linkIfSame(old, view, path)) linked[i] = 1;
      else writeFileSync(path, view);
      start = end;
    }
    port.postMessage({ buffer, linked }, [buffer, linked.buffer]);
  } catch (error) {
    // The error crosses as plain fields: structured clone keeps an Error's message but not its code.
    const { message, stack, code, path, syscall } = /** @type {NodeJS.ErrnoException} */ (error);
    port.postMessage({ buffer, error: { message, stack, code, path, syscall } }, [buffer]);
  }
});

/**
 * Hard-links `old` to `target` when `old` holds exactly `bytes`; false when it does not or cannot.
 * @param {string} old
 * @param {Uint8Array} bytes
 * @param {string} target
 */
function linkIfSame(old, bytes, target) {
  let current;
  try {
    current = readFileSync(old);
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code === "ENOENT") return false;
    throw error;
  }
  if (!current.equals(bytes)) return false;
  try {
    linkSync(old, target);
    return true;
  } catch (error) {
    if (NO_LINK.has(/** @type {NodeJS.ErrnoException} */ (error).code ?? "")) return false;
    throw error;
  }
}
