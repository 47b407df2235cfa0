/**
 * The downloads in people's own tools, by the lines the landing page gives (download-recipes.ts):
 * pandas (Debian's python3-pandas, with python3-openpyxl for the workbook), DuckDB (@duckdb/node-api)
 * and LibreOffice Calc headless read the sample's downloads with every OIB and code whole, the 553
 * OIBs with a leading zero among them. And left to guess they do not, as people found: pandas'
 * plain read_csv fails (`Expected 1 fields in line 14, saw 2`), read_excel types the OIB as a
 * number, LibreOffice opens the CSV's OIBs as numbers.
 *
 * Without python3 with pandas and openpyxl, or without soffice, that part skips, saying so, unless
 * SUBJEKTI_REQUIRE_PYTHON=1 or SUBJEKTI_REQUIRE_LIBREOFFICE=1 (CI installs them), where it fails.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, it } from "vitest";
import type { Subject } from "../../../src/core/render-page.ts";
import { DOWNLOAD_RECIPES, type DownloadRecipe } from "../../../src/site/docs/download-recipes.ts";
import { useTempDir } from "../../file-trees.ts";
import { build } from "../built-site.ts";

const SAMPLE = join(import.meta.dirname, "../../../data");
const PYTHON = ["/usr/bin/python3", "python3"].find((python) => spawnSync(python, ["-c", "import pandas, openpyxl"]).status === 0) ?? null;
const REQUIRE_PYTHON = process.env["SUBJEKTI_REQUIRE_PYTHON"] === "1";
const SOFFICE = spawnSync("soffice", ["--version"]).status === 0 ? "soffice" : null;
const REQUIRE_LIBREOFFICE = process.env["SUBJEKTI_REQUIRE_LIBREOFFICE"] === "1";
if (PYTHON === null && !REQUIRE_PYTHON)
  console.warn("pandas recipes skipped: no python3 with pandas and openpyxl (apt-get install python3-pandas python3-openpyxl)");
if (SOFFICE === null && !REQUIRE_LIBREOFFICE)
  console.warn("LibreOffice recipes skipped: no soffice (apt-get install libreoffice-calc-nogui)");

const work = useTempDir();
/** The built site's downloads directory: subjekti.ndjson, .csv and .xlsx, the names the recipes use. */
let downloads: string;
let subjects: Subject[];

beforeAll(async () => {
  const site = join(work.path, "site");
  await build(SAMPLE, site, { limits: [20], forms: ["plain"], cacheDir: null });
  downloads = join(site, "downloads");
  subjects = (await readFile(join(downloads, "subjekti.ndjson"), "utf8"))
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as Subject);
}, 180_000);

const recipes = (tool: string): DownloadRecipe[] => DOWNLOAD_RECIPES.filter((recipe) => recipe.tool === tool);

/** What a tool read: every OIB and code, as text, in order. */
interface Columns {
  readonly oib: readonly string[];
  readonly code: readonly string[];
}

function expectWhole(read: Columns, label: string): void {
  expect(read.oib, label).toEqual(subjects.map((s) => s.oib));
  expect(read.code, label).toEqual(subjects.map((s) => s.jedinstvena_oznaka));
  expect(
    read.oib.filter((oib) => oib.startsWith("0")),
    label,
  ).toHaveLength(553);
}

/** Runs a pandas expression in the downloads directory: the frame's OIB and code columns as text, or the error it raised. */
const PANDAS = `
import json, sys
import pandas as pd
try:
    frame = eval(sys.argv[1], {"pd": pd})
    print(json.dumps({"oib": [str(v) for v in frame["oib"]], "code": [str(v) for v in frame["jedinstvena_oznaka"]], "oibType": str(frame["oib"].dtype)}))
except Exception as error:
    print(json.dumps({"error": str(error)}))
`;

