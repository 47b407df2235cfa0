/**
 * The maintainer's own files: the sample saved the way Excel saves it (CSV UTF-8 on a Croatian
 * locale; an .xlsx with number, date and boolean cells, written by exceljs) builds to exactly the
 * site of data/subjekti.json, each spreadsheet form one summarised kind of warning that --strict
 * refuses; a workbook's bad cell is located by sheet and cell; the export reads back to the same
 * site; and no file under --data is skipped silently.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { exportRecords } from "../../../src/export/export-records.ts";
import { loadExcelJs } from "../../load-exceljs.ts";
import { DataError, kindKey, type Problem } from "../../../src/data/problems/problems.ts";
import { summariseProblems } from "../../../src/data/problems/summarise-problems.ts";
import { ENGLISH } from "../../../src/common/messages/translate.ts";
import { SUBJECT_FIELDS, type Subject } from "../../../src/core/render-page.ts";
import { snapshotTree, tempDir } from "../../file-trees.ts";
import { build } from "../../site/built-site.ts";
import { expectBuildLeavesSiteUnchanged, readOrProblems, readSubjects } from "../read-subjects.ts";

const SAMPLE = "data/subjekti.json";
// The writer of the tests' workbooks (a writer people use: Excel-like output).
const ExcelJS = loadExcelJs();

let subjects: Subject[];
let jsonSite: Record<string, string>;

/** What a Croatian Excel's "CSV UTF-8" writes: BOM, `;`, CRLF, numbers without leading zeros, `14.5.1966.`, `TOČNO`/`NETOČNO`. */
function excelCsv(list: readonly Subject[]): string {
  const cell = (text: string): string => (/[;"\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
  const croatianDate = (iso: string): string => {
    const [y, m, d] = iso.split("-");
    return `${Number(d)}.${Number(m)}.${y}.`;
  };
  const row = (s: Subject): string =>
    SUBJECT_FIELDS.map((f) => {
      const v = s[f];
      if (f === "oib" || f === "jedinstvena_oznaka") return String(Number(v));
      if (f === "datum_postanka") return croatianDate(String(v));
      if (typeof v === "boolean") return v ? "TOČNO" : "NETOČNO";
      return cell(String(v));
    }).join(";");
  return `\uFEFF${[SUBJECT_FIELDS.join(";"), ...list.map(row)].join("\r\n")}\r\n`;
}

/** An .xlsx as a spreadsheet holds the sample: OIB and code as number cells, dates as date cells, flags as boolean cells; an instructions sheet first. */
async function excelWorkbook(list: readonly Subject[], path: string): Promise<void> {
  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet("upute").addRow(["Podaci su na listu subjekti."]);
  const sheet = workbook.addWorksheet("subjekti");
  sheet.addRow([...SUBJECT_FIELDS]);
  for (const s of list) {
    sheet.addRow(
      SUBJECT_FIELDS.map((f) => {
        const v = s[f];
        if (f === "oib" || f === "jedinstvena_oznaka") return Number(v);
        if (f === "datum_postanka") return new Date(`${String(v)}T00:00:00Z`);
        return v;
      }),
    );
  }
  sheet.getColumn(6).numFmt = "d.m.yyyy.";
  await workbook.xlsx.writeFile(path);
}

async function buildTree(dataDir: string, strict = false): Promise<Record<string, string>> {
  const out = join(await tempDir("subjekti-site-"), "dist");
  await build(dataDir, out, { strict });
  return snapshotTree(out);
}

async function dirWith(files: Record<string, string | Buffer>): Promise<string> {
  const dir = await tempDir();
  for (const [name, content] of Object.entries(files)) {
    await mkdir(join(dir, name, ".."), { recursive: true });
    await writeFile(join(dir, name), content);
  }
  return dir;
}

beforeAll(async () => {
  subjects = JSON.parse(await readFile(SAMPLE, "utf8")) as Subject[];
  // The sample's records alone: the spreadsheets below carry no datapackage.json, whose title and
  // licence the published description would otherwise show.
  jsonSite = await buildTree(await dirWith({ "subjekti.json": await readFile(SAMPLE) }));
}, 120_000);

describe("the sample as Excel saves it", () => {
  test("CSV UTF-8 on a Croatian locale -> the same site byte for byte; TOČNO and 14.5.1966. silently, each lossy form one summary line; --strict refuses those", async () => {
    const dir = await dirWith({ "subjekti.csv": excelCsv(subjects) });
    expect(await buildTree(dir)).toEqual(jsonSite);

    const { warnings, kinds } = await readSubjects({ dataDir: dir, strict: false });
    const counts = new Map(kinds.map((k) => [k.key, k.count]));
    const forms = summariseProblems(warnings, { countOf: (p) => counts.get(kindKey(p)) }).filter((line) => line.includes(" × "));
    expect(forms).toEqual([
      `${dir}/subjekti.csv:2: warning: jedinstvena_oznaka: 999 × a code without its leading zeros: expected at least 4 digits as text, got "1" (read as "0001"; format the column as text to keep the zeros); also ${dir}/subjekti.csv:3, ${dir}/subjekti.csv:4, ${dir}/subjekti.csv:5 and 995 more`,
      `${dir}/subjekti.csv:23: warning: oib: 553 × an OIB without its leading zeros: expected 11 digits as text, got "4323472109" (read as "04323472109"; format the column as text to keep the zeros); also ${dir}/subjekti.csv:25, ${dir}/subjekti.csv:40, ${dir}/subjekti.csv:43 and 549 more`,
    ]);
    // The check digit is still checked, on the padded value.
    expect(warnings.find((w) => w.line === 73 && w.expected.key === "expected.check-digit")?.value).toBe('"02735615212"');

    await expectBuildLeavesSiteUnchanged(dir, true);
  }, 120_000);

  test("an .xlsx with number, date and boolean cells (sheet `subjekti` after another) -> the same site byte for byte; date cells silently, --strict refuses the number cells", async () => {
    const dir = await tempDir();
    await excelWorkbook(subjects, join(dir, "subjekti.xlsx"));
    expect(await buildTree(dir)).toEqual(jsonSite);
    const { warnings, kinds } = await readSubjects({ dataDir: dir, strict: false });
    expect(Object.fromEntries(kinds.map((k) => [`${k.field} ${ENGLISH.say(k.expected)}`, k.count]))).toEqual({
      "jedinstvena_oznaka at least 4 digits in a text cell": 5758,
      "oib 11 digits in a text cell": 5758,
      "oib a valid check digit (ISO 7064 MOD 11,10)": 14,
    });
    expect(warnings.filter((w) => w.field === "datum_postanka")).toEqual([]);
    expect(warnings[0]?.cell).toBe("subjekti!B2");
    await expectBuildLeavesSiteUnchanged(dir, true);
  }, 120_000);
});

describe("text whose characters straddle the reader's chunks", () => {
  test("20,000 rows of Croatian names, with shared strings (as Excel saves) and inline (as export writes) -> every letter as written, no U+FFFD", async () => {
    const first = subjects[0] as Subject;
    const names = Array.from({ length: 20_000 }, (_, i) => `${i} ${"čćžšđČĆŽŠĐ".slice(i % 10)}${"ž".repeat(i % 7)} d.o.o.`);
    const row = (i: number): unknown[] =>
      SUBJECT_FIELDS.map((f) =>
        f === "id" ? i + 1 : f === "jedinstvena_oznaka" ? String(i + 1).padStart(5, "0") : f === "naziv_subjekta" ? names[i] : first[f],
      );
    const shared = await tempDir();
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("subjekti");
    sheet.addRow([...SUBJECT_FIELDS]);
    names.forEach((_, i) => sheet.addRow(row(i)));
    await workbook.xlsx.writeFile(join(shared, "s.xlsx"));
    const inline = await tempDir();
    const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: join(inline, "s.xlsx"), useSharedStrings: false });
    const streamed = writer.addWorksheet("subjekti");
    streamed.addRow([...SUBJECT_FIELDS]).commit();
    names.forEach((_, i) => streamed.addRow(row(i)).commit());
    streamed.commit();
    await writer.commit();
    for (const dir of [shared, inline]) {
      const read = await readSubjects({ dataDir: dir, strict: false });
      expect(read.subjects.map((s) => s.naziv_subjekta)).toEqual(names);
    }
  }, 120_000);
});

