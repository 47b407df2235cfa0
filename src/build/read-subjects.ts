/**
 * Stage 1 and 2 of a build: find the source files, parse them, validate every record.
 * (Interface fixed; implementation in progress.)
 */
import type { Subject } from "../core/render-page.ts";
import { type Problem } from "./problems.ts";

export interface ReadOptions {
  /** The data directory searched for *.json, *.ndjson and *.csv. */
  readonly dataDir: string;
  /** Treat warnings as errors. */
  readonly strict: boolean;
}

export interface ReadResult {
  /** Every subject, ascending by id. */
  readonly subjects: readonly Subject[];
  /** Problems that did not stop the build. */
  readonly warnings: readonly Problem[];
  /** The source files read, in the order read. */
  readonly files: readonly string[];
}

/** Reads and validates every source file; throws DataError listing every problem when any is an error. */
export async function readSubjects(options: ReadOptions): Promise<ReadResult> {
  throw new Error(`readSubjects(${options.dataDir}) is not implemented yet`);
}
