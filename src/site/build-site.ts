/**
 * The build, as a short list of stages with typed hand-offs:
 * read and validate, in id order (read-in-order.ts) -> records chunks (chunk-records.ts), each
 * records shard written under a temporary name as its chunks are complete (write-site.ts) ->
 * once the read has succeeded and `count` is known, the deploy preflight (preflight-build.ts),
 * then plan the pages and the manifest (plan-site.ts) -> write the page shards from the chunk
 * files read back, then the manifest -> keep the build cache. On any data error nothing in the
 * site changes: the temporary shards go. A site of plain files (`--links files`) cuts its pages
 * from chunk files kept in a temporary directory instead (write-plain-site.ts).
 *
 * With a build cache (build-cache.ts) a rebuild parses again only the source blocks that changed.
 */
import { createReadStream } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { CHUNK_SIZE } from "../core/layout.ts";
import type { BuildOptions } from "./build-options.ts";
import { type BuildCache, openBuildCache } from "../data/order/build-cache.ts";
import { type Chunk, Chunker } from "./chunk-records.ts";
import { loadMetadata } from "./docs/dataset-metadata.ts";
import { planDocs } from "./docs/plan-docs.ts";
import { planKeys } from "./plan-keys.ts";
import { planSite } from "./plan-site.ts";
import type { Problem, ProblemKind } from "../data/problems/problems.ts";
import { preflightBuild } from "./preflight-build.ts";
import { pagesFromChunkFiles } from "./read-chunks.ts";
import { readInIdOrder } from "../data/order/read-in-order.ts";
import type { ReadOptions, ReadSummary } from "../data/order/read-records.ts";
import { type SiteChanges, readSiteFacts, siteChanges } from "./site-changes.ts";
import { RecordLengths } from "./site-shape.ts";
import { writePlainSite } from "./write-plain-site.ts";
import { judgeWarnings, type JudgedWarnings, readKnownProblems, readUnder } from "../data/problems/known-problems.ts";
import { dataDate } from "../feed/data-date.ts";
import { DEFAULT_KEEP } from "../feed/keep-changes.ts";
import { type PreviousFeed, readPreviousFeed } from "../feed/read-previous.ts";
import { type FeedReport, writeFeed } from "../feed/write-feed.ts";
import { openSiteWriter, type WriteProgress, type WriteReport } from "./write-site.ts";

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
  /** What the change feed did (none with `--no-feed`). */
  readonly feed?: FeedReport;
  /** The warnings accepted in the data directory's known-problems.json, counted, not listed in `warnings`. */
  readonly known?: JudgedWarnings["known"];
}

/** What reading the records into chunks found: the read's summary and what the site goes over of the target's limits. */
type ReadChunks = ReadSummary & JudgedWarnings & { readonly overLimits: readonly string[] };

/** Progress of the write stage: files settled so far of the total. */
export type ProgressListener = WriteProgress;

/** Builds the site, then its change feed; throws DataError (with nothing written) when the data has errors. */
export async function buildSite(options: BuildOptions, onProgress?: ProgressListener): Promise<BuildReport> {
  // Read (and verified) before anything is written: a damaged previous feed stops the build with the site untouched.
  const previous = options.feed !== true ? null : await readPreviousFeed(options.previous, options.outDir, options.links === "files");
  try {
    return await buildWithFeed(options, previous, onProgress);
  } finally {
    await previous?.dispose();
  }
}

