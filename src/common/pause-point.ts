/**
 * A named point a process test stops a command at, so that it signals the command midway by
 * construction rather than by a guessed delay: when SUBJEKTI_PAUSE_AT names the point, the process
 * says so on stderr and waits there, its signal handlers in place, until a signal ends it, or until
 * SIGUSR2 lets it go on (a test that starts a second command while the first holds its output, then
 * lets the first finish). With the variable unset (every real run) it returns at once. In a worker
 * thread, which receives no signals, only the process's end ends the wait.
 */
export async function pauseAt(point: string): Promise<void> {
  if (process.env["SUBJEKTI_PAUSE_AT"] !== point) return;
  // The resume is listened for before the line is written: a test sends it once it reads the line.
  await new Promise<void>((resume) => {
    // A timer keeps the event loop alive: the process waits for its signal, not for nothing.
    const alive = setInterval(() => undefined, 60_000);
    process.once("SIGUSR2", () => {
      clearInterval(alive);
      resume();
    });
    process.stderr.write(`subjekti: paused at ${point}\n`);
  });
}

/**
 * A named point a process test makes a command fail at, as a bug or a full disk would fail it there:
 * when SUBJEKTI_FAIL_AT names the point, it throws. Reaches a failure where no input can cause one
 * (inside a worker thread: the search thread's, search-thread.ts). With the variable unset it returns.
 */
export function failAt(point: string): void {
  if (process.env["SUBJEKTI_FAIL_AT"] === point) throw new Error(`a failure injected at ${point} (SUBJEKTI_FAIL_AT)`);
}
