/**
 * How people's own tools open the downloads with the OIBs and codes whole, for the landing page: a
 * line each for pandas, DuckDB and LibreOffice. Left to guess, every one of them reads an OIB of
 * digits as a number and drops its leading zero (553 of the sample's), and pandas' plain
 * `read_csv` splits on commas, not on the CSV's `;`. Each line is run as written by
 * test/site/docs/download-recipes.slow.test.ts, DuckDB's excepted (its engine is not installed here).
 */
import type { Download, DownloadFormat } from "../../core/download-files.ts";
import { escapeHtml } from "../../core/html/html-text.ts";

/** A recipe: the tool, the format it reads, the line, what it keeps. */
export interface DownloadRecipe {
  readonly tool: string;
  readonly format: DownloadFormat;
  readonly code: string;
}

/** The columns that must stay text. */
const TEXT = "{'oib': str, 'jedinstvena_oznaka': str}";

export const DOWNLOAD_RECIPES: readonly DownloadRecipe[] = [
  { tool: "pandas", format: "xlsx", code: `pd.read_excel("subjekti.xlsx", dtype=${TEXT})` },
  { tool: "pandas", format: "csv", code: `pd.read_csv("subjekti.csv", sep=";", dtype=${TEXT})` },
  { tool: "pandas", format: "ndjson", code: `pd.read_json("subjekti.ndjson", lines=True, dtype=${TEXT})` },
  {
    tool: "DuckDB",
    format: "csv",
    code: "SELECT * FROM read_csv('subjekti.csv', delim=';', header=true, types={'oib': 'VARCHAR', 'jedinstvena_oznaka': 'VARCHAR'});",
  },
  { tool: "LibreOffice", format: "xlsx", code: "soffice subjekti.xlsx" },
  {
    tool: "LibreOffice",
    format: "csv",
    // Field separator 59 (;), text delimiter 34 ("), UTF-8 (76), from line 1; columns 2, 4 and 6 as text (2).
    code: 'soffice --infilter="CSV:59,34,76,1,2/2/4/2/6/2" subjekti.csv',
  },
];

const e = escapeHtml;

/** The landing page's block of recipes for the downloads this build wrote; empty when it wrote none. */
export function downloadRecipesSection(downloads: readonly Download[]): string {
  const formats = new Set(downloads.map((d) => d.format));
  const recipes = DOWNLOAD_RECIPES.filter((recipe) => formats.has(recipe.format));
  if (recipes.length === 0) return "";
  return `
<h3>Otvaranje s OIB-om kao tekstom <span lang="en" class="en">/ Opening them with OIBs as text</span></h3>
<p>Tablični kalkulator neka otvori <code>.xlsx</code>: u njemu su OIB i oznaka tekstne ćelije, pa vodeće nule ostaju. CSV je za programe: svaki alat bez uputa pročita OIB kao broj i izgubi vodeću nulu (pandas ga bez <code>sep=";"</code> ni ne razdvoji). Ovako ih čitaju:</p>
<p lang="en" class="en">A spreadsheet should open the <code>.xlsx</code>: its OIB and code are text cells, so their leading zeros stay. The CSV is for programs: any tool left to guess reads an OIB as a number and loses its leading zero (pandas without <code>sep=";"</code> does not even split it). These lines read them whole:</p>
<ul>
${recipes.map((recipe) => `<li>${e(recipe.tool)}, <code>.${e(recipe.format)}</code>: <code>${e(recipe.code)}</code></li>`).join("\n")}
</ul>`;
}
