/**
 * The build: one composition of sibling stages over typed hand-offs (data/hand-offs.ts,
 * hand-offs.ts), each stage an async iterable the next one pulls from, so the records stream
 * through in flat memory:
 *
 *   sources -> blocks          data/read/read-blocks.ts      (validated, rendered; the build cache)
 *   blocks -> id order         data/order/order-blocks.ts    (restarts into an external sort by itself)
 *   id order -> chunks         chunk-records.ts
 *   chunks -> written records  write-site.ts (writeRecords), or write-plain-site.ts's chunk files
 *   records -> downloads       export/write-downloads.ts     (NDJSON, CSV, the workbook; not on a plain site)
 *   hashes -> plan             plan-site.ts, docs/plan-docs.ts, plan-keys.ts (the key lookups' files)
 *   plan -> written pages      write-site.ts (write), or write-plain-site.ts
 *   then the change feed       feed/write-feed.ts
 *
 * No stage imports another (test/site/build-stages.test.ts). Between the order and the chunks the
 * build notes each record's length for the deploy preflight (preflight-build.ts) and, when the read
 * ends, judges its warnings against the known ones: both before a records shard is renamed into
 * place. On any data error nothing in the site changes: the temporary shards go. A site of plain
 * files (`--links files`) cuts its pages from chunk files kept in a temporary directory instead.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { DEFAULT_DOWNLOADS, type Download } from "../core/download-files.ts";
import { cleanUpOnInterrupt } from "../common/interrupt-cleanup.ts";
import { type Message, msg } from "../common/messages/message.ts";
import { takeOutputLock } from "../common/output-lock.ts";
import { DEAD, OWN } from "../common/remove-leftovers.ts";
import { makeScratchDir } from "../common/scratch-dir.ts";
import { CHUNK_SIZE } from "../core/layout.ts";
import { leave } from "../common/stage-iterables.ts";
import type { OrderedItem, ReadSummary } from "../data/hand-offs.ts";
import { orderBlocks } from "../data/order/order-blocks.ts";
import { judgeWarnings, type JudgedWarnings, type KnownProblems, readKnownProblems, readUnder } from "../data/problems/known-problems.ts";
import type { Problem, ProblemKind } from "../data/problems/problems.ts";
import { type BuildCache, openBuildCache } from "../data/read/build-cache.ts";
import { readBlocks } from "../data/read/read-blocks.ts";
import type { ReadOptions } from "../data/read-options.ts";
import { METADATA_FILE } from "../data/sources/find-sources.ts";
import { dataDate } from "../feed/data-date.ts";
import { DEFAULT_KEEP } from "../feed/keep-changes.ts";
import { type PreviousFeed, readPreviousFeed } from "../feed/read-previous.ts";
import { type FeedReport, writeFeed } from "../feed/write-feed.ts";
import { previousDownloads, writeDownloads } from "../export/write-downloads.ts";
import type { BuildOptions } from "./build-options.ts";
import { chunkRecords } from "./chunk-records.ts";
import { type DatasetMetadata, loadMetadata } from "./docs/dataset-metadata.ts";
import { planDocs } from "./docs/plan-docs.ts";
import { writeCrawlFiles } from "./docs/write-crawl-files.ts";
import type { WriteProgress, WriteReport } from "./hand-offs.ts";
import { planKeys } from "./plan-keys.ts";
import { planSite } from "./plan-site.ts";
import { sameRecords } from "./record-shard.ts";
import { preflightBuild } from "./preflight-build.ts";
import { pagesFromChunkFiles } from "./read-chunks.ts";
import { type SiteChanges, readSiteFacts, siteChanges } from "./site-changes.ts";
import { removeBuildLeftovers } from "./site-leftovers.ts";
import { RecordLengths } from "./site-shape.ts";
import { writeChunkFiles, writePlainSite } from "./write-plain-site.ts";
import { openSiteWriter } from "./write-site.ts";

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
  /** What the published description lacks (no licence declared), as warnings. */
  readonly notes: readonly Message[];
  /** The downloads written (download-files.ts). */
  readonly downloads: readonly Download[];
  /** What the change feed did (none with `--no-feed`). */
  readonly feed?: FeedReport;
  /** The warnings accepted in the data directory's known-problems.json, counted, not listed in `warnings`. */
  readonly known?: JudgedWarnings["known"];
  /** Why the build cache could not be used or written, when it could not (the build went on without it). */
  readonly cacheWarning?: Message;
}

/** What reading the records into chunks found: the read's summary and what the site goes over of the target's limits. */
type ReadChunks = ReadSummary & JudgedWarnings & { readonly overLimits: readonly string[] };

