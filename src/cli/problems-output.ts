/**
 * How the CLI prints data problems: grouped by kind (the first few of each, the rest counted),
 * every line with --all-problems, or JSON lines on stdout with --json. The command that runs sets
 * the mode; a DataError that ends any command is printed the same way.
 */
import type { Io } from "./io.ts";
import { terminalLines } from "../common/terminal-text.ts";
import type { Translator } from "../common/messages/message.ts";
import type { DataError, Problem, ProblemKind } from "../data/problems/problems.ts";
import type { exportRecords } from "../export/export-records.ts";
import type { buildSite } from "../site/build-site.ts";

export interface ProblemOutput {
  /** Every problem line, not the first few of each kind. */
  all: boolean;
  /** JSON lines on stdout, for tools. */
  json: boolean;
  /** Prints the problems kept, `kinds` counting them all (the printers load then: `--help` never needs them). */
  print(problems: readonly Problem[], kinds: readonly ProblemKind[]): Promise<void>;
  /** Prints the one line that counts the accepted warnings (known-problems.ts), when there are any. */
  printKnown(known: { readonly count: number; readonly path: string } | undefined): void;
  /** Prints the problems of a DataError that ends a run, and the accepted warnings it met counted in one line. */
  printError(error: DataError): Promise<void>;
}

export function problemOutput(io: Io, tr: Translator): ProblemOutput {
  const output: ProblemOutput = {
    all: false,
    json: false,
    async print(problems, kinds) {
      const [{ kindKey }, { problemsAsJsonLines, summariseProblems }] = await Promise.all([
        import("../data/problems/problems.ts"),
        import("../data/problems/summarise-problems.ts"),
      ]);
      if (output.json) {
        io.stdout.write(terminalLines(problemsAsJsonLines(problems)));
        return;
      }
      const counts = new Map(kinds.map((k) => [k.key, k.count]));
      const lines = summariseProblems(problems, { all: output.all, countOf: (p) => counts.get(kindKey(p)), tr });
      io.stderr.write(terminalLines(lines));
    },
    printKnown(known) {
      if (known === undefined || known.count === 0 || output.json) return;
      io.stderr.write(terminalLines([tr.text("line.known", known)]));
    },
    async printError(error) {
      await output.print(error.problems, error.kinds);
      output.printKnown(error.known);
    },
  };
  return output;
}

/** What a command file is given: the process's Io, the problem printer, and where a server will listen. */
export interface CommandContext {
  readonly io: Io;
  /** The maintainer's language (--lang, else the locale). */
  readonly tr: Translator;
  readonly problems: ProblemOutput;
  /** Learns the address a server command binds, before it binds, for the CLI's error lines. */
  listening(address: { host: string; port: number }): void;
  readonly apps: Apps;
}

/**
 * The build and the export, loaded when a command runs one: main.ts names them and hands them to
 * the commands, so that a command's file is no floor above the app it runs (command -> app -> the
 * read's stages is the longest chain the house allows).
 */
export interface Apps {
  build(): Promise<{ readonly buildSite: typeof buildSite }>;
  exportRecords(): Promise<{ readonly exportRecords: typeof exportRecords }>;
}
