/**
 * Stage 1 and 2 of a build: find the source files, parse them, validate every record, then the
 * rules across records. Every problem is collected; the run fails once, listing them all.
 *
 * Given what the previous build read (`KnownBlocks`, from build-cache.ts), a block of records
 * whose text is unchanged is not parsed or validated again: its keys, positions and warnings come
 * from the cache, and its rendered bytes from the previous site (`RecordSet.reused`).
 */
import { stat } from "node:fs/promises";
import { relative } from "node:path";
import type { Subject } from "../core/render-page.ts";
import { checkSequence, RecordOrigins } from "./check-sequence.ts";
import { displayPath, findSources, SOURCE_PATTERNS } from "./find-sources.ts";
import { DataError, type Problem } from "./problems.ts";
import { readCsv } from "./read-csv.ts";
import { readJsonArray, type RecordSink, type SourceBlock } from "./read-json-array.ts";
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

/** A block the previous build read, as the build cache keeps it (all in the block's record order). */
export interface KnownBlock {
  readonly ids: ArrayLike<number>;
  readonly codes: readonly string[];
  readonly positions: ArrayLike<number>;
  /** Each record's index in the previous build's list (id order): where its rendered bytes are. */
  readonly listIndex: ArrayLike<number>;
  /** Its warnings (a block with errors is never kept). */
  readonly warnings: readonly Problem[];
}

/** What the previous build read, for skipping unchanged blocks. */
export interface KnownBlocks {
  /** Block number `ordinal` of `file` (its path inside the data directory) as read before, if its place, size and text hash are `block`'s. */
  find(file: string, ordinal: number, block: SourceBlock): KnownBlock | undefined;
}

/** A block as this build read it: enough for the next build to skip it (see build-cache.ts). */
export interface ReadBlock extends SourceBlock {
  /** The file's path inside the data directory. */
  readonly file: string;
  readonly ordinal: number;
  /** Its first record's number in reading order. */
  readonly start: number;
  readonly warnings: readonly Problem[];
}

/** The records of a successful read, with what a build and its cache need. */
export interface RecordSet {
  /** Records in the list. */
  readonly count: number;
  /** Each record's subject in id order, or undefined where `reused` says where its bytes are. */
  readonly subjects: (Subject | undefined)[];
  /** Each record's index (id order) in the previous build's list when it was not parsed again, else -1. */
  readonly reused: Int32Array;
  /** Records taken from the previous build. */
  readonly reusedCount: number;
  readonly warnings: readonly Problem[];
  readonly files: readonly string[];
  /** In reading order: the keys, and each record's position in its file and index in the list. */
  readonly keys: { readonly ids: Float64Array; readonly codes: readonly string[] };
  readonly positions: Uint32Array;
  readonly listIndex: Uint32Array;
  /** The blocks read, in reading order (JSON arrays only: NDJSON and CSV are always read whole). */
  readonly blocks: readonly ReadBlock[];
}

const READERS = {
  csv: readCsv,
  ndjson: readNdjson,
  json: readJsonArray,
} as const;

function readerOf(file: SourceFile): (file: SourceFile, sink: RecordSink, problems: Problem[]) => Promise<void> {
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

/** A growable typed array: a million numbers in 8 MB, not a million array slots of the heap. */
class NumberList<T extends Float64Array | Int32Array> {
  values: T;
  length = 0;
  constructor(values: T) {
    this.values = values;
  }
  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new (this.values.constructor as new (length: number) => T)(this.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }
}

/** Reads and validates every source file; throws DataError listing every problem when any is an error. */
export async function readSubjects(options: ReadOptions): Promise<ReadResult> {
  const set = await readRecords(options);
  return { subjects: set.subjects as Subject[], warnings: set.warnings, files: set.files };
}

/**
 * Reads and validates every source file, skipping the blocks `known` has; throws DataError
 * listing every problem when any is an error.
 */
export async function readRecords(options: ReadOptions, known?: KnownBlocks): Promise<RecordSet> {
  const files = await findSources(options.dataDir);
  if (files.length === 0) throw new DataError([await noSources(options.dataDir)]);

  const problems: Problem[] = [];
  const subjects: (Subject | undefined)[] = [];
  const ids = new NumberList(new Float64Array(1024));
  const codes: string[] = [];
  const origins = new RecordOrigins();
  /** -1, or the previous list index of a record not parsed again (reading order). */
  const reusedFrom = new NumberList(new Int32Array(1024));
  let reusedCount = 0;
  const blocks: ReadBlock[] = [];
  // Files are read one after another: order is part of the result, and the disk is the bottleneck.
  for (const [number, file] of files.entries()) {
    // Blocks are known by the file's path inside the data directory, wherever the build runs from.
    const key = relative(options.dataDir, file.path);
    let ordinal = -1;
    let open: { block: SourceBlock; ordinal: number; start: number; problemsFrom: number } | undefined;
    const close = (): void => {
      if (open === undefined) return;
      blocks.push({ ...open.block, file: key, ordinal: open.ordinal, start: open.start, warnings: problems.slice(open.problemsFrom) });
      open = undefined;
    };
    const sink: RecordSink = {
      block(block) {
        close();
        ordinal += 1;
        const start = subjects.length;
        const seen = known?.find(key, ordinal, block);
        if (seen === undefined) {
          open = { block, ordinal, start, problemsFrom: problems.length };
          return false;
        }
        const warnings = seen.warnings.map((w) => ({ ...w, severity: options.strict ? "error" : "warning" }) as const);
        for (let k = 0; k < block.count; k++) {
          subjects.push(undefined);
          ids.push(seen.ids[k] ?? 0);
          codes.push(seen.codes[k] ?? "");
          origins.push(number, seen.positions[k] ?? 0);
          reusedFrom.push(seen.listIndex[k] ?? 0);
        }
        reusedCount += block.count;
        problems.push(...warnings);
        blocks.push({ ...block, file: key, ordinal, start, warnings });
        return true;
      },
      record(value, position) {
        const subject = validateSubject(value, file, position, options.strict, problems);
        if (subject === undefined) return;
        subjects.push(subject);
        ids.push(subject.id);
        codes.push(subject.jedinstvena_oznaka);
        origins.push(number, position);
        reusedFrom.push(-1);
      },
    };
    await readerOf(file)(file, sink, problems);
    close();
  }
  const keys = { ids: ids.values.subarray(0, ids.length), codes };
  const order = checkSequence(keys, origins, files, problems);

  const all = problems.length === 0 ? problems : sortProblems(problems, files);
  if (all.some((p) => p.severity === "error")) throw new DataError(all);

  const count = subjects.length;
  const at = (k: number): number => (order === undefined ? k : (order[k] ?? 0));
  const reused = new Int32Array(count);
  const listIndex = new Uint32Array(count);
  const positions = new Uint32Array(count);
  const sorted = order === undefined ? subjects : new Array<Subject | undefined>(count);
  for (let k = 0; k < count; k++) {
    const r = at(k);
    if (order !== undefined) sorted[k] = subjects[r];
    reused[k] = reusedFrom.values[r] ?? -1;
    listIndex[r] = k;
    positions[r] = origins.position(r);
  }
  return { count, subjects: sorted, reused, reusedCount, warnings: all, files: files.map((f) => f.name), keys, positions, listIndex, blocks };
}
