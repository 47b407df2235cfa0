/**
 * One fixture per rule of CONTRACT §6, each breaking one rule: the exact located line the
 * maintainer sees, and (for errors) that a build into an existing site leaves it untouched.
 */
import { describe, expect, test } from "vitest";
import { formatProblem } from "../../src/site/problems.ts";
import { expectBuildLeavesSiteUnchanged, fixture, readOrProblems } from "./_read.ts";

const f = fixture;

/** Fixtures whose data has errors: every line of the DataError, in order. */
const ERRORS: readonly (readonly [rule: string, fixture: string, lines: readonly string[]])[] = [
  ["an unknown field is an error naming the nearest known one (and the field it replaced is missing)", "bad-unknown-field", [
    `${f("bad-unknown-field")}/subjekti.json[1]: naziv_subjekta: expected a non-empty name, got nothing (the field is missing)`,
    `${f("bad-unknown-field")}/subjekti.json[1]: naziv_subjekt: expected one of the ten field names (did you mean naziv_subjekta?)`,
  ]],
  ["a missing field is an error", "bad-missing-field", [
    `${f("bad-missing-field")}/subjekti.json[2]: institucija_email: expected a string, got nothing (the field is missing)`,
  ]],
  ["id 0 is not an integer ≥ 1", "bad-id", [`${f("bad-id")}/subjekti.json[0]: id: expected an integer ≥ 1, got 0`]],
  ["id as a JSON string is an error with a hint", "bad-id-string", [
    `${f("bad-id-string")}/subjekti.json[1]: id: expected an integer ≥ 1, got "2" (a string: write the number without quotes)`,
  ]],
  ["a duplicate id across files names both records", "bad-duplicate-id", [
    `${f("bad-duplicate-id")}/b.ndjson:1: id: expected a unique id, got 2 (also at ${f("bad-duplicate-id")}/a.json[1])`,
  ]],
  ["jedinstvena_oznaka with a letter is an error", "bad-oznaka-digits", [
    `${f("bad-oznaka-digits")}/subjekti.json[1]: jedinstvena_oznaka: expected at least 4 digits (zero-padded), got "00O2"`,
  ]],
  ["jedinstvena_oznaka shorter than 4 digits hints at lost padding", "bad-oznaka-short", [
    `${f("bad-oznaka-short")}/subjekti.json[2]: jedinstvena_oznaka: expected at least 4 digits (zero-padded), got "3" (1 digit — zero padding lost in a spreadsheet?)`,
  ]],
  ["jedinstvena_oznaka not increasing with id names the record before", "bad-oznaka-order", [
    `${f("bad-oznaka-order")}/subjekti.json[2]: jedinstvena_oznaka: expected more than "0009", as it increases with id, got "0003" (id 2, just before id 3, is at ${f("bad-oznaka-order")}/subjekti.json[1])`,
  ]],
  ["a duplicate jedinstvena_oznaka names the other record", "bad-oznaka-duplicate", [
    `${f("bad-oznaka-duplicate")}/subjekti.ndjson:3: jedinstvena_oznaka: expected a unique value, got "0001" ("0001" is also id 1's, at ${f("bad-oznaka-duplicate")}/subjekti.ndjson:1)`,
  ]],
  ["an empty naziv_subjekta is an error", "bad-naziv-empty", [
    `${f("bad-naziv-empty")}/subjekti.json[1]: naziv_subjekta: expected a non-empty name, got ""`,
  ]],
  ["oib as a JSON number is an error: leading zeros", "bad-oib-number", [
    `${f("bad-oib-number")}/subjekti.json[1]: oib: expected 11 digits as a string, got 56396370038 (a number loses leading zeros: write it as a string)`,
  ]],
  ["razina not in lowercase is an error", "bad-razina-case", [
    `${f("bad-razina-case")}/subjekti.json[0]: razina: expected a lowercase word, got "Lokalna" (write it in lowercase: lokalna)`,
  ]],
  ["datum_postanka 2023-02-30 is not a day", "bad-date", [
    `${f("bad-date")}/subjekti.json[1]: datum_postanka: expected a real date YYYY-MM-DD, got "2023-02-30" (February 2023 has 28 days)`,
  ]],
  ["an ambiguous spreadsheet date (day/month or month/day?) in a CSV stays an error with its hint", "bad-date-slashes", [
    `${f("bad-date-slashes")}/subjekti.csv:3: datum_postanka: expected a real date YYYY-MM-DD, got "1/2/2020" (day/month or month/day? write YYYY-MM-DD)`,
  ]],
  ["a flag as the JSON string \"true\" is an error", "bad-flag-string", [
    `${f("bad-flag-string")}/subjekti.json[2]: odobreno: expected true or false, got "true" (a string: write true without quotes)`,
  ]],
  ["a CSV flag cell other than true/false is an error", "bad-flag-csv", [
    `${f("bad-flag-csv")}/subjekti.csv:3: status_subjekta: expected true or false, got "DA"`,
  ]],
  ["null for a text field is an error", "bad-text-null", [
    `${f("bad-text-null")}/subjekti.json[1]: institucija_email: expected a string, got null (write "" when there is none)`,
  ]],
  ["a JSON file that is not an array", "bad-not-array", [
    `${f("bad-not-array")}/subjekti.json: expected a JSON array of subjects, got "{\\n \\"id\\": 1,\\n \\"jedinstvena_oznaka\\": \\"0001" (one object, not a list: put the subjects in [ ])`,
  ]],
  ["a malformed JSON element is located by index and line", "bad-json-syntax", [
    `${f("bad-json-syntax")}/subjekti.json[1]: expected a JSON object, got "{\\n  \\"id\\": 2,\\n  \\"jedinstvena_oznaka\\": \\"0002\\",\\n  \\"… (Expected double-quoted property name on line 18)`,
  ]],
  ["a JSON file cut short", "bad-json-cut-short", [
    `${f("bad-json-cut-short")}/subjekti.json[2]: expected the array's closing ], got the end of the file (is the file cut short?)`,
  ]],
  ["a trailing comma in a JSON array", "bad-json-trailing-comma", [
    `${f("bad-json-trailing-comma")}/subjekti.json[2]: expected a value, got nothing (a trailing comma on line 4?)`,
  ]],
  ["a malformed NDJSON line", "bad-ndjson-line", [
    `${f("bad-ndjson-line")}/subjekti.ndjson:3: expected one JSON object on the line, got "{\\"id\\": 2, \\"jedinstvena_oznaka\\": \\"0002\\", \\"naziv_subj… (Unexpected token ',')`,
  ]],
  ["an NDJSON line that is not an object", "bad-not-object", [
    `${f("bad-not-object")}/subjekti.ndjson:2: expected an object with the ten fields of a subject, got [1,2]`,
  ]],
  ["a CSV header with an unknown and a missing column", "bad-csv-header", [
    `${f("bad-csv-header")}/subjekti.csv:1: OIB: expected one of the ten field names as a column (did you mean oib?)`,
    `${f("bad-csv-header")}/subjekti.csv:1: oib: expected a column in the header row (the column is missing)`,
    `${f("bad-csv-header")}/subjekti.csv:1: odobreno: expected a column in the header row (the column is missing)`,
  ]],
  ["a CSV row with too few cells", "bad-csv-cells", [
    `${f("bad-csv-cells")}/subjekti.csv:4: expected 10 cells as in the header, got 3 (a missing or extra delimiter, or an unquoted cell holding one?)`,
  ]],
  ["a CSV quote never closed", "bad-csv-quote", [
    `${f("bad-csv-quote")}/subjekti.csv:3: expected well-formed CSV (Quote Not Closed: the parsing is finished with an opening quote)`,
  ]],
  ["several problems in several files are all reported, in file and record order, warnings included", "bad-many", [
    `${f("bad-many")}/a.json[0]: oib: expected 11 digits, got "123" (3 digits)`,
    `${f("bad-many")}/a.json[1]: datum_postanka: expected a real date YYYY-MM-DD, got "2015-13-01" (there is no month 13)`,
    `${f("bad-many")}/a.json[1]: status_subjekta: expected true or false, got "false" (a string: write false without quotes)`,
    `${f("bad-many")}/b.csv:2: naziv_subjekta: expected a non-empty name, got ""`,
    `${f("bad-many")}/b.csv:2: razina: expected a lowercase word, got "Nacionalna" (write it in lowercase: nacionalna)`,
    `${f("bad-many")}/c.ndjson:1: warning: institucija_grad: expected a city, got "" (published empty)`,
  ]],
];

