/**
 * Stage 1 of a build, sources -> blocks: find the source files, parse them, validate every record,
 * and yield the rendered blocks in reading order (the ordering stage, order/order-blocks.ts, puts
 * them in id order and checks the rules across records). Every problem is collected; the read
 * fails once, at its end, listing them all.
 *
 * Records come out rendered (render-block.ts), block by block: large JSON arrays are parsed,
 * validated and rendered in record threads (record-threads.ts, running render-block.ts)
 * while this thread scans and hashes the next blocks. With a build cache (build-cache.ts), a block
 * it holds is not parsed at all: it comes from the cache, rendered, with its keys, positions and
 * warnings.
 */
import { availableParallelism } from "node:os";
import { stat } from "node:fs/promises";
import { blockKey, type BuildCache, rereadStored, storeBlock } from "./build-cache.ts";
import { displayPath, findSources, SOURCE_PATTERNS } from "../sources/find-sources.ts";
import { pulled } from "../../common/stage-iterables.ts";
import type { ReadItem, ReadSummary, RenderedBlock } from "../hand-offs.ts";
import type { ResolvedReadOptions } from "../read-options.ts";
import { DataError, type Problem, ProblemCollector, type ProblemSink } from "../problems/problems.ts";
import { msg } from "../../common/messages/message.ts";
import { readJsonArray } from "../sources/read-json-array.ts";
import { BLOCK_RECORDS, type RecordSink } from "../sources/record-sink.ts";
import { readNdjson } from "../sources/read-ndjson.ts";
import { OibCheck, type OibKeys } from "../rules/check-oibs.ts";
import { NextKeys } from "../rules/next-keys.ts";
import { startRecordThreads, type RecordThreads } from "./record-threads.ts";
import { type BlockTask, BlockRenderer, renderJsonBlock } from "./render-block.ts";
import type { SourceFile } from "../sources/source-file.ts";

/** JSON sources this large (~100k records) start record threads under "auto"; smaller ones are done before threads would start. */
export const THREADS_FROM_BYTES = 32 * 1024 * 1024;

type Reader = (file: SourceFile, sink: RecordSink, problems: ProblemSink, maxFieldLength?: number) => Promise<void>;

// The spreadsheet readers (csv-parse; a zip reader and an XML parser) are loaded only when such a source is found:
// a JSON dataset's build does without them (test/cli/compiled-cli.slow.test.ts).
const readCsv: Reader = async (file, sink, problems) => (await import("../sources/read-csv.ts")).readCsv(file, sink, problems);
const readXlsx: Reader = async (file, sink, problems) => (await import("../sources/read-xlsx.ts")).readXlsx(file, sink, problems);

const READERS = {
  csv: readCsv,
  xlsx: readXlsx,
  ndjson: readNdjson,
  json: readJsonArray,
} as const;

function readerOf(file: SourceFile): Reader {
  return file.kind === "csv" ? READERS.csv : file.kind === "xlsx" ? READERS.xlsx : file.locateBy === "line" ? READERS.ndjson : READERS.json;
}

/** The one warning naming every file under the data directory that is not read (so none is skipped silently). */
function ignoredFiles(ignored: readonly string[], options: ResolvedReadOptions): Problem[] {
  if (ignored.length === 0) return [];
  const value = msg("value.ignored", { names: ignored.slice(0, 20), more: Math.max(ignored.length - 20, 0) });
  const expected = msg("expected.only-sources", { patterns: SOURCE_PATTERNS.map((p) => p.slice(3)) });
  return [
    {
      severity: options.strict ? "error" : "warning",
      file: displayPath(options.dataDir),
      expected,
      value,
      hint: msg("hint.save-spreadsheets"),
    },
  ];
}

