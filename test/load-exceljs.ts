/**
 * exceljs, a writer people use, for the tests' own workbooks (typed number, date and boolean cells,
 * as a spreadsheet saves them) and to read the export's back as a spreadsheet library does. Only a
 * dev dependency: the project writes its workbooks itself (src/export/xlsx-writer.ts).
 */
import { createRequire } from "node:module";

type ExcelJs = typeof import("exceljs");

const require = createRequire(import.meta.url);
let loaded: ExcelJs | undefined;

/** exceljs, loaded on first use (it is large). */
export function loadExcelJs(): ExcelJs {
  loaded ??= require("exceljs") as ExcelJs;
  return loaded;
}
