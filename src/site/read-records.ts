/**
 * Stage 1 and 2 of a build: find the source files, parse them, validate every record, then the
 * rules across records. Every problem is collected; the run fails once, listing them all.
 *
 * Records come out rendered (render-block.ts), block by block: large JSON arrays are parsed,
 * validated and rendered in record threads (record-threads.ts) while this thread scans and hashes
 * the next blocks. With a build cache (build-cache.ts), a block it holds is not parsed at all: it
 * comes from the cache, rendered, with its keys, positions and warnings.
 */
import { availableParallelism } from "node:os";
import { stat } from "node:fs/promises";
import { blockKey, type BuildCache } from "./build-cache.ts";
import { checkSequence, RecordOrigins } from "./check-sequence.ts";
import { displayPath, findSources, SOURCE_PATTERNS } from "./find-sources.ts";
import { DataError, type Problem, ProblemCollector, type ProblemKind, type ProblemSink } from "./problems.ts";
import { readCsv } from "./read-csv.ts";
import { BLOCK_RECORDS, readJsonArray, type RecordSink } from "./read-json-array.ts";
import { readNdjson } from "./read-ndjson.ts";
import { readXlsx } from "./read-xlsx.ts";
import { DEFAULT_MAX_FIELD_LENGTH } from "./validate-subject.ts";
import { startRecordThreads, type RecordThreads } from "./record-threads.ts";
import { type BlockTask, BlockRenderer, renderJsonBlock, type RenderedBlock } from "./render-block.ts";
import type { SourceFile } from "./source-file.ts";

export interface ReadOptions {
  /** The data directory searched for *.json, *.ndjson and *.csv. */
  readonly dataDir: string;
  /** Treat warnings as errors. */
  readonly strict: boolean;
  /**
   * Record threads for JSON arrays: a number (0: all on this thread), or "auto": one per core
   * when the JSON sources are large enough to repay starting them (THREADS_FROM_BYTES).
   */
  readonly threads?: number | "auto";
  /** The longest a text field may be, in characters (DEFAULT_MAX_FIELD_LENGTH when not given). */
  readonly maxFieldLength?: number;
  /** Follow symbolic links that lead outside the data directory (by default they are skipped, with a warning). */
  readonly followOutside?: boolean;
  /** The encoding of CSV sources (a WHATWG label); UTF-8 when not given. */
  readonly encoding?: string;
  /** Keep every problem the blocks hand on (every warning; a block's first few errors of a kind), not the first few of each kind. */
  readonly allProblems?: boolean;
}

/** The records of a successful read, rendered, with what a build and its cache need. */
export interface RecordSet {
  /** Records in the list. */
  readonly count: number;
  /** The rendered blocks, in reading order; the record arena releases each once it has copied it. */
  readonly rendered: (RenderedBlock | undefined)[];
  /** For each record in id order: its rendered block. */
  readonly blockOf: Uint32Array;
  /** For each record in id order: its index in that block. */
  readonly indexIn: Uint32Array;
  /** Records whose block came from the build cache, not parsed again. */
  readonly reused: number;
  /** The first few warnings of each kind, and every kind's exact count. */
  readonly warnings: readonly Problem[];
  readonly kinds: readonly ProblemKind[];
  readonly files: readonly string[];
  /** The build cache's keys of the blocks read (stored or found): what the cache keeps. */
  readonly cacheKeys: readonly string[];
}

/** JSON sources this large (~100k records) start record threads under "auto"; smaller ones are done before threads would start. */
export const THREADS_FROM_BYTES = 32 * 1024 * 1024;

const READERS = {
  csv: readCsv,
  xlsx: readXlsx,
  ndjson: readNdjson,
  json: readJsonArray,
} as const;

function readerOf(file: SourceFile): (file: SourceFile, sink: RecordSink, problems: ProblemSink, maxFieldLength?: number) => Promise<void> {
  return file.kind === "csv" ? READERS.csv : file.kind === "xlsx" ? READERS.xlsx : file.locateBy === "line" ? READERS.ndjson : READERS.json;
}

