/**
 * The `subjekti` command line: `main(argv, io)` returns the exit code; bin/subjekti.js calls it
 * with the process's own argv, streams and environment, tests call it in-process. Each command
 * lives in a file of its own beside this one (build.ts, validate.ts, …), parsing its options into
 * typed values at the boundary; this file assembles them and turns errors into exit codes.
 *
 * Exit codes: 0 done, 1 bad data or an environment problem (one line, with what to do), 2 a usage
 * error (commander's message and the help hint).
 */
import { pathToFileURL } from "node:url";
import { Command, CommanderError, Option } from "commander";
import { chooseLanguage, LANGUAGES, sayFailure, type Translator, translator } from "../common/messages/message.ts";
import { SubjektiError } from "../core/subjekti-error.ts";
import { VERSION } from "../core/version.ts";
import { DataError } from "../data/problems/problems.ts";
import { addBuildCommand } from "./build.ts";
import { addCheckCommand } from "./check.ts";
import { addExportCommand } from "./export.ts";
import { type Io, processIo } from "./io.ts";
import { addNginxCommand } from "./nginx.ts";
import { addPreviewCommand } from "./preview.ts";
import { type CommandContext, problemOutput } from "./problems-output.ts";
import { addServeCommand } from "./serve.ts";
import { addSyncCommand } from "./sync.ts";
import { addValidateCommand } from "./validate.ts";

export { type Io, processIo } from "./io.ts";

/** The one line for an error of the machine, not of the data: what failed and what to do. */
function environmentLine(error: NodeJS.ErrnoException, tr: Translator): string | undefined {
  const where = error.path ?? "";
  switch (error.code) {
    case "EACCES":
    case "EPERM":
      return tr.text("error.permission", { syscall: error.syscall ?? "use", where });
    case "ENOSPC":
      return tr.text("error.no-space", { where });
    case "ENOTDIR":
    case "EEXIST":
    case "EISDIR":
      return tr.text(error.code === "EISDIR" ? "error.directory-for-file" : "error.file-for-directory", { where });
    case "EMFILE":
      return tr.text("error.open-files");
    default:
      return undefined;
  }
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
  };
  const program = new Command("subjekti")
    .description("The Registry of Subjects as a static JSON API")
    .version(VERSION)
    .addOption(new Option("--lang <language>", "the language of problems, summaries and errors: hr or en (default: the locale, LC_ALL, LC_MESSAGES or LANG; hr… is Croatian, else English)").choices(LANGUAGES))
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) });
  addBuildCommand(program, context);
  addValidateCommand(program, context);
  addExportCommand(program, context);
  addPreviewCommand(program, context);
  addCheckCommand(program, context);
  addSyncCommand(program, context);
  addServeCommand(program, io, context.listening);
  addNginxCommand(program, io);

  try {
    await program.parseAsync(argv, { from: "user" });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and --version end through here too, with code 0; every other one is a usage error.
      return error.exitCode === 0 ? 0 : 2;
    }
    if (error instanceof DataError) context.problems.print(error.problems, error.kinds);
    if (error instanceof SubjektiError) {
      io.stderr.write(`subjekti: ${sayFailure(error, tr)}\n`);
      return 1;
    }
    const errno = error as NodeJS.ErrnoException;
    if (errno.code === "EADDRINUSE" && server !== undefined) {
      io.stderr.write(`subjekti: ${tr.text("error.port-in-use", server)}\n`);
      return 1;
    }
    if (errno.code === "EADDRNOTAVAIL" && server !== undefined) {
      io.stderr.write(`subjekti: ${tr.text("error.not-an-address", server)}\n`);
      return 1;
    }
    const line = errno instanceof Error ? environmentLine(errno, tr) : undefined;
    if (line === undefined) throw error;
    io.stderr.write(`subjekti: ${line}\n`);
    return 1;
  }
}

// Run as a script (`tsx src/cli/main.ts`, as tests and benchmarks do); bin/subjekti.js calls main itself.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2), processIo());
}
