/**
 * Workbooks as the real programs write them (test/fixtures/spreadsheet-writers, made by
 * test/fixtures/spreadsheet-writers/make-fixtures.sh with Debian's openpyxl, xlsxwriter, LibreOffice Calc and
 * Gnumeric, and exceljs through `subjekti export`; LibreOffice's own .ods too): the sample saved by each builds exactly the
 * site the JSON builds, with the JSON's warnings and nothing more. Each writer broke the reader
 * once: openpyxl's absolute relationship targets ("expected a worksheet, got none"), LibreOffice's
 * booleans as TRUE() formula cells (11,516 errors), Gnumeric's indented inline strings (17,274).
 */
import { copyFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { snapshotTree, useTempDir } from "../../file-trees.ts";
import { build } from "../../site/built-site.ts";
import type { BuildReport } from "../../../src/site/build-site.ts";
import { ENGLISH } from "../../../src/common/messages/translate.ts";

const FIXTURES = "test/fixtures/spreadsheet-writers";
const WRITERS = ["openpyxl", "xlsxwriter", "exceljs", "libreoffice", "gnumeric"] as const;
const work = useTempDir();
let json: { tree: Record<string, string>; report: BuildReport };

const kindsOf = (report: BuildReport): string[] =>
  report.kinds.map((k) => `${k.severity} ${k.field ?? ""} ${ENGLISH.say(k.expected)} ×${k.count}`);

beforeAll(async () => {
  const out = join(work.path, "json");
  const report = await build("data", out, { cacheDir: null });
  json = { tree: await snapshotTree(out), report };
});

describe("the sample as each real spreadsheet writer saves it", () => {
  it.each([...WRITERS.map((w) => `${w}.xlsx`), "libreoffice.ods"])(
    "%s -> the JSON's site byte for byte, and only the JSON's warnings",
    async (fixture) => {
      const writer = fixture.replace(".", "-");
      const data = join(work.path, `${writer}-data`);
      await mkdir(data);
      await copyFile(join(FIXTURES, fixture), join(data, `subjekti${fixture.slice(fixture.indexOf("."))}`));
      // The dataset's descriptor, as the maintainer keeps it beside the workbook.
      await copyFile("data/datapackage.json", join(data, "datapackage.json"));
      const out = join(work.path, writer);
      const report = await build(data, out, { cacheDir: null });
      expect(report.count).toBe(json.report.count);
      expect(kindsOf(report)).toEqual(kindsOf(json.report));
      const tree = await snapshotTree(out);
      expect(Object.keys(tree).length).toBe(Object.keys(json.tree).length);
      for (const [path, bytes] of Object.entries(json.tree)) expect(tree[path], path).toBe(bytes);
    },
  );
});
