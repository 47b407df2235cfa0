/**
 * The build: resolve the options, take the output's lock, then call the stages in turn, each with
 * its slice of the options and the value the stage before handed on (data/hand-offs.ts,
 * hand-offs.ts). The records stream through as async iterables, so a build of any length runs in
 * flat memory: the read (data/read/read-records.ts: read, order, judge) -> chunks -> the records
 * written by the output (write-site.ts, or write-plain-site.ts for `--links files`) -> downloads
 * -> plan -> the pages written by the output -> the change feed. The search shards depend on the
 * chunk files alone: their stage starts as soon as those are written, in a thread beside the
 * downloads and the pages on a large list (search/search-thread.ts). The plan does not wait for
 * them: it hands them on as its rest, which the output awaits once every other shard is written,
 * last before the manifest that names them; meanwhile the crawl files are prepared under temporary
 * names (docs/write-crawl-files.ts), renamed into place with the switch. No stage imports another
 * (test/architecture/build-stages.test.ts). On any data error nothing in the site changes.
 */
import { createHash } from "node:crypto";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { CHUNK_SIZE, offsetsFileName, SHARD_SIZE } from "../core/layout.ts";
import { type Message, msg } from "../common/messages/message.ts";
import { pauseAt } from "../common/pause-point.ts";
import { filesAhead, WholeFiles } from "../common/read-into.ts";
import { makeScratchDir, type ScratchDir } from "../common/scratch-dir.ts";
import { withOutputLock } from "../common/output-lock.ts";
import { DEAD, OWN } from "../common/remove-leftovers.ts";
import { cacheDirOf, openBuildCache } from "../data/read/build-cache.ts";
import { readRecords } from "../data/read/read-records.ts";
import { type ListBytes, previousDownloads, type UnreadChunk, writeDownloads, type WrittenDownloads } from "../export/write-downloads.ts";
import { dataDate } from "../feed/data-date.ts";
import { type PreviousFeed, readPreviousFeed } from "../feed/read-previous.ts";
import { type FeedReport, removeFeed, writeFeed } from "../feed/write-feed.ts";
import { type BuildReport, type ReadChunks, reportBuild } from "./build-outcome.ts";
import { type BuildOptions, resolveBuildOptions, type ResolvedBuildOptions } from "./build-options.ts";
import { chunkRecords } from "./chunk-records.ts";
import { type DatasetMetadata, loadMetadata } from "./docs/dataset-metadata.ts";
import { planDocs } from "./docs/plan-docs.ts";
import { type CrawlFiles, crawlFiles } from "./docs/write-crawl-files.ts";
import type { ChunkHashes, Publication, SiteOutput, SitePlan, WriteProgress } from "./hand-offs.ts";
import { planKeys } from "./plan-keys.ts";
import { reusedKeys } from "./reused-keys.ts";
import { planSite } from "./plan-site.ts";
import { withPreflight } from "./preflight-build.ts";
import { type ChunkFile, pagesFromChunkFiles, windowOf } from "./read-chunks.ts";
import { reusedSearch } from "./search/search-reuse.ts";
import { type SearchStage, searchInThread, startSearch } from "./search/search-thread.ts";
import { sameRecords } from "./record-shard.ts";
import { removeBuildLeftovers } from "./site-leftovers.ts";
import { PlainSiteWriter } from "./write-plain-site.ts";
import { unlessUnchanged } from "./unchanged/unchanged-build.ts";
import { SiteWriter } from "./write-site.ts";

export type { BuildReport } from "./build-outcome.ts";

/**
 * Builds the site, then its change feed; throws DataError (with nothing written) when the data has
 * errors. One build at a time per output: its lock is taken before anything is read or written
 * (waited for with `wait`, else refused; `notice` hears the one line of a wait or a takeover), then
 * what dead builds left is removed. Stopped by a signal, the CLI removes what this build registered.
 */
export async function buildSite(raw: BuildOptions, onProgress?: WriteProgress, notice?: (line: Message) => void): Promise<BuildReport> {
  const options = resolveBuildOptions(raw);
  const { outDir, wait } = options.output;
  const lock = { wait, command: "build", ...(notice === undefined ? {} : { notice }) };
  const leftovers = {
    dead: () => removeBuildLeftovers(outDir, options.cacheDir, DEAD),
    own: () => removeBuildLeftovers(outDir, options.cacheDir, OWN),
  };
  const build = async (intact: boolean): Promise<BuildReport> => {
    // Read (and verified) before anything is written: a damaged previous feed stops the build with the site untouched.
    // A site as the last build left it (`intact`) has the snapshot that build verified or wrote: taken as it is.
    const { feed } = options;
    const previous =
      feed === null ? null : await readPreviousFeed(feed.previous, outDir, options.site.links === "files", { ...feed, intact });
    try {
      return await buildStages(options, previous, onProgress);
    } finally {
      await previous?.dispose();
    }
  };
  // Unchanged inputs over the site the last build left: nothing to do (unchanged-build.ts).
  return withOutputLock(outDir, `--out ${outDir}`, lock, leftovers, () => unlessUnchanged(options, build));
}

