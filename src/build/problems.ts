/**
 * Problems found in the source data, and the one error that ends a build because of them.
 * Every problem is located (file, record or line, field) and says what was found, what was
 * expected and, where one helps, a hint; the build collects them all and fails once.
 */

export type Severity = "error" | "warning";

export interface Problem {
  readonly severity: Severity;
  /** The file, relative to the working directory, as the maintainer named it. */
  readonly file: string;
  /** The record's index in a JSON array (0-based), shown as `file[12]`. */
  readonly index?: number;
  /** The line in an NDJSON or CSV file (1-based; a CSV record's first line), shown as `file:118`. */
  readonly line?: number;
  /** The field, when the problem is one field's. */
  readonly field?: string;
  /** The offending value, shortened for display. */
  readonly value?: string;
  /** What the field or record should have been. */
  readonly expected: string;
  /** What probably went wrong, or how to fix it. */
  readonly hint?: string;
}

/** The base of every error the CLI reports as a known failure (exit 1, one line per problem). */
export class SubjektiError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = "SubjektiError";
    this.code = code;
  }
}

/** The data has errors: every one of them is in `problems` (warnings too, for the report). */
export class DataError extends SubjektiError {
  readonly problems: readonly Problem[];
  constructor(problems: readonly Problem[]) {
    const errors = problems.filter((p) => p.severity === "error").length;
    super("INVALID_DATA", `${errors} error${errors === 1 ? "" : "s"} in the data; nothing was written`);
    this.name = "DataError";
    this.problems = problems;
  }
}

const MAX_VALUE_LENGTH = 60;

/** A value as a problem line shows it: JSON-quoted, shortened to MAX_VALUE_LENGTH characters. */
export function showValue(value: unknown): string {
  const text = value === undefined ? "nothing" : JSON.stringify(value) ?? String(value);
  return text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH - 1)}…` : text;
}

/** Where a problem is: `data/x.json[12]`, `data/x.csv:118`, or the file alone. */
export function formatLocation(place: Pick<Problem, "file" | "index" | "line">): string {
  return place.index !== undefined ? `${place.file}[${place.index}]`
    : place.line !== undefined ? `${place.file}:${place.line}`
    : place.file;
}

/** One line: `data/x.json[12]: …` or `data/x.csv:118: oib: expected 11 digits, got "2735615212" (leading zero lost?)`. */
export function formatProblem(problem: Problem): string {
  const where = formatLocation(problem);
  const field = problem.field === undefined ? "" : ` ${problem.field}:`;
  const got = problem.value === undefined ? "" : `, got ${problem.value}`;
  const hint = problem.hint === undefined ? "" : ` (${problem.hint})`;
  const label = problem.severity === "warning" ? " warning:" : "";
  return `${where}:${label}${field} expected ${problem.expected}${got}${hint}`;
}
