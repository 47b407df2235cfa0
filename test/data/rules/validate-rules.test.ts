/**
 * Each data rule (docs/data.md) broken once: the exact located line the maintainer sees, and (for
 * errors) that a build into an existing site leaves it untouched. A rule about a value is a row
 * over one base list (three subjects; one field of one record changed, written as a real file in
 * the row's format); a rule about a file's bytes or about several files keeps its folder in
 * test/fixtures.
 */
import { describe, expect, test } from "vitest";
import type { Subject } from "../../../src/core/render-page.ts";
import { formatProblem } from "../../../src/data/problems/problems.ts";
import {
  BASE_SUBJECTS,
  expectBuildLeavesSiteUnchanged,
  fixture,
  readOrProblems,
  type SourceFormat,
  writeSource,
} from "../read-subjects.ts";

/** One field of one base record changed: set to a value, removed, or renamed. */
interface Change {
  readonly record: 0 | 1 | 2;
  readonly field: keyof Subject;
  readonly to: { readonly value: unknown } | { readonly rename: string } | "removed";
}

const set = (record: Change["record"], field: keyof Subject, value: unknown): Change => ({ record, field, to: { value } });
const drop = (record: Change["record"], field: keyof Subject): Change => ({ record, field, to: "removed" });
const rename = (record: Change["record"], field: keyof Subject, name: string): Change => ({ record, field, to: { rename: name } });

/** The base list with `change` applied; a renamed field keeps its place among the keys. */
function changed({ record, field, to }: Change): Record<string, unknown>[] {
  return BASE_SUBJECTS.map((subject, i) => {
    if (i !== record) return { ...subject };
    return Object.fromEntries(
      Object.entries(subject).flatMap(([key, value]): [string, unknown][] => {
        if (key !== field) return [[key, value]];
        if (to === "removed") return [];
        return "rename" in to ? [[to.rename, value]] : [[key, to.value]];
      }),
    );
  });
}

interface Row {
  /** The input and the expected result. */
  readonly name: string;
  readonly change: Change;
  /** The source file's format; JSON unless the rule is about another. */
  readonly format?: SourceFormat;
  /** Every problem line, in order, with the data directory left out (`subjekti.json[1]: …`). */
  readonly errors?: readonly string[];
  /** The one warning line of valid data (an error line under --strict). */
  readonly warning?: string;
}

