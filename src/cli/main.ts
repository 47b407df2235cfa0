/**
 * The `subjekti` command line: `main(argv, io)` returns the exit code; bin/subjekti.js calls it
 * with the process's own argv, streams and environment, tests call it in-process. Each command
 * lives in a file of its own beside this one (build.ts, validate.ts, …), parsing its options into
 * typed values at the boundary; this file assembles them and turns errors into exit codes.
 *
 * Exit codes: 0 done, 1 bad data or an environment problem (one line, with what to do), 2 a usage
 * error (its line, the command's usage line and where to read more: usage-error.ts).
 *
 * Start-up loads only what the run uses: a command's file when that command runs (all of them for
 * the top-level help, which lists them), and each command loads its work (the build, the reader,
 * zod) in its action. `--help` and a usage error cost commander and the option lists, not the
 * build (BENCHMARKS.md, "Start-up").
 */
import { pathToFileURL } from "node:url";
import { Command, CommanderError, Option } from "commander";
import { chooseLanguage, LANGUAGES, sayFailure, translator } from "../common/messages/translate.ts";
import { isErrno, machineErrorLine } from "../common/machine-error.ts";
import { SubjektiError } from "../core/errors.ts";
import { VERSION } from "../core/version.ts";
import { terminalLines } from "../common/terminal-text.ts";
import { type Io, processIo } from "./io.ts";
import { reportUsageErrorsTo, usageErrorLines, usageHint, withTranslatedValues } from "./usage-error.ts";
import { type CommandContext, problemOutput } from "./problems-output.ts";

export { type Io, processIo } from "./io.ts";

type AddCommand = (program: Command, context: CommandContext) => void;

/** Each command's file, by name, in the order the help lists them. */
const COMMANDS: Readonly<Record<string, () => Promise<AddCommand>>> = {
  build: async () => (await import("./build.ts")).addBuildCommand,
  validate: async () => (await import("./validate.ts")).addValidateCommand,
  export: async () => (await import("./export.ts")).addExportCommand,
  preview: async () => (await import("./preview.ts")).addPreviewCommand,
  check: async () => (await import("./check.ts")).addCheckCommand,
  sync: async () => (await import("./sync.ts")).addSyncCommand,
  serve: async () => {
    const { addServeCommand } = await import("./serve.ts");
    return (program, context) => addServeCommand(program, context.io, context.tr, context.listening);
  },
  nginx: async () => {
    const { addNginxCommand } = await import("./nginx.ts");
    return (program, context) => addNginxCommand(program, context.io);
  },
};

/**
 * The commands to load for `argv`: the one it names (the program's one option that takes a value is
 * --lang, so its first other word that is no option is the command), none for `--version` alone,
 * else every one, for the help that lists them and the "did you mean" of a misspelt name.
 */
function commandsFor(argv: readonly string[]): string[] {
  const named = argv.find((arg, i) => !arg.startsWith("-") && argv[i - 1] !== "--lang");
  if (named !== undefined && Object.hasOwn(COMMANDS, named)) return [named];
  if (argv.length === 1 && (argv[0] === "-V" || argv[0] === "--version")) return [];
  return Object.keys(COMMANDS);
}

/** The value of `--lang` in `argv`, read before commander parses it: every line, usage errors included, is in that language. */
function langFlag(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--") break;
    if (arg === "--lang") return argv[i + 1];
    if (arg.startsWith("--lang=")) return arg.slice("--lang=".length);
  }
  return undefined;
}

/** Runs the CLI on `argv` (without node and the script); resolves to the exit code. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  let server: { host: string; port: number } | undefined;
  const tr = translator(chooseLanguage(langFlag(argv), io.env));
  const context: CommandContext = {
    io,
    tr,
    problems: problemOutput(io, tr),
    listening: (address) => {
      server = address;
    },
    apps: { build: () => import("../site/build-site.ts"), exportRecords: () => import("../export/export-records.ts") },
  };
  const program = new Command("subjekti")
    .description("The Registry of Subjects as a static JSON API")
    .version(VERSION)
    .addOption(
      new Option(
        "--lang <language>",
        "the language of problems, summaries and errors: hr or en (default: the locale, LC_ALL, LC_MESSAGES or LANG; hr… is Croatian, else English)",
      ).choices(LANGUAGES),
    )
    .exitOverride()
    // Help wraps at 80 columns on every terminal: the same text the help snapshot
    // (help-text.ts, answered without commander) and the CLI reference hold.
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      getOutHelpWidth: () => 80,
      getErrHelpWidth: () => 80,
    });
  const adds = await Promise.all(commandsFor(argv).map((name) => COMMANDS[name]?.()));
  for (const add of adds) add?.(program, context);
  let failed: Command | undefined;
  reportUsageErrorsTo(program, (command) => {
    failed = command;
  });
  withTranslatedValues(program, tr);

  try {
    await program.parseAsync(argv, { from: "user" });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and --version end through here too, with code 0; every other one is a usage error
      // (`subjekti` alone too, whose help commander writes to stderr itself).
      if (failed !== undefined)
        io.stderr.write(terminalLines([...usageErrorLines(error.code, error.message, tr), ...usageHint(failed, tr)]));
      return error.exitCode === 0 ? 0 : 2;
    }
    if (error instanceof SubjektiError) {
      // Loaded already when a DataError was thrown: the import costs nothing then.
      const { DataError } = await import("../data/problems/problems.ts");
      if (error instanceof DataError) await context.problems.printError(error);
      io.stderr.write(terminalLines([`subjekti: ${sayFailure(error, tr)}`]));
      return 1;
    }
    const errno = error as NodeJS.ErrnoException;
    if (errno.code === "EADDRINUSE" && server !== undefined) {
      io.stderr.write(terminalLines([`subjekti: ${tr.text("error.port-in-use", server)}`]));
      return 1;
    }
    if (errno.code === "EADDRNOTAVAIL" && server !== undefined) {
      io.stderr.write(terminalLines([`subjekti: ${tr.text("error.not-an-address", server)}`]));
      return 1;
    }
    const line = isErrno(errno) ? machineErrorLine(errno) : undefined;
    if (line === undefined) throw error;
    io.stderr.write(terminalLines([`subjekti: ${tr.say(line)}`]));
    return 1;
  }
}

// Run as a script (`tsx src/cli/main.ts`, as tests and benchmarks do); bin/subjekti.js calls main itself.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2), processIo());
}
