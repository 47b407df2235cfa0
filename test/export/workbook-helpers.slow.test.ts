/**
 * The exported workbook helps whoever edits it: an autofilter on the header, a drop-down of the
 * known levels for razina (down to the sheet's last row, so a row a person adds gets it too), OIB
 * and code as text cells, the flags as TRUE/FALSE, the header frozen; read back by exceljs, as a
 * spreadsheet library would. Out of `npm run test:unit` (named .slow.test.ts): exceljs reads a data validation's
 * range cell by cell, and the drop-down's covers a million cells.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadExcelJs } from "../load-exceljs.ts";
import { runCli } from "../run-cli.ts";
import { useTempDir } from "../file-trees.ts";

const work = useTempDir();

describe("the exported workbook helps the person editing it", () => {
  it("an autofilter on the header, a drop-down for razina, OIB and code as text, the flags as booleans", async () => {
    // The helpers are the sheet's, not the data's: fifty subjects show them.
    const data = join(work.path, "few");
    await mkdir(data);
    const subjects = JSON.parse(await readFile("data/subjekti.json", "utf8")) as unknown[];
    await writeFile(join(data, "subjekti.json"), JSON.stringify(subjects.slice(0, 50)));
    const out = join(work.path, "helpers.xlsx");
    expect((await runCli(["export", "--data", data, "--out", out])).code).toBe(0);
    const workbook = new (loadExcelJs().Workbook)();
    await workbook.xlsx.readFile(out);
    const sheet = workbook.worksheets[0];
    if (sheet === undefined) throw new Error("no worksheet");
    // The filter covers the header and every row; the header stays in view.
    expect(sheet.autoFilter).toBe("A1:J51");
    expect(sheet.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
    expect(sheet.getCell("E2").dataValidation).toMatchObject({ type: "list", formulae: ['"lokalna,nacionalna"'] });
    // Far below the data too: a row a person adds gets the same drop-down.
    expect(sheet.getCell("E100000").dataValidation).toMatchObject({ type: "list" });
    for (const cell of ["B2", "D2"])
      expect({ cell, numFmt: sheet.getCell(cell).numFmt, type: typeof sheet.getCell(cell).value }).toEqual({
        cell,
        numFmt: "@",
        type: "string",
      });
    for (const cell of ["G2", "H2"]) expect(typeof sheet.getCell(cell).value).toBe("boolean");
  }, 120_000);
});
