/** `subjekti export`: the validated records as a spreadsheet to edit (src/export/export-records.ts). */
import { type Command, Option } from "commander";
import { DEFAULT_OPTIONS } from "../site/build-options.ts";
import { checkDirs, type ReadFlags, readOptionsOf, withReadOptions } from "./options.ts";
import type { CommandContext } from "./problems-output.ts";

interface ExportFlags extends ReadFlags {
  readonly format?: "xlsx" | "csv";
  readonly out: string;
}

export function addExportCommand(program: Command, { io, problems }: CommandContext): void {
  const exporting = program
    .command("export")
    .description("write the validated records as a spreadsheet to edit: .xlsx (OIB and code as text cells) or CSV (UTF-8 with BOM, ;)")
    .option("--data <dir>", "the source data directory", DEFAULT_OPTIONS.dataDir)
    .addOption(new Option("--format <format>", "xlsx or csv (default: from the --out extension)").choices(["xlsx", "csv"]))
    .requiredOption("--out <file>", "the file to write");
  withReadOptions(exporting).action(async (flags: ExportFlags) => {
    problems.all = flags.allProblems;
    await checkDirs({ data: flags.data });
    const { exportRecords } = await import("../export/export-records.ts");
    const format = flags.format ?? (/\.csv$/i.test(flags.out) ? "csv" : "xlsx");
    const report = await exportRecords({ ...readOptionsOf(flags), format, out: flags.out });
    problems.print(report.warnings, report.kinds);
    io.stdout.write(`exported ${report.count} subjects to ${flags.out} (${format})\n`);
  });
}
