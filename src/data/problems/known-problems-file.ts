/**
 * Where the accepted warnings are kept: at the top of the data directory (find-sources.ts passes it
 * over). A leaf of its own so that the CLI's option list names it without loading the problems' code.
 */
export const KNOWN_PROBLEMS_FILE = "known-problems.json";