/** What every stage after the read reaches: the options, where the site goes, and the previous feed. */
interface Run {
  readonly options: ResolvedBuildOptions;
  readonly output: SiteOutput;
  readonly previous: PreviousFeed | null;
}

async function buildStages(options: ResolvedBuildOptions, previous: PreviousFeed | null, onProgress?: WriteProgress): Promise<BuildReport> {
  const started = performance.now();
  const { outDir } = options.output;
  const cache = options.cacheDir === null ? undefined : openBuildCache(options.cacheDir, outDir);
  const metadata = await loadMetadata(options.read.dataDir);
  const ordered = await readRecords(options.read, cache === undefined ? {} : { cache });
  const chunks = chunkRecords(withPreflight(ordered, options), CHUNK_SIZE);
  const plain = options.site.links === "files";
  const output: SiteOutput = plain ? await PlainSiteWriter.open({ outDir, ...options.site }) : await SiteWriter.open(outDir);
  const run = { options, output, previous };
  // The downloads not yet switched to: a failed build removes them with the output's own files.
  let written: WrittenDownloads | null = null;
  // Where the search files and the key lookups' files wait between their stage and the write (search/spilled-shard.ts).
  let spill: ScratchDir | null = null;
  // The search stage, started once the chunk files are written (in a thread on a large list).
  let search: SearchStage | null = null;
  // The crawl files, prepared while the output waits for the search thread, put in place with the switch.
  let crawl: CrawlFiles | null = null;
  // The scratch directory's removal, under way beside the stages after the write (awaited before the build returns).
  let removing: Promise<void> | null = null;
  try {
    const { hashes, read } = await output.writeRecords(chunks);
    await pauseAt("build-records-written");
    const readDone = performance.now();
    spill = output.plans ? await makeScratchDir("search") : null;
    search = spill === null ? null : searchOf(run, { count: read.count, hashes }, spill.path);
    written = output.plans ? await writeDownloadsOf(run, hashes, read) : null;
    await pauseAt("build-downloads-written");
    const published = written?.date ?? (await dataDateOf(run, read, await listHash(run, read.count)));
    const downloads = written?.downloads ?? [];
    const plan =
      search === null || spill === null
        ? null
        : planOf(run, metadata, { count: read.count, hashes }, { downloads, published }, search, spill.path);
    crawl = output.plans ? crawlFilesOf(run, hashes) : null;
    const crawling = crawl;
    // The stable download names and the crawl files switch with the manifest, in one synchronous step (write-site.ts).
    const stable = written;
    const switchAlong = (): void => {
      stable?.switchStableNames();
      crawling?.switchIn();
    };
    const meanwhile = crawling === null ? {} : { meanwhile: () => crawling.prepare() };
    const site = await output.write({ count: read.count, plan, switchAlong, ...meanwhile }, onProgress);
    // Every shard is written: the scratch directory (some 8,000 files at a million subjects) goes beside what remains.
    removing = spill?.remove() ?? null;
    removing?.catch(() => undefined);
    const crawled = await crawl?.finish();
    const feed = await writeFeedOf(run, { count: read.count, hashes }, published, written?.list);
    await cache?.keepOnly(read.cacheKeys);
    const times = { started, readDone, ended: performance.now() };
    // Asked once the site is written: the thread's shards were awaited there.
    const outOfHeap = search?.outOfHeap() ?? null;
    const searchWarning = outOfHeap === null ? undefined : msg("warning.search-heap", { mb: outOfHeap });
    return reportBuild(times, read, site, { metadata, downloads, feed, crawled, cacheWarning: cache?.warning, searchWarning });
  } catch (error) {
    await crawl?.discard();
    await written?.discard();
    await output.abort();
    throw error;
  } finally {
    // The thread first (a failed build's may still be writing), then the directory it wrote in.
    await search?.stop();
    await (removing ?? spill?.remove());
    await output.close();
  }
}

/**
 * The chunk files in order, each read whole into one of the few buffers the pass keeps (grown for a
 * larger chunk), the next ones read meanwhile (filesAhead): a chunk's bytes last until the next is
 * asked for, as the downloads' sinks allow (DownloadsInput.chunks). A fresh buffer a chunk
 * (readFile) was fresh memory for the kernel to hand out, some 1.4 GB a pass at five million
 * subjects; the downloads make one pass (two when the workbook's expected date was not the list's),
 * and the feed's diff may make another.
 */
