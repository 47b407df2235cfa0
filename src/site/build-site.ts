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
import { planSite } from "./plan-site.ts";
import type { Problem, ProblemKind } from "./problems.ts";
import { readRecords } from "./read-records.ts";
import { createRecordArena } from "./record-arena.ts";
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
}

/** Progress of the write stage: files settled so far of the total. */
export type ProgressListener = WriteProgress;

/** Builds the site; throws DataError (with nothing written) when the data has errors. */
export async function buildSite(options: BuildOptions, onProgress?: ProgressListener): Promise<BuildReport> {
  const started = performance.now();
  const cache = options.cacheDir === null ? undefined : openBuildCache(options.cacheDir, options.outDir);
  const read = { dataDir: options.dataDir, strict: options.strict, threads: options.threads ?? "auto" };
  const optional = {
    ...(options.maxFieldLength === undefined ? {} : { maxFieldLength: options.maxFieldLength }),
    ...(options.followOutside === undefined ? {} : { followOutside: options.followOutside }),
    ...(options.encoding === undefined ? {} : { encoding: options.encoding }),
    ...(options.allProblems === undefined ? {} : { allProblems: options.allProblems }),
  };
  const records = await readRecords({ ...read, ...optional }, cache);
  // The arena takes the rendered blocks over and drops each once copied (see createRecordArena).
  const arena = createRecordArena(records, CHUNK_SIZE);
  const plan = planSite(arena, options);
  const written = await writeSite(options.outDir, plan, arena, onProgress);
  await cache?.keepOnly(records.cacheKeys);
  const seconds = (performance.now() - started) / 1000;
  return { count: arena.count, reused: records.reused, ...written, warnings: records.warnings, kinds: records.kinds, seconds };
}
