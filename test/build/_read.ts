/** Helpers for the read-and-validate tests: problems as the CLI prints them, and the no-write guarantee. */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "vitest";
import { DataError, formatProblem } from "../../src/build/problems.ts";
import { readSubjects, type ReadResult } from "../../src/build/read-records.ts";
import { snapshotTree, tempDir } from "../_tree.ts";
import { build } from "./_build.ts";

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
