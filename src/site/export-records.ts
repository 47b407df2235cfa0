/**
 * The way back to a spreadsheet: the validated records, in id order, as a workbook or a CSV a
 * maintainer edits and saves as a source again. In the workbook the OIB, the code and the date
 * are text cells in columns formatted as text, so Excel keeps their zeros and does not turn
 * dates into its own form; flags are boolean cells. The CSV is what Excel opens correctly on a
 * Croatian locale: UTF-8 with a byte-order mark, `;` between cells, CRLF. Reading either back
 * gives the same site, without a single warning of a spreadsheet form. Written to a temporary
 * file renamed into place, so a failed export leaves no half-written file.
 */
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import type { Subject } from "../core/render-page.ts";
import { loadExcelJs } from "./load-exceljs.ts";
import type { Problem, ProblemKind } from "./problems.ts";
import { readRecords, type ReadOptions, type RecordSet } from "./read-records.ts";
import type { RenderedBlock } from "./render-block.ts";
import { FIELD_NAMES } from "./subject-schema.ts";

export type ExportFormat = "xlsx" | "csv";

export interface ExportOptions extends ReadOptions {
  readonly format: ExportFormat;
  /** The file written. */
  readonly out: string;
}

export interface ExportReport {
  readonly count: number;
  /** The first few warnings of each kind, and every kind's count. */
  readonly warnings: readonly Problem[];
  readonly kinds: readonly ProblemKind[];
}

/** Columns Excel must keep as text: its zeros (OIB, code) and an ISO date it would rewrite. */
const TEXT_COLUMNS: ReadonlySet<string> = new Set(["jedinstvena_oznaka", "oib", "datum_postanka"]);

/** The records of a read, parsed back one at a time in id order (never all at once). */
function* subjectsOf(set: RecordSet): Generator<Subject> {
  for (let i = 0; i < set.count; i++) {
    const block = set.rendered[set.blockOf[i] ?? 0] as RenderedBlock;
    const k = set.indexIn[i] ?? 0;
    const text = Buffer.from(block.bytes.buffer, block.bytes.byteOffset, block.bytes.byteLength).toString("utf8", k === 0 ? 0 : block.ends[k - 1], block.ends[k]);
    yield JSON.parse(text) as Subject;
  }
}

/** A CSV cell as Excel writes it: quoted when it holds `;`, a quote or a line break. */
function csvCell(value: unknown): string {
  const text = String(value);
  return /[;"\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

async function writeCsv(subjects: Iterable<Subject>, path: string): Promise<void> {
  const out = createWriteStream(path);
  const write = async (text: string): Promise<void> => {
    if (!out.write(text)) await once(out, "drain");
  };
  await write(`\uFEFF${FIELD_NAMES.join(";")}\r\n`);
  for (const s of subjects) await write(`${FIELD_NAMES.map((f) => csvCell(s[f])).join(";")}\r\n`);
  out.end();
  await once(out, "finish");
}

async function writeXlsx(subjects: Iterable<Subject>, path: string): Promise<void> {
  // The streaming writer commits each row to the zip as it goes: a million rows never sit in memory.
  const workbook = new (loadExcelJs().stream.xlsx.WorkbookWriter)({ filename: path, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet("subjekti", { views: [{ state: "frozen", ySplit: 1 }] });
  sheet.columns = FIELD_NAMES.map((field) => ({
    header: field,
    key: field,
    width: field === "naziv_subjekta" || field === "institucija_email" ? 48 : 16,
    ...(TEXT_COLUMNS.has(field) ? { style: { numFmt: "@" } } : {}),
  }));
  for (const s of subjects) sheet.addRow(FIELD_NAMES.map((f) => s[f])).commit();
  sheet.commit();
  await workbook.commit();
}

/** Reads and validates `options.dataDir` (DataError on any error, nothing written), then writes its records to `options.out`. */
export async function exportRecords(options: ExportOptions): Promise<ExportReport> {
  const set = await readRecords(options);
  const temporary = `${options.out}.tmp-${process.pid}`;
  try {
    await (options.format === "xlsx" ? writeXlsx : writeCsv)(subjectsOf(set), temporary);
    await rename(temporary, options.out);
  } finally {
    await rm(temporary, { force: true });
  }
  return { count: set.count, warnings: set.warnings, kinds: set.kinds };
}
