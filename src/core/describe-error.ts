/** An error's message, for a detail or a log line (whatever was thrown). */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