/** Fixtures whose data is valid with warnings: the warning line, and the error line under --strict. */
const WARNINGS: readonly (readonly [rule: string, fixture: string, warning: string])[] = [
  ["an OIB with a wrong check digit is a warning", "bad-oib-check-digit",
    `${f("bad-oib-check-digit")}/subjekti.json[2]: warning: oib: expected a valid check digit (ISO 7064 MOD 11,10), got "17195049658" (the last digit should be 9 — a typo?)`],
  ["an unknown lowercase razina is a warning", "bad-razina-unknown",
    `${f("bad-razina-unknown")}/subjekti.json[1]: warning: razina: expected "lokalna" or "nacionalna", got "regionalna" (a new level? it is published as it is)`],
  ["an empty institucija_grad is a warning", "bad-empty-grad",
    `${f("bad-empty-grad")}/subjekti.ndjson:3: warning: institucija_grad: expected a city, got "" (published empty)`],
  ["an OIB of 10 digits from a spreadsheet CSV (BOM, ;, quoted multi-line cells before it) is zero-padded with a warning located on its line", "bad-oib-spreadsheet",
    `${f("bad-oib-spreadsheet")}/subjekti.csv:6: warning: oib: expected 11 digits as text, got "2735615217" (read as "02735615217"; format the column as text to keep the zeros)`],
  ["a Croatian day.month.year date in a CSV is read as ISO with a warning", "bad-date-croatian",
    `${f("bad-date-croatian")}/subjekti.csv:3: warning: datum_postanka: expected a date YYYY-MM-DD, got "18.4.2015." (read as "2015-04-18")`],
];

describe("each data rule reports the exact located line", () => {
  test.each(ERRORS)("%s (%s)", async (_rule, name, lines) => {
    const { errorLines } = await readOrProblems(fixture(name));
    expect(errorLines).toEqual(lines);
  });

  test.each(WARNINGS)("%s (%s): valid, one warning; --strict makes it an error", async (_rule, name, warning) => {
    const loose = await readOrProblems(fixture(name));
    expect(loose.result?.subjects.map((s) => s.id)).toEqual([1, 2, 3]);
    expect(loose.result?.warnings.map(formatProblem)).toEqual([warning]);
    const strict = await readOrProblems(fixture(name), true);
    expect(strict.errorLines).toEqual([warning.replace(" warning:", "")]);
  });
});

describe("a build with data errors leaves an existing site byte for byte unchanged", () => {
  test.each(ERRORS)("%s (%s)", async (_rule, name) => {
    await expectBuildLeavesSiteUnchanged(fixture(name));
  });

  test.each(WARNINGS)("%s (%s), under --strict", async (_rule, name) => {
    await expectBuildLeavesSiteUnchanged(fixture(name), true);
  });
});
