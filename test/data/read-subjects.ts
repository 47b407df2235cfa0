/** Helpers for the read-and-validate tests: problems as the CLI prints them, and the no-write guarantee. */
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, expect } from "vitest";
import { DataError, formatProblem, type Problem, type ProblemKind } from "../../src/data/problems/problems.ts";
import type { Subject } from "../../src/core/render-page.ts";
import { subjectsOf } from "../../src/export/export-records.ts";
import { forEachItem } from "../../src/common/stage-iterables.ts";
import { orderBlocks } from "../../src/data/order/order-blocks.ts";
import { readBlocks } from "../../src/data/read/read-blocks.ts";
import { type ReadOptions, resolveReadOptions } from "../../src/data/read-options.ts";
import { FIELD_NAMES } from "../../src/data/rules/subject-fields.ts";
import { snapshotTree, tempDir } from "../file-trees.ts";
import { build } from "../site/built-site.ts";

export interface ReadResult {
  readonly count: number;
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
  let subjects: Subject[] = [];
  const read = await forEachItem(
    orderBlocks(() => readBlocks(resolveReadOptions(options))),
    (item) => {
      if (item.kind === "restart") subjects = [];
      else subjects.push(...subjectsOf(item.block));
    },
  );
  return { count: read.count, subjects, warnings: read.warnings, kinds: read.kinds, files: read.files };
}

/** Three valid subjects in id order: the base list the rule tests change one field of. */
export const BASE_SUBJECTS: readonly (Subject & Readonly<Record<string, unknown>>)[] = [
  {
    id: 1,
    jedinstvena_oznaka: "0001",
    naziv_subjekta: "1. MAJ Labin d.o.o.",
    oib: "23557321379",
    razina: "lokalna",
    datum_postanka: "1966-05-14",
    status_subjekta: true,
    odobreno: true,
    institucija_grad: "Labin",
    institucija_email: "info@prvimaj.hr",
  },
  {
    id: 2,
    jedinstvena_oznaka: "0002",
    naziv_subjekta: "6. maj d.o.o.",
    oib: "56396370038",
    razina: "lokalna",
    datum_postanka: "2015-04-18",
    status_subjekta: true,
    odobreno: false,
    institucija_grad: "Umag",
    institucija_email: "info@6maj.hr",
  },
  {
    id: 3,
    jedinstvena_oznaka: "0003",
    naziv_subjekta: "Adriatic Croatia International Club d.d.",
    oib: "17195049659",
    razina: "nacionalna",
    datum_postanka: "2005-01-21",
    status_subjekta: true,
    odobreno: true,
    institucija_grad: "Rijeka",
    institucija_email: "aci@aci-club.hr, uprava@aci-club.hr",
  },
];

export type SourceFormat = "json" | "ndjson" | "csv";

/** A CSV cell: quoted when it holds the delimiter, a quote or a line break. */
function csvCell(value: unknown): string {
  if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
    throw new Error(`a CSV cell holds text, got ${JSON.stringify(value)}`);
  }
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Records as a source file's text: a JSON array (one space indent, as data/subjekti.json), one JSON object a line, or a CSV of the ten fields. */
export function sourceText(records: readonly Readonly<Record<string, unknown>>[], format: SourceFormat): string {
  if (format === "json") return `${JSON.stringify(records, null, 1)}\n`;
  if (format === "ndjson") return records.map((r) => `${JSON.stringify(r)}\n`).join("");
  return [FIELD_NAMES.join(","), ...records.map((r) => FIELD_NAMES.map((f) => csvCell(r[f])).join(","))]
    .map((line) => `${line}\n`)
    .join("");
}

/** The directories writeSource made for the test file that imports this one: removed after its tests. */
const sourceDirs: string[] = [];
afterAll(() => Promise.all(sourceDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true }))));

/** Writes `records` as `<dir>/subjekti.<format>` in a fresh temporary directory (removed after the file's tests); returns the directory. */
export async function writeSource(records: readonly Readonly<Record<string, unknown>>[], format: SourceFormat): Promise<string> {
  const dir = await tempDir("subjekti-rule-");
  sourceDirs.push(dir);
  await writeFile(join(dir, `subjekti.${format}`), sourceText(records, format));
  return dir;
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
  try {
    const before = await snapshotTree(out);
    await expect(build(dataDir, out, { strict })).rejects.toBeInstanceOf(DataError);
    expect(await snapshotTree(out)).toEqual(before);
  } finally {
    // The build cache sits beside the site (built-site.ts).
    await Promise.all([out, `${out}.cache`].map((path) => rm(path, { recursive: true, force: true })));
  }
}
