/**
 * Problems found in the source data, and the one error that ends a build because of them.
 * Every problem is located (file, record or line, field) and says what was found, what was
 * expected and, where one helps, a hint; the build collects them all and fails once.
 */
import { SubjektiError } from "../../core/errors.ts";
import { type Message, msg, type Translator } from "../../common/messages/message.ts";
import { ENGLISH } from "../../common/messages/translate.ts";
import { SUBJECT_FIELDS } from "../../core/render-page.ts";
import { formatLocation, type ProblemPlace } from "./problem-parts.ts";

export type Severity = "error" | "warning";

export interface Problem extends ProblemPlace {
  readonly severity: Severity;
  /**
   * A spreadsheet's form read as the data's own (`TRUE`, `14.5.1966.`, zeros lost): the name of
   * the form. Such problems are summarised one line per kind, never one line per record.
   */
  readonly form?: Message;
  /** The field, when the problem is one field's. */
  readonly field?: string;
  /** The offending value: as written (JSON, shortened for display), or described (`2,001 characters`). */
  readonly value?: string | Message;
  /** What the field or record should have been. */
  readonly expected: Message;
  /** What probably went wrong, or how to fix it. */
  readonly hint?: Message;
  /** A problem said in one sentence of its own instead of expected-and-got (`… repeats every record of …: keep one`). */
  readonly says?: Message;
  /**
   * The subject a warning is about, when its record was read whole (its id and name): an accepted
   * warning names it in known-problems.json, so a reviewer need not look an OIB up by hand.
   */
  readonly subject?: { readonly id: number; readonly name: string };
}

/** The warnings accepted in known-problems.json that a run met: counted in one line, never listed. */
export interface KnownCount {
  readonly count: number;
  /** Where the baseline is, as problems show paths. */
  readonly path: string;
}

/** The data has errors: the first few of each kind are in `problems` (warnings too, for the report), every kind's exact count in `kinds`. */
export class DataError extends SubjektiError {
  readonly problems: readonly Problem[];
  readonly kinds: readonly ProblemKind[];
  /** The accepted warnings left out of `problems` and `kinds` (known-problems.ts), when a baseline judged them. */
  readonly known: KnownCount | undefined;
  constructor(problems: readonly Problem[], kinds: readonly ProblemKind[] = kindsOf(problems), known?: KnownCount) {
    let errors = 0;
    for (const k of kinds) if (k.severity === "error") errors += k.count;
    const message = msg("error.invalid-data", { count: errors });
    super("INVALID_DATA", ENGLISH.say(message), message);
    this.name = "DataError";
    this.problems = problems;
    this.kinds = kinds;
    this.known = known;
  }
}

/** Where problems go: an array keeps them all, a ProblemCollector the first few of each kind. */
export interface ProblemSink {
  push(problem: Problem): unknown;
}

/** Problems of one kind: how many there were, how many of them were kept, and what they are. */
export interface ProblemKind {
  /** The key: severity, field (or "an unknown field") and rule, with the values in the rule blanked. */
  readonly key: string;
  readonly severity: Severity;
  readonly field?: string;
  /** The first problem's expectation. */
  readonly expected: Message;
  count: number;
  kept: number;
}

/** Problems kept of each kind; the rest are counted. */
export const KEEP_PER_KIND = 5;

// The core's field names, not the schema's: the collector holds problems of any rule, and knows no schema.
const KNOWN_FIELDS: ReadonlySet<string> = new Set(SUBJECT_FIELDS);
/** The field of a kind whose field is no subject's: one kind, however many such names (printed as "an unknown field"). */
export const UNKNOWN_FIELD = "*";

/**
 * A problem's kind: its severity, field and rule (its expectation's key, whatever values the
 * expectation holds: `more than "0012"`, `10 cells`). Unknown field names are one kind (a record
 * may hold thousands), so the number of kinds stays small whatever the data.
 */
export function kindKey(problem: Problem): string {
  const field = problem.field === undefined ? "" : KNOWN_FIELDS.has(problem.field) ? problem.field : UNKNOWN_FIELD;
  return `${problem.severity}|${field}|${problem.expected.key}`;
}

/**
 * Problems in bounded memory: the first `keep` of each kind (in the order added) are kept, the
 * rest only counted, so a source of millions of bad records costs a few problems per kind while
 * every kind's count stays exact. `keepWarnings` keeps every warning (a block's warnings go into
 * the build cache whole; they are at most a few per record).
 */