const ROWS: readonly Row[] = [
  {
    name: "naziv_subjekt for naziv_subjekta -> an unknown field naming the nearest known one, and the one it replaced missing",
    change: rename(1, "naziv_subjekta", "naziv_subjekt"),
    errors: [
      "subjekti.json[1]: naziv_subjekta: expected a non-empty name, got nothing (the field is missing)",
      "subjekti.json[1]: naziv_subjekt: expected one of the ten field names (did you mean naziv_subjekta?)",
    ],
  },
  {
    name: "no institucija_email -> a missing field",
    change: drop(2, "institucija_email"),
    errors: ["subjekti.json[2]: institucija_email: expected a string, got nothing (the field is missing)"],
  },
  { name: "id 0 -> not an integer ≥ 1", change: set(0, "id", 0), errors: ["subjekti.json[0]: id: expected an integer ≥ 1, got 0"] },
  {
    name: 'id "2" (a JSON string) -> an error with a hint',
    change: set(1, "id", "2"),
    errors: ['subjekti.json[1]: id: expected an integer ≥ 1, got "2" (a string: write the number without quotes)'],
  },
  {
    name: 'jedinstvena_oznaka "00O2" (a letter) -> an error',
    change: set(1, "jedinstvena_oznaka", "00O2"),
    errors: ['subjekti.json[1]: jedinstvena_oznaka: expected at least 4 digits (zero-padded), got "00O2"'],
  },
  {
    name: 'jedinstvena_oznaka "3" in JSON (shorter than 4 digits) -> an error hinting at lost padding',
    change: set(2, "jedinstvena_oznaka", "3"),
    errors: [
      'subjekti.json[2]: jedinstvena_oznaka: expected at least 4 digits (zero-padded), got "3" (1 digit — zero padding lost in a spreadsheet?)',
    ],
  },
  {
    name: 'jedinstvena_oznaka "0009" before "0003" (not increasing with id) -> an error naming the record before',
    change: set(1, "jedinstvena_oznaka", "0009"),
    errors: [
      'subjekti.json[2]: jedinstvena_oznaka: expected more than "0009", as it increases with id, got "0003" (id 2, just before id 3, is at subjekti.json[1])',
    ],
  },
  {
    name: 'jedinstvena_oznaka "0001" twice in NDJSON -> an error naming the other record\'s line',
    change: set(2, "jedinstvena_oznaka", "0001"),
    format: "ndjson",
    errors: ['subjekti.ndjson:3: jedinstvena_oznaka: expected a unique value, got "0001" ("0001" is also id 1\'s, at subjekti.ndjson:1)'],
  },
  {
    name: 'naziv_subjekta "" -> an error',
    change: set(1, "naziv_subjekta", ""),
    errors: ['subjekti.json[1]: naziv_subjekta: expected a non-empty name, got ""'],
  },
  {
    name: "oib as a JSON number -> an error: a number loses leading zeros",
    change: set(1, "oib", 56396370038),
    errors: ["subjekti.json[1]: oib: expected 11 digits as a string, got 56396370038 (a number loses leading zeros: write it as a string)"],
  },
  {
    name: 'razina "Lokalna" -> an error: not lowercase',
    change: set(0, "razina", "Lokalna"),
    errors: ['subjekti.json[0]: razina: expected a lowercase word, got "Lokalna" (write it in lowercase: lokalna)'],
  },
  {
    name: 'datum_postanka "2023-02-30" -> an error: not a day',
    change: set(1, "datum_postanka", "2023-02-30"),
    errors: ['subjekti.json[1]: datum_postanka: expected a real date YYYY-MM-DD, got "2023-02-30" (February 2023 has 28 days)'],
  },
  {
    name: 'datum_postanka "1/2/2020" in a CSV (day/month or month/day?) -> an error with its hint',
    change: set(1, "datum_postanka", "1/2/2020"),
    format: "csv",
    errors: ['subjekti.csv:3: datum_postanka: expected a real date YYYY-MM-DD, got "1/2/2020" (day/month or month/day? write YYYY-MM-DD)'],
  },
  {
    name: 'odobreno "true" (a JSON string) -> an error',
    change: set(2, "odobreno", "true"),
    errors: ['subjekti.json[2]: odobreno: expected true or false, got "true" (a string: write true without quotes)'],
  },
  {
    name: 'status_subjekta "DA" in a CSV (typed, not a spreadsheet\'s own word) -> an error naming the words that are read',
    change: set(1, "status_subjekta", "DA"),
    format: "csv",
    errors: ['subjekti.csv:3: status_subjekta: expected true or false, got "DA" (write TRUE or FALSE (or TOČNO or NETOČNO))'],
  },
  {
    name: 'odobreno "0" in a CSV -> an error naming the words that are read',
    change: set(2, "odobreno", "0"),
    format: "csv",
    errors: ['subjekti.csv:4: odobreno: expected true or false, got "0" (write TRUE or FALSE (or TOČNO or NETOČNO))'],
  },
  {
    name: "odobreno 1 (a JSON number) -> an error: write true or false",
    change: set(0, "odobreno", 1),
    errors: ["subjekti.json[0]: odobreno: expected true or false, got 1 (write true or false, without quotes)"],
  },
  {
    name: 'odobreno "TRUE" (a JSON string) -> an error: write true without quotes',
    change: set(0, "odobreno", "TRUE"),
    errors: ['subjekti.json[0]: odobreno: expected true or false, got "TRUE" (a string: write true without quotes)'],
  },
  {
    name: "institucija_email 14567890 (a JSON number) -> an error: write it as a string",
    change: set(1, "institucija_email", 14567890),
    errors: ["subjekti.json[1]: institucija_email: expected a string, got 14567890 (a number loses leading zeros: write it as a string)"],
  },
  {
    name: "institucija_email null -> an error",
    change: set(1, "institucija_email", null),
    errors: ['subjekti.json[1]: institucija_email: expected a string, got null (write "" when there is none)'],
  },
  {
    name: "an OIB with a wrong check digit -> a warning",
    change: set(2, "oib", "17195049658"),
    warning:
      'subjekti.json[2]: warning: oib: expected a valid check digit (ISO 7064 MOD 11,10), got "17195049658" (the last digit should be 9 — a typo?)',
  },
  {
    name: 'razina "regionalna" (unknown, lowercase) -> a warning',
    change: set(1, "razina", "regionalna"),
    warning:
      'subjekti.json[1]: warning: razina: expected "lokalna" or "nacionalna", got "regionalna" (a new level? it is published as it is)',
  },
  {
    name: 'institucija_grad "" in NDJSON -> a warning',
    change: set(2, "institucija_grad", ""),
    format: "ndjson",
    warning: 'subjekti.ndjson:3: warning: institucija_grad: expected a city, got "" (published empty)',
  },
  // A Croatian "18.4.2015." in a spreadsheet is read silently (spreadsheet-sources.test.ts: the sample as Excel saves it).
];