/** The one warning naming every file under the data directory that is not read (so none is skipped silently). */
function ignoredFiles(ignored: readonly string[], options: ReadOptions): Problem[] {
  if (ignored.length === 0) return [];
  const shown = ignored.length > 20 ? `${ignored.slice(0, 20).join(", ")} and ${ignored.length - 20} more` : ignored.join(", ");
  const expected = `only ${SOURCE_PATTERNS.map((p) => p.slice(3)).join(", ")} files`;
  return [{ severity: options.strict ? "error" : "warning", file: displayPath(options.dataDir), expected, value: `ignored: ${shown}`, hint: "save spreadsheets as .xlsx or CSV UTF-8 to have them read" }];
}

/** Why there is nothing to read: the directory is missing, or holds no source file. */
async function noSources(dataDir: string): Promise<Problem> {
  const where = displayPath(dataDir);
  const isDirectory = await stat(dataDir).then((s) => s.isDirectory(), () => false);
  const expected = `a directory of ${SOURCE_PATTERNS.map((p) => p.slice(3)).join(", ")} files (searched recursively)`;
  return { severity: "error", file: where, expected, value: isDirectory ? "none" : "no such directory", hint: "is --data the right directory?" };
}

/** File order, then position in the file (a problem of the whole file first), then as found. */
function sortProblems(problems: readonly Problem[], files: readonly SourceFile[]): Problem[] {
  const fileOrder = new Map(files.map((f, i) => [f.name, i]));
  const keyed = problems.map((p, i) => ({ p, i, file: fileOrder.get(p.file) ?? -1, position: p.index ?? p.line ?? -1 }));
  keyed.sort((a, b) => a.file - b.file || a.position - b.position || a.i - b.i);
  return keyed.map((k) => k.p);
}

/** How many record threads to start for `files`. */
async function threadCount(files: readonly SourceFile[], threads: number | "auto"): Promise<number> {
  if (threads !== "auto") return threads;
  let bytes = 0;
  for (const file of files) if (file.kind === "json" && file.locateBy === "index") bytes += (await stat(file.path)).size;
  return bytes >= THREADS_FROM_BYTES ? availableParallelism() : 0;
}

/** One piece of the records in reading order: a block rendered here, in a thread, or taken from the cache. */
interface Piece {
  readonly file: number;
  readonly rendered: RenderedBlock | Promise<RenderedBlock>;
}

/**
 * Reads, validates and renders every source file, taking the blocks `cache` has from it; throws
 * DataError listing every problem when any is an error.
 */
