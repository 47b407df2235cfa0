/** `subjekti validate`: every rule over the sources, every problem reported; writes nothing. */
import { join } from "node:path";
import type { Command } from "commander";
import { KNOWN_PROBLEMS_FILE } from "../data/problems/known-problems-file.ts";
import { resolveReadOptions } from "../data/read-options.ts";
import { DEFAULT_OPTIONS } from "../site/build-options.ts";
import { checkDirs, type ReadFlags, readOptionsOf, withReadOptions } from "./options.ts";
import type { CommandContext } from "./problems-output.ts";
import { stoppable } from "./stop-on-signal.ts";

interface ValidateFlags extends ReadFlags {
  readonly json: boolean;
  readonly accept: boolean;
}

export function addValidateCommand(program: Command, { io, problems, tr }: CommandContext): void {
  const validate = program
    .command("validate")
    .description("check data/ against every rule and report every problem; writes nothing")
    .option("--data <dir>", "the source data directory", DEFAULT_OPTIONS.dataDir)
    .option("--json", "print the problems as JSON lines on stdout, for tools", false)
    .option(
      "--accept",
      `record the current warnings as known in <data>/${KNOWN_PROBLEMS_FILE}: later runs count them in one line, print new ones in full, and --strict fails on new ones only`,
      false,
    );
  withReadOptions(validate).action(async (flags: ValidateFlags) => {
    problems.all = flags.allProblems;
    problems.json = flags.json;
    const [{ readRecords }, { forEachItem }, { loadMetadata }, { writeKnownProblems }] = await Promise.all([
      import("../data/read/read-records.ts"),
      import("../common/stage-iterables.ts"),
      import("../site/docs/dataset-metadata.ts"),
      import("../data/problems/known-problems.ts"),
    ]);
    const read = resolveReadOptions(readOptionsOf(flags));
    await checkDirs({ data: flags.data });
    await loadMetadata(flags.data);
    // --accept reads every warning to record it; otherwise the accepted ones (if any) are judged apart.
    const records = flags.accept
      ? await readRecords({ ...read, strict: false, allProblems: true }, { known: false })
      : await readRecords(read);
    // The records as a build reads and orders them (threads for large inputs), not parsed back into
    // objects. Stopped by a signal, the sort's runs go with it.
    const result = await stoppable(io, tr, "validate", () => forEachItem(records, () => undefined));
    if (flags.accept) {
      const accepted = await writeKnownProblems(flags.data, result.warnings);
      io.stdout.write(`${tr.text("summary.accepted", { count: accepted, path: join(flags.data, KNOWN_PROBLEMS_FILE) })}\n`);
      return;
    }
    if (result.known !== undefined) problems.all = true;
    await problems.print(result.warnings, result.kinds);
    problems.printKnown(result.known);
    let warnings = 0;
    for (const kind of result.kinds) warnings += kind.count;
    const verdict = `${tr.text("summary.valid", { subjects: result.count, files: result.files.length, warnings, ...(result.known === undefined ? {} : { known: result.known.count }) })}\n`;
    (flags.json ? io.stderr : io.stdout).write(verdict);
  });
}
