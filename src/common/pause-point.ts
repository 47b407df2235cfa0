/**
 * A named point a process test stops a command at, so that it signals the command midway by
 * construction rather than by a guessed delay: when SUBJEKTI_PAUSE_AT names the point, the process
 * says so on stderr and waits there, its signal handlers in place, until a signal ends it. With the
 * variable unset (every real run) it returns at once.
 */
export async function pauseAt(point: string): Promise<void> {
  if (process.env["SUBJEKTI_PAUSE_AT"] !== point) return;
  process.stderr.write(`subjekti: paused at ${point}\n`);
  // A timer keeps the event loop alive: the process waits for its signal, not for nothing.
  await new Promise<never>(() => setInterval(() => undefined, 60_000));
}

/**
 * A named point a process test makes a command fail at, as a bug or a full disk would fail it there:
 * when SUBJEKTI_FAIL_AT names the point, it throws. Reaches a failure where no input can cause one
 * (inside a worker thread: the search thread's, search-thread.ts). With the variable unset it returns.
 */
export function failAt(point: string): void {
  if (process.env["SUBJEKTI_FAIL_AT"] === point) throw new Error(`a failure injected at ${point} (SUBJEKTI_FAIL_AT)`);
}
