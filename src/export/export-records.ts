/**
 * The way back to a spreadsheet: the validated records, in id order, as a workbook or a CSV a
 * maintainer edits and saves as a source again. In the workbook the OIB, the code and the date
 * are text cells in columns formatted as text, so Excel keeps their zeros and does not turn
 * dates into its own form; flags are boolean cells. The CSV is what Excel opens correctly on a
 * Croatian locale: UTF-8 with a byte-order mark, `;` between cells, CRLF. Reading either back
 * gives the same site, without a single warning of a spreadsheet form.
 *
 * Nothing is lost on the way, or the export fails: a CSV cell a spreadsheet would evaluate is
 * guarded by an apostrophe (formula-guard.ts), a workbook's text holds every character by OOXML's
 * escape (xstring.ts), a value longer than a workbook cell holds is refused with its place, and
 * the file written is read back as a source before it is renamed into place: it must give the
 * same records, byte for byte. It is written under a hidden temporary name (`.<name>.tmp-<pid>/`,
 * which no build takes for a source), one export at a time per file (output-lock.ts); a signal
 * or a failure leaves no part of it.
 */
import { createHash, type Hash } from "node:crypto";
import { once } from "node:events";
import { createWriteStream, rmSync, type WriteStream } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { cleanUpOnInterrupt } from "../common/interrupt-cleanup.ts";
import { takeOutputLock } from "../common/output-lock.ts";
import { DEAD, removeLeftoversSync } from "../common/remove-leftovers.ts";
import { removeScratchDirs } from "../common/scratch-dir.ts";
import type { Subject } from "../core/render-page.ts";
import type { SubjektiError } from "../core/subjekti-error.ts";
import { failure, type Message, msg } from "../common/messages/message.ts";
import { loadExcelJs, withZipDate } from "./load-exceljs.ts";
import { DataError, type Problem, type ProblemKind } from "../data/problems/problems.ts";
import { readInIdOrder } from "../data/order/read-in-order.ts";
import type { ReadOptions } from "../data/order/read-records.ts";
import type { RenderedBlock } from "../data/order/render-block.ts";
import { FIELD_NAMES } from "../data/rules/subject-schema.ts";
import { guardFormula } from "../data/sources/formula-guard.ts";
import { columnLetters } from "../data/sources/sheet-cells.ts";
import { encodeXstring } from "../data/sources/xstring.ts";

export type ExportFormat = "xlsx" | "csv";

export interface ExportOptions extends ReadOptions {
  readonly format: ExportFormat;
  /** The file written. */
  readonly out: string;
  /** Another export holds the file's lock: wait for it (true) or refuse at once. */
  readonly wait?: boolean;
  /** Hears the one line of a wait for the lock, or of a takeover. */
  readonly notice?: (line: Message) => void;
}

export interface ExportReport {
  readonly count: number;
  /** The first few warnings of each kind, and every kind's count. */
  readonly warnings: readonly Problem[];
  readonly kinds: readonly ProblemKind[];
}

/** Columns Excel must keep as text: its zeros (OIB, code) and an ISO date it would rewrite. */
const TEXT_COLUMNS: ReadonlySet<string> = new Set(["jedinstvena_oznaka", "oib", "datum_postanka"]);

/** A block's records, parsed back one at a time. */
export function* subjectsOf(block: RenderedBlock): Generator<Subject> {
  const bytes = Buffer.from(block.bytes.buffer, block.bytes.byteOffset, block.bytes.byteLength);
  for (let k = 0; k < block.ends.length; k++) yield JSON.parse(bytes.toString("utf8", k === 0 ? 0 : block.ends[k - 1], block.ends[k])) as Subject;
}

/** Takes rows, one subject each, in order; then ends the file, or abandons it (a rule across records broken after some rows). */
export interface RowWriter {
  row(subject: Subject): Promise<void> | void;
  end(): Promise<void>;
  abort(): void;
}

/** The file a writer writes to; an abandoned one is closed quietly (its writes then fail, unheard). */
function fileStream(path: string): { readonly out: WriteStream; readonly abort: () => void } {
  const out = createWriteStream(path);
  return { out, abort: () => void out.on("error", () => undefined).destroy() };
}

