// The thread behind the shard writers (src/site/shard-writers.ts): writes a whole shard with
// synchronous fs calls into its temporary directory, then renames that into place. Plain
// JavaScript so that the thread starts without a TypeScript loader (~35 ms instead of ~170 ms with
// tsx registered) under the CLI, tsx and vitest alike; the task's shape is `ShardTask` in shard-task.ts.
import { closeSync, copyFileSync, fstatSync, linkSync, openSync, readSync, renameSync, statSync, writeFileSync } from "node:fs";
import { answerTasks } from "../threads/pool-thread.mjs";
import { yieldToOwnThreads } from "../threads/thread-priority.mjs";

// The writers yield to the search thread as the main thread does (threads/thread-priority.mjs): the
// search stage is the build's longest path, and what the writers do beside it (making the pages'
// files) has seconds of slack. At equal priority they took its core from it: lowered, a full 1M
// build ended 1.2 s sooner (medians of 6 rounds in turn, 17.6 s against 18.8 s).
yieldToOwnThreads();

/** Link errors that mean "this file system cannot hard-link here": write the bytes instead. */
const NO_LINK = new Set(["EXDEV", "EPERM", "ENOTSUP", "EMLINK", "EOPNOTSUPP"]);
/** Bytes of two files compared at a time (a file already on disk is never read in whole). */
const PIECE = 1 << 20;
/**
 * The thread's two pieces, made once: two fresh megabytes a file compared (some 8,000 files an edit
 * at 1M) made the threads' garbage collector as busy as their reads (profile).
 */
const [PIECE_A, PIECE_B] = [Buffer.allocUnsafeSlow(PIECE), Buffer.allocUnsafeSlow(PIECE)];

answerTasks((/** @type {import("./shard-task.ts").ShardTask} */ task) => {
  const { buffer, names, ends, tmp, dir, old, from, kept, keptFrom, sources } = task;
  const bytes = Buffer.from(buffer);
  /** @type {number[]} */
  const linkedFiles = [];
  let bytesWritten = 0;
  // The files their producer vouches for: linked from where they are, never read.
  const vouched = new Set(keptFrom === null ? [] : kept);
  for (const i of vouched) {
    const name = /** @type {string} */ (names[i]);
    linkOrCopy(`${keptFrom}/${name}`, `${tmp}/${name}`);
    linkedFiles.push(i);
  }
  for (let i = 0; from !== null && i < names.length; i++) {
    if (vouched.has(i)) continue;
    const name = /** @type {string} */ (names[i]);
    const source = `${from}/${name}`;
    if (old !== null && linkIfSame(`${old}/${name}`, `${tmp}/${name}`, (path) => sameBytes(path, source))) linkedFiles.push(i);
    else bytesWritten += place(source, `${tmp}/${name}`);
  }
  for (let i = 0, start = 0; from === null && i < names.length; i++) {
    const end = /** @type {number} */ (ends[i]);
    const view = bytes.subarray(start, end);
    const name = /** @type {string} */ (names[i]);
    if (vouched.has(i)) {
      start = end;
      continue;
    }
    const source = sources[i] ?? null;
    if (source !== null) {
      // Its bytes are a file already (the build cache's): the old version's file when it is that file or holds its bytes, else that file.
      if (old !== null && linkIfSame(`${old}/${name}`, `${tmp}/${name}`, (path) => sameFile(path, source) || sameBytes(path, source))) {
        linkedFiles.push(i);
      } else {
        bytesWritten += place(source, `${tmp}/${name}`);
      }
      start = end;
      continue;
    }
    // Plain concatenation: path.join's normalising was measurable at 361k files (profile).
    if (old !== null && linkIfSame(`${old}/${name}`, `${tmp}/${name}`, (path) => holds(path, view))) {
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
  linkedFiles.sort((a, b) => a - b);
  return { result: { linked, written: names.length - linked, bytesWritten, linkedFiles, buffer }, transfer: [buffer] };
});

/**
 * Hard-links `old` to `target` when `same(old)` says it holds the new file's bytes; false when it
 * does not, is missing, or cannot be linked.
 * @param {string} old
 * @param {string} target
 * @param {(old: string) => boolean} same
 */
function linkIfSame(old, target, same) {
  let matches;
  try {
    matches = same(old);
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code === "ENOENT") return false;
    throw error;
  }
  if (!matches) return false;
  try {
    linkSync(old, target);
    return true;
  } catch (error) {
    if (NO_LINK.has(/** @type {NodeJS.ErrnoException} */ (error).code ?? "")) return false;
    throw error;
  }
}

/**
 * Puts the file `source` at `target`: a hard link (the scratch directory's file becomes the site's),
 * else a copy the kernel makes; its size.
 * @param {string} source
 * @param {string} target
 */
function place(source, target) {
  linkOrCopy(source, target);
  return statSync(target).size;
}

/**
 * Hard-links `source` to `target`, or where the file system cannot, copies it.
 * @param {string} source
 * @param {string} target
 */
function linkOrCopy(source, target) {
  try {
    linkSync(source, target);
  } catch (error) {
    if (!NO_LINK.has(/** @type {NodeJS.ErrnoException} */ (error).code ?? "")) throw error;
    copyFileSync(source, target);
  }
}

/**
 * Are `a` and `b` one file (two links to it)?
 * @param {string} a
 * @param {string} b
 */
function sameFile(a, b) {
  const [x, y] = [statSync(a), statSync(b)];
  return x.ino === y.ino && x.dev === y.dev;
}

/**
 * Do the files `old` and `source` hold exactly the same bytes? Compared a piece at a time.
 * @param {string} old
 * @param {string} source
 */
function sameBytes(old, source) {
  const a = openSync(old, "r");
  try {
    const b = openSync(source, "r");
    try {
      const size = fstatSync(a).size;
      if (fstatSync(b).size !== size) return false;
      for (let at = 0; at < size; at += PIECE) {
        const n = Math.min(PIECE, size - at);
        readFully(a, PIECE_A, n, at);
        readFully(b, PIECE_B, n, at);
        if (!PIECE_A.subarray(0, n).equals(PIECE_B.subarray(0, n))) return false;
      }
      return true;
    } finally {
      closeSync(b);
    }
  } finally {
    closeSync(a);
  }
}

/**
 * Does the file `old` hold exactly `bytes`? Its size first (a file of another size is not read),
 * then a piece at a time.
 * @param {string} old
 * @param {Uint8Array} bytes
 */
function holds(old, bytes) {
  const fd = openSync(old, "r");
  try {
    const size = fstatSync(fd).size;
    if (size !== bytes.length) return false;
    for (let at = 0; at < size; at += PIECE) {
      const n = Math.min(PIECE, size - at);
      readFully(fd, PIECE_A, n, at);
      if (!PIECE_A.subarray(0, n).equals(bytes.subarray(at, at + n))) return false;
    }
    return true;
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads `length` bytes at `position` of `fd` into the start of `into`.
 * @param {number} fd
 * @param {Buffer} into
 * @param {number} length
 * @param {number} position
 */
function readFully(fd, into, length, position) {
  for (let done = 0; done < length; ) {
    const n = readSync(fd, into, done, length - done, position + done);
    if (n === 0) throw new Error(`a file ended early while it was compared (changed behind the build's back?)`);
    done += n;
  }
}
