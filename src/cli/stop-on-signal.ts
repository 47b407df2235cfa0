/**
 * SIGINT (Ctrl-C) and SIGTERM (a CI runner's cancel, `systemctl stop`) while a command writes:
 * what its stages registered (interrupt-cleanup.ts: sort runs, chunk directories, temporary shards
 * and trees, the output's lock) is removed, one line says so, and the process exits 128 + the
 * signal's number, as a shell reports a process the signal ended.
 */
import { runInterruptCleanups } from "../common/interrupt-cleanup.ts";
import type { Translator } from "../common/messages/message.ts";
import type { Io } from "./io.ts";

const EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;

/** Runs `run` (the command `what`, such as "build") so that SIGINT and SIGTERM stop it cleanly. */
export async function stoppable<T>(
  io: Io,
  tr: Translator,
  what: "build" | "export" | "validate" | "sync",
  run: () => Promise<T>,
): Promise<T> {
  const off = io.onSignal?.((signal) => {
    const failed = runInterruptCleanups();
    // A progress bar may hold the line: the message starts on a line of its own.
    const lead = io.stderr.isTTY === true ? "\n" : "";
    io.stderr.write(`${lead}subjekti: ${tr.text("summary.stopped", { what, signal, left: failed })}\n`);
    process.exit(EXIT_CODES[signal]);
  });
  try {
    return await run();
  } finally {
    off?.();
  }
}
