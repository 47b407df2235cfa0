/**
 * The way back to a spreadsheet: the validated records, in id order, as a workbook or a CSV a
 * maintainer edits and saves as a source again. In the workbook the OIB, the code and the date
 * are text cells in columns formatted as text, so Excel keeps their zeros and does not turn
 * dates into its own form; flags are boolean cells. The CSV is the form a Croatian Excel saves:
 * UTF-8 with a byte-order mark, `;` between cells, CRLF (a spreadsheet that opens it makes the OIBs
 * numbers: the workbook is the one to edit). Reading either back
 * gives the same site, without a single warning of a spreadsheet form.
 *
 * Nothing is lost on the way, or the export fails: a CSV cell a spreadsheet would evaluate is
 * guarded by an apostrophe, a workbook's text holds every character by OOXML's
 * escape, a value longer than a workbook cell holds is refused with its place (row-writers.ts), and
 * the file written is read back as a source before it is renamed into place: it must give the
 * same records, byte for byte. It is written under a hidden temporary name (`.<name>.tmp-<pid>/`,
 * which no build takes for a source), one export at a time per file (output-lock.ts); a signal
 * or a failure leaves no part of it.
 */
import { createHash, type Hash } from "node:crypto";
import { rmSync } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { pauseAt } from "../common/pause-point.ts";
import { withOutputLock } from "../common/output-lock.ts";
import { DEAD, removeLeftoversSync } from "../common/remove-leftovers.ts";
import { removeScratchDirs } from "../common/scratch-dir.ts";
import type { Subject } from "../core/render-page.ts";
import type { SubjektiError } from "../core/errors.ts";
import { type Message, msg } from "../common/messages/message.ts";
import { failure } from "../common/messages/translate.ts";
import { forEachItem } from "../common/stage-iterables.ts";
import type { RenderedBlock } from "../data/hand-offs.ts";
import { DataError, type Problem, type ProblemKind } from "../data/problems/problems.ts";
import { type JudgedRead, readRecords } from "../data/read/read-records.ts";
import { type ReadOptions, type ResolvedReadOptions, resolveReadOptions } from "../data/read-options.ts";
import { csvWriter, type RowWriter, xlsxWriter } from "./row-writers.ts";

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

/** A block's records, parsed back one at a time. */
export function* subjectsOf(block: RenderedBlock): Generator<Subject> {
  const bytes = Buffer.from(block.bytes.buffer, block.bytes.byteOffset, block.bytes.byteLength);
  for (let k = 0; k < block.ends.length; k++)
    yield JSON.parse(bytes.toString("utf8", k === 0 ? 0 : block.ends[k - 1], block.ends[k])) as Subject;
}

/**
 * The read, with no restart (a row once written is never taken back): every record through the
 * sort, each block to `take`. The accepted warnings are not applied: the export reports the
 * source's own.
 */
async function readSorted(options: ResolvedReadOptions, take: (block: RenderedBlock) => Promise<void> | void): Promise<JudgedRead> {
  return forEachItem(await readRecords(options, { restart: false, known: false }), async (item) => {
    if (item.kind === "restart") throw new Error("a read sorted from the start restarted");
    await take(item.block);
  });
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
  // Hidden and a directory: the file in it keeps its name and extension, so it is read back as the source it will be.
  const temporary = join(dirname(out), `.${basename(out)}.tmp-${process.pid}`);
  const lock = { wait: options.wait ?? false, command: "export", ...(options.notice === undefined ? {} : { notice: options.notice }) };
  const leftovers = {
    // What exports stopped by kill -9 left beside the file, and in the system's temporary directory.
    dead: () => {
      removeLeftoversSync(dirname(out), (name) => name.startsWith(`.${basename(out)}.`), DEAD);
      removeScratchDirs(undefined, DEAD);
    },
    own: () => rmSync(temporary, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 }),
  };
  return withOutputLock(out, `--out ${options.out}`, lock, leftovers, async () => {
    try {
      await rm(temporary, { recursive: true, force: true });
      await mkdir(temporary);
      const file = join(temporary, basename(out));
      const read = resolveReadOptions(options);
      const written = await writeRecords(options, read, file);
      await checkReadBack(options, read, temporary, written);
      await rename(file, out);
      return written.report;
    } finally {
      await rm(temporary, { recursive: true, force: true });
    }
  });
}

/** Writes the records of `options.dataDir` into `file`; answers the read's report, and the hash and count of the records written. */
async function writeRecords(
  options: ExportOptions,
  read: ResolvedReadOptions,
  file: string,
): Promise<{ readonly report: ExportReport; readonly sha256: string }> {
  // Opened at the first row: a read that fails before one (the usual bad data) opens nothing.
  let rows: RowWriter | undefined;
  const open = (): RowWriter => (options.format === "xlsx" ? xlsxWriter : csvWriter)(file);
  const hash = createHash("sha256");
  try {
    const summary = await readSorted(read, async (block) => {
      const first = rows === undefined;
      rows ??= open();
      addRecords(hash, block);
      for (const subject of subjectsOf(block)) await rows.row(subject);
      if (first) await pauseAt("export-rows-written");
    });
    rows ??= open();
    await rows.end();
    return { report: { count: summary.count, warnings: summary.warnings, kinds: summary.kinds }, sha256: hash.digest("hex") };
  } catch (error) {
    rows?.abort();
    throw error;
  }
}

/** Reads the file written (the only source in `dir`) as a build would, and refuses it unless it gives the records written. */
async function checkReadBack(
  options: ExportOptions,
  read: ResolvedReadOptions,
  dir: string,
  written: { readonly report: ExportReport; readonly sha256: string },
): Promise<void> {
  const hash = createHash("sha256");
  const refuse = (why: Message): SubjektiError => failure("EXPORT_NOT_SAME", msg("error.export-not-same", { out: options.out, why }));
  let count: number;
  try {
    // Not strict, and no --encoding: the export's own file is UTF-8, and its warnings are the source's.
    ({ count } = await readSorted(
      resolveReadOptions({ dataDir: dir, threads: read.threads, maxFieldLength: read.maxFieldLength }),
      (block) => addRecords(hash, block),
    ));
  } catch (error) {
    if (!(error instanceof DataError)) throw error;
    const first = error.problems[0];
    throw refuse(
      first === undefined
        ? (error.text as Message)
        : msg("reason.read-back-problem", {
            ...(first.field === undefined ? {} : { field: first.field }),
            ...(first.line === undefined ? {} : { line: first.line }),
            expected: first.expected,
          }),
    );
  }
  if (count !== written.report.count) throw refuse(msg("reason.read-back-count", { read: count, count: written.report.count }));
  if (hash.digest("hex") !== written.sha256) throw refuse(msg("reason.value-differs"));
}