function pandas(code: string): Columns & { readonly oibType?: string; readonly error?: string } {
  const run = spawnSync(PYTHON as string, ["-c", PANDAS, code], { cwd: downloads, encoding: "utf8", maxBuffer: 64 << 20 });
  if (run.status !== 0) throw new Error(`python failed: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

describe.skipIf(PYTHON === null && !REQUIRE_PYTHON)("the downloads in pandas (Debian's python3-pandas)", () => {
  it("each line the landing page gives reads every OIB and code whole: the workbook, the CSV, the NDJSON", () => {
    if (PYTHON === null) throw new Error("SUBJEKTI_REQUIRE_PYTHON=1 but no python3 with pandas and openpyxl");
    expect(recipes("pandas").map((r) => r.format)).toEqual(["xlsx", "csv", "ndjson"]);
    for (const recipe of recipes("pandas")) expectWhole(pandas(recipe.code), recipe.code);
  });

  it("left to guess, pandas does not: read_csv fails on the ;, read_excel and read_json make the OIB a number", () => {
    expect(pandas('pd.read_csv("subjekti.csv")').error).toContain("Expected 1 fields in line 14, saw 2");
    expect(pandas('pd.read_excel("subjekti.xlsx")').oibType).toBe("int64");
    expect(pandas('pd.read_json("subjekti.ndjson", lines=True)').oibType).toBe("int64");
  });
});

describe("the downloads in DuckDB (@duckdb/node-api)", () => {
  it("the landing page's line reads every OIB and code of the CSV whole", async () => {
    const { DuckDBInstance } = await import("@duckdb/node-api");
    const connection = await (await DuckDBInstance.create(":memory:")).connect();
    const [recipe] = recipes("DuckDB");
    if (recipe === undefined) throw new Error("no DuckDB recipe");
    // The recipe names the file as it is downloaded: read in that directory.
    const query = recipe.code.replace("'subjekti.csv'", `'${join(downloads, "subjekti.csv").replaceAll("'", "''")}'`).replace(/;$/, "");
    const rows = (await connection.runAndReadAll(`SELECT oib, jedinstvena_oznaka FROM (${query})`)).getRows();
    expectWhole({ oib: rows.map((row) => String(row[0])), code: rows.map((row) => String(row[1])) }, recipe.code);
    connection.closeSync();
  });
});

/** LibreOffice's "CSV UTF-8" export: `,` between cells, `"` around text, UTF-8, from the first row. */
const CSV_OUT = "csv:Text - txt - csv (StarCalc):44,34,76,1";

/** Opens `file` in LibreOffice headless (with `infilter` if given) and saves it as CSV into `outDir`: what it read, each cell as Calc shows it. */
function throughLibreOffice(file: string, outDir: string, infilter?: string): Columns {
  const env = { ...process.env, HOME: join(work.path, "home") };
  const args = [
    "--headless",
    ...(infilter === undefined ? [] : [`--infilter=${infilter}`]),
    "--convert-to",
    CSV_OUT,
    "--outdir",
    outDir,
    file,
  ];
  const run = spawnSync(SOFFICE as string, args, { env, encoding: "utf8", timeout: 240_000 });
  if (run.status !== 0) throw new Error(`soffice failed: ${run.stderr}`);
  const [header, ...rows] = parse(readFileSync(join(outDir, "subjekti.csv"), "utf8")) as string[][];
  const at = (name: string): number => (header ?? []).indexOf(name);
  return { oib: rows.map((row) => row[at("oib")] ?? ""), code: rows.map((row) => row[at("jedinstvena_oznaka")] ?? "") };
}

describe.skipIf(SOFFICE === null && !REQUIRE_LIBREOFFICE)("the downloads in LibreOffice Calc (headless)", () => {
  it("the workbook opens with every OIB and code whole; the CSV too with the page's filter line, and without it loses the zeros", () => {
    if (SOFFICE === null) throw new Error("SUBJEKTI_REQUIRE_LIBREOFFICE=1 but no soffice");
    const [workbook, csv] = recipes("LibreOffice");
    expect([workbook?.format, csv?.format]).toEqual(["xlsx", "csv"]);
    expectWhole(throughLibreOffice(join(downloads, "subjekti.xlsx"), join(work.path, "lo-xlsx")), "the workbook");
    const infilter = /--infilter="([^"]+)"/.exec(csv?.code ?? "")?.[1];
    expect(infilter).toBeDefined();
    expectWhole(throughLibreOffice(join(downloads, "subjekti.csv"), join(work.path, "lo-csv"), infilter), csv?.code ?? "");
    // As the person who reported it saw: the import dialog with ; ticked and the columns left
    // "Standard" makes the OIB and the code numbers, their leading zeros gone.
    const guessed = throughLibreOffice(join(downloads, "subjekti.csv"), join(work.path, "lo-guess"), "CSV:59,34,76,1");
    expect(guessed.oib.filter((oib) => oib.startsWith("0"))).toHaveLength(0);
    expect(guessed.code[0]).toBe(String(Number(subjects[0]?.jedinstvena_oznaka)));
  }, 300_000);
});
