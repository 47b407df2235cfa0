import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { indentJson, PAGE_TAIL, renderPageHead, renderSubject, type Subject, SUBJECT_FIELDS, toJson } from "../../src/core/render-page.ts";
import { anySubject } from "../subject-arbitrary.ts";

/** A whole page from its head and rendered records, as the writers join them. */
const renderPage = (head: string, records: readonly string[]): string => head + records.join(",") + PAGE_TAIL;

const subject: Subject = {
  // Keys deliberately out of order: the output order is SUBJECT_FIELDS'.
  odobreno: false,
  oib: "01234567890",
  id: 7,
  naziv_subjekta: 'Grad \u010cakovec \u2028 "x"',
  jedinstvena_oznaka: "0007",
  razina: "lokalna",
  datum_postanka: "2020-01-31",
  status_subjekta: true,
  institucija_grad: "\u010cakovec",
  institucija_email: "a@b.hr, c@d.hr",
};

describe("toJson", () => {
  it.each([
    ["null -> 'null'", null, "null"],
    ["'a/b' -> '\"a/b\"' (slash not escaped)", "a/b", '"a/b"'],
    ["'č' -> raw UTF-8", "\u010d", '"\u010d"'],
    ["U+2028 -> '\\u2028'", "\u2028", '"\\u2028"'],
    ["U+2029 -> '\\u2029'", "\u2029", '"\\u2029"'],
    ["U+007F -> raw", "\x7f", '"\x7f"'],
    ["U+001F -> '\\u001f' (lowercase hex)", "\x1f", '"\\u001f"'],
    ["tab, newline -> '\\t', '\\n'", "\t\n", '"\\t\\n"'],
    ["quote and backslash escaped", '"\\', '"\\"\\\\"'],
    ["object -> no spaces after ',' or ':'", { a: 1, b: [true, null] }, '{"a":1,"b":[true,null]}'],
  ])("%s", (_name, value, expected) => {
    expect(toJson(value)).toBe(expected);
  });
});

describe("renderSubject", () => {
  it("writes the ten fields in the seed's order, flags as booleans, oib as a string", () => {
    expect(renderSubject(subject)).toBe(
      '{"id":7,"jedinstvena_oznaka":"0007","naziv_subjekta":"Grad \u010cakovec \\u2028 \\"x\\"","oib":"01234567890",' +
        '"razina":"lokalna","datum_postanka":"2020-01-31","status_subjekta":true,"odobreno":false,' +
        '"institucija_grad":"\u010cakovec","institucija_email":"a@b.hr, c@d.hr"}',
    );
  });

  it("equals toJson of the subject re-keyed in SUBJECT_FIELDS order, for any subject", () => {
    const text = fc.string({ unit: "binary", maxLength: 12 });
    fc.assert(
      fc.property(anySubject(text, fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER })), (s) => {
        const ordered = Object.fromEntries(SUBJECT_FIELDS.map((field) => [field, s[field]]));
        expect(renderSubject(s)).toBe(toJson(ordered));
      }),
    );
  });

  it("SUBJECT_FIELDS lists the ten fields in the seed's order", () => {
    expect(SUBJECT_FIELDS).toEqual([
      "id",
      "jedinstvena_oznaka",
      "naziv_subjekta",
      "oib",
      "razina",
      "datum_postanka",
      "status_subjekta",
      "odobreno",
      "institucija_grad",
      "institucija_email",
    ]);
  });
});

describe("renderPageHead and renderPage", () => {
  it.each([
    [
      "count 2000, next only",
      2000,
      "https://x.org/api/subjekti/?limit=20&offset=20",
      null,
      '{"count":2000,"next":"https://x.org/api/subjekti/?limit=20&offset=20","previous":null,"results":[',
    ],
    ["count 0, no links", 0, null, null, '{"count":0,"next":null,"previous":null,"results":['],
    [
      "both links",
      45,
      "https://x.org/api/subjekti/?limit=20&offset=40",
      "https://x.org/api/subjekti/?limit=20",
      '{"count":45,"next":"https://x.org/api/subjekti/?limit=20&offset=40","previous":"https://x.org/api/subjekti/?limit=20","results":[',
    ],
  ])("%s -> %s", (_name, count, next, previous, expected) => {
    expect(renderPageHead(count, { next, previous })).toBe(expected);
  });

  it.each([
    ["no records -> '[]'", [], '{"count":0,"next":null,"previous":null,"results":[]}'],
    ["two records -> joined by ','", ['{"id":1}', '{"id":2}'], '{"count":0,"next":null,"previous":null,"results":[{"id":1},{"id":2}]}'],
  ])("%s", (_name, records, expected) => {
    expect(renderPage(renderPageHead(0, { next: null, previous: null }), records)).toBe(expected);
  });

  it("a page equals JSON.parse-able DRF envelope with the records in order", () => {
    const page = renderPage(renderPageHead(1, { next: null, previous: null }), [renderSubject(subject)]);
    const parsed = JSON.parse(page) as { results: Subject[] };
    expect(Object.keys(parsed)).toEqual(["count", "next", "previous", "results"]);
    expect(parsed.results[0]).toEqual(subject);
  });
});

describe("indentJson: the compact text re-indented in one pass, as JSON.stringify(value, null, n) writes it", () => {
  it.each([
    ["empty object and array stay on one line", { a: {}, b: [], c: [{}] }],
    ["strings holding brackets, commas, colons, quotes and backslashes", { "k,:{": 'a"b\\', x: ["]", '\\"', "}{,:"] }],
    ["a page with U+2028 in a value", { count: 1, next: null, previous: null, results: [{ id: 1, naziv: "a\u2028b" }] }],
  ])("%s", (_name, value) => {
    for (const indent of [1, 4, 8]) expect(indentJson(toJson(value), indent)).toBe(toJson(value, indent));
  });

  it("any JSON value, any indent 1..8", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 1, max: 8 }), (value, indent) => {
        expect(indentJson(toJson(value), indent)).toBe(toJson(value, indent));
      }),
      { numRuns: 500 },
    );
  });
});

describe("indentJsonBytes grows its buffer past twice the input", () => {
  it("a deep nest of arrays at indent 8 -> the same bytes as JSON.stringify", () => {
    const deep = JSON.parse(`${"[".repeat(40)}1,{"a":1}${"]".repeat(40)}`) as unknown;
    expect(indentJson(toJson(deep), 8)).toBe(toJson(deep, 8));
  });
});
