/** Runs the CLI in-process through `main`, as bin/subjekti.js does, with captured streams. */
import { type Io, main } from "../src/cli/main.ts";

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * `subjekti <args>` from the repository root with `env` as its environment; `untilStopped` ends
 * a preview (never, by default). The data's date is fixed (SOURCE_DATE_EPOCH) unless `env` says
 * otherwise: the descriptions carry it, and tests compare sites built from different files.
 */
export async function runCli(
  args: readonly string[],
  env: Io["env"] = {},
  untilStopped: () => Promise<unknown> = () => new Promise(() => undefined),
): Promise<CliRun> {
  let [stdout, stderr] = ["", ""];
  const io: Io = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: { SOURCE_DATE_EPOCH: "1700000000", ...env },
    untilStopped,
  };
  const code = await main(args, io);
  return { code, stdout, stderr };
}
