// The thread behind the shard writers (src/site/shard-writers.ts): writes a whole shard with
// synchronous fs calls into its temporary directory, then renames that into place. Plain
// JavaScript so that the thread starts without a TypeScript loader (~35 ms instead of ~170 ms with
// tsx registered) under the CLI, tsx and vitest alike; the task's shape is `ShardTask` in shard-task.ts.
import { linkSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { answerTasks } from "../threads/pool-thread.mjs";

/** Link errors that mean "this file system cannot hard-link here": write the bytes instead. */
const NO_LINK = new Set(["EXDEV", "EPERM", "ENOTSUP", "EMLINK", "EOPNOTSUPP"]);

answerTasks((/** @type {import("./shard-task.ts").ShardTask} */ task) => {
  const { buffer, names, ends, tmp, dir, old } = task;
  const bytes = Buffer.from(buffer);
  /** @type {number[]} */
  const linkedFiles = [];
  let bytesWritten = 0;
  for (let i = 0, start = 0; i < names.length; i++) {
    const end = /** @type {number} */ (ends[i]);
    const view = bytes.subarray(start, end);
    const name = /** @type {string} */ (names[i]);
    // Plain concatenation: path.join's normalising was measurable at 361k files (profile).
    if (old !== null && linkIfSame(`${old}/${name}`, view, `${tmp}/${name}`)) {
      linkedFiles.push(i);
    } else {
      writeFileSync(`${tmp}/${name}`, view);
      bytesWritten += view.length;
    }
    start = end;
  }
  if (dir !== null) renameSync(tmp, dir);
  // The buffer goes back to be reused for the next shard.
  const linked = linkedFiles.length;
  return { result: { linked, written: names.length - linked, bytesWritten, linkedFiles, buffer }, transfer: [buffer] };
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