/** Progress of the write stage: files settled so far of the total. */
export type ProgressListener = WriteProgress;

/**
 * Builds the site, then its change feed; throws DataError (with nothing written) when the data has
 * errors. One build at a time per output: the output's lock is taken before anything is read or
 * written (waited for with `options.wait`, else refused; `notice` hears the one line of a wait or
 * a takeover); then what dead builds left is removed. Stopped by a signal, the CLI removes what
 * this build registered (interrupt-cleanup.ts).
 */
export async function buildSite(
  options: BuildOptions,
  onProgress?: ProgressListener,
  notice?: (line: Message) => void,
): Promise<BuildReport> {
  const lock = await takeOutputLock(options.outDir, `--out ${options.outDir}`, {
    wait: options.wait ?? false,
    command: "build",
    ...(notice === undefined ? {} : { notice }),
  });
  const forget = cleanUpOnInterrupt(() => removeBuildLeftovers(options.outDir, options.cacheDir, OWN));
  try {
    removeBuildLeftovers(options.outDir, options.cacheDir, DEAD);
    // Read (and verified) before anything is written: a damaged previous feed stops the build with the site untouched.
    const previous = options.feed !== true ? null : await readPreviousFeed(options.previous, options.outDir, options.links === "files");
    try {
      return await buildWithFeed(options, previous, onProgress);
    } finally {
      await previous?.dispose();
    }
  } finally {
    forget();
    await lock.release();
  }
}