export async function readRecords(options: ReadOptions, cache?: BuildCache): Promise<RecordSet> {
  // Bounded: past the first few of a kind, problems are counted, not kept.
  const problems = new ProblemCollector(options.allProblems === true ? Number.POSITIVE_INFINITY : undefined);
  const { files: found, ignored } = await findSources(options.dataDir, { followOutside: options.followOutside ?? false, problems, strict: options.strict });
  const encoding = options.encoding;
  const files = encoding === undefined ? found : found.map((f) => (f.kind === "csv" ? { ...f, encoding } : f));
  if (files.length === 0) throw new DataError([await noSources(options.dataDir), ...ignoredFiles(ignored, options)]);
  for (const problem of ignoredFiles(ignored, options)) problems.push(problem);
  const pieces: Piece[] = [];
  const cacheKeys: string[] = [];
  let reused = 0;
  const auto = (options.threads ?? "auto") === "auto";
  const count = await threadCount(files, options.threads ?? "auto");
  let threads: RecordThreads | undefined;
  let renderedHere = 0;
  /**
   * Under "auto" the first block to parse is parsed here and the rest in threads, started then:
   * a rebuild that parses one edited block (the rest known from the cache) starts no thread.
   */
  const render = (task: BlockTask): RenderedBlock | Promise<RenderedBlock> => {
    if (count === 0 || (auto && threads === undefined && renderedHere++ === 0)) return renderJsonBlock(task);
    threads ??= startRecordThreads(count);
    return threads.render(task);
  };
  try {
    // Files are read one after another: order is part of the result, and the disk is the bottleneck.
    for (const [number, file] of files.entries()) {
      const lines = new BlockRenderer(file, options.strict, options.maxFieldLength);
      const sink: RecordSink = {
        block(block, text) {
          const task = { file, strict: options.strict, ...(options.maxFieldLength === undefined ? {} : { maxFieldLength: options.maxFieldLength }), text };
          if (cache === undefined) {
            pieces.push({ file: number, rendered: render(task) });
            return;
          }
          const key = blockKey(options.strict, options.maxFieldLength ?? DEFAULT_MAX_FIELD_LENGTH, block);
          cacheKeys.push(key);
          const stored = cache.read(key, file);
          if (stored !== undefined) reused += stored.ends.length;
          pieces.push({ file: number, rendered: stored ?? render({ ...task, store: cache.fileOf(key) }) });
        },
        record(value, position, source, notes) {
          lines.add(value, position, source, notes);
          if (lines.count === BLOCK_RECORDS) pieces.push({ file: number, rendered: lines.finish() });
        },
        ready: () => threads?.room() ?? Promise.resolve(),
      };
      await readerOf(file)(file, sink, problems, options.maxFieldLength);
      if (lines.count > 0 || lines.problems.count > 0) pieces.push({ file: number, rendered: lines.finish() });
    }
    // Every thread's block, in reading order (a failed thread fails the read).
    const done = await Promise.all(pieces.map(async (p) => ({ file: p.file, rendered: await p.rendered })));
    return { ...assemble(done, files, problems), reused, cacheKeys };
  } finally {
    await threads?.close();
  }
}

/** The pieces as one list: keys in reading order, the rules across records, then the id order. */
function assemble(pieces: readonly { file: number; rendered: RenderedBlock }[], files: readonly SourceFile[], problems: ProblemCollector): Omit<RecordSet, "reused" | "cacheKeys"> {
  let total = 0;
  for (const p of pieces) total += p.rendered.ends.length;
  const ids = new Float64Array(total);
  const codes: string[] = new Array<string>(total);
  const origins = new RecordOrigins();
  /** Reading order: the rendered block (index into `rendered`), and the index in it. */
  const blockOfRead = new Uint32Array(total);
  const indexInRead = new Uint32Array(total);
  const rendered: RenderedBlock[] = [];
  let r = 0;
  for (const [b, { file, rendered: block }] of pieces.entries()) {
    problems.merge(block.problems, block.dropped);
    rendered.push(block);
    for (let k = 0; k < block.ends.length; k++, r++) {
      ids[r] = block.ids[k] ?? 0;
      codes[r] = block.codes[k] ?? "";
      origins.push(file, block.positions[k] ?? 0);
      blockOfRead[r] = b;
      indexInRead[r] = k;
    }
  }
  const order = checkSequence({ ids, codes }, origins, files, problems);

  const all = sortProblems(problems.problems, files);
  if (problems.errors > 0) throw new DataError(all, problems.kinds);
  const result = { count: total, rendered, warnings: all, kinds: problems.kinds, files: files.map((f) => f.name) };
  if (order === undefined) return { ...result, blockOf: blockOfRead, indexIn: indexInRead };
  const blockOf = new Uint32Array(total);
  const indexIn = new Uint32Array(total);
  for (let k = 0; k < total; k++) {
    const i = order[k] ?? 0;
    blockOf[k] = blockOfRead[i] ?? 0;
    indexIn[k] = indexInRead[i] ?? 0;
  }
  return { ...result, blockOf, indexIn };
}