function chunkBytes(output: SiteOutput, chunks: number): AsyncGenerator<Buffer> {
  return filesAhead(chunks, (chunk) => output.chunkFile(chunk).path);
}

/**
 * The chunk files in order as the downloads' pass asks for them: those it wants read as chunkBytes
 * reads every one (a few ahead), the others left unread, each read only if asked (into one buffer of
 * their own, lasting until the next chunk is asked for). An edit at a million subjects read all
 * 1,000 files, some 4,000 calls of the thread pool, where the previous downloads held all but one.
 */
async function* downloadChunkBytes(
  output: SiteOutput,
  chunks: number,
  wanted?: (chunk: number) => boolean,
): AsyncGenerator<Buffer | UnreadChunk> {
  if (wanted === undefined) return yield* chunkBytes(output, chunks);
  const read = Array.from({ length: chunks }, (_, chunk) => chunk).filter(wanted);
  const files = filesAhead(read.length, (k) => output.chunkFile(read[k] as number).path);
  const unread = new WholeFiles();
  // The first wanted file read from the start: an edit's one file, while the chunks before it are copied.
  let first: Promise<IteratorResult<Buffer>> | null = read.length > 0 ? files.next() : null;
  // Awaited at its turn; failing before then (the pass failing first) must not be unhandled meanwhile.
  first?.catch(() => undefined);
  let next = 0;
  for (let chunk = 0; chunk < chunks; chunk++) {
    if (read[next] === chunk) {
      next++;
      const coming = first ?? files.next();
      first = null;
      yield (await coming).value as Buffer;
    } else {
      yield { read: () => unread.readAsync(output.chunkFile(chunk).path) };
    }
  }
}

/**
 * The downloads stage: written from the chunk files under their content names, before the manifest
 * names them (a reader that sees the new manifest finds them); their stable names wait for the
 * switch. The list's hash is taken in the same pass: the data's date and the feed's version.
 */
async function writeDownloadsOf(run: Run, hashes: readonly string[], records: ReadChunks): Promise<WrittenDownloads> {
  const { options, output } = run;
  const { outDir } = options.output;
  const earlier = await previousDownloads(outDir);
  const same = sameRecords(earlier.dirs, hashes);
  return writeDownloads({
    outDir,
    formats: options.downloads,
    chunks: (wanted) => downloadChunkBytes(output, hashes.length, wanted),
    date: (sha256) => dataDateOf(run, records, sha256),
    // The date the list's hash will most likely give: the previous feed's while the records are the previous site's, else
    // the sources' (exact with no previous feed). The workbook joins the records' one pass; a wrong guess costs it a second.
    expectedDate: await dataDateOf(run, records, same ? (run.previous?.state.version ?? null) : null),
    keep: earlier.downloads,
    unchanged: same ? earlier.downloads : [],
    // Beside the site's build cache, whose sweep keeps its own blocks only.
    ...(options.cacheDir === null
      ? {}
      : {
          ndjsonChunks: { indexFile: `${cacheDirOf(options.cacheDir, outDir)}.ndjson-chunks.json`, hashes },
          csvChunks: { indexFile: `${cacheDirOf(options.cacheDir, outDir)}.csv-chunks.json`, hashes },
          xlsxChunks: { indexFile: `${cacheDirOf(options.cacheDir, outDir)}.xlsx-chunks.json`, hashes },
        }),
  });
}

/** The crawl stage over the chunk files (docs/write-crawl-files.ts), not yet started; its notes beside the site's build cache, as the downloads' chunk indexes. */
function crawlFilesOf({ options, output }: Run, hashes: readonly string[]): CrawlFiles {
  const { outDir } = options.output;
  const notes = options.cacheDir === null ? {} : { previous: { hashes, stateFile: `${cacheDirOf(options.cacheDir, outDir)}.crawl.json` } };
  return crawlFiles(outDir, {
    baseUrl: options.site.baseUrl,
    chunks: hashes.length,
    chunkPath: (c: number) => output.chunkFile(c).path,
    tablePath: (c: number) => join(dirname(output.chunkFile(c).path), offsetsFileName(c)),
    ...notes,
  });
}

/**
 * The search stage of the records in the chunk files, its files waiting in `spill`: the previous
 * build's shards when the records are the same (search/search-reuse.ts); else the stage, in a
 * thread from now on a large list (unless `--threads 0`), else when the plan asks for them: patched
 * from the previous build's when few records changed in place (search/patch-search.ts), else whole.
 */
