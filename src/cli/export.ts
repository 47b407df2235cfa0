/** `subjekti export`: the validated records as a spreadsheet to edit (src/export/export-records.ts). */
import { stat } from "node:fs/promises";
import { basename, dirname, extname, isAbsolute, relative, resolve } from "node:path";
import { type Command, Option } from "commander";
import { type Message, msg } from "../common/messages/message.ts";
import { failure } from "../common/messages/translate.ts";
import { DEFAULT_OPTIONS } from "../site/build-options.ts";
import { checkDirs, type ReadFlags, readOptionsOf, withReadOptions } from "./options.ts";
import type { CommandContext } from "./problems-output.ts";
import { stoppable } from "./stop-on-signal.ts";

/**
 * Where the export may go: into an existing directory, and not inside --data, where the next build
 * would read it beside the sources it came from (every record twice).
 */
async function checkOut(out: string, data: string): Promise<void> {
  const folder = dirname(resolve(out));
  if (
    !(await stat(folder).then(
      (s) => s.isDirectory(),
      () => false,
    ))
  ) {
    throw failure("EXPORT_NO_DIR", msg("error.export-no-dir", { out, dir: dirname(out) }));
  }
  const inside = relative(resolve(data), resolve(out));
  if (inside !== "" && !inside.startsWith("..") && !isAbsolute(inside)) {
    throw failure("EXPORT_INTO_DATA", msg("error.export-into-data", { out, data, name: basename(out) }));
  }
}

interface ExportFlags extends ReadFlags {
  readonly format?: "xlsx" | "csv";
  readonly out: string;
  readonly wait: boolean;
}

export function addExportCommand(program: Command, { io, problems, tr, apps }: CommandContext): void {
  const exporting = program
    .command("export")
    .description("write the validated records as a spreadsheet to edit: .xlsx (OIB and code as text cells) or CSV (UTF-8 with BOM, ;)")
    .option("--data <dir>", "the source data directory", DEFAULT_OPTIONS.dataDir)
    .addOption(new Option("--format <format>", "xlsx or csv (default: from the --out extension)").choices(["xlsx", "csv"]))
    .requiredOption("--out <file>", "the file to write")
    .option("--wait", "when another export is writing --out, wait for it to finish (default: refuse at once)", false);
  withReadOptions(exporting).action(async (flags: ExportFlags) => {
    problems.all = flags.allProblems;
    // The extension says what the next build reads the file as: it must be the format's.
    const extension = extname(flags.out).toLowerCase();
    const format = flags.format ?? (extension === ".csv" ? "csv" : extension === ".xlsx" ? "xlsx" : undefined);
    if (format === undefined) return exporting.error(tr.text("usage.export-extension", { out: flags.out }), { exitCode: 2 });
    if (extension !== `.${format}`) exporting.error(tr.text("usage.export-format", { out: flags.out, format, extension }), { exitCode: 2 });
    await checkDirs({ data: flags.data });
    await checkOut(flags.out, flags.data);
    const { exportRecords } = await apps.exportRecords();
    const notice = (line: Message): unknown => io.stderr.write(`subjekti: ${tr.say(line)}\n`);
    const report = await stoppable(io, tr, "export", () =>
      exportRecords({ ...readOptionsOf(flags), format, out: flags.out, wait: flags.wait, notice }),
    );
    await problems.print(report.warnings, report.kinds);
    io.stdout.write(`${tr.text("summary.exported", { count: report.count, out: flags.out, format })}\n`);
  });
}
