// A thread that starts a thread on the build's critical path gives it the core: the search stage
// (site/search/search-thread.ts) runs some 11 s of CPU at a million subjects in one thread, and the
// build ends when it does, while the main thread's own work beside it (rendering the downloads and
// the pages) has seconds of slack. At equal priority the kernel shared the two cores evenly among
// the main thread, zlib's pool, the writers and the search thread, which got 85-95% of a core until
// the pages were written and ended last, alone on one core; with the main thread lowered by
// YIELD_STEP the same build ended about 0.6 s sooner at a million subjects (BENCHMARKS.md; ten
// steps gained no more).
//
// On Linux a thread's nice value is its own (setpriority(2) on "process" 0 is the calling thread,
// a documented departure from POSIX), and a thread takes its creator's at creation: the threads
// started before (the search thread, the record and writer threads, zlib's and the file system's
// pool) keep theirs, and only the main thread's own work is lowered; the shard writers lower
// themselves as they start (site/shard-writer-thread.mjs), their work beside the search thread
// having slack too. Elsewhere the whole process is lowered, which changes nothing between its
// threads. An unprivileged thread cannot raise itself back: the rest of the command runs lowered,
// which matters only when other processes want the same cores.
//
// Plain JavaScript (its types in thread-priority.d.mts) so that the writers' plain entry imports
// the same step and call as the TypeScript that starts the search thread, with no loader.
import { getPriority, setPriority } from "node:os";

/** Nice steps a thread yields (a thread at +5 weighs about a third of one at 0 in Linux's scheduler). */
export const YIELD_STEP = 5;

/**
 * Lowers the calling thread by `step` nice steps (at most to 19). A hint: where the system refuses
 * it, nothing changes.
 * @param {number} [step]
 * @returns {void}
 */
export function yieldToOwnThreads(step = YIELD_STEP) {
  try {
    setPriority(0, Math.min(19, getPriority(0) + step));
  } catch {
    // Refused (a sandbox's seccomp, another system's rules): the build runs as before, only slower.
  }
}
