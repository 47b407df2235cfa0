/**
 * Stage 1 and 2 of a build: find the source files, parse them, validate every record, then the
 * rules across records. Every problem is collected; the run fails once, listing them all.
 *
 * Records come out rendered (render-block.ts), block by block: large JSON arrays are parsed,
 * validated and rendered in record threads (record-threads.ts) while this thread scans and hashes
 * the next blocks. Given what the previous build read (`KnownBlocks`, from build-cache.ts), a block
 * whose text is unchanged is not parsed at all: its keys, positions and warnings come from the
 * cache, and its rendered bytes from the previous site.
 */
import { availableParallelism } from "node:os";
import { stat } from "node:fs/promises";
import { relative } from "node:path";
import type { Subject } from "../core/render-page.ts";
import { checkSequence, RecordOrigins } from "./check-sequence.ts";
import { displayPath, findIgnoredFiles, findSources, SOURCE_PATTERNS } from "./find-sources.ts";
import { DataError, type Problem, ProblemCollector, type ProblemKind, type ProblemSink } from "./problems.ts";
import { readCsv } from "./read-csv.ts";
import { BLOCK_RECORDS, readJsonArray, type RecordSink, type SourceBlock } from "./read-json-array.ts";
import { readNdjson } from "./read-ndjson.ts";
import { readXlsx } from "./read-xlsx.ts";
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

