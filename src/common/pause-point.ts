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
