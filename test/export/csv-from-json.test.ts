/**
 * The CSV's rows made from the records' JSON bytes (csv-from-json.ts) are the bytes `csvRow` of each
 * parsed record gives: for generated records in the build's canonical JSON with hostile text (quotes,
 * `;`, CR/LF, formula-leading characters, escapes, U+2028, lone surrogates), for JSON in other forms
 * (keys reordered, spaces, other number forms), and for bytes that are not UTF-8. The plain record
 * takes the fast path: no JSON.parse at all.
 */
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderSubject, type Subject } from "../../src/core/render-page.ts";
import { FIELD_NAMES } from "../../src/data/rules/subject-fields.ts";
import { csvRowsOf } from "../../src/export/csv-from-json.ts";
import { csvRow } from "../../src/export/csv-row.ts";
import { chunkRecords, Scratch } from "../../src/export/rows-from-json.ts";
import { anySubject } from "../subject-arbitrary.ts";
import { chunkOf, notJson, notUtf8, otherForms, PLAIN } from "./record-json-cases.ts";

/** The CSV's rows of a chunk as the downloads make them: its records found, then their rows. */
const csvRowsFromJson = (chunk: Uint8Array): Buffer => csvRowsOf(chunkRecords(chunk), new Scratch());

/** What the build wrote before: each line parsed, then `csvRow`. */
function expected(chunk: Uint8Array): Buffer {
  const text = Buffer.from(chunk).toString("utf8");
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return Buffer.from(lines.map((line) => csvRow(JSON.parse(line) as Subject)).join(""), "utf8");
}

/** Characters the fast path must notice, or must copy as they are. */
const HOSTILE = [
  ";",
  '"',
  "\r",
  "\n",
  "\t",
  "\\",
  "=",
  "+",
  "-",
  "@",
  "'",
  "\u2028",
  "\u2029",
  "\uFF1D",
  "\uFF0B",
  "\uFF0D",
  "\uFF20",
  "\uFEFF",
  "\uF000",
  "\uD800",
  "\uDC00",
  "\x00",
  "\x1F",
  "\x7F",
  "č",
  "𝕏",
  "}",
  ",",
];
const text = fc.string({
  unit: fc.oneof(fc.constantFrom(...HOSTILE), fc.constantFrom("a", " ", "0"), fc.string({ minLength: 1, maxLength: 1, unit: "binary" })),
  maxLength: 8,
});
const subject = anySubject(
  text,
  fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.maxSafeInteger(), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER })),
);

afterEach(() => vi.restoreAllMocks());

describe("the CSV's rows from the records' JSON", () => {
  it("are csvRow's bytes for generated records in the build's JSON, hostile text among them", () => {
    fc.assert(
      fc.property(fc.array(subject, { minLength: 1, maxLength: 6 }), fc.boolean(), (subjects, lastNewline) => {
        const chunk = chunkOf(subjects.map(renderSubject), lastNewline);
        expect(csvRowsFromJson(chunk).equals(expected(chunk))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("are csvRow's bytes for each hostile character at a cell's start, inside it and alone", () => {
    const fields = FIELD_NAMES.filter((field) => typeof PLAIN[field] === "string");
    for (const field of fields) {
      for (const c of HOSTILE) {
        const lines = [`${c}x`, `x${c}`, c, `'${c}`, `''${c}x`].map((value) => renderSubject({ ...PLAIN, [field]: value }));
        const chunk = chunkOf(lines);
        expect(csvRowsFromJson(chunk).toString("utf8"), `${field} ${JSON.stringify(c)}`).toBe(expected(chunk).toString("utf8"));
      }
    }
  });

  it("are csvRow's bytes for JSON in forms the build does not write", () => {
    const json = renderSubject(PLAIN);
    for (const line of otherForms()) {
      const chunk = chunkOf([line, json]);
      expect(csvRowsFromJson(chunk).toString("utf8"), line).toBe(expected(chunk).toString("utf8"));
    }
  });

  it("are the decoder's for bytes that are not UTF-8 (a lone continuation byte replaced as csvRow's read replaces it)", () => {
    const chunk = notUtf8();
    expect(csvRowsFromJson(chunk).equals(expected(chunk))).toBe(true);
    expect(csvRowsFromJson(chunk).toString("utf8")).toContain("\uFFFDOp");
  });

  it("take the plain record without parsing it, and parse the one that needs it", () => {
    const parse = vi.spyOn(JSON, "parse");
    const plain = chunkOf(Array.from({ length: 50 }, (_, i) => renderSubject({ ...PLAIN, id: i + 1 })));
    const rows = csvRowsFromJson(plain);
    expect(parse).not.toHaveBeenCalled();
    expect(rows.toString("utf8").split("\r\n")[0]).toBe(
      "1;0007;Općina Drađa;59797235885;lokalna;1970-08-10;true;false;Drađa;zeljko.maric@opcina-dradja.hr",
    );
    // A name in quotes (some 2 % of the records), or a text with `;`: written in quotes, each quote doubled, as csvCell does.
    const quoted = csvRowsFromJson(chunkOf([renderSubject({ ...PLAIN, naziv_subjekta: 'Dječji vrtić "Rabra"', razina: "a;b" })]));
    expect(quoted.toString("utf8")).toBe(
      '7;0007;"Dječji vrtić ""Rabra""";59797235885;"a;b";1970-08-10;true;false;Drađa;zeljko.maric@opcina-dradja.hr\r\n',
    );
    expect(parse).not.toHaveBeenCalled();
    csvRowsFromJson(chunkOf([renderSubject({ ...PLAIN, naziv_subjekta: "-2+3" })]));
    expect(parse).toHaveBeenCalledTimes(1);
  });

  it("refuse a line that is no JSON as parsing it does", () => {
    const json = renderSubject(PLAIN);
    for (const line of notJson()) expect(() => csvRowsFromJson(chunkOf([json, line])), line).toThrow(SyntaxError);
    expect(csvRowsFromJson(Buffer.alloc(0)).length).toBe(0);
  });
});
