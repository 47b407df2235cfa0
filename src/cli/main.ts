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
import { Command, CommanderError } from "commander";
import { isErrno, machineErrorLine } from "../common/machine-error.ts";
import { SubjektiError } from "../core/subjekti-error.ts";
import { VERSION } from "../core/version.ts";
import { terminalLines } from "../common/terminal-text.ts";
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

/** Runs the CLI on `argv` (without node and the script); resolves to the exit code. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  let server: { host: string; port: number } | undefined;
  const context: CommandContext = {
    io,
    problems: problemOutput(io),
    listening: (address) => {
      server = address;
    },
  };
  const program = new Command("subjekti")
    .description("The Registry of Subjects as a static JSON API")
    .version(VERSION)
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
      io.stderr.write(terminalLines([`subjekti: ${error.message}`]));
      return 1;
    }
    const errno = error as NodeJS.ErrnoException;
    if (errno.code === "EADDRINUSE" && server !== undefined) {
      io.stderr.write(terminalLines([`subjekti: port ${server.port} on ${server.host} is in use: pass another --port (or --port 0 for any free one)`]));
      return 1;
    }
    if (errno.code === "EADDRNOTAVAIL" && server !== undefined) {
      io.stderr.write(terminalLines([`subjekti: cannot listen on ${server.host}: not an address of this machine; pass another --host`]));
      return 1;
    }
    const line = isErrno(errno) ? machineErrorLine(errno) : undefined;
    if (line === undefined) throw error;
    io.stderr.write(terminalLines([`subjekti: ${line}`]));
    return 1;
  }
}

// Run as a script (`tsx src/cli/main.ts`, as tests and benchmarks do); bin/subjekti.js calls main itself.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2), processIo());
}
