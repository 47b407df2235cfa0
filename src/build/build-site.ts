/**
 * The build, as a short list of stages with typed hand-offs:
 * read and validate (nothing is touched on any error) -> plan the shards and the manifest ->
 * render each record once while writing incrementally and atomically.
 */
import { performance } from "node:perf_hooks";
import { CHUNK_SIZE } from "../core/layout.ts";
import type { Subject } from "../core/render-page.ts";
import type { BuildOptions } from "./build-options.ts";
import { planSite } from "./plan-site.ts";
import type { Problem } from "./problems.ts";
import { readSubjects } from "./read-subjects.ts";
import { createRecordArena } from "./render-records.ts";
import { type WriteProgress, type WriteReport, writeSite } from "./write-site.ts";

/** What a build did: the write stage's counts, plus the list's size, the time and the warnings. */
export interface BuildReport extends WriteReport {
  /** Subjects in the list. */
  readonly count: number;
  readonly seconds: number;
  readonly warnings: readonly Problem[];
}

/** Progress of the write stage: files settled so far of the total. */
export type ProgressListener = WriteProgress;

/** Builds the site; throws DataError (with nothing written) when the data has errors. */
export async function buildSite(options: BuildOptions, onProgress?: ProgressListener): Promise<BuildReport> {
  const started = performance.now();
  const { subjects, warnings } = await readSubjects({ dataDir: options.dataDir, strict: options.strict });
  // The arena takes the list over and drops each subject once rendered (see createRecordArena).
  const arena = createRecordArena(subjects as (Subject | undefined)[], CHUNK_SIZE);
  const plan = planSite(arena, options);
  const written = await writeSite(options.outDir, plan, arena, onProgress);
  return { count: arena.count, ...written, seconds: (performance.now() - started) / 1000, warnings };
}
