/**
 * exceljs, loaded on first use (it is large, and only `export --format xlsx` writes with it). The
 * reader no longer uses it (src/data/sources/read-ooxml.ts reads workbooks), so its stream
 * reader's chunk-decoding bug, once patched here, no longer matters.
 */
import { createRequire } from "node:module";

type ExcelJs = typeof import("exceljs");

const require = createRequire(import.meta.url);
let loaded: ExcelJs | undefined;

export function loadExcelJs(): ExcelJs {
  loaded ??= require("exceljs") as ExcelJs;
  return loaded;
}
