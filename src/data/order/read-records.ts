/**
 * Stage 1 of a build: find the source files, parse them, validate every record, in reading order
 * (read-in-order.ts puts them in id order and checks the rules across records). Every problem is
 * collected; the run fails once, listing them all.
 *
 * Records come out rendered (render-block.ts), block by block: large JSON arrays are parsed,
 * validated and rendered in record threads (record-threads.ts) while this thread scans and hashes
 * the next blocks. With a build cache (build-cache.ts), a block it holds is not parsed at all: it
 * comes from the cache, rendered, with its keys, positions and warnings.
 */
import { availableParallelism } from "node:os";
import { stat } from "node:fs/promises";
import { blockKey, type BuildCache } from "./build-cache.ts";
import { displayPath, findSources, SOURCE_PATTERNS } from "../sources/find-sources.ts";
import { DataError, type Problem, ProblemCollector, type ProblemKind, type ProblemSink } from "../problems/problems.ts";
import { msg } from "../../common/messages/message.ts";
import { readCsv } from "../sources/read-csv.ts";
import { BLOCK_RECORDS, readJsonArray, type RecordSink } from "../sources/read-json-array.ts";
import { readNdjson } from "../sources/read-ndjson.ts";
import { readXlsx } from "../sources/read-xlsx.ts";
import { DEFAULT_MAX_FIELD_LENGTH } from "../rules/validate-subject.ts";
import { OibCheck } from "../rules/check-oibs.ts";
import { startRecordThreads, type RecordThreads } from "../../threads/record-threads.ts";
import { type BlockTask, BlockRenderer, renderJsonBlock, type RenderedBlock } from "./render-block.ts";
import type { SourceFile } from "../sources/source-file.ts";

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
  const value = msg("value.ignored", { names: ignored.slice(0, 20), more: Math.max(ignored.length - 20, 0) });
  const expected = msg("expected.only-sources", { patterns: SOURCE_PATTERNS.map((p) => p.slice(3)) });
  return [{ severity: options.strict ? "error" : "warning", file: displayPath(options.dataDir), expected, value, hint: msg("hint.save-spreadsheets") }];
}