/** Why there is nothing to read: the directory is missing, or holds no source file. */
async function noSources(dataDir: string): Promise<Problem> {
  const where = displayPath(dataDir);
  const isDirectory = await stat(dataDir).then(
    (s) => s.isDirectory(),
    () => false,
  );
  const expected = msg("expected.source-directory", { patterns: SOURCE_PATTERNS.map((p) => p.slice(3)) });
  return {
    severity: "error",
    file: where,
    expected,
    value: msg(isDirectory ? "value.none" : "value.no-directory"),
    hint: msg("hint.data-dir"),
  };
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

/** Rendered blocks waiting for the taker: more than this many and the reader waits (record threads keep up to 4 each out). */
const WAITING_BLOCKS = 16;

/** Thrown inside the read when the next stage stopped taking blocks (dropped by `pulled`). */
class StopReading extends Error {}

/** The module a record thread runs (record-threads.ts starts it by name, not by import). */
const RENDER_MODULE = new URL("./render-block.ts", import.meta.url);

/**
 * Reads, validates and renders every source file, yielding each rendered block in reading order
 * (a block `cache` holds is taken from it, unparsed), then "end" with the problems; so that no more
 * than a few blocks are held at once. Returns what was read; throws DataError listing every
 * problem when any is an error (after the whole read, once "end" was taken).
 */
export function readBlocks(options: ResolvedReadOptions, cache?: BuildCache): AsyncGenerator<ReadItem, ReadSummary> {
  return pulled<ReadItem, ReadSummary>((put) => readInto(options, put, cache));
}

/** The read, pushing each item into `put` and waiting for it; stops (StopReading) when `put` says the taker left. */
async function readInto(
  options: ResolvedReadOptions,
  put: (item: ReadItem) => Promise<boolean>,
  cache: BuildCache | undefined,
): Promise<ReadSummary> {
  // Bounded: past the first few of a kind, problems are counted, not kept.
  const problems = new ProblemCollector(options.allProblems ? Number.POSITIVE_INFINITY : undefined);
  const { files: found, ignored } = await findSources(options.dataDir, {
    followOutside: options.followOutside,
    problems,
    strict: options.strict,
  });
  const encoding = options.encoding;
  const files = encoding === undefined ? found : found.map((f) => (f.kind === "csv" ? { ...f, encoding } : f));
  if (files.length === 0) throw new DataError([await noSources(options.dataDir), ...ignoredFiles(ignored, options)]);
  for (const problem of ignoredFiles(ignored, options)) problems.push(problem);
  const waiting: { readonly file: SourceFile; readonly rendered: RenderedBlock | Promise<RenderedBlock> }[] = [];
  const cacheKeys: string[] = [];
  let reused = 0;
  let count = 0;
  const auto = options.threads === "auto";
  const threadsWanted = await threadCount(files, options.threads);
  let threads: RecordThreads | undefined;
  let renderedHere = 0;
  const oibs = new OibCheck();
  const nextKeys = new NextKeys();
  /**
   * Under "auto" the first block to parse is parsed here and the rest in threads, started then (a
   * cold build's at once: coldStart): a rebuild parsing one edited block starts no thread.
   */
  const render = (task: BlockTask): RenderedBlock | Promise<RenderedBlock> => {
    if (threadsWanted === 0 || (auto && renderedHere++ === 0)) return renderJsonBlock(task);
    threads ??= startRecordThreads(threadsWanted, RENDER_MODULE);
    return threads.render(task);
  };
  /** Hands the taker the waiting blocks, in order, until at most `keep` wait. */
  const drain = async (keep: number): Promise<void> => {
    while (waiting.length > keep) {
      const next = waiting.shift() as (typeof waiting)[number];
      const block = await next.rendered;
      if (block.uncached !== undefined) cache?.failed(block.uncached);
      problems.merge(block.problems, block.dropped);
      await oibs.add(oibKeysOf(block), next.file, options.strict);
      nextKeys.add(block);
      count += block.ends.length;
      if (!(await put({ kind: "block", block, file: next.file, problems }))) throw new StopReading();
    }
  };
  try {
    if (coldStart(threadsWanted, cache)) threads = startRecordThreads(threadsWanted, RENDER_MODULE);
    // Files are read one after another: order is part of the result, and the disk is the bottleneck.
    for (const file of files) {
      const lines = new BlockRenderer(file, options.strict, options.maxFieldLength);
      const sink: RecordSink = {
        block(block, text) {
          const task = { file, strict: options.strict, maxFieldLength: options.maxFieldLength, text };
          if (cache === undefined) {
            waiting.push({ file, rendered: render(task) });
            return;
          }
          const key = blockKey(options.strict, options.maxFieldLength, block);
          cacheKeys.push(key);
          const stored = cache.read(key, file);
          if (stored !== undefined) reused += stored.ends.length;
          const store = cache.fileOf(key);
          waiting.push({ file, rendered: stored ?? render(store === undefined ? task : { ...task, store }) });
        },
        lines(block, parse) {
          // The records before these (an earlier file's are finished already) make a block of their own: a block stored is exactly these lines.
          if (lines.count > 0 || lines.problems.count > 0) waiting.push({ file, rendered: lines.finish() });
          const key = cache === undefined ? undefined : blockKey(options.strict, options.maxFieldLength, block);
          if (key !== undefined) cacheKeys.push(key);
          const stored = key === undefined ? undefined : cache?.read(key, file);
          if (stored !== undefined) {
            reused += stored.ends.length;
            waiting.push({ file, rendered: stored });
            return;
          }
          const clean = parse((value, position, source) => lines.add(value, position, source));
          const rendered = lines.finish();
          const store = key === undefined ? undefined : cache?.fileOf(key);
          const errors = !clean || rendered.problems.some((p) => p.severity === "error");
          // Blank lines alone: nothing to hand on or keep.
          if (rendered.ends.length === 0 && rendered.problems.length === 0 && Object.keys(rendered.dropped).length === 0) return;
          waiting.push({ file, rendered: store === undefined || errors ? rendered : { ...rendered, ...storeBlock(store, rendered) } });
        },
        record(value, position, source, notes) {
          lines.add(value, position, source, notes);
          if (lines.count === BLOCK_RECORDS) waiting.push({ file, rendered: lines.finish() });
        },
        ready: () => (waiting.length > WAITING_BLOCKS ? drain(WAITING_BLOCKS).then(() => threads?.room()) : (threads?.room() ?? RESOLVED)),
        // Blocks whose bytes are where and what they were in the last build: taken from the cache unsplit.
        ...(cache === undefined
          ? {}
          : knownBlocks(cache, options, file, (key, stored) => {
              cacheKeys.push(key);
              reused += stored.ends.length;
              waiting.push({ file, rendered: stored });
            })),
      };
      await readerOf(file)(file, sink, problems, options.maxFieldLength);
      if (lines.count > 0 || lines.problems.count > 0) waiting.push({ file, rendered: lines.finish() });
    }
    await drain(0);
    // Two holders of an OIB are found once every OIB was read (check-oibs.ts).
    await oibs.finish(problems);
    // The next stage may add the rules across records' problems before they are judged.
    if (!(await put({ kind: "end", problems }))) throw new StopReading();
  } catch (error) {
    // The blocks still out in threads fail with the pool; nothing waits for them.
    for (const w of waiting) if (w.rendered instanceof Promise) w.rendered.catch(() => undefined);
    throw error;
  } finally {
    await threads?.close();
    await oibs.dispose();
  }
  const all = nextKeys.guide(sortProblems(problems.problems, files));
  if (problems.errors > 0) throw new DataError(all, problems.kinds);
  return { count, reused, warnings: all, kinds: problems.kinds, files: files.map((f) => f.name), cacheKeys };
}

const RESOLVED = Promise.resolve();

/**
 * Whether the record threads start at once, before the first block is scanned: when they are
 * wanted and every block will be parsed (no cache, or an empty one: a cold build). They then load
 * their modules while the main thread scans and renders the first block; started after it, the
 * main thread waited some 0.2 s for them at a million subjects.
 */
function coldStart(threadsWanted: number, cache: BuildCache | undefined): boolean {
  return threadsWanted > 0 && (cache === undefined || cache.empty);
}

/**
 * A block's keys for the OIB check: a block stored in the build cache in this build can be read
 * again from there, so the names of the few subjects warned at are read then, not carried through
 * the check's scratch files.
 */
function oibKeysOf(block: RenderedBlock): OibKeys {
  // A block taken from the cache reads its records again itself: spread, its bytes and codes (getters read on first use) would all be read.
  if (block.stored === undefined || block.reread !== undefined) return block;
  return { ...block, reread: rereadStored(block.stored.path, block.stored.bytesAt) };
}

/**
 * The part of a JSON array's sink for blocks not scanned again (BlockSpan): the cache's spans, a
 * known block taken from the cache (`take` gets its key and the block) when the cache holds it, and
 * each block's span kept for the next build.
 */
function knownBlocks(
  cache: BuildCache,
  options: ResolvedReadOptions,
  file: SourceFile,
  take: (key: string, stored: RenderedBlock) => void,
): Required<Pick<RecordSink, "spans" | "known" | "span">> {
  const spans = cache.spans();
  // The blocks the last build stored, in the order this read asks for them (the same spans, unless the file changed there).
  const firsts = [...spans.keys()].sort((a, b) => a - b);
  cache.prefetch(firsts.flatMap((first) => (spans.get(first) ?? []).map((span) => blockKey(options.strict, options.maxFieldLength, span))));
  return {
    spans,
    known(span) {
      const key = blockKey(options.strict, options.maxFieldLength, span);
      const stored = cache.read(key, file);
      if (stored !== undefined) take(key, stored);
      return stored !== undefined;
    },
    span: (span) => cache.keepSpan(span),
  };
}
