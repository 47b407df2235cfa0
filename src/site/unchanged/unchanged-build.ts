/**
 * A rebuild of unchanged data does nothing. A finished build records, beside its build cache, the
 * hash of its inputs, the hash of the site it left (build-fingerprint.ts) and the report a rebuild
 * of the same inputs over that site would give: nothing written, the same counts, warnings, accepted
 * warnings, downloads and feed. A build that finds both hashes as recorded reports that, and
 * touches no file; any other reads, writes and records as every build does. The inputs' sizes are
 * recorded too: a build whose files are not the sizes recorded has other inputs, and hashes them in
 * a thread beside its read rather than before it.
 *
 * The record is removed before a build writes anything and written only once it has finished (the
 * switch made, the feed written, the cache swept), so a build stopped midway leaves none, and the
 * next one takes the full path. Not recorded, so always built in full: a build without the cache
 * (`--no-cache` reads every record, as it says), one whose previous feed is read from elsewhere
 * (`--previous`: that feed may have moved on), a site of plain files (its tree is replaced
 * whole), and a build whose sources changed while it read them.
 */
import { readFile, rm, writeFile } from "node:fs/promises";
import { basename } from "node:path";
import { performance } from "node:perf_hooks";
import { cacheDirOf } from "../../data/read/build-cache.ts";
import type { BuildReport } from "../build-outcome.ts";
import type { ResolvedBuildOptions } from "../build-options.ts";
import { buildInputs, filesIdentity, siteStamp } from "./build-fingerprint.ts";
import { isErrno } from "../../common/machine-error.ts";

/** Bumped when the record's shape changes: another is no record. */
const FORMAT = 2;
/** The record's name beside the output's cache directory. */
const SUFFIX = ".last-build.json";

/** What a rebuild of unchanged inputs reports, but its times. */
type Unchanged = Omit<BuildReport, "seconds" | "timings" | "changed" | "changes">;

interface BuildRecord {
  readonly format: number;
  /** The inputs' files' sizes (buildInputs). */
  readonly sizes: readonly number[];
  /** The inputs' hash (buildInputs). */
  readonly inputs: string;
  /** The site's and the cache's hash once the build had finished (siteStamp). */
  readonly site: string;
  readonly report: Unchanged;
}

/**
 * Runs `build` unless the inputs and the site are as the last build recorded them; then reports what
 * that rebuild would. `build` is told whether the site is as the last build left it (`intact`): every
 * file's identity as recorded, so what that build checked of it holds (the change feed's snapshot).
 */
export async function unlessUnchanged(
  options: ResolvedBuildOptions,
  build: (intact: boolean) => Promise<BuildReport>,
): Promise<BuildReport> {
  const started = performance.now();
  const { outDir } = options.output;
  if (options.cacheDir === null || options.site.links !== "query" || options.feed?.previous !== undefined) return build(false);
  const cache = cacheDirOf(options.cacheDir, outDir);
  const recordFile = `${cache}${SUFFIX}`;
  const stamp = (): Promise<string | null> => siteStamp(outDir, cache, basename(recordFile));
  const inputs = await buildInputs(options);
  const last = await readRecord(recordFile);
  const intact = last !== null && last.site === (await stamp());
  // A file of another size than the last build's has changed: the build need not wait for its bytes' hash to know (0.3 s
  // at a million subjects), which a thread takes beside it for the record.
  const resized = last !== null && !sameSizes(last.sizes, inputs.sizes);
  // `--threads 0` runs the build on this thread alone: the hash too, first.
  const aside = resized && options.read.threads !== 0 ? inputs.hashAside() : null;
  const here = aside === null ? await inputs.hash() : null;
  if (intact && here !== null && last.inputs === here) return replayed(last.report, started);
  try {
    await rm(recordFile, { force: true });
    const report = await build(intact);
    const unchanged = asUnchanged(report, inputs.cachedWhole);
    // A source changed while the build read it: what the site holds is not what was hashed.
    if (unchanged === null || (await filesIdentity(inputs.files)) !== inputs.identity) return report;
    const site = await stamp();
    // The thread's hash once it has come (one that failed leaves no record: the next build takes the full path).
    const hash = here ?? (await aside?.hash.catch(() => null)) ?? null;
    if (site !== null && hash !== null)
      await writeRecord(recordFile, { format: FORMAT, sizes: inputs.sizes, inputs: hash, site, report: unchanged });
    return report;
  } finally {
    // Ended if it still runs (a build that failed, or that leaves no record).
    await aside?.stop();
  }
}

/**
 * What a rebuild of the same inputs over the site `report`'s build left will report: every file
 * unchanged, no sequence added to the feed. Its subjects reused from the cache: as many as this
 * build's when this build changed nothing; all of them when every source is read in cached blocks
 * (JSON, NDJSON) and the cache took every block; else unknown (null: not recorded, and the next
 * build, taking the full path, records its own).
 */
function asUnchanged(report: BuildReport, cachedWhole: boolean): Unchanged | null {
  if (report.cacheWarning !== undefined) return null;
  const feed = report.feed;
  const steady = report.written === 0 && report.removed === 0 && (feed === undefined || (!feed.changed && !feed.started));
  if (!steady && !cachedWhole) return null;
  const { count, warnings, kinds, overLimits, notes, downloads, known, files } = report;
  return {
    count,
    reused: steady ? report.reused : count,
    warnings,
    kinds,
    overLimits,
    notes,
    downloads,
    ...(known === undefined ? {} : { known }),
    ...(feed === undefined ? {} : { feed: { ...feed, changed: false, started: false, upserts: 0, deletes: 0, added: 0, diffBytes: 0 } }),
    files,
    written: 0,
    unchanged: files,
    removed: 0,
    bytesWritten: 0,
    bytesRemoved: 0,
  };
}

function sameSizes(a: readonly number[] | undefined, b: readonly number[]): boolean {
  return a !== undefined && a.length === b.length && a.every((size, i) => size === b[i]);
}

function replayed(report: Unchanged, started: number): BuildReport {
  const seconds = (performance.now() - started) / 1000;
  return { ...report, seconds, timings: { read: seconds, write: 0 }, changed: [], changes: { urls: [], urlsLeftOut: 0, tags: [] } };
}

/** The record in `file`; null when there is none, or one this code did not write whole. */
async function readRecord(file: string): Promise<BuildRecord | null> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if (isErrno(error)) return null;
    throw error;
  }
  try {
    const record = JSON.parse(text) as Partial<BuildRecord> | null;
    return record?.format === FORMAT ? (record as BuildRecord) : null;
  } catch (error) {
    // Cut short by a kill while it was written: no record.
    if (error instanceof SyntaxError) return null;
    throw error;
  }
}

/** Writes the record; one that cannot be written (a cache on a full or read-only disk) is none, and the next build takes the full path. */
async function writeRecord(file: string, record: BuildRecord): Promise<void> {
  try {
    await writeFile(file, `${JSON.stringify(record)}\n`);
  } catch (error) {
    // Cut short, it is no JSON, so no record (readRecord).
    if (!isErrno(error)) throw error;
  }
}
