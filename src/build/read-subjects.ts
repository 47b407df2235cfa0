/**
 * Stage 1 and 2 of a build: find the source files, parse them, validate every record, then the
 * rules across records. Every problem is collected; the run fails once, listing them all.
 */
import { stat } from "node:fs/promises";
import type { Subject } from "../core/render-page.ts";
import { checkSequence, RecordOrigins } from "./check-sequence.ts";
import { displayPath, findSources, SOURCE_PATTERNS } from "./find-sources.ts";
import { DataError, type Problem } from "./problems.ts";
import { readCsv } from "./read-csv.ts";
import { type OnRecord, readJsonArray } from "./read-json-array.ts";
import { readNdjson } from "./read-ndjson.ts";
import type { SourceFile } from "./source-file.ts";
import { validateSubject } from "./validate-subject.ts";

export interface ReadOptions {
  /** The data directory searched for *.json, *.ndjson and *.csv. */
  readonly dataDir: string;
  /** Treat warnings as errors. */
  readonly strict: boolean;
}

export interface ReadResult {
  /** Every subject, ascending by id. */
  readonly subjects: readonly Subject[];
  /** Problems that did not stop the build. */
  readonly warnings: readonly Problem[];
  /** The source files read, in the order read. */
  readonly files: readonly string[];
}

const READERS = {
  csv: readCsv,
  ndjson: readNdjson,
  json: readJsonArray,
} as const;

function readerOf(file: SourceFile): (file: SourceFile, onRecord: OnRecord, problems: Problem[]) => Promise<void> {
  return file.kind === "csv" ? READERS.csv : file.locateBy === "line" ? READERS.ndjson : READERS.json;
}

/** Why there is nothing to read: the directory is missing, or holds no source file. */
async function noSources(dataDir: string): Promise<Problem> {
  const where = displayPath(dataDir);
  const isDirectory = await stat(dataDir).then((s) => s.isDirectory(), () => false);
  const expected = `a directory of ${SOURCE_PATTERNS.map((p) => p.slice(3)).join(", ")} files (searched recursively)`;
  return { severity: "error", file: where, expected, value: isDirectory ? "none" : "no such directory", hint: "is --data the right directory?" };
}

/** File order, then position in the file (a problem of the whole file first), then as found. */
function sortProblems(problems: Problem[], files: readonly SourceFile[]): Problem[] {
  const fileOrder = new Map(files.map((f, i) => [f.name, i]));
  const keyed = problems.map((p, i) => ({ p, i, file: fileOrder.get(p.file) ?? -1, position: p.index ?? p.line ?? -1 }));
  keyed.sort((a, b) => a.file - b.file || a.position - b.position || a.i - b.i);
  return keyed.map((k) => k.p);
}

/** Reads and validates every source file; throws DataError listing every problem when any is an error. */
export async function readSubjects(options: ReadOptions): Promise<ReadResult> {
  const files = await findSources(options.dataDir);
  if (files.length === 0) throw new DataError([await noSources(options.dataDir)]);

  const problems: Problem[] = [];
  const subjects: Subject[] = [];
  const origins = new RecordOrigins();
  // Files are read one after another: order is part of the result, and the disk is the bottleneck.
  for (const [number, file] of files.entries()) {
    const onRecord: OnRecord = (value, position) => {
      const subject = validateSubject(value, file, position, options.strict, problems);
      if (subject === undefined) return;
      subjects.push(subject);
      origins.push(number, position);
    };
    await readerOf(file)(file, onRecord, problems);
  }
  const ordered = checkSequence(subjects, origins, files, problems);

  const all = problems.length === 0 ? problems : sortProblems(problems, files);
  if (all.some((p) => p.severity === "error")) throw new DataError(all);
  return { subjects: ordered, warnings: all, files: files.map((f) => f.name) };
}