describe("a workbook with bad cells", () => {
  test("each problem is located as file, sheet and cell; ambiguous forms stay errors with their hint", async () => {
    const dir = await tempDir();
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("subjekti");
    sheet.addRow([...SUBJECT_FIELDS]);
    const first = subjects[0] as Subject;
    sheet.addRow(SUBJECT_FIELDS.map((f) => first[f]));
    sheet.addRow(SUBJECT_FIELDS.map((f) => ({ ...first, id: 3, jedinstvena_oznaka: "0003", oib: "2,73562E+10" })[f]));
    sheet.addRow(SUBJECT_FIELDS.map((f) => ({ ...first, id: 4, jedinstvena_oznaka: "0004", datum_postanka: "1/2/2020" })[f]));
    sheet.addRow([5, "0005", "Grad", "23557321379", "lokalna", "2001-01-01", true, "DA", "Labin", "", "extra"]);
    await workbook.xlsx.writeFile(join(dir, "subjekti.xlsx"));
    const { errorLines } = await readOrProblems(dir);
    expect(errorLines).toEqual([
      `${dir}/subjekti.xlsx!subjekti!D3: oib: expected 11 digits, got "2,73562E+10" (a spreadsheet wrote it as a number: format the column as text)`,
      `${dir}/subjekti.xlsx!subjekti!F4: datum_postanka: expected a real date YYYY-MM-DD, got "1/2/2020" (day/month or month/day? write YYYY-MM-DD)`,
      `${dir}/subjekti.xlsx!subjekti!K5: expected cells only in the header's columns, got "extra" (a column without a field name: delete it, or name it)`,
      `${dir}/subjekti.xlsx!subjekti!H5: odobreno: expected true or false, got "DA" (write TRUE or FALSE (or TOČNO or NETOČNO))`,
    ]);
    await expectBuildLeavesSiteUnchanged(dir);
  });

  test("a header with an unknown column -> located at its cell", async () => {
    const dir = await tempDir();
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet("List1").addRow(SUBJECT_FIELDS.map((f) => (f === "oib" ? "OIB" : f)));
    await workbook.xlsx.writeFile(join(dir, "x.xlsx"));
    const { errorLines } = await readOrProblems(dir);
    expect(errorLines).toEqual([
      `${dir}/x.xlsx!List1!D1: OIB: expected one of the ten field names as a column (did you mean oib? rename the column)`,
    ]);
  });

  test("an extra column (napomena) and a misspelt one (OIB) -> reported, and the rows are still checked: one run shows every problem", async () => {
    const first = subjects[0] as Subject;
    const header = [...SUBJECT_FIELDS.map((f) => (f === "oib" ? "OIB" : f)), "napomena"];
    const rows = [
      [...SUBJECT_FIELDS.map((f) => first[f]), "provjeriti"],
      [...SUBJECT_FIELDS.map((f) => ({ ...first, id: 3, jedinstvena_oznaka: "0003", datum_postanka: "2023-02-30" })[f]), ""],
    ];
    const csv = [header, ...rows].map((row) => row.map(String).join(";")).join("\r\n");
    const dir = await dirWith({ "x.csv": csv });
    const { errorLines } = await readOrProblems(dir);
    expect(errorLines).toEqual([
      `${dir}/x.csv:1: OIB: expected one of the ten field names as a column (did you mean oib? rename the column)`,
      `${dir}/x.csv:1: napomena: expected one of the ten field names as a column (delete the column or rename it to one of ${SUBJECT_FIELDS.join(", ")})`,
      `${dir}/x.csv:3: datum_postanka: expected a real date YYYY-MM-DD, got "2023-02-30" (February 2023 has 28 days)`,
    ]);
  });

  test("a file named .xlsx that is not a workbook -> one located error", async () => {
    const dir = await dirWith({ "x.xlsx": "id;oib\n1;2\n" });
    const { errorLines } = await readOrProblems(dir);
    expect(errorLines).toHaveLength(1);
    expect(errorLines?.[0]).toMatch(new RegExp(`^${dir}/x\\.xlsx: expected a workbook \\(\\.xlsx or \\.ods\\) \\(it cannot be read: `));
  });
});

