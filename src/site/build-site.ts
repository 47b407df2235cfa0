/**
 * The build, as a short list of stages with typed hand-offs:
 * read and validate (nothing is touched on any error) -> plan the shards and the manifest ->
 * render each record once while writing incrementally and atomically -> keep the build cache.
 *
 * With a build cache (build-cache.ts) a rebuild parses again only the source blocks that changed.
 */
import { performance } from "node:perf_hooks";
import { CHUNK_SIZE } from "../core/layout.ts";
import type { BuildOptions } from "./build-options.ts";
import { openBuildCache } from "./build-cache.ts";
import { type DatasetMetadata, loadMetadata } from "./dataset-metadata.ts";
import { planDocs } from "./plan-docs.ts";
import { planSite } from "./plan-site.ts";
import type { Problem, ProblemKind } from "./problems.ts";
import { readRecords } from "./read-records.ts";
import { preflightBuild } from "./preflight-build.ts";
import { createRecordArena, type RecordArena } from "./record-arena.ts";
import { readSiteFacts, type SiteChanges, siteChanges } from "./site-changes.ts";
import { writePlainSite } from "./write-plain-site.ts";
import { type WriteProgress, type WriteReport, writeSite } from "./write-site.ts";

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
  /** Seconds spent reading and validating the sources, and planning and writing the site. */
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
  const read = { dataDir: options.dataDir, strict: options.strict, threads: options.threads ?? "auto" };
  const optional = {
    ...(options.maxFieldLength === undefined ? {} : { maxFieldLength: options.maxFieldLength }),
    ...(options.followOutside === undefined ? {} : { followOutside: options.followOutside }),
    ...(options.encoding === undefined ? {} : { encoding: options.encoding }),
    ...(options.allProblems === undefined ? {} : { allProblems: options.allProblems }),
  };
  const records = await readRecords({ ...read, ...optional }, cache);
  // Before a file is written (and before the arena takes the records over): the target's limits.
  const overLimits = preflightBuild(options, records);
  // The arena takes the rendered blocks over and drops each once copied (see createRecordArena).
  const arena = createRecordArena(records, CHUNK_SIZE);
  const readDone = performance.now();
  const { changes, ...written } = options.links === "files" ? await writePlainSite(options, arena, onProgress) : await writeRoutedSite(options, metadata, arena, onProgress);
  await cache?.keepOnly(records.cacheKeys);
  const ended = performance.now();
  const timings = { read: (readDone - started) / 1000, write: (ended - readDone) / 1000 };
  const report = { count: arena.count, reused: records.reused, ...written, warnings: records.warnings, kinds: records.kinds };
  return { ...report, timings, changes, overLimits, seconds: (ended - started) / 1000 };
}

/** The site a host routes: shards, the docs and the manifest (plan-site.ts, write-site.ts), and what changed. */
async function writeRoutedSite(options: BuildOptions, metadata: DatasetMetadata, arena: RecordArena, onProgress?: ProgressListener): Promise<WriteReport & { readonly changes: SiteChanges }> {
  const plan = planSite(arena, options, [planDocs(metadata, arena.count, options)]);
  const before = await readSiteFacts(options.outDir);
  const written = await writeSite(options.outDir, plan, arena, onProgress);
  return { ...written, changes: siteChanges(before, plan.manifest(), written.changed) };
}
