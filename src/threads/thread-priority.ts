/**
 * A thread that starts a thread on the build's critical path gives it the core: the search stage
 * (site/search/search-thread.ts) runs some 12 s of CPU at a million subjects in one thread, and the
 * build ends when it does, while the main thread's own work beside it (the downloads, the pages, 10
 * s or so) has seconds of slack. At equal priority the kernel shared the two cores evenly among
 * the main thread, zlib's pool and the writers, the search thread got ~85% of a core, and the last
 * 4 s of the build ran on one core; with the main thread lowered by YIELD_STEP the same build ended
 * ~2 s sooner (BENCHMARKS.md).
 *
 * On Linux a thread's nice value is its own (setpriority(2) on "process" 0 is the calling thread,
 * a documented departure from POSIX), and a thread takes its creator's at creation: so the threads
 * started before (the search thread, zlib's and the file system's pool) keep theirs, those started
 * after (the site's writers) take the lower one. Elsewhere the whole process is lowered, which
 * changes nothing between its threads. An unprivileged thread cannot raise itself back: the rest of
 * the command runs lowered, which matters only when other processes want the same cores.
 */
import { getPriority, setPriority } from "node:os";

/** Nice steps the main thread yields (a thread at +5 weighs about a third of one at 0 in Linux's scheduler). */
export const YIELD_STEP = 5;

/** Lowers the calling thread by `step` nice steps (at most to 19). A hint: where the system refuses it, nothing changes. */
export function yieldToOwnThreads(step: number = YIELD_STEP): void {
  try {
    setPriority(0, Math.min(19, getPriority(0) + step));
  } catch {
    // Refused (a sandbox's seccomp, another system's rules): the build runs as before, only slower.
  }
}
