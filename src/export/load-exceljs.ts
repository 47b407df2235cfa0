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

/** archiver's prototype, as exceljs loads it (its own dependency). */
interface ArchiverProto {
  append(this: object, source: unknown, data: { readonly name: string; readonly date?: Date }): unknown;
}

/** The date each workbook's zip stamps its entries with; `pending` while a workbook is being constructed. */
const zipDates = new WeakMap<object, Date>();
let pending: Date | undefined;
let patched = false;

/**
 * Makes `make()` (which constructs an exceljs workbook writer) give a zip whose every entry is
 * dated `date`: archiver stamps an entry with the clock unless it names a date, and exceljs names
 * none, some of them from its constructor. With it the same rows give the same bytes.
 */
export function withZipDate<T extends object>(date: Date, make: () => T): T {
  if (!patched) {
    const archiver = createRequire(require.resolve("exceljs"))("archiver/lib/core.js") as { prototype: ArchiverProto };
    const append = archiver.prototype.append;
    archiver.prototype.append = function (source, data) {
      const stamp = zipDates.get(this) ?? pending;
      return append.call(this, source, stamp === undefined ? data : { ...data, date: stamp });
    };
    patched = true;
  }
  pending = date;
  try {
    const made = make();
    const zip = (made as { readonly zip?: unknown }).zip;
    if (typeof zip === "object" && zip !== null) zipDates.set(zip, date);
    return made;
  } finally {
    pending = undefined;
  }
}
