/**
 * Export's refusals, each one line naming what to do: an --out inside --data (the next build would
 * read the workbook beside the JSON it came from), an extension that is not the format's, a
 * directory that does not exist (docs/data.md, "The spreadsheet workflow").
 */
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../run-cli.ts";
import { useTempDir } from "../file-trees.ts";

const work = useTempDir();

describe("export refuses, in one line", () => {
  it.each([
    [
      ["--out", "data/x.xlsx"],
      1,
      /^subjekti: --out data\/x\.xlsx is inside --data data: the next build would read it beside the sources it came from, every record twice; export elsewhere/,
    ],
    [
      ["--out", "OUT/x.csv", "--format", "xlsx"],
      2,
      /^error: --out OUT\/x\.csv does not end in \.xlsx, as --format xlsx writes: a build would read it as \.csv; name it \.xlsx\n/,
    ],
    [["--out", "OUT/x.txt"], 2, /^error: --out OUT\/x\.txt: expected a name ending in \.xlsx or \.csv/],
    [
      ["--out", "OUT/missing/x.xlsx"],
      1,
      /^subjekti: --out OUT\/missing\/x\.xlsx: the directory OUT\/missing does not exist: create it, or pass another --out\n$/,
    ],
  ] as const)("export %j -> exit %d, one line", async (args, code, line) => {
    const out = join(work.path, "refusals");
    await rm(out, { recursive: true, force: true });
    await mkdir(out);
    const result = await runCli(["export", "--data", "data", ...args.map((a) => a.replace("OUT", out))]);
    expect(result.code).toBe(code);
    expect(result.stderr.replaceAll(out, "OUT")).toMatch(line);
  });
});
