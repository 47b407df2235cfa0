/**
 * The build, as a short list of stages with typed hand-offs:
 * read and validate, streamed (read-records.ts) -> records chunks in id order (chunk-records.ts),
 * each records shard written under a temporary name as its chunks are complete (write-site.ts) ->
 * once the read has succeeded and `count` is known, plan the pages and the manifest
 * (plan-site.ts) -> write the page shards from the chunk files read back, then the manifest ->
 * keep the build cache. On any data error nothing in the site changes: the temporary shards go.
 *
 * With a build cache (build-cache.ts) a rebuild parses again only the source blocks that changed.
 */
import { tmpdir } from "node:os";
import { performance } from "node:perf_hooks";
import { CHUNK_SIZE } from "../core/layout.ts";
import type { BuildOptions } from "./build-options.ts";
import { type BuildCache, openBuildCache } from "./build-cache.ts";
import { StreamedSequence } from "./check-sequence.ts";
import { Chunker } from "./chunk-records.ts";
import { contentHash } from "./content-hash.ts";
import { loadMetadata } from "./dataset-metadata.ts";
import { planDocs } from "./plan-docs.ts";
import { planSite } from "./plan-site.ts";
import { DataError, type Problem, type ProblemKind } from "./problems.ts";
import { preflightBuild } from "./preflight-build.ts";
import { pagesFromChunkFiles } from "./read-chunks.ts";
import { createRecordArena } from "./record-arena.ts";
import { type ReadOptions, readRecords, type ReadSummary, streamRecords } from "./read-records.ts";
import { readSiteFacts, type SiteChanges, siteChanges } from "./site-changes.ts";
import { createRecordSorter } from "./sort-records.ts";
import type { SourceFile } from "./source-file.ts";
import { writePlainSite } from "./write-plain-site.ts";
import { openSiteWriter, type SiteWriter, type WriteProgress, type WriteReport } from "./write-site.ts";

/** What a build did: the write stage's counts, plus the list's size, the time and the warnings. */
export interface BuildReport extends WriteReport {
  /** Subjects in the list. */
  readonly count: number;
  /** Subjects taken from the build cache, not parsed again. */
  readonly reused: number;
  readonly seconds: number;
  /** The first few warnings of each kind. */
  readonly warnings: readonly Problem[];
  /** Every kind of warning with its exact count. */
  readonly kinds: readonly ProblemKind[];
  /** Seconds spent reading and validating the sources (the records written meanwhile), and planning and writing the pages. */
  readonly timings: { readonly read: number; readonly write: number };
  /** The public URLs and cache tags whose answers changed (site-changes.ts). */
  readonly changes: SiteChanges;
  /** What the site goes over of the target host's limits, built anyway (`--over-limits warn`). */
  readonly overLimits: readonly string[];
}

/** Progress of the write stage: files settled so far of the total. */
export type ProgressListener = WriteProgress;

/** Builds the site; throws DataError (with nothing written) when the data has errors. */
export async function buildSite(options: BuildOptions, onProgress?: ProgressListener): Promise<BuildReport> {
  const started = performance.now();
  const cache = options.cacheDir === null ? undefined : openBuildCache(options.cacheDir, options.outDir);
  const metadata = await loadMetadata(options.dataDir);
  const read: ReadOptions = {
    dataDir: options.dataDir,
    strict: options.strict,
    threads: options.threads ?? "auto",
    ...(options.maxFieldLength === undefined ? {} : { maxFieldLength: options.maxFieldLength }),
    ...(options.followOutside === undefined ? {} : { followOutside: options.followOutside }),
    ...(options.encoding === undefined ? {} : { encoding: options.encoding }),
    ...(options.allProblems === undefined ? {} : { allProblems: options.allProblems }),
  };
  if (options.links === "files") return await buildPlainSite(options, read, cache, started, onProgress);
  const before = await readSiteFacts(options.outDir);
  const writer = await openSiteWriter(options.outDir);
  try {
    let overLimits: readonly string[] = [];
    let records: ReadSummary;
    if ((options.target ?? "none") === "none") {
      records = await readInOrder(read, writer, cache);
    } else {
      // The deploy preflight measures every file before one is written: the list is read whole.
      const whole = await readRecords(read, cache);
      overLimits = preflightBuild(options, whole);
      const arena = createRecordArena(whole, CHUNK_SIZE);
      for (let c = 0; c < arena.chunkCount; c++) {
        arena.renderChunk();
        await writer.addChunk({ hash: arena.chunkHash(c), bytes: () => arena.chunkBytes(c) });
      }
      records = whole;
    }
    const hashes = await writer.endRecords();
    const readDone = performance.now();
    const pages = pagesFromChunkFiles((chunk) => writer.chunkFile(chunk), CHUNK_SIZE);
    const chunks = { count: records.count, chunkSize: CHUNK_SIZE, hashes };
    const plan = planSite(chunks, options, pages, [planDocs(metadata, records.count, options)]);
    const written = await writer.write(plan, onProgress);
    await cache?.keepOnly(records.cacheKeys);
    const ended = performance.now();
    const timings = { read: (readDone - started) / 1000, write: (ended - readDone) / 1000 };
    let changes: SiteChanges | undefined;
    // The files and URLs changed are named only when asked (build --json): a full build of ten
    // million subjects changes a million files.
    return {
      count: records.count,
      reused: records.reused,
      files: written.files,
      written: written.written,
      unchanged: written.unchanged,
      removed: written.removed,
      bytesWritten: written.bytesWritten,
      bytesRemoved: written.bytesRemoved,
      warnings: records.warnings,
      kinds: records.kinds,
      timings,
      overLimits,
      seconds: (ended - started) / 1000,
      get changed() {
        return written.changed;
      },
      get changes() {
        return (changes ??= siteChanges(before, plan.manifest, written.changed));
      },
    };
  } catch (error) {
    await writer.abort();
    throw error;
  }
}

