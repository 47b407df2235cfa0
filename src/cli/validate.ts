/** `subjekti validate`: every rule over the sources, every problem reported; writes nothing. */
import type { Command } from "commander";
import { DEFAULT_OPTIONS } from "../site/build-options.ts";
import { checkDirs, type ReadFlags, readOptionsOf, withReadOptions } from "./options.ts";
import type { CommandContext } from "./problems-output.ts";

interface ValidateFlags extends ReadFlags {
  readonly json: boolean;
}

export function addValidateCommand(program: Command, { io, problems }: CommandContext): void {
  const validate = program
    .command("validate")
    .description("check data/ against every rule and report every problem; writes nothing")
    .option("--data <dir>", "the source data directory", DEFAULT_OPTIONS.dataDir)
    .option("--json", "print the problems as JSON lines on stdout, for tools", false);
  withReadOptions(validate).action(async (flags: ValidateFlags) => {
    problems.all = flags.allProblems;
    problems.json = flags.json;
    const [{ readInIdOrder }, { loadMetadata }] = await Promise.all([import("../data/order/read-in-order.ts"), import("../site/docs/dataset-metadata.ts")]);
    await checkDirs({ data: flags.data });
    await loadMetadata(flags.data);
    // The records as a build reads them (threads for large inputs), not parsed back into objects.
    const nothing = async (): Promise<void> => undefined;
    const result = await readInIdOrder(readOptionsOf(flags), { take: nothing, restart: nothing });
    problems.print(result.warnings, result.kinds);
    const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? "" : "s"}`;
    let warnings = 0;
    for (const kind of result.kinds) warnings += kind.count;
    const verdict = `${count(result.count, "subject")} in ${count(result.files.length, "file")}: valid (${count(warnings, "warning")})\n`;
    (flags.json ? io.stderr : io.stdout).write(verdict);
  });
}
