/** The per-record pieces: the fast path agrees with the schema, the OIB check digit, dates, "did you mean". */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { isCalendarDate } from "../../../src/data/rules/calendar-date.ts";
import { explainDate } from "../../../src/data/rules/field-hints.ts";
import { ENGLISH } from "../../../src/common/messages/translate.ts";
import { nearestName } from "../../../src/data/rules/nearest-name.ts";
import { oibCheckDigit } from "../../../src/data/rules/oib-check-digit.ts";
import * as z from "zod";
import { FIELD_NAMES } from "../../../src/data/rules/subject-fields.ts";
import { subjectSchemaOf } from "../../../src/data/rules/subject-schema.ts";
import { quickSubject } from "../../../src/data/rules/validate-subject.ts";

/** Values near the rules' edges, per field, so generated records are often valid and often barely not. */
const fieldValue = fc.oneof(
  fc.constantFrom(
    0,
    1,
    -1,
    1.5,
    2 ** 53,
    "1",
    "",
    "0001",
    "123",
    "00O2",
    // A character just past each end of the digits ("/" and ":"), in a code's length and an OIB's.
    "00:1",
    "0/01",
    "2355732137:",
    "/3557321379",
    "23557321379",
    "2355732137",
    "lokalna",
    "Lokalna",
    "županijska",
    "2023-02-28",
    "2023-02-29",
    "2024-02-29",
    "0000-01-01",
    "1966-5-14",
    true,
    false,
    "true",
    null,
    undefined,
    [],
    {},
  ),
  fc.string({ maxLength: 12 }),
  fc.integer(),
);
const VALID = {
  id: 1,
  jedinstvena_oznaka: "0001",
  naziv_subjekta: "Grad",
  oib: "23557321379",
  razina: "lokalna",
  datum_postanka: "1966-05-14",
  status_subjekta: true,
  odobreno: false,
  institucija_grad: "Labin",
  institucija_email: "",
};
const record = fc
  .tuple(
    fc.dictionary(fc.constantFrom(...FIELD_NAMES), fieldValue, { maxKeys: 4 }),
    fc.subarray([...FIELD_NAMES], { maxLength: 1 }),
    fc.option(fc.constantFrom("naziv_subjekt", "extra"), { nil: undefined }),
  )
  .map(([changes, dropped, extra]) => {
    const r: Record<string, unknown> = { ...VALID, ...changes };
    for (const field of dropped) delete r[field];
    for (const [k, v] of Object.entries(r)) if (v === undefined) delete r[k];
    if (extra !== undefined) r[extra] = "x";
    return r;
  });

const subjectSchema = subjectSchemaOf(z);

describe("quickSubject, the fast path before zod", () => {
  test("the field names (subject-fields.ts, without zod) are the schema's keys, in its order", () => {
    expect(FIELD_NAMES).toEqual(Object.keys(subjectSchema.shape));
  });

  test("never accepts a record the schema rejects, and returns exactly the schema's output when it accepts", () => {
    fc.assert(
      fc.property(record, (r) => {
        const quick = quickSubject(r);
        const parsed = subjectSchema.safeParse(r);
        if (quick !== undefined) {
          expect(parsed.success).toBe(true);
          expect(quick).toStrictEqual(parsed.data);
        }
      }),
      { numRuns: 3000 },
    );
  });

  test("accepts a plainly valid record (so the fast path is actually taken)", () => {
    expect(quickSubject(VALID)).toStrictEqual(VALID);
  });

  test.each([
    ["jedinstvena_oznaka", "00:1"],
    ["jedinstvena_oznaka", "0/01"],
    ["jedinstvena_oznaka", "123"],
    ["oib", "2355732137:"],
    ["oib", "/3557321379"],
    ["oib", "235573213799"],
  ])("leaves %s %j to the schema (a character just past the digits, or a length out of bounds)", (field, value) => {
    expect(quickSubject({ ...VALID, [field]: value })).toBeUndefined();
  });
});

describe("oibCheckDigit (ISO 7064 MOD 11,10)", () => {
  test.each([
    ["23557321379", 9],
    ["56396370038", 8],
    ["17195049659", 9],
    ["69435151530", 0],
  ])("%s -> %i", (oib, digit) => {
    expect(oibCheckDigit(oib)).toBe(digit);
  });
});

describe("isCalendarDate and explainDate", () => {
  test.each([
    ["2024-02-29", true],
    ["2023-02-29", false],
    ["2023-02-30", false],
    ["1900-02-29", false],
    ["2000-02-29", true],
    ["2023-04-31", false],
    ["2023-13-01", false],
    ["0000-01-01", false],
    ["0001-01-01", true],
    ["2023-1-01", false],
    ["2023-01-01T00:00", false],
  ])("%s -> %s", (text, valid) => {
    expect(isCalendarDate(text)).toBe(valid);
  });

  test.each([
    ["2023-02-30", "February 2023 has 28 days"],
    ["2023-00-10", "there is no month 00"],
    ["14.5.1966.", "a day.month.year date? write 1966-05-14"],
    // Not "write 2020-02-31", which the tool would then refuse.
    ["31.2.2020.", "February 2020 has 29 days"],
    ["1.13.2020.", "there is no month 13"],
    // The same form a spreadsheet cell is read in (spreadsheet-forms.ts), here with spaces around it.
    [" 14. 5. 1966 ", "a day.month.year date? write 1966-05-14"],
    ["1966-05-14T00:00:00", "the date only, without a time"],
    ["yesterday", undefined],
  ])("%s -> %s", (text, hint) => {
    const explained = explainDate(text);
    expect(explained === undefined ? undefined : ENGLISH.say(explained)).toBe(hint);
  });
});

describe("nearestName", () => {
  test.each([
    ["naziv_subjekt", "naziv_subjekta"],
    ["Naziv subjekta", "naziv_subjekta"],
    ["OIB", "oib"],
    ["datum-postanka", "datum_postanka"],
    ["naziv", "naziv_subjekta"],
    ["razna", "razina"],
    ["nazivv", undefined],
    ["telefon", undefined],
  ])("%s -> %s", (name, near) => {
    expect(nearestName(name, FIELD_NAMES)).toBe(near);
  });
});