export class ProblemCollector implements ProblemSink {
  readonly #keep: number;
  readonly #keepWarnings: boolean;
  readonly #kinds = new Map<string, ProblemKind>();
  readonly #kept: Problem[] = [];

  constructor(keep: number = KEEP_PER_KIND, options: { keepWarnings?: boolean } = {}) {
    this.#keep = keep;
    this.#keepWarnings = options.keepWarnings ?? false;
  }

  /** Adds one problem: kept while its kind has fewer than `keep`, else counted. */
  push(problem: Problem): void {
    const key = kindKey(problem);
    let kind = this.#kinds.get(key);
    if (kind === undefined) {
      kind = {
        key,
        severity: problem.severity,
        ...(problem.field === undefined ? {} : { field: KNOWN_FIELDS.has(problem.field) ? problem.field : UNKNOWN_FIELD }),
        expected: problem.expected,
        count: 0,
        kept: 0,
      };
      this.#kinds.set(key, kind);
    }
    kind.count++;
    if (kind.kept < this.#keep || (this.#keepWarnings && problem.severity === "warning")) {
      kind.kept++;
      this.#kept.push(problem);
    }
  }

  /** Adds the problems another collector kept, then the counts of those it dropped. */
  merge(kept: readonly Problem[], dropped: Readonly<Record<string, number>>): void {
    for (const problem of kept) this.push(problem);
    for (const [key, n] of Object.entries(dropped)) {
      const kind = this.#kinds.get(key);
      if (kind !== undefined) kind.count += n;
    }
  }

  /** The problems kept, in the order added. */
  get problems(): readonly Problem[] {
    return this.#kept;
  }

  /** How many problems of each kind were added beyond the ones kept (for `merge`). */
  dropped(): Record<string, number> {
    const dropped: Record<string, number> = {};
    for (const kind of this.#kinds.values()) if (kind.count > kind.kept) dropped[kind.key] = kind.count - kind.kept;
    return dropped;
  }

  /** Every kind with its exact count, in the order first seen. */
  get kinds(): readonly ProblemKind[] {
    return [...this.#kinds.values()];
  }

  /** Errors added, kept or not. */
  get errors(): number {
    let n = 0;
    for (const kind of this.#kinds.values()) if (kind.severity === "error") n += kind.count;
    return n;
  }

  /** Problems added, kept or not. */
  get count(): number {
    let n = 0;
    for (const kind of this.#kinds.values()) n += kind.count;
    return n;
  }

  /** Forgets everything (a block's collector, once handed on). */
  clear(): void {
    this.#kinds.clear();
    this.#kept.length = 0;
  }
}

/** The kinds of a list of problems, every one kept. */
export function kindsOf(problems: readonly Problem[]): ProblemKind[] {
  const all = new ProblemCollector(Number.POSITIVE_INFINITY);
  for (const p of problems) all.push(p);
  return [...all.kinds];
}

/** One line for a kind with problems beyond those shown: `… and 4,999,995 more like this: x.json: expected …`. */
export function formatMore(kind: ProblemKind, tr: Translator = ENGLISH): string | undefined {
  const more = kind.count - kind.kept;
  if (more <= 0) return undefined;
  const field = kind.field === undefined ? undefined : kind.field === UNKNOWN_FIELD ? tr.text("field.unknown") : kind.field;
  return tr.text("line.more", {
    more,
    warning: kind.severity === "warning",
    ...(field === undefined ? {} : { field }),
    expected: tr.say(kind.expected),
  });
}

/** A value as a problem line shows it: as written, or described in the line's language. */
export function showGot(value: string | Message, tr: Translator = ENGLISH): string {
  return typeof value === "string" ? value : tr.say(value);
}

/** One line: `data/x.json[12]: …` or `data/x.csv:118: oib: expected 11 digits, got "2735615212" (leading zero lost?)`. */
export function formatProblem(problem: Problem): string {
  return sayProblem(problem, ENGLISH);
}

/** A problem's line in `tr`'s language. */
export function sayProblem(problem: Problem, tr: Translator): string {
  const where = formatLocation(problem);
  const warning = problem.severity === "warning";
  if (problem.says !== undefined) return tr.text("line.says", { where, warning, says: tr.say(problem.says) });
  return tr.text("line.problem", {
    where,
    warning,
    ...(problem.field === undefined ? {} : { field: problem.field }),
    expected: tr.say(problem.expected),
    ...(problem.value === undefined ? {} : { got: showGot(problem.value, tr) }),
    ...(problem.hint === undefined ? {} : { hint: tr.say(problem.hint) }),
  });
}