async function buildWithFeed(options: BuildOptions, previous: PreviousFeed | null, onProgress?: ProgressListener): Promise<BuildReport> {
  const started = performance.now();
  const cache = options.cacheDir === null ? undefined : openBuildCache(options.cacheDir, options.outDir);
  const metadata = await loadMetadata(options.dataDir);
  /** The feed stage, once the site is written: the new list is the chunk files, in order. */
  const feed = async (records: ReadChunks, chunkPath: (chunk: number) => string, published: Date): Promise<FeedReport | undefined> => {
    if (options.feed !== true) return undefined;
    const chunks = Math.ceil(records.count / CHUNK_SIZE);
    return writeFeed({
      outDir: options.outDir,
      records: async function* () {
        for (let chunk = 0; chunk < chunks; chunk++) yield* createReadStream(chunkPath(chunk));
      },
      count: records.count,
      published,
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
  // Stages 1 to 3: sources -> blocks -> id order -> (judged) -> chunks; nothing runs until the records stage pulls.
  const chunks = chunkRecords(
    judged(
      orderBlocks(() => readBlocks(read, cache)),
      options,
      known,
    ),
    CHUNK_SIZE,
  );
  if (options.links === "files") {
    // The chunks wait in a temporary directory while the pages are cut from them (chunk c in file c).
    const scratch = await makeScratchDir("chunks");
    const dir = scratch.path;
    try {
      const { hashes, read: records } = await writeChunkFiles(dir, chunks);
      const readDone = performance.now();
      const pages = pagesFromChunkFiles((chunk) => ({ path: join(dir, String(chunk)) }), CHUNK_SIZE);
      const { changes, ...written } = await writePlainSite(options, { count: records.count, hashes, pages }, onProgress);
      const fed = await feed(
        records,
        (chunk) => join(dir, String(chunk)),
        await dataDateOf(records, options, previous, (chunk) => join(dir, String(chunk))),
      );
      return await finish({ started, readDone, cache }, records, written, () => changes, fed, { notes: notesOf(metadata), downloads: [] });
    } finally {
      await scratch.remove();
    }
  }
  const before = await readSiteFacts(options.outDir);
  const writer = await openSiteWriter(options.outDir);
  try {
    // Stage 4: chunks -> written records (each records shard under its temporary name until the read has succeeded).
    const { hashes, read: records } = await writer.writeRecords(chunks);
    const readDone = performance.now();
    const chunkPath = (chunk: number): string => writer.chunkFile(chunk).path;
    const published = await dataDateOf(records, options, previous, chunkPath);
    // Stage 5: written records -> downloads, before the manifest names them (a reader that sees the new manifest finds them).
    const earlier = await previousDownloads(options.outDir);
    const downloads = await writeDownloads({
      outDir: options.outDir,
      formats: options.downloads ?? DEFAULT_DOWNLOADS,
      chunks: async function* () {
        for (let chunk = 0; chunk < hashes.length; chunk++) yield await readFile(chunkPath(chunk));
      },
      date: published,
      keep: earlier.downloads,
      unchanged: sameRecords(earlier.dirs, hashes) ? earlier.downloads : [],
    });
    // Stage 6: hashes and downloads -> plan.
    const pages = pagesFromChunkFiles((chunk) => writer.chunkFile(chunk), CHUNK_SIZE);
    const docs = planDocs(metadata, { count: records.count, downloads, published }, options);
    const keys = planKeys(records.count, CHUNK_SIZE, (chunk) => writer.chunkFile(chunk));
    const plan = planSite({ count: records.count, chunkSize: CHUNK_SIZE, hashes }, options, pages, [docs, ...keys], downloads, published);
    // Stage 7: plan -> written pages, then the manifest.
    const written = await writer.write(plan, onProgress);
    const crawled = await writeCrawlFiles(options.outDir, { baseUrl: options.baseUrl, chunks: hashes.length, chunkPath });
    let changes: SiteChanges | undefined;
    const fed = await feed(records, chunkPath, published);
    // The files and URLs changed are named only when asked (build --json): a full build of ten
    // million subjects changes a million files.
    return await finish(
      { started, readDone, cache },
      records,
      {
        ...written,
        files: written.files + crawled.files,
        written: written.written + crawled.written,
        unchanged: written.unchanged + crawled.unchanged,
        bytesWritten: written.bytesWritten + crawled.bytesWritten,
      },
      () => (changes ??= siteChanges(before, plan.manifest, written.changed)),
      fed,
      { notes: notesOf(metadata), downloads },
    );
  } catch (error) {
    await writer.abort();
    throw error;
  }
}

/**
 * The records in id order, passed on as they come, each one's length noted for the deploy
 * preflight (again from the first after a restart; only a build for a target keeps them, 8 bytes
 * a record). When the read ends: its new warnings apart from the known ones (with --strict new
 * ones stop the build here), then the preflight; before anything is published.
 */
async function* judged(
  ordered: AsyncGenerator<OrderedItem, ReadSummary>,
  options: BuildOptions,
  known: KnownProblems | null,
): AsyncGenerator<OrderedItem, ReadChunks> {
  let lengths = (options.target ?? "none") === "none" ? undefined : new RecordLengths();
  try {
    for (let next = await ordered.next(); ; next = await ordered.next()) {
      if (next.done === true) {
        const summary = next.value;
        return {
          ...summary,
          ...judgeWarnings(known, options.strict, summary),
          overLimits: lengths === undefined ? [] : preflightBuild(options, lengths),
        };
      }
      const item = next.value;
      if (item.kind === "restart") lengths &&= new RecordLengths();
      else lengths?.add(item.block.ends);
      yield item;
    }
  } finally {
    await leave(ordered);
  }
}

/** What was read and written, and when; the build cache keeps only the blocks read. */
/**
 * The date the data last changed, as every file the build writes gives it: the change feed's date
 * when the list is the feed's current version (the same bytes: nothing changed since), else
 * SOURCE_DATE_EPOCH or the newest source's modification time (data-date.ts). Never the clock.
 */
async function dataDateOf(
  records: ReadChunks,
  options: BuildOptions,
  previous: PreviousFeed | null,
  chunkPath: (chunk: number) => string,
): Promise<Date> {
  if (previous !== null) {
    const hash = createHash("sha256");
    for (let chunk = 0; chunk < Math.ceil(records.count / CHUNK_SIZE); chunk++) hash.update(await readFile(chunkPath(chunk)));
    if (hash.digest("hex") === previous.state.version) return new Date(previous.state.published);
  }
  return dataDate(records.files, { SOURCE_DATE_EPOCH: options.sourceDateEpoch });
}

/** What the description of the data lacks, as warnings for the maintainer. */
function notesOf(metadata: DatasetMetadata): Message[] {
  return metadata.licenses.length > 0 ? [] : [msg("warning.no-licence", { file: METADATA_FILE })];
}

async function finish(
  run: { started: number; readDone: number; cache: BuildCache | undefined },
  records: ReadChunks,
  written: WriteReport,
  changes: () => SiteChanges,
  feed: FeedReport | undefined,
  published: { notes: readonly Message[]; downloads: readonly Download[] },
): Promise<BuildReport> {
  await run.cache?.keepOnly(records.cacheKeys);
  const ended = performance.now();
  const { count, reused, warnings, kinds, overLimits, known } = records;
  const cacheWarning = run.cache?.warning;
  return {
    count,
    reused,
    warnings,
    kinds,
    overLimits,
    notes: published.notes,
    downloads: published.downloads,
    ...(cacheWarning === undefined ? {} : { cacheWarning }),
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