/** Why there is nothing to read: the directory is missing, or holds no source file. */
async function noSources(dataDir: string): Promise<Problem> {
  const where = displayPath(dataDir);
  const isDirectory = await stat(dataDir).then((s) => s.isDirectory(), () => false);
  const expected = msg("expected.source-directory", { patterns: SOURCE_PATTERNS.map((p) => p.slice(3)) });
  return { severity: "error", file: where, expected, value: msg(isDirectory ? "value.none" : "value.no-directory"), hint: msg("hint.data-dir") };
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

/** What a read found besides the records: counts, warnings, the files and the cache keys. */
export interface ReadSummary {
  /** Records in the list. */
  readonly count: number;
  /** Records whose block came from the build cache, not parsed again. */
  readonly reused: number;
  /** The first few warnings of each kind, and every kind's exact count. */
  readonly warnings: readonly Problem[];
  readonly kinds: readonly ProblemKind[];
  readonly files: readonly string[];
  /** The build cache's keys of the blocks read (stored or found): what the cache keeps. */
  readonly cacheKeys: readonly string[];
}

/**
 * Takes the rendered blocks in reading order, one at a time (the reader waits while it works).
 * Returns false to stop the read there (the blocks it was given are all it gets).
 */
export interface BlockTaker {
  take(block: RenderedBlock, file: SourceFile, problems: ProblemCollector): boolean | Promise<boolean>;
  /** Called once every block was taken, before the problems are judged: the rules across records. */
  end?(problems: ProblemCollector): void | Promise<void>;
}

/** The outcome of streamRecords: a whole read, or one its taker stopped. */
export type StreamOutcome = { readonly stopped: false; readonly summary: ReadSummary } | { readonly stopped: true };

/** Rendered blocks waiting for the taker: more than this many and the reader waits (record threads keep up to 4 each out). */
const WAITING_BLOCKS = 16;

/** Thrown (and caught) inside streamRecords only: the taker asked to stop. */
class StopReading extends Error {}

/**
 * Reads, validates and renders every source file, handing `take` each rendered block in reading
 * order (a block `cache` holds is taken from it, unparsed), so that no more than a few blocks are
 * held at once. Throws DataError listing every problem when any is an error (after the whole read).
 */
export async function streamRecords(options: ReadOptions, taker: BlockTaker, cache?: BuildCache): Promise<StreamOutcome> {
  // Bounded: past the first few of a kind, problems are counted, not kept.
  const problems = new ProblemCollector(options.allProblems === true ? Number.POSITIVE_INFINITY : undefined);
  const { files: found, ignored } = await findSources(options.dataDir, { followOutside: options.followOutside ?? false, problems, strict: options.strict });
  const encoding = options.encoding;
  const files = encoding === undefined ? found : found.map((f) => (f.kind === "csv" ? { ...f, encoding } : f));
  if (files.length === 0) throw new DataError([await noSources(options.dataDir), ...ignoredFiles(ignored, options)]);
  for (const problem of ignoredFiles(ignored, options)) problems.push(problem);
  const waiting: { readonly file: SourceFile; readonly rendered: RenderedBlock | Promise<RenderedBlock> }[] = [];
  const cacheKeys: string[] = [];
  let reused = 0;
  let count = 0;
  const auto = (options.threads ?? "auto") === "auto";
  const threadsWanted = await threadCount(files, options.threads ?? "auto");
  let threads: RecordThreads | undefined;
  let renderedHere = 0;
  const oibs = new OibCheck();
  /**
   * Under "auto" the first block to parse is parsed here and the rest in threads, started then:
   * a rebuild that parses one edited block (the rest known from the cache) starts no thread.
   */
  const render = (task: BlockTask): RenderedBlock | Promise<RenderedBlock> => {
    if (threadsWanted === 0 || (auto && threads === undefined && renderedHere++ === 0)) return renderJsonBlock(task);
    threads ??= startRecordThreads(threadsWanted);
    return threads.render(task);
  };
  /** Hands the taker the waiting blocks, in order, until at most `keep` wait. */
  const drain = async (keep: number): Promise<void> => {
    while (waiting.length > keep) {
      const next = waiting.shift() as (typeof waiting)[number];
      const block = await next.rendered;
      if (block.uncached !== undefined) cache?.failed(block.uncached);
      problems.merge(block.problems, block.dropped);
      oibs.add(block, next.file, options.strict, problems);
      count += block.ends.length;
      if (!(await taker.take(block, next.file, problems))) throw new StopReading();
    }
  };
  try {
    // Files are read one after another: order is part of the result, and the disk is the bottleneck.
    for (const file of files) {
      const lines = new BlockRenderer(file, options.strict, options.maxFieldLength);
      const sink: RecordSink = {
        block(block, text) {
          const task = { file, strict: options.strict, ...(options.maxFieldLength === undefined ? {} : { maxFieldLength: options.maxFieldLength }), text };
          if (cache === undefined) {
            waiting.push({ file, rendered: render(task) });
            return;
          }
          const key = blockKey(options.strict, options.maxFieldLength ?? DEFAULT_MAX_FIELD_LENGTH, block);
          cacheKeys.push(key);
          const stored = cache.read(key, file);
          if (stored !== undefined) reused += stored.ends.length;
          const store = cache.fileOf(key);
          waiting.push({ file, rendered: stored ?? render(store === undefined ? task : { ...task, store }) });
        },
        record(value, position, source, notes) {
          lines.add(value, position, source, notes);
          if (lines.count === BLOCK_RECORDS) waiting.push({ file, rendered: lines.finish() });
        },
        ready: () => (waiting.length > WAITING_BLOCKS ? drain(WAITING_BLOCKS).then(() => threads?.room()) : (threads?.room() ?? RESOLVED)),
      };
      await readerOf(file)(file, sink, problems, options.maxFieldLength);
      if (lines.count > 0 || lines.problems.count > 0) waiting.push({ file, rendered: lines.finish() });
    }
    await drain(0);
    await taker.end?.(problems);
  } catch (error) {
    // The blocks still out in threads fail with the pool; nothing waits for them.
    for (const w of waiting) if (w.rendered instanceof Promise) w.rendered.catch(() => undefined);
    if (error instanceof StopReading) return { stopped: true };
    throw error;
  } finally {
    await threads?.close();
  }
  const all = sortProblems(problems.problems, files);
  if (problems.errors > 0) throw new DataError(all, problems.kinds);
  return { stopped: false, summary: { count, reused, warnings: all, kinds: problems.kinds, files: files.map((f) => f.name), cacheKeys } };
}

const RESOLVED = Promise.resolve();
