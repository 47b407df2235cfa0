/** The errors the code reports: one base class for the known failures, and how anything thrown is described. */

/** The base of every error the CLI reports as a known failure: one line, with what to do. */
export class SubjektiError extends Error {
  /** A stable name for the kind of failure (`NO_SITE`, `DATA`, ...). */
  readonly code: string;
  /**
   * The line as a message of the catalogue (src/common/messages), so the CLI can say it in the
   * maintainer's language; `message` holds it in English, for logs and stacks.
   */
  readonly text: { readonly key: string; readonly params?: unknown } | undefined;
  constructor(code: string, message: string, text?: { readonly key: string; readonly params?: unknown }) {
    super(message);
    this.code = code;
    this.text = text;
    this.name = "SubjektiError";
  }
}

/** An error's message, for a detail or a log line (whatever was thrown). */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