/**
 * A site of plain files for hosts that cannot route (write-plain-site.ts): read whole, checked
 * against the target's limits, its pages cut from the record arena.
 */
async function buildPlainSite(options: BuildOptions, read: ReadOptions, cache: BuildCache | undefined, started: number, onProgress?: ProgressListener): Promise<BuildReport> {
  const records = await readRecords(read, cache);
  const overLimits = preflightBuild(options, records);
  const arena = createRecordArena(records, CHUNK_SIZE);
  const readDone = performance.now();
  const { changes, ...written } = await writePlainSite(options, arena, onProgress);
  await cache?.keepOnly(records.cacheKeys);
  const ended = performance.now();
  const timings = { read: (readDone - started) / 1000, write: (ended - readDone) / 1000 };
  const report = { count: arena.count, reused: records.reused, ...written, warnings: records.warnings, kinds: records.kinds };
  return { ...report, timings, changes, overLimits, seconds: (ended - started) / 1000 };
}

/**
 * Stages 1 and 2: the records, read and validated, handed to `writer` as chunks in id order.
 * Input in id order (the usual case) streams: each block is chunked as it is read, and only the
 * previous record's id and code are kept for the rules across records. At the first record that
 * does not follow its predecessor the read stops: a lower id starts it again through the external
 * sort (readSorted); a duplicate, or a code not rising, is an error that locateProblems locates.
 */
async function readInOrder(read: ReadOptions, writer: SiteWriter, cache: BuildCache | undefined): Promise<ReadSummary> {
  const chunker = new Chunker(CHUNK_SIZE, (chunk) => writer.addChunk(chunk));
  const sequence = new StreamedSequence();
  /** Whether the read stopped at an id lower than the one before (else at a broken rule across records). */
  let descends = false;
  const streamed = await streamRecords(read, {
    async take(block, _file, problems) {
      const broken = sequence.firstBreak(block);
      if (broken >= 0) {
        descends = sequence.descends(block.ids[broken] ?? 0);
        return false;
      }
      // Past the first error the build fails: the rest is read only for its problems.
      if (problems.errors === 0) await chunker.add(block);
      return true;
    },
  }, cache);
  if (!streamed.stopped) {
    await chunker.end();
    return streamed.summary;
  }
  await writer.dropRecords();
  return descends ? await readSorted(read, writer, cache) : await locateProblems(read, cache);
}

/**
 * Input not in id order: read again, each block into an external merge sort (sort-records.ts: runs
 * on disk, so memory stays bounded), whose batches in id order go to the chunker. The rules across
 * records are checked on the sorted stream against the previous record; when one is broken, or a
 * record has an error, the problems are located by reading the records whole (readRecords).
 */
async function readSorted(read: ReadOptions, writer: SiteWriter, cache: BuildCache | undefined): Promise<ReadSummary> {
  const sorter = createRecordSorter({ dir: tmpdir() });
  try {
    const numbers = new Map<SourceFile, number>();
    let summary: ReadSummary;
    try {
      const outcome = await streamRecords(read, {
        async take(block, file) {
          let number = numbers.get(file);
          if (number === undefined) numbers.set(file, (number = numbers.size));
          await sorter.add(block, number);
          return true;
        },
      }, cache);
      if (outcome.stopped) throw new Error("a read that takes every block stopped");
      summary = outcome.summary;
    } catch (error) {
      if (error instanceof DataError) return await locateProblems(read, cache);
      throw error;
    }
    const chunker = new Chunker(CHUNK_SIZE, (chunk) => writer.addChunk(chunk));
    const sequence = new StreamedSequence();
    for await (const batch of sorter.sorted()) {
      // A rule across records is broken: readRecords locates every problem (and throws them).
      if (sequence.firstBreak(batch) >= 0) return await locateProblems(read, cache);
      await chunker.add({ ...batch, hash: contentHash(batch.bytes), problems: [], dropped: {} });
    }
    await chunker.end();
    return summary;
  } finally {
    await sorter.close();
  }
}

/**
 * Reads the records whole (readRecords), which throws DataError with every problem located, the
 * rules across records' included: for a read that found one, but not where each one is.
 */
async function locateProblems(read: ReadOptions, cache: BuildCache | undefined): Promise<never> {
  await readRecords(read, cache);
  throw new Error("a rule across records was broken, but reading the records whole found no problem");
}
