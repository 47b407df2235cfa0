/** The build: read and validate, plan the pages, write the site. (Interface fixed; implementation in progress.) */
import type { BuildOptions } from "./build-options.ts";
import type { Problem } from "./problems.ts";

export interface BuildReport {
  /** Subjects in the list. */
  readonly count: number;
  /** Files the site holds. */
  readonly files: number;
  /** Files whose bytes were written by this build. */
  readonly written: number;
  /** Files already holding the right bytes. */
  readonly unchanged: number;
  /** Files of the previous site that are gone. */
  readonly removed: number;
  readonly bytesWritten: number;
  readonly bytesRemoved: number;
  readonly seconds: number;
  readonly warnings: readonly Problem[];
}

/** Progress of the write stage: files settled so far of the total. */
export type ProgressListener = (done: number, total: number) => void;

/** Builds the site; throws DataError (nothing written) when the data has errors. */
export async function buildSite(options: BuildOptions, onProgress?: ProgressListener): Promise<BuildReport> {
  void onProgress;
  throw new Error(`buildSite(${options.outDir}) is not implemented yet`);
}
