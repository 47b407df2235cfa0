/**
 * The build, as a short list of stages with typed hand-offs:
 * read and validate (nothing is touched on any error) -> plan the shards and the manifest ->
 * render each record once while writing incrementally and atomically -> keep the build cache.
 *
 * With a build cache (build-cache.ts) a rebuild reads again only the source blocks that changed;
 * without one, or when the site no longer matches it, everything is read.
 */
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { CHUNK_SIZE } from "../core/layout.ts";
import type { BuildOptions } from "./build-options.ts";
import { type BuildCache, loadBuildCache, saveBuildCache, StaleCacheError } from "./build-cache.ts";
import { loadMetadata } from "./dataset-metadata.ts";
import { planDocs } from "./plan-docs.ts";
import { planSite } from "./plan-site.ts";
import type { Problem, ProblemKind } from "./problems.ts";
import { readSiteFacts, type SiteChanges, siteChanges } from "./site-changes.ts";
import { readRecords } from "./read-subjects.ts";
import { DEFAULT_MAX_FIELD_LENGTH } from "./validate-subject.ts";
import { createRecordArena } from "./render-records.ts";
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
}

/** Progress of the write stage: files settled so far of the total. */
export type ProgressListener = WriteProgress;

/**
 * Where the cache for these options is kept: a block the cache knows is not validated again, so
 * a build with another field-length bound keeps a cache of its own.
 */
function cacheDirOf(options: BuildOptions, cacheDir: string): string {
  const bound = options.maxFieldLength ?? DEFAULT_MAX_FIELD_LENGTH;
  return bound === DEFAULT_MAX_FIELD_LENGTH ? cacheDir : join(cacheDir, `max-field-length-${bound}`);
}

/** Builds the site; throws DataError (with nothing written) when the data has errors. */
export async function buildSite(options: BuildOptions, onProgress?: ProgressListener): Promise<BuildReport> {
  const started = performance.now();
  const cache = options.cacheDir === null ? undefined : await loadBuildCache(cacheDirOf(options, options.cacheDir), options.outDir);
  let report: Omit<BuildReport, "seconds">;
  try {
    report = await buildOnce(options, cache, onProgress);
  } catch (error) {
    if (!(error instanceof StaleCacheError)) throw error;
    // The site was changed behind the cache's back (nothing was committed): build it from the sources.
    report = await buildOnce(options, undefined, onProgress);
  }
  return { ...report, seconds: (performance.now() - started) / 1000 };
}

async function buildOnce(options: BuildOptions, cache: BuildCache | undefined, onProgress?: ProgressListener): Promise<Omit<BuildReport, "seconds">> {
  const started = performance.now();
  const metadata = await loadMetadata(options.dataDir);
  const read = {
    dataDir: options.dataDir,
    strict: options.strict,
    threads: options.threads ?? "auto",
    ...(options.maxFieldLength === undefined ? {} : { maxFieldLength: options.maxFieldLength }),
    ...(options.followOutside === undefined ? {} : { followOutside: options.followOutside }),
    ...(options.encoding === undefined ? {} : { encoding: options.encoding }),
    ...(options.allProblems === undefined ? {} : { allProblems: options.allProblems }),
  };
  const records = await readRecords(read, cache?.known);
  // The arena takes the rendered blocks over and drops each once copied (see createRecordArena).
  const arena = createRecordArena(records, CHUNK_SIZE, records.reusedCount === 0 ? undefined : cache?.previous);
  const readDone = performance.now();
  const plan = planSite(arena, options, [planDocs(metadata, arena.count, options)]);
  const before = await readSiteFacts(options.outDir);
  const written = await writeSite(options.outDir, plan, arena, onProgress);
  const timings = { read: (readDone - started) / 1000, write: (performance.now() - readDone) / 1000 };
  if (options.cacheDir !== null) {
    const chunks = Array.from({ length: arena.chunkCount }, (_, c) => [arena.chunkHash(c), arena.chunkLength(c)] as const);
    await saveBuildCache(cacheDirOf(options, options.cacheDir), options.outDir, { records, site: plan.manifest().hash, chunks });
  }
  const changes = siteChanges(before, plan.manifest(), written.changed);
  return { count: arena.count, reused: records.reusedCount, ...written, timings, warnings: records.warnings, kinds: records.kinds, changes };
}