describe("subjekti export", () => {
  test.each(["xlsx", "csv"] as const)(
    "--format %s -> read back alone, the same site byte for byte and no spreadsheet form",
    async (format) => {
      const dir = await tempDir();
      const out = join(dir, `subjekti.${format}`);
      const report = await exportRecords({ dataDir: "data", strict: false, format, out });
      expect(report.count).toBe(subjects.length);
      expect(await buildTree(dir)).toEqual(jsonSite);
      const { warnings } = await readSubjects({ dataDir: dir, strict: false });
      expect(warnings.filter((w: Problem) => w.form !== undefined)).toEqual([]);
      if (format === "csv") {
        const text = await readFile(out, "utf8");
        expect(
          text.startsWith(
            `\uFEFF${SUBJECT_FIELDS.join(";")}\r\n2;0001;1. MAJ Labin d.o.o.;23557321379;lokalna;1966-05-14;true;true;Labin;info@prvimaj.hr\r\n`,
          ),
        ).toBe(true);
      } else {
        // OIB and code are text cells in text-formatted columns, so Excel keeps their zeros.
        const workbook = await new ExcelJS.Workbook().xlsx.readFile(out);
        const cell = workbook.getWorksheet("subjekti")?.getCell("D73");
        expect([cell?.value, cell?.numFmt]).toEqual(["02735615212", "@"]);
      }
    },
    120_000,
  );

  test("data with errors -> DataError and no file written", async () => {
    const dir = await tempDir();
    const data = await dirWith({ "s.json": JSON.stringify([{ ...subjects[0], oib: "123" }]) });
    await expect(exportRecords({ dataDir: data, strict: false, format: "xlsx", out: join(dir, "x.xlsx") })).rejects.toBeInstanceOf(
      DataError,
    );
    expect(await snapshotTree(dir)).toEqual({});
  });

  test.each(["xlsx", "csv"] as const)(
    "--format %s, a code given twice, found after thousands of rows were written -> DataError and no file",
    async (format) => {
      const dir = await tempDir();
      const last = subjects.at(-1);
      const data = await dirWith({
        "s.json": JSON.stringify([...subjects.slice(0, -1), { ...last, jedinstvena_oznaka: subjects[0]?.jedinstvena_oznaka }]),
      });
      const failed = await exportRecords({ dataDir: data, strict: false, format, out: join(dir, `x.${format}`) }).catch(
        (error: unknown) => error,
      );
      expect(failed).toBeInstanceOf(DataError);
      expect(
        (failed as DataError).problems.filter((p) => p.severity === "error").map((p) => `${p.field} ${ENGLISH.say(p.expected)}`),
      ).toEqual(["jedinstvena_oznaka a unique value"]);
      expect(await snapshotTree(dir)).toEqual({});
    },
    60_000,
  );
});

describe("nothing under --data is skipped silently", () => {
  test("extensions in any case are read; other files are named in one warning; hidden and Office lock files are skipped quietly", async () => {
    const one = JSON.stringify(subjects.slice(0, 2));
    const dir = await dirWith({
      "SUBJEKTI.JSON": one,
      "novi-subjekti.xls": "old binary format",
      "notes.txt": "todo",
      "stari/readme.md": "#",
      ".hidden.csv": "nope",
      "~$subjekti.xlsx": "Excel's lock file",
    });
    const { subjects: read, warnings, files } = await readSubjects({ dataDir: dir, strict: false });
    expect(read).toHaveLength(2);
    expect(files).toEqual([`${dir}/SUBJEKTI.JSON`]);
    expect(warnings.map((w) => summariseProblems([w])[0])).toEqual([
      `${dir}: warning: expected only *.json, *.ndjson, *.csv, *.xlsx, *.ods files, got ignored: notes.txt, novi-subjekti.xls, stari/readme.md (save spreadsheets as .xlsx, .ods or CSV UTF-8 to have them read)`,
    ]);
  });
});