const f = fixture;

/** Folders whose bytes or files are the point: every line of the DataError, in order. */
const FOLDERS: readonly (readonly [rule: string, fixture: string, lines: readonly string[]])[] = [
  [
    "a duplicate id across files names both records",
    "bad-duplicate-id",
    [`${f("bad-duplicate-id")}/b.ndjson:1: id: expected a unique id, got 2 (also at ${f("bad-duplicate-id")}/a.json[1])`],
  ],
  [
    "a JSON file that is not an array",
    "bad-not-array",
    [
      `${f("bad-not-array")}/subjekti.json: expected a JSON array of subjects, got "{\\n \\"id\\": 1,\\n \\"jedinstvena_oznaka\\": \\"0001" (one object, not a list: put the subjects in [ ])`,
    ],
  ],
  [
    "a malformed JSON element is located by index and line",
    "bad-json-syntax",
    [
      `${f("bad-json-syntax")}/subjekti.json[1]: expected a JSON object, got "{\\n  \\"id\\": 2,\\n  \\"jedinstvena_oznaka\\": \\"0002\\",\\n  \\"… (Expected double-quoted property name on line 18)`,
    ],
  ],
  [
    "a JSON file cut short",
    "bad-json-cut-short",
    [`${f("bad-json-cut-short")}/subjekti.json[2]: expected the array's closing ], got the end of the file (is the file cut short?)`],
  ],
  [
    "a trailing comma in a JSON array",
    "bad-json-trailing-comma",
    [`${f("bad-json-trailing-comma")}/subjekti.json[2]: expected a value, got nothing (a trailing comma on line 4?)`],
  ],
  [
    "a malformed NDJSON line after a blank one",
    "bad-ndjson-line",
    [
      `${f("bad-ndjson-line")}/subjekti.ndjson:3: expected one JSON object on the line, got "{\\"id\\": 2, \\"jedinstvena_oznaka\\": \\"0002\\", \\"naziv_subj… (Unexpected token ',')`,
    ],
  ],
  [
    "an NDJSON line that is not an object",
    "bad-not-object",
    [`${f("bad-not-object")}/subjekti.ndjson:2: expected an object with the ten fields of a subject, got [1,2]`],
  ],
  [
    "a CSV header with an unknown and a missing column",
    "bad-csv-header",
    [
      `${f("bad-csv-header")}/subjekti.csv:1: OIB: expected one of the ten field names as a column (did you mean oib? rename the column)`,
      `${f("bad-csv-header")}/subjekti.csv:1: odobreno: expected a column in the header row (the column is missing: add it)`,
    ],
  ],
  [
    "a CSV row with too few cells",
    "bad-csv-cells",
    [
      `${f("bad-csv-cells")}/subjekti.csv:4: expected 10 cells as in the header, got 3 (a missing or extra delimiter, or an unquoted cell holding one?)`,
    ],
  ],
  [
    "a CSV quote never closed",
    "bad-csv-quote",
    [`${f("bad-csv-quote")}/subjekti.csv:3: expected well-formed CSV (Quote Not Closed: the parsing is finished with an opening quote)`],
  ],
  [
    "several problems in several files are all reported, in file and record order, warnings included",
    "bad-many",
    [
      `${f("bad-many")}/a.json[0]: oib: expected 11 digits, got "123" (3 digits)`,
      `${f("bad-many")}/a.json[1]: datum_postanka: expected a real date YYYY-MM-DD, got "2015-13-01" (there is no month 13)`,
      `${f("bad-many")}/a.json[1]: status_subjekta: expected true or false, got "false" (a string: write false without quotes)`,
      `${f("bad-many")}/b.csv:2: naziv_subjekta: expected a non-empty name, got ""`,
      `${f("bad-many")}/b.csv:2: razina: expected a lowercase word, got "Nacionalna" (write it in lowercase: nacionalna)`,
      `${f("bad-many")}/c.ndjson:1: warning: institucija_grad: expected a city, got "" (published empty)`,
    ],
  ],
];

