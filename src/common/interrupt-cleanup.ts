/**
 * What a command removes when SIGINT or SIGTERM stops it: each stage that makes a temporary file
 * or directory registers how to remove it, and unregisters once it is gone or in place. The
 * cleanups are synchronous on purpose: the CLI runs them from the signal handler and exits at once,
 * so no stage of the stopped command runs between a cleanup and the exit and makes another file.
 */

const cleanups = new Set<() => void>();

/** Registers `cleanup` to run if the command is stopped by a signal; returns its unregistration. */
export function cleanUpOnInterrupt(cleanup: () => void): () => void {
  cleanups.add(cleanup);
  return () => void cleanups.delete(cleanup);
}

/**
 * Runs every registered cleanup, the latest first (a lock, taken first, is released last, after
 * the files it guarded are gone); returns the errors of those that failed, as one line each.
 */
export function runInterruptCleanups(): string[] {
  const failed: string[] = [];
  for (const cleanup of [...cleanups].reverse()) {
    cleanups.delete(cleanup);
    try {
      cleanup();
    } catch (error) {
      failed.push(error instanceof Error ? error.message : String(error));
    }
  }
  return failed;
}
