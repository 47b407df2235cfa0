/** Helpers for the read-and-validate tests: problems as the CLI prints them, and the no-write guarantee. */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "vitest";
import { DataError, formatProblem, type Problem, type ProblemKind } from "../../src/site/problems.ts";
import type { Subject } from "../../src/core/render-page.ts";
import { type ReadOptions, readRecords } from "../../src/site/read-records.ts";
import { snapshotTree, tempDir } from "../_tree.ts";
import { build } from "./_build.ts";

export interface ReadResult {
  /** Every subject, ascending by id. */
  readonly subjects: readonly Subject[];
  /** Problems that did not stop the build: the first few of each kind. */
  readonly warnings: readonly Problem[];
  /** Every kind of warning with its exact count. */
  readonly kinds: readonly ProblemKind[];
  /** The source files read, in the order read. */
  readonly files: readonly string[];
}

/** Reads `dataDir` as a build does and parses the rendered records back into subjects; throws DataError as the build would. */
export async function readSubjects(options: ReadOptions): Promise<ReadResult> {
  const set = await readRecords(options);
  const subjects = Array.from({ length: set.count }, (_, i) => {
    const block = set.rendered[set.blockOf[i] ?? 0];
    if (block === undefined) throw new Error(`record ${i} has no block`);
    const k = set.indexIn[i] ?? 0;
    return JSON.parse(Buffer.from(block.bytes.subarray(k === 0 ? 0 : block.ends[k - 1], block.ends[k])).toString("utf8")) as Subject;
  });
  return { subjects, warnings: set.warnings, kinds: set.kinds, files: set.files };
}

/** A fixture directory, as problems name it (tests run from the repository root). */
export function fixture(name: string): string {
  return `test/fixtures/${name}`;
}

/** What reading `dataDir` gives: the result, or the formatted lines of the DataError it throws. */
export async function readOrProblems(dataDir: string, strict = false): Promise<{ result?: ReadResult; errorLines?: string[] }> {
  try {
    return { result: await readSubjects({ dataDir, strict }) };
  } catch (error) {
    if (!(error instanceof DataError)) throw error;
    return { errorLines: error.problems.map(formatProblem) };
  }
}

/** Asserts that building `dataDir` into an existing site throws DataError and leaves the site byte for byte as it was. */
export async function expectBuildLeavesSiteUnchanged(dataDir: string, strict = false): Promise<void> {
  const out = await tempDir("subjekti-read-");
  await mkdir(join(out, "_subjekti"), { recursive: true });
  await writeFile(join(out, "_subjekti", "manifest.json"), '{"previous":"site"}');
  await writeFile(join(out, "index.html"), "an earlier build");
  const before = await snapshotTree(out);
  await expect(build(dataDir, out, { strict })).rejects.toBeInstanceOf(DataError);
  expect(await snapshotTree(out)).toEqual(before);
}
