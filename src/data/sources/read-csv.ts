/**
 * A CSV file, as spreadsheets save it: a header row of field names, `,` or `;` between cells
 * (Croatian Excel uses `;`), UTF-8 with or without a byte-order mark, quoted cells that may hold
 * delimiters and line breaks; another encoding with `--encoding`. Cells are text;
 * spreadsheet-forms.ts turns `id`, the flags and a spreadsheet's forms into the values the schema
 * expects and leaves everything else, so `oib` keeps its leading zeros.
 */
import { open } from "node:fs/promises";
import { CsvError, parse } from "csv-parse";
import { decodeStream, EncodingError, isUtf8Label, openSource } from "./decode-source.ts";
import { nearestName } from "../rules/nearest-name.ts";
import type { Problem, ProblemSink } from "../problems/problems.ts";
import { msg } from "../../common/messages/message.ts";
import type { RecordSink } from "./record-sink.ts";
import { locate, type SourceFile } from "./source-file.ts";
import { unguardFormula } from "./formula-guard.ts";
import { type FormNote, readCell } from "./spreadsheet-forms.ts";
import { FIELD_NAMES } from "../rules/subject-fields.ts";

/** Enough of the file to hold its header row. */
const HEAD_BYTES = 64 * 1024;
const LINE_BREAKS = /\r\n|\r|\n/g;

/** `;` when the header line has more semicolons than commas (field names contain neither). */
async function detectDelimiter(path: string): Promise<";" | ","> {
  const handle = await open(path, "r");
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(HEAD_BYTES), 0, HEAD_BYTES, 0);
    const head = buffer.toString("utf8", 0, bytesRead);
    const firstLine = head.split(/\r?\n/, 1)[0] ?? "";
    const count = (c: string): number => firstLine.split(c).length - 1;
    return count(";") > count(",") ? ";" : ",";
  } finally {
    await handle.close();
  }
}

function countLineBreaks(cells: readonly string[]): number {
  let breaks = 0;
  for (const cell of cells) if (cell.includes("\n") || cell.includes("\r")) breaks += cell.match(LINE_BREAKS)?.length ?? 0;
  return breaks;
}

/**
 * The header row: each column's field name, or undefined for a column that is no field (unknown
 * or repeated: reported, and its cells left out). Every problem of the header is reported with the
 * names the tool accepts, and the rows are still read, so one run shows the header's problems and
 * the records' together: a misspelt column (`OIB `) is checked as the field it is nearest to, while
 * its error fails the build. Only a column missing with no candidate stops the rows (undefined):
 * every record would lack that field.
 */
export function readHeader(
  cells: readonly string[],
  file: SourceFile,
  line: number,
  report: (problem: Problem) => void,
): (string | undefined)[] | undefined {
  const names = cells.map((cell) => cell.trim());
  const where = locate(file, line);
  const seen = new Set<string>(names.filter((name) => (FIELD_NAMES as readonly string[]).includes(name)));
  const taken = new Set<string>();
  const columns = names.map((name) => {
    if (!(FIELD_NAMES as readonly string[]).includes(name)) {
      const near = nearestName(name, FIELD_NAMES);
      const checkedAs = near !== undefined && !seen.has(near) && !taken.has(near) ? near : undefined;
      const hint =
        checkedAs !== undefined ? msg("hint.rename-column", { name: checkedAs }) : msg("hint.delete-or-rename", { names: FIELD_NAMES });
      report({ severity: "error", ...where, field: name, expected: msg("expected.column-name"), hint });
      if (checkedAs !== undefined) taken.add(checkedAs);
      return checkedAs;
    }
    if (taken.has(name)) {
      report({ severity: "error", ...where, field: name, expected: msg("expected.column-once"), hint: msg("hint.column-repeated") });
      return undefined;
    }
    taken.add(name);
    return name;
  });
  let missing = false;
  for (const field of FIELD_NAMES) {
    if (taken.has(field)) continue;
    missing = true;
    report({ severity: "error", ...where, field, expected: msg("expected.column-present"), hint: msg("hint.column-missing") });
  }
  return missing ? undefined : columns;
}

/** Reads `file`, passing `sink` each row as an object and the line the row starts on. */
export async function readCsv(file: SourceFile, sink: RecordSink, sinkProblems: ProblemSink): Promise<void> {
  let reported = false;
  const problems = {
    push: (problem: Problem): void => {
      reported = true;
      sinkProblems.push(problem);
    },
  };
  const parser = parse({
    delimiter: await detectDelimiter(file.path),
    bom: true,
    info: true,
    relax_column_count: true,
    skip_empty_lines: true,
  });
  const source = openSource(file);
  const input = source.stream;
  input.on("error", (error) => parser.destroy(error));
  if (isUtf8Label(file.encoding)) {
    input.pipe(parser);
  } else {
    const decoded = decodeStream(file.encoding ?? "utf-8");
    decoded.on("error", (error) => parser.destroy(error));
    input.pipe(decoded).pipe(parser);
  }
  let columns: (string | undefined)[] | undefined;
  // csv-parse's info.lines miscounts a CRLF inside a quoted cell, so lines are counted here from
  // the cells themselves plus the blank lines it reports skipping.
  let nextLine = 1;
  let blankLines = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { empty_lines: number } }>) {
      const line = nextLine + info.empty_lines - blankLines;
      blankLines = info.empty_lines;
      nextLine = line + 1 + countLineBreaks(record);
      if (columns === undefined) {
        columns = readHeader(record, file, line, problems.push);
        if (columns === undefined) break;
        continue;
      }
      // A spreadsheet saves rows it once touched as `;;;;;;;;;`: a blank row, like a blank line.
      if (record.every((cell) => cell.trim() === "")) continue;
      if (record.length !== columns.length) {
        problems.push({
          severity: "error",
          ...locate(file, line),
          expected: msg("expected.cell-count", { count: columns.length }),
          value: String(record.length),
          hint: msg("hint.delimiter"),
        });
        continue;
      }
      const subject: Record<string, unknown> = {};
      const notes: FormNote[] = [];
      for (let i = 0; i < columns.length; i++) {
        const field = columns[i];
        // A column the header reported (not a field) is left out: its records are still checked.
        // The apostrophe the export put before what a spreadsheet would evaluate comes off (formula-guard.ts).
        if (field !== undefined) subject[field] = readCell(field, unguardFormula(record[i] ?? ""), notes);
      }
      sink.record(subject, line, undefined, notes);
      await sink.ready?.();
    }
  } catch (error) {
    if (error instanceof EncodingError) {
      problems.push({
        severity: "error",
        ...locate(file, nextLine),
        expected: msg("expected.encoded-text", { label: error.label }),
        hint: msg("hint.encoding-bytes"),
      });
      return;
    }
    if (!(error instanceof CsvError)) throw error;
    const at = (error as CsvError & { lines?: number }).lines;
    // csv-parse's own words (in English) are quoted as they are.
    problems.push({
      severity: "error",
      ...locate(file, at ?? nextLine),
      expected: msg("expected.csv"),
      hint: msg("hint.csv-parser", { detail: error.message.replace(/ at line \d+/, "") }),
    });
  } finally {
    input.destroy();
  }
  for (const problem of await source.problems()) problems.push(problem);
  if (columns === undefined && !reported) {
    problems.push({ severity: "error", ...locate(file), expected: msg("expected.header-row"), value: msg("value.empty-file") });
  }
}