/** A folder of valid data with one warning: a Croatian Excel CSV (BOM, `;`, CRLF, quoted multi-line cells before the record). */
const SPREADSHEET = {
  rule: "an OIB of 10 digits from a spreadsheet CSV (BOM, ;, quoted multi-line cells before it) is zero-padded with a warning located on its line",
  fixture: "bad-oib-spreadsheet",
  warning: `${f("bad-oib-spreadsheet")}/subjekti.csv:6: warning: oib: expected 11 digits as text, got "2735615217" (read as "02735615217"; format the column as text to keep the zeros)`,
};

const ERROR_ROWS = ROWS.filter((row) => row.errors !== undefined);
const WARNING_ROWS = ROWS.filter((row) => row.warning !== undefined);

/** Problem lines without the data directory, as the rows give them. */
const relative = (dir: string, lines: readonly string[] | undefined): string[] | undefined =>
  lines?.map((line) => line.replaceAll(`${dir}/`, ""));

describe("each rule about a value reports the exact located line", () => {
  test("the base list is valid, without a warning, in every format", async () => {
    for (const format of ["json", "ndjson", "csv"] as const) {
      const { result, errorLines } = await readOrProblems(await writeSource(BASE_SUBJECTS, format));
      expect({ errorLines, warnings: result?.warnings }).toEqual({ errorLines: undefined, warnings: [] });
      expect(result?.subjects).toEqual(BASE_SUBJECTS);
    }
  });

  test.each(ERROR_ROWS)("$name", async ({ change, format = "json", errors }) => {
    const dir = await writeSource(changed(change), format);
    const { errorLines } = await readOrProblems(dir);
    expect(relative(dir, errorLines)).toEqual(errors);
    await expectBuildLeavesSiteUnchanged(dir);
  });

  test.each(WARNING_ROWS)(
    "$name; --strict makes it an error that leaves the site unchanged",
    async ({ change, format = "json", warning }) => {
      const dir = await writeSource(changed(change), format);
      const loose = await readOrProblems(dir);
      expect(loose.result?.subjects.map((s) => s.id)).toEqual([1, 2, 3]);
      expect(relative(dir, loose.result?.warnings.map(formatProblem))).toEqual([warning]);
      const strict = await readOrProblems(dir, true);
      expect(relative(dir, strict.errorLines)).toEqual([warning?.replace(" warning:", "")]);
      await expectBuildLeavesSiteUnchanged(dir, true);
    },
  );
});

describe("each rule about a file's bytes or several files reports the exact located lines", () => {
  test.each(FOLDERS)("%s (%s)", async (_rule, name, lines) => {
    const { errorLines } = await readOrProblems(fixture(name));
    expect(errorLines).toEqual(lines);
    await expectBuildLeavesSiteUnchanged(fixture(name));
  });

  test(`${SPREADSHEET.rule} (${SPREADSHEET.fixture}); --strict makes it an error that leaves the site unchanged`, async () => {
    const loose = await readOrProblems(fixture(SPREADSHEET.fixture));
    expect(loose.result?.subjects.map((s) => s.id)).toEqual([1, 2, 3]);
    expect(loose.result?.warnings.map(formatProblem)).toEqual([SPREADSHEET.warning]);
    const strict = await readOrProblems(fixture(SPREADSHEET.fixture), true);
    expect(strict.errorLines).toEqual([SPREADSHEET.warning.replace(" warning:", "")]);
    await expectBuildLeavesSiteUnchanged(fixture(SPREADSHEET.fixture), true);
  });
});
