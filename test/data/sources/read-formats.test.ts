/** Reading JSON, NDJSON and CSV sources: the values, the order, the files, and what an empty input means. */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { DataError, formatProblem } from "../../../src/data/problems/problems.ts";
import { tempDir } from "../../file-trees.ts";
import { BASE_SUBJECTS, fixture, readOrProblems, readSubjects } from "../read-subjects.ts";

// The first subject of the base list, as read-formats/a.json holds it.
const SUBJECT = BASE_SUBJECTS[0] as (typeof BASE_SUBJECTS)[number];

describe("readSubjects", () => {
  test("one subject per format (JSON, NDJSON with blank lines, a spreadsheet CSV in a subdirectory) -> merged in id order, files in path order", async () => {
    const { subjects, files, warnings } = await readSubjects({ dataDir: fixture("read-formats"), strict: false });
    expect(files).toEqual(["a.json", "b.ndjson", "sub/c.csv"].map((name) => `${fixture("read-formats")}/${name}`));
    expect(warnings).toEqual([]);
    expect(subjects.map((s) => s.id)).toEqual([1, 2, 3]);
    expect(subjects[0]).toEqual(SUBJECT);
    // The CSV cell held `;`, `,`, a doubled quote and a line break; booleans and the id are typed.
    expect(subjects[1]).toMatchObject({
      id: 2,
      naziv_subjekta: 'Tvrtka "6. maj"; Umag,\nd.o.o.',
      oib: "56396370038",
      status_subjekta: true,
      odobreno: false,
    });
    expect(subjects[2]?.institucija_email).toBe("aci@aci-club.hr, uprava@aci-club.hr");
  });

  test("every subject has the ten fields in output order, whatever the key order in the file", async () => {
    const dir = await tempDir();
    const reversed = Object.fromEntries(Object.entries(SUBJECT).reverse());
    await writeFile(join(dir, "x.json"), JSON.stringify([reversed]));
    const { subjects } = await readSubjects({ dataDir: dir, strict: false });
    expect(Object.keys(subjects[0] ?? {})).toEqual(Object.keys(SUBJECT));
  });

  test("valid files holding no subjects ([] , a blank NDJSON, a header-only CSV) -> count 0", async () => {
    const { subjects, files } = await readSubjects({ dataDir: fixture("read-empty-files"), strict: false });
    expect(subjects).toEqual([]);
    expect(files).toHaveLength(3);
  });

  test("a data dir with no source file -> an error saying where it looked", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "notes.txt"), "not data");
    const { errorLines } = await readOrProblems(dir);
    expect(errorLines).toEqual([
      `${dir}: expected a directory of *.json, *.ndjson, *.csv, *.xlsx, *.ods files (searched recursively), got none (is --data the right directory?)`,
      `${dir}: warning: expected only *.json, *.ndjson, *.csv, *.xlsx, *.ods files, got ignored: notes.txt (save spreadsheets as .xlsx, .ods or CSV UTF-8 to have them read)`,
    ]);
  });

  test("a data dir that does not exist -> an error saying so", async () => {
    const { errorLines } = await readOrProblems("test/fixtures/no-such-dir");
    expect(errorLines).toEqual([
      "test/fixtures/no-such-dir: expected a directory of *.json, *.ndjson, *.csv, *.xlsx, *.ods files (searched recursively), got no such directory (is --data the right directory?)",
    ]);
  });

  test("a JSON file with a BOM, CRLF and strings full of escapes across 1 MB chunk boundaries reads as JSON.parse reads it", async () => {
    const dir = await tempDir();
    const records = Array.from({ length: 3000 }, (_, i) => ({
      ...SUBJECT,
      id: i + 1,
      jedinstvena_oznaka: String(i + 1).padStart(5, "0"),
      // Quotes, backslashes, brackets and commas inside strings must not split or nest anything.
      naziv_subjekta: `Ž${"\\".repeat(i % 5)}"[{,}]"${"x".repeat(i % 997)}\\`,
      institucija_email: "\u2028 \\u0041 🙂",
    }));
    const text = `\uFEFF${JSON.stringify(records, null, 2).replace(/\n/g, "\r\n")}\r\n`;
    expect(text.length).toBeGreaterThan(2 << 20);
    await writeFile(join(dir, "big.json"), text);
    const { subjects } = await readSubjects({ dataDir: dir, strict: false });
    expect(subjects).toEqual(records);
  });

  test("CSV with `,`, LF, no BOM and a header in another column order reads the same values", async () => {
    const dir = await tempDir();
    const fields = Object.keys(SUBJECT).reverse();
    const row = fields.map((f) => String(SUBJECT[f as keyof typeof SUBJECT]));
    await writeFile(join(dir, "x.csv"), `${fields.join(",")}\n${row.join(",")}\n`);
    const { subjects } = await readSubjects({ dataDir: dir, strict: false });
    expect(subjects).toEqual([SUBJECT]);
  });

  test("a spreadsheet's blank rows (;;;;) are skipped like blank lines, and later lines are still counted right", async () => {
    const dir = await tempDir();
    const fields = Object.keys(SUBJECT);
    const row = (s: Record<string, unknown>): string => fields.map((f) => String(s[f])).join(";");
    await writeFile(
      join(dir, "x.csv"),
      [fields.join(";"), row(SUBJECT), ";;;;;;;;;", "", row({ ...SUBJECT, id: 2, jedinstvena_oznaka: "0002", oib: "123456789012" })].join(
        "\r\n",
      ),
    );
    const error = await readSubjects({ dataDir: dir, strict: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataError);
    expect((error as DataError).problems.map(formatProblem)).toEqual([
      `${dir}/x.csv:5: oib: expected 11 digits, got "123456789012" (12 digits)`,
    ]);
  });
});