/** A CSV cell as Excel writes it (quoted when it holds `;`, a quote or a line break), guarded when Excel would evaluate it. */
function csvCell(value: unknown): string {
  const text = guardFormula(String(value));
  return /[;"\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The CSV's first line: the byte-order mark, then the ten field names. */
export const CSV_HEADER = `\uFEFF${FIELD_NAMES.join(";")}\r\n`;

/** One subject as a line of the CSV. */
export function csvRow(subject: Subject): string {
  return `${FIELD_NAMES.map((f) => csvCell(subject[f])).join(";")}\r\n`;
}

function csvWriter(path: string): RowWriter {
  const { out, abort } = fileStream(path);
  const write = async (text: string): Promise<void> => {
    if (!out.write(text)) await once(out, "drain");
  };
  // The header alone is far below the stream's buffer: it never waits for a drain.
  out.write(CSV_HEADER);
  return {
    row: (s) => write(csvRow(s)),
    async end() {
      out.end();
      await once(out, "finish");
    },
    abort,
  };
}

/** The last row of a worksheet (the lists cover every row a person may add). */
const MAX_ROWS = 1_048_576;
/** The most characters a workbook cell holds (Excel's specifications and limits): Excel cuts a longer one when it saves. */
const MAX_CELL_CHARACTERS = 32_767;

/** A subject's cells as a workbook holds them: text escaped where XML cannot hold it, a value too long for a cell refused. */
function workbookCells(subject: Subject): unknown[] {
  return FIELD_NAMES.map((field) => {
    const value = subject[field];
    if (typeof value !== "string") return value;
    if (value.length > MAX_CELL_CHARACTERS) {
      throw failure("EXPORT_CELL_TOO_LONG", msg("error.export-cell-too-long", { id: subject.id, field, count: value.length, max: MAX_CELL_CHARACTERS }));
    }
    return encodeXstring(value);
  });
}

/**
 * A workbook written to `path` row by row. With `date`, every date inside it (the document's
 * properties, each zip entry's time) is that one, so the same rows give the same bytes; without,
 * exceljs's own (the clock).
 */
export function xlsxWriter(path: string, date?: Date): RowWriter {
  // The streaming writer commits each row to the zip as it goes: a million rows never sit in memory.
  const { out, abort } = fileStream(path);
  const make = () => new (loadExcelJs().stream.xlsx.WorkbookWriter)({ stream: out, useStyles: true, useSharedStrings: false });
  const workbook = date === undefined ? make() : withZipDate(date, make);
  if (date !== undefined) {
    workbook.created = date;
    workbook.modified = date;
  }
  const sheet = workbook.addWorksheet("subjekti", { views: [{ state: "frozen", ySplit: 1 }] });
  // Help for the person editing it: a filter on every column, the known levels and the two flags
  // offered as lists (suggestions only: another lowercase level is still accepted, with a warning).
  sheet.autoFilter = `A1:${columnLetters(FIELD_NAMES.length)}1`;
  const column = (field: string): string => columnLetters(FIELD_NAMES.indexOf(field as (typeof FIELD_NAMES)[number]) + 1);
  const list = (field: string, values: string): void => {
    // The streaming writer has them (written with the sheet's end), its types do not say so.
    (sheet as unknown as { dataValidations: { add(range: string, rule: object): void } }).dataValidations.add(`${column(field)}2:${column(field)}${MAX_ROWS}`, { type: "list", allowBlank: true, formulae: [`"${values}"`], showErrorMessage: false });
  };
  list("razina", "lokalna,nacionalna");
  list("status_subjekta", "TRUE,FALSE");
  list("odobreno", "TRUE,FALSE");
  sheet.columns = FIELD_NAMES.map((field) => ({
    header: field,
    key: field,
    width: field === "naziv_subjekta" || field === "institucija_email" ? 48 : 16,
    ...(TEXT_COLUMNS.has(field) ? { style: { numFmt: "@" } } : {}),
  }));
  return {
    row: (s) => sheet.addRow(workbookCells(s)).commit(),
    async end() {
      sheet.commit();
      await workbook.commit();
    },
    abort,
  };
}

/** Adds each record's rendered bytes, in order, to `hash`: what two reads of the same records agree on. */
function addRecords(hash: Hash, block: RenderedBlock): void {
  hash.update(block.bytes);
}

/**
 * Reads and validates `options.dataDir`, writing its records to `options.out` as they come in id
 * order (through the sort: a row once written is never taken back), then reads the file written
 * back and compares. On a DataError, or a file that does not read back the same, nothing is written.
 */
export async function exportRecords(options: ExportOptions): Promise<ExportReport> {
  const out = resolve(options.out);
  const lock = await takeOutputLock(out, `--out ${options.out}`, { wait: options.wait ?? false, command: "export", ...(options.notice === undefined ? {} : { notice: options.notice }) });
  // Hidden and a directory: the file in it keeps its name and extension, so it is read back as the source it will be.
  const temporary = join(dirname(out), `.${basename(out)}.tmp-${process.pid}`);
  const forget = cleanUpOnInterrupt(() => rmSync(temporary, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 }));
  try {
    // What exports stopped by kill -9 left beside the file, and in the system's temporary directory.
    removeLeftoversSync(dirname(out), (name) => name.startsWith(`.${basename(out)}.`), DEAD);
    removeScratchDirs(undefined, DEAD);
    await rm(temporary, { recursive: true, force: true });
    await mkdir(temporary);
    const file = join(temporary, basename(out));
    const written = await writeRecords(options, file);
    await checkReadBack(options, temporary, written);
    await rename(file, out);
    return written.report;
  } finally {
    await rm(temporary, { recursive: true, force: true });
    forget();
    await lock.release();
  }
}

/** Writes the records of `options.dataDir` into `file`; answers the read's report, and the hash and count of the records written. */
async function writeRecords(options: ExportOptions, file: string): Promise<{ readonly report: ExportReport; readonly sha256: string }> {
  // Opened at the first row: a read that fails before one (the usual bad data) opens nothing.
  let rows: RowWriter | undefined;
  const open = (): RowWriter => (options.format === "xlsx" ? xlsxWriter : csvWriter)(file);
  const hash = createHash("sha256");
  try {
    const read = await readInIdOrder(options, {
      async take(block) {
        rows ??= open();
        addRecords(hash, block);
        for (const subject of subjectsOf(block)) await rows.row(subject);
      },
    });
    rows ??= open();
    await rows.end();
    return { report: { count: read.count, warnings: read.warnings, kinds: read.kinds }, sha256: hash.digest("hex") };
  } catch (error) {
    rows?.abort();
    throw error;
  }
}

/** Reads the file written (the only source in `dir`) as a build would, and refuses it unless it gives the records written. */
async function checkReadBack(options: ExportOptions, dir: string, written: { readonly report: ExportReport; readonly sha256: string }): Promise<void> {
  const hash = createHash("sha256");
  const refuse = (why: Message): SubjektiError => failure("EXPORT_NOT_SAME", msg("error.export-not-same", { out: options.out, why }));
  let count: number;
  try {
    // Not strict, and no --encoding: the export's own file is UTF-8, and its warnings are the source's.
    ({ count } = await readInIdOrder({ dataDir: dir, strict: false, threads: options.threads ?? "auto", ...(options.maxFieldLength === undefined ? {} : { maxFieldLength: options.maxFieldLength }) }, { take: async (block) => addRecords(hash, block) }));
  } catch (error) {
    if (!(error instanceof DataError)) throw error;
    const first = error.problems[0];
    throw refuse(first === undefined ? (error.text as Message) : msg("reason.read-back-problem", { ...(first.field === undefined ? {} : { field: first.field }), ...(first.line === undefined ? {} : { line: first.line }), expected: first.expected }));
  }
  if (count !== written.report.count) throw refuse(msg("reason.read-back-count", { read: count, count: written.report.count }));
  if (hash.digest("hex") !== written.sha256) throw refuse(msg("reason.value-differs"));
}