export interface ReadResult {
  /** Every subject, ascending by id. */
  readonly subjects: readonly Subject[];
  /** Problems that did not stop the build: the first few of each kind. */
  readonly warnings: readonly Problem[];
  /** Every kind of warning with its exact count. */
  readonly kinds: readonly ProblemKind[];
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

/** A block of a JSON array as this build read it: enough for the next build to skip it (see build-cache.ts). */
export interface ReadBlock extends SourceBlock {
  /** The file's path inside the data directory. */
  readonly file: string;
  readonly ordinal: number;
  /** Its first record's number in reading order. */
  readonly start: number;
  readonly warnings: readonly Problem[];
}

/** The records of a successful read, rendered, with what a build and its cache need. */
export interface RecordSet {
  /** Records in the list. */
  readonly count: number;
  /** The rendered blocks, in reading order; the record arena releases each once it has copied it. */
  readonly rendered: (RenderedBlock | undefined)[];
  /** For each record in id order: its rendered block, or -1 when its bytes are the previous build's. */
  readonly blockOf: Int32Array;
  /** For each record in id order: its index in that block, or (blockOf -1) in the previous list. */
  readonly indexIn: Uint32Array;
  /** Records taken from the previous build. */
  readonly reusedCount: number;
  /** The first few warnings of each kind, and every kind's exact count. */
  readonly warnings: readonly Problem[];
  readonly kinds: readonly ProblemKind[];
  readonly files: readonly string[];
  /** In reading order: the keys, and each record's position in its file and index in the list. */
  readonly keys: { readonly ids: Float64Array; readonly codes: readonly string[] };
  readonly positions: Uint32Array;
  readonly listIndex: Uint32Array;
  /** The blocks of JSON arrays read, in reading order (NDJSON and CSV are always read whole). */
  readonly blocks: readonly ReadBlock[];
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
async function ignoredFiles(options: ReadOptions): Promise<Problem[]> {
  const ignored = await findIgnoredFiles(options.dataDir);
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

/** One piece of the records in reading order: a block rendered here or in a thread, or one the cache knows. */
type Piece =
  | { readonly file: number; readonly rendered: RenderedBlock | Promise<RenderedBlock>; readonly read?: Omit<ReadBlock, "start" | "warnings"> }
  | { readonly file: number; readonly known: KnownBlock; readonly read: Omit<ReadBlock, "start" | "warnings">; readonly count: number };

/** Reads and validates every source file; throws DataError listing every problem when any is an error. */
export async function readSubjects(options: ReadOptions): Promise<ReadResult> {
  const set = await readRecords(options);
  const subjects = Array.from({ length: set.count }, (_, i) => {
    const block = set.rendered[set.blockOf[i] ?? 0] as RenderedBlock;
    const k = set.indexIn[i] ?? 0;
    const text = Buffer.from(block.bytes.buffer, block.bytes.byteOffset, block.bytes.byteLength).toString("utf8", k === 0 ? 0 : block.ends[k - 1], block.ends[k]);
    return JSON.parse(text) as Subject;
  });
  return { subjects, warnings: set.warnings, kinds: set.kinds, files: set.files };
}

/**
 * Reads, validates and renders every source file, skipping the blocks `known` has; throws
 * DataError listing every problem when any is an error.
 */
export async function readRecords(options: ReadOptions, known?: KnownBlocks): Promise<RecordSet> {
  // Bounded: past the first few of a kind, problems are counted, not kept.
  const problems = new ProblemCollector(options.allProblems === true ? Number.POSITIVE_INFINITY : undefined);
  const found = await findSources(options.dataDir, { followOutside: options.followOutside ?? false, problems, strict: options.strict });
  const encoding = options.encoding;
  const files = encoding === undefined ? found : found.map((f) => (f.kind === "csv" ? { ...f, encoding } : f));
  if (files.length === 0) throw new DataError([await noSources(options.dataDir), ...(await ignoredFiles(options))]);
  for (const problem of await ignoredFiles(options)) problems.push(problem);
  const pieces: Piece[] = [];
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
      // Blocks are known by the file's path inside the data directory, wherever the build runs from.
      const key = relative(options.dataDir, file.path);
      let ordinal = -1;
      const lines = new BlockRenderer(file, options.strict, options.maxFieldLength);
      const sink: RecordSink = {
        block(block, text) {
          ordinal += 1;
          const read = { ...block, file: key, ordinal };
          const seen = known?.find(key, ordinal, block);
          if (seen !== undefined) {
            pieces.push({ file: number, known: seen, read, count: block.count });
          } else {
            pieces.push({ file: number, rendered: render({ file, strict: options.strict, ...(options.maxFieldLength === undefined ? {} : { maxFieldLength: options.maxFieldLength }), text }), read });
          }
        },
        record(value, position, source, notes) {
          lines.add(value, position, source, notes);
          if (lines.count === BLOCK_RECORDS) pieces.push({ file: number, rendered: lines.finish() });
        },
        ready: () => threads?.ready() ?? Promise.resolve(),
      };
      await readerOf(file)(file, sink, problems, options.maxFieldLength);
      if (lines.count > 0 || lines.problems.count > 0) pieces.push({ file: number, rendered: lines.finish() });
    }
    // Every thread's block, in reading order (a failed thread fails the read).
    const done = await Promise.all(pieces.map(async (p) => ("known" in p ? p : { ...p, rendered: await p.rendered })));
    return assemble(done, files, options, problems);
  } finally {
    await threads?.close();
  }
}

type Settled = { readonly file: number; readonly rendered: RenderedBlock; readonly read?: Omit<ReadBlock, "start" | "warnings"> } | Extract<Piece, { known: KnownBlock }>;

/** The pieces as one list: keys in reading order, the rules across records, then the id order. */
function assemble(pieces: readonly Settled[], files: readonly SourceFile[], options: ReadOptions, problems: ProblemCollector): RecordSet {
  let total = 0;
  for (const p of pieces) total += "known" in p ? p.count : p.rendered.ends.length;
  const ids = new Float64Array(total);
  const codes: string[] = new Array<string>(total);
  const origins = new RecordOrigins();
  /** Reading order: the rendered block (index into `rendered`) or -1, and the index in it or in the previous list. */
  const blockOfRead = new Int32Array(total);
  const indexInRead = new Uint32Array(total);
  const rendered: RenderedBlock[] = [];
  const blocks: ReadBlock[] = [];
  let reusedCount = 0;
  let r = 0;
  for (const p of pieces) {
    const start = r;
    if ("known" in p) {
      const warnings = p.known.warnings.map((w) => ({ ...w, severity: options.strict ? "error" : "warning" }) as const);
      for (const w of warnings) problems.push(w);
      for (let k = 0; k < p.count; k++, r++) {
        ids[r] = p.known.ids[k] ?? 0;
        codes[r] = p.known.codes[k] ?? "";
        origins.push(p.file, p.known.positions[k] ?? 0);
        blockOfRead[r] = -1;
        indexInRead[r] = p.known.listIndex[k] ?? 0;
      }
      reusedCount += p.count;
      blocks.push({ ...p.read, start, warnings });
    } else {
      const block = p.rendered;
      problems.merge(block.problems, block.dropped);
      const b = rendered.push(block) - 1;
      for (let k = 0; k < block.ends.length; k++, r++) {
        ids[r] = block.ids[k] ?? 0;
        codes[r] = block.codes[k] ?? "";
        origins.push(p.file, block.positions[k] ?? 0);
        blockOfRead[r] = b;
        indexInRead[r] = k;
      }
      if (p.read !== undefined) blocks.push({ ...p.read, start, warnings: block.problems });
    }
  }
  const keys = { ids, codes };
  const order = checkSequence(keys, origins, files, problems);

  const all = sortProblems(problems.problems, files);
  if (problems.errors > 0) throw new DataError(all, problems.kinds);

  const at = (k: number): number => (order === undefined ? k : (order[k] ?? 0));
  const blockOf = order === undefined ? blockOfRead : new Int32Array(total);
  const indexIn = order === undefined ? indexInRead : new Uint32Array(total);
  const listIndex = new Uint32Array(total);
  for (let k = 0; k < total; k++) {
    const i = at(k);
    if (order !== undefined) {
      blockOf[k] = blockOfRead[i] ?? 0;
      indexIn[k] = indexInRead[i] ?? 0;
    }
    listIndex[i] = k;
  }
  const positions = origins.positions;
  return { count: total, rendered, blockOf, indexIn, reusedCount, warnings: all, kinds: problems.kinds, files: files.map((f) => f.name), keys, positions, listIndex, blocks };
}