async function buildWithFeed(options: BuildOptions, previous: PreviousFeed | null, onProgress?: ProgressListener): Promise<BuildReport> {
  const started = performance.now();
  const cache = options.cacheDir === null ? undefined : openBuildCache(options.cacheDir, options.outDir);
  const metadata = await loadMetadata(options.dataDir);
  /** The feed stage, once the site is written: the new list is the chunk files, in order. */
  const feed = async (records: ReadChunks, chunkPath: (chunk: number) => string): Promise<FeedReport | undefined> => {
    if (options.feed !== true) return undefined;
    const chunks = Math.ceil(records.count / CHUNK_SIZE);
    return writeFeed({
      outDir: options.outDir,
      records: async function* () {
        for (let chunk = 0; chunk < chunks; chunk++) yield* createReadStream(chunkPath(chunk));
      },
      count: records.count,
      published: await dataDate(records.files, { SOURCE_DATE_EPOCH: options.sourceDateEpoch }),
      previous,
      keep: options.keepChanges ?? DEFAULT_KEEP,
      baseUrl: options.baseUrl,
    });
  };
  // The accepted warnings, when the maintainer keeps them: the read then keeps every warning to judge it.
  const known = await readKnownProblems(options.dataDir);
  const read: ReadOptions = readUnder(known, {
    dataDir: options.dataDir,
    strict: options.strict,
    threads: options.threads ?? "auto",
    ...(options.maxFieldLength === undefined ? {} : { maxFieldLength: options.maxFieldLength }),
    ...(options.followOutside === undefined ? {} : { followOutside: options.followOutside }),
    ...(options.encoding === undefined ? {} : { encoding: options.encoding }),
    ...(options.allProblems === undefined ? {} : { allProblems: options.allProblems }),
  });
  /** Reads the records in id order into chunks for `take` (again from the first after `restart`), then runs the preflight. */
  const readChunks = async (take: (chunk: Chunk) => Promise<void>, restart: () => Promise<void>): Promise<ReadChunks> => {
    // The preflight needs every record's length (8 bytes each), so only a build for a target keeps them.
    let lengths = (options.target ?? "none") === "none" ? undefined : new RecordLengths();
    let chunker = new Chunker(CHUNK_SIZE, take);
    const records = await readInIdOrder(read, {
      take(block) {
        lengths?.add(block.ends);
        return chunker.add(block);
      },
      async restart() {
        chunker = new Chunker(CHUNK_SIZE, take);
        lengths &&= new RecordLengths();
        await restart();
      },
    }, cache);
    await chunker.end();
    // New warnings apart from the known ones; with --strict new ones stop the build here, before anything is published.
    return { ...records, ...judgeWarnings(known, options.strict, records), overLimits: lengths === undefined ? [] : preflightBuild(options, lengths) };
  };
  if (options.links === "files") {
    // The chunks wait in a temporary directory while the pages are cut from them (chunk c in file c).
    const dir = await mkdtemp(join(tmpdir(), "subjekti-chunks-"));
    try {
      const hashes: string[] = [];
      const records = await readChunks((chunk) => writeFile(join(dir, String(hashes.push(chunk.hash) - 1)), chunk.bytes()), async () => void (hashes.length = 0));
      const readDone = performance.now();
      const pages = pagesFromChunkFiles((chunk) => ({ path: join(dir, String(chunk)) }), CHUNK_SIZE);
      const { changes, ...written } = await writePlainSite(options, { count: records.count, hashes, pages }, onProgress);
      const fed = await feed(records, (chunk) => join(dir, String(chunk)));
      return await finish({ started, readDone, cache }, records, written, () => changes, fed);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  const before = await readSiteFacts(options.outDir);
  const writer = await openSiteWriter(options.outDir);
  try {
    const records = await readChunks((chunk) => writer.addChunk(chunk), () => writer.dropRecords());
    const hashes = await writer.endRecords();
    const readDone = performance.now();
    const pages = pagesFromChunkFiles((chunk) => writer.chunkFile(chunk), CHUNK_SIZE);
    const chunks = { count: records.count, chunkSize: CHUNK_SIZE, hashes };
    const keys = planKeys(records.count, CHUNK_SIZE, (chunk) => writer.chunkFile(chunk));
    const plan = planSite(chunks, options, pages, [planDocs(metadata, records.count, options), ...keys]);
    const written = await writer.write(plan, onProgress);
    let changes: SiteChanges | undefined;
    const fed = await feed(records, (chunk) => writer.chunkFile(chunk).path);
    // The files and URLs changed are named only when asked (build --json): a full build of ten
    // million subjects changes a million files.
    return await finish({ started, readDone, cache }, records, written, () => (changes ??= siteChanges(before, plan.manifest, written.changed)), fed);
  } catch (error) {
    await writer.abort();
    throw error;
  }
}

/** What was read and written, and when; the build cache keeps only the blocks read. */
async function finish(run: { started: number; readDone: number; cache: BuildCache | undefined }, records: ReadChunks, written: WriteReport, changes: () => SiteChanges, feed: FeedReport | undefined): Promise<BuildReport> {
  await run.cache?.keepOnly(records.cacheKeys);
  const ended = performance.now();
  const { count, reused, warnings, kinds, overLimits, known } = records;
  return {
    count, reused, warnings, kinds, overLimits,
    ...(known === undefined ? {} : { known }),
    ...(feed === undefined ? {} : { feed }),
    files: written.files,
    written: written.written,
    unchanged: written.unchanged,
    removed: written.removed,
    bytesWritten: written.bytesWritten,
    bytesRemoved: written.bytesRemoved,
    timings: { read: (run.readDone - run.started) / 1000, write: (ended - run.readDone) / 1000 },
    seconds: (ended - run.started) / 1000,
    get changed() {
      return written.changed;
    },
    get changes() {
      return changes();
    },
  };
}
