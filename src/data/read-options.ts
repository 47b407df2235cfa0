/**
 * How the sources are read (read/read-blocks.ts): the data directory and the rules' settings. A
 * leaf of its own: a command says what it knows (ReadOptions), resolveReadOptions fills in every
 * default once, and the read stage takes the result.
 */
export interface ReadOptions {
  /** The data directory searched for *.json, *.ndjson and *.csv. */
  readonly dataDir: string;
  /** Treat warnings as errors (false when not given). */
  readonly strict?: boolean;
  /**
   * Record threads for JSON arrays: a number (0: all on this thread), or "auto" (when not given):
   * one per core when the JSON sources are large enough to repay starting them (THREADS_FROM_BYTES).
   */
  readonly threads?: number | "auto";
  /** The longest a text field may be, in characters (DEFAULT_MAX_FIELD_LENGTH when not given). */
  readonly maxFieldLength?: number;
  /** Follow symbolic links that lead outside the data directory (by default they are skipped, with a warning). */
  readonly followOutside?: boolean;
  /** The encoding of CSV sources (a WHATWG label); each source's own (UTF-8, or its byte-order mark) when not given. */
  readonly encoding?: string;
  /** Keep every problem the blocks hand on (every warning; a block's first few errors of a kind), not the first few of each kind. */
  readonly allProblems?: boolean;
}

/** The read options with every default in place: what the read stage takes. */
export interface ResolvedReadOptions extends Required<Omit<ReadOptions, "encoding">> {
  readonly encoding?: string;
}

/**
 * The longest a text field may be, in characters, unless the maintainer sets another
 * (`--max-field-length`): institution names run to a few hundred characters, a contact field to
 * a few addresses. A longer value is an error, not a page of megabytes.
 */
export const DEFAULT_MAX_FIELD_LENGTH = 2000;

/** `options` with every default in place. */
export function resolveReadOptions(options: ReadOptions): ResolvedReadOptions {
  return {
    dataDir: options.dataDir,
    strict: options.strict ?? false,
    threads: options.threads ?? "auto",
    maxFieldLength: options.maxFieldLength ?? DEFAULT_MAX_FIELD_LENGTH,
    followOutside: options.followOutside ?? false,
    allProblems: options.allProblems ?? false,
    ...(options.encoding === undefined ? {} : { encoding: options.encoding }),
  };
}