function searchOf({ options, output }: Run, { count, hashes }: Omit<ChunkHashes, "chunkSize">, spill: string): SearchStage {
  const { outDir } = options.output;
  const reused = reusedSearch(outDir, hashes);
  if (reused !== null) return { shards: () => Promise.resolve(reused), stop: () => Promise.resolve(), outOfHeap: () => null };
  const files = hashes.map((_, chunk) => output.chunkFile(chunk));
  // The stage's facts for the next edit beside the site's build cache, as the downloads' chunk indexes.
  const facts = options.cacheDir === null ? {} : { factsFile: `${cacheDirOf(options.cacheDir, outDir)}.search-facts.json` };
  const task = { count, chunkSize: CHUNK_SIZE, files, spill, previous: { outDir, hashes }, ...facts };
  return startSearch(task, searchInThread(options.read.threads, count));
}

/**
 * The plan stage: every shard of pages, the description, the key lookups and the search's, named by
 * the hashes of what they hold; the key lookups' files wait in `scratch` until they are written
 * (the previous site's are taken as they are when the keys did not change: reused-keys.ts). The
 * search's are the plan's rest: asked for by the output once the others are written, so that a
 * thread's search runs on while the pages are (the stage run here, without a thread, runs then).
 */
function planOf(
  { options, output }: Run,
  metadata: DatasetMetadata,
  records: Omit<ChunkHashes, "chunkSize">,
  published: Publication,
  search: SearchStage,
  scratch: string,
): SitePlan {
  const { count, hashes } = records;
  const window = hashes.length === 0 ? undefined : pageWindow(options.site.limits, output.chunkFile(0));
  const pages = pagesFromChunkFiles((chunk) => output.chunkFile(chunk), CHUNK_SIZE, window);
  const docs = planDocs(metadata, { count, ...published }, options.site);
  const fileOf = (chunk: number): ChunkFile => output.chunkFile(chunk);
  const keys = reusedKeys(options.output.outDir, count, hashes, fileOf) ?? planKeys(count, CHUNK_SIZE, fileOf, join(scratch, "keys"));
  const more = { now: [docs, ...keys], later: () => search.shards() };
  return planSite({ count, chunkSize: CHUNK_SIZE, hashes }, options.site, pages, more, published);
}

/**
 * The bytes of chunks the pages keep read (read-chunks.ts windowOf): twice the chunks of the widest
 * page shard, so that the next shard over the same records (another form, a narrower limit) finds
 * them read. No more than that: the pages are written while the search thread holds its heap, and
 * read-chunks.ts's own 96 MB (fifteen times the need at the default limit of 20) took the build's
 * peak about 50 MB higher at 1M.
 */
function pageWindow(limits: readonly number[], first: ChunkFile): number {
  const widest = Math.ceil((Math.max(1, ...limits) * SHARD_SIZE) / CHUNK_SIZE);
  return windowOf(2 * widest, first);
}

/** The feed stage, once the site is written: the new list is the chunk files, in order (and the NDJSON download, when written). */
async function writeFeedOf(
  run: Run,
  { count, hashes }: Omit<ChunkHashes, "chunkSize">,
  published: Date,
  list: ListBytes | undefined,
): Promise<FeedReport | undefined> {
  const { options, output, previous } = run;
  const { outDir } = options.output;
  if (options.feed === null) {
    await removeFeed(outDir);
    return undefined;
  }
  const records = (): AsyncGenerator<Buffer> => chunkBytes(output, Math.ceil(count / CHUNK_SIZE));
  const { keep } = options.feed;
  const input = { outDir, records, count, published, previous, keep, baseUrl: options.site.baseUrl };
  // The list's chunks, for a diff of the chunks that changed; their note beside the site's build cache, as the downloads' chunk indexes.
  const chunks =
    options.cacheDir === null
      ? {}
      : {
          chunks: {
            hashes,
            path: (c: number) => output.chunkFile(c).path,
            noteFile: `${cacheDirOf(options.cacheDir, outDir)}.feed-chunks.json`,
          },
        };
  return writeFeed({ ...input, ...chunks, ...(list === undefined ? {} : { list }) });
}

/** The SHA-256 of the list's NDJSON (the chunk files joined) when a previous feed needs it (a site with no downloads stage). */
async function listHash({ output, previous }: Run, count: number): Promise<string | null> {
  if (previous === null) return null;
  const hash = createHash("sha256");
  for await (const bytes of chunkBytes(output, Math.ceil(count / CHUNK_SIZE))) hash.update(bytes);
  return hash.digest("hex");
}

/** The data's date in every file: the feed's when the list is its current version (unchanged since), else data-date.ts's; never the clock. */
async function dataDateOf({ options, previous }: Run, records: ReadChunks, listSha256: string | null): Promise<Date> {
  if (previous !== null && listSha256 === previous.state.version) return new Date(previous.state.published);
  return dataDate(records.files, { SOURCE_DATE_EPOCH: options.sourceDateEpoch });
}
