/**
 * The workbook's rows made from the records' JSON bytes (xlsx-from-json.ts) are the bytes
 * `rowXml(workbookCells(record))` of each parsed record gives: for generated records in the build's
 * canonical JSON with hostile text (XML's `&<>`, OOXML's `_xHHHH_`, control characters, DEL, U+FFFE,
 * lone surrogates, white space of every kind at either end, formula-like text, numbers as text,
 * characters beyond the BMP), for JSON in other forms, for bytes that are not UTF-8 and for a text
 * too long for a cell. The plain record takes the fast path: no JSON.parse at all.
 */
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderSubject, type Subject } from "../../src/core/render-page.ts";
import { FIELD_NAMES } from "../../src/data/rules/subject-fields.ts";
import { WHITE_SPACE, xlsxRowsOf } from "../../src/export/xlsx-from-json.ts";
import { rowXml, workbookCells } from "../../src/export/xlsx-row.ts";
import { chunkRecords, Scratch } from "../../src/export/rows-from-json.ts";
import { anySubject } from "../subject-arbitrary.ts";
import { chunkOf, notJson, notUtf8, otherForms, PLAIN } from "./record-json-cases.ts";

/** The sheet's rows of a chunk as the downloads make them: its records found, then their rows. */
const xlsxRowsFromJson = (chunk: Uint8Array, first: number): Buffer => xlsxRowsOf(chunkRecords(chunk), first, new Scratch());

/** What the build wrote before: each line parsed, then `rowXml` of its cells. */
function expected(chunk: Uint8Array, first: number): string {
  const lines = Buffer.from(chunk).toString("utf8").split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines.map((line, i) => rowXml(first + i, workbookCells(JSON.parse(line) as Subject))).join("");
}

/** Characters the fast path must escape, notice, or copy as they are. */
const HOSTILE = [
  "&",
  "<",
  ">",
  "&amp;",
  "_",
  "x",
  "_x",
  "_x0041_",
  "_x004",
  "_X0041_",
  "A",
  "f",
  '"',
  "\\",
  "\r",
  "\n",
  "\t",
  "\x0B",
  "\x0C",
  "\x00",
  "\x1F",
  "\x7F",
  "\x85",
  " ",
  "\u00A0",
  "\u1680",
  "\u180E",
  "\u2000",
  "\u200A",
  "\u200B",
  "\u2028",
  "\u2029",
  "\u202F",
  "\u205F",
  "\u3000",
  "\uFEFF",
  "\uFFFE",
  "\uFFFF",
  "\uF000",
  "\uFF1D",
  "\uD800",
  "\uDC00",
  "=",
  "+",
  "-",
  "@",
  "'",
  ";",
  "č",
  "Ž",
  "𝕏",
  "}",
  ",",
];
const text = fc.oneof(
  fc.string({
    unit: fc.oneof(fc.constantFrom(...HOSTILE), fc.constantFrom("a", " ", "0"), fc.string({ minLength: 1, maxLength: 1, unit: "binary" })),
    maxLength: 8,
  }),
  // Formulas and numbers as text, which a cell keeps as they are.
  fc.constantFrom("=1+1", "=SUM(A1:A2)", "+385 1 234", "-5", "@x", "0012", "1e3", "007.50", "TRUE", "1970-08-10"),
);
const subject = anySubject(
  text,
  fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.maxSafeInteger(), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER })),
);

const rowsOf = (chunk: Buffer, first: number): string => xlsxRowsFromJson(chunk, first).toString("utf8");

afterEach(() => vi.restoreAllMocks());

describe("the workbook's rows from the records' JSON", () => {
  it("are rowXml's bytes for generated records in the build's JSON, hostile text among them, from any row", () => {
    fc.assert(
      fc.property(
        fc.array(subject, { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        fc.oneof(fc.integer({ min: 2, max: 1_048_576 }), fc.maxSafeInteger()),
        (subjects, lastNewline, first) => {
          const chunk = chunkOf(subjects.map(renderSubject), lastNewline);
          expect(rowsOf(chunk, first)).toBe(expected(chunk, first));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("are rowXml's bytes for each hostile character at a cell's start, inside it, at its end and alone", () => {
    const fields = FIELD_NAMES.filter((field) => typeof PLAIN[field] === "string");
    for (const field of fields) {
      for (const c of HOSTILE) {
        const values = [`${c}x`, `x${c}`, c, `x${c}x`, `${c}${c}`, `_x00${c}`, `${c}_x0041_${c}`];
        const chunk = chunkOf(values.map((value) => renderSubject({ ...PLAIN, [field]: value })));
        expect(rowsOf(chunk, 2), `${field} ${JSON.stringify(c)}`).toBe(expected(chunk, 2));
      }
    }
  });

  it("keep white space at either end exactly where JavaScript's \\s finds it (the list checked against every code point)", () => {
    const differ = Array.from({ length: 0x10000 }, (_, cp) => cp).filter(
      (cp) => WHITE_SPACE.has(cp) !== /\s/.test(String.fromCharCode(cp)),
    );
    expect(differ).toEqual([]);
    const spaces = [...WHITE_SPACE].filter((cp) => cp >= 0x20 && cp !== 0xfeff).map((cp) => String.fromCharCode(cp));
    const values = spaces.flatMap((s) => [`${s}x`, `x${s}`, `č${s}`, `${s}𝕏`, s]);
    const chunk = chunkOf(values.map((value) => renderSubject({ ...PLAIN, naziv_subjekta: value })));
    const rows = rowsOf(chunk, 2);
    expect(rows).toBe(expected(chunk, 2));
    expect(rows.split('xml:space="preserve"').length - 1).toBe(values.length);
  });

  it("are rowXml's bytes for JSON in forms the build does not write", () => {
    const json = renderSubject(PLAIN);
    for (const line of otherForms()) {
      const chunk = chunkOf([line, json]);
      expect(rowsOf(chunk, 10), line).toBe(expected(chunk, 10));
    }
  });

  it("are the decoder's for bytes that are not UTF-8 (a lone continuation byte replaced as the parse's read replaces it)", () => {
    const chunk = notUtf8();
    expect(rowsOf(chunk, 2)).toBe(expected(chunk, 2));
    expect(rowsOf(chunk, 2)).toContain("\uFFFDOp");
  });

  it("refuse a text longer than a cell holds as workbookCells does, and take one of as many bytes but fewer characters", () => {
    const long = (value: string): Buffer => chunkOf([renderSubject({ ...PLAIN, naziv_subjekta: value })]);
    expect(rowsOf(long("a".repeat(32_767)), 2)).toBe(expected(long("a".repeat(32_767)), 2));
    expect(rowsOf(long("č".repeat(16_384)), 2)).toBe(expected(long("č".repeat(16_384)), 2));
    expect(() => xlsxRowsFromJson(long("a".repeat(32_768)), 2)).toThrow(/32768/);
  });

  it("take the plain record without parsing it, and parse the one that needs it", () => {
    const parse = vi.spyOn(JSON, "parse");
    const plain = chunkOf(Array.from({ length: 50 }, (_, i) => renderSubject({ ...PLAIN, id: i + 1, naziv_subjekta: "A & B <C> " })));
    const rows = rowsOf(plain, 2);
    expect(parse).not.toHaveBeenCalled();
    expect(rows.slice(0, rows.indexOf("</row>") + 6)).toBe(
      '<row r="2"><c r="A2"><v>1</v></c><c r="B2" s="1" t="inlineStr"><is><t>0007</t></is></c>' +
        '<c r="C2" t="inlineStr"><is><t xml:space="preserve">A &amp; B &lt;C&gt; </t></is></c>' +
        '<c r="D2" s="1" t="inlineStr"><is><t>59797235885</t></is></c><c r="E2" t="inlineStr"><is><t>lokalna</t></is></c>' +
        '<c r="F2" s="1" t="inlineStr"><is><t>1970-08-10</t></is></c><c r="G2" t="b"><v>1</v></c><c r="H2" t="b"><v>0</v></c>' +
        '<c r="I2" t="inlineStr"><is><t>Drađa</t></is></c><c r="J2" t="inlineStr"><is><t>zeljko.maric@opcina-dradja.hr</t></is></c></row>',
    );
    // A name in quotes (some 2 % of the records) too: its escaped quotes written as quotes.
    const quoted = renderSubject({ ...PLAIN, naziv_subjekta: 'Dječji vrtić "Rabra"', institucija_grad: '"' });
    expect(rowsOf(chunkOf([quoted]), 2)).toContain('<t>Dječji vrtić "Rabra"</t>');
    expect(parse).not.toHaveBeenCalled();
    xlsxRowsFromJson(chunkOf([renderSubject({ ...PLAIN, naziv_subjekta: "a_x0041_b" })]), 2);
    expect(parse).toHaveBeenCalledTimes(1);
  });

  it("number each row right when one chunk follows another, a row's number grows a digit, or a chunk starts elsewhere", () => {
    // The row's markup is kept from one row to the next with its number in it (only the digits that change written):
    // each chunk is checked against rowXml whatever the chunks before it left there.
    const plain = (id: number): string => renderSubject({ ...PLAIN, id });
    // A record that takes the parse: its row made without the kept markup, the next one's number two past the last.
    const parsed = (id: number): string => renderSubject({ ...PLAIN, id, naziv_subjekta: "a_x0041_b" });
    const starts = [-1, 2, 8, 13, 95, 999_995, 1_000_001, 3, 9_999_999, 90, 2 ** 53 - 4, 2 ** 53 + 2, 1e21 - 3, 7, -4, 0, 2];
    for (const [c, first] of starts.entries()) {
      const lines = Array.from({ length: 7 }, (_, i) => (i === c % 7 ? parsed(i + 1) : plain(i + 1)));
      const chunk = chunkOf(lines);
      expect(rowsOf(chunk, first), `from row ${first}`).toBe(expected(chunk, first));
    }
    // Chunks that follow each other, as a build's do, across 9 → 10, 99 → 100 and so on.
    let first = 2;
    for (let c = 0; c < 40; c++) {
      const chunk = chunkOf(Array.from({ length: 1 + (c % 9) }, (_, i) => plain(first + i)));
      expect(rowsOf(chunk, first), `from row ${first}`).toBe(expected(chunk, first));
      first += 1 + (c % 9);
      if (c === 20) first = 99_990;
    }
  });

  it("refuse a line that is no JSON as parsing it does", () => {
    const json = renderSubject(PLAIN);
    for (const line of notJson()) expect(() => xlsxRowsFromJson(chunkOf([json, line]), 2), line).toThrow(SyntaxError);
    expect(xlsxRowsFromJson(Buffer.alloc(0), 2).length).toBe(0);
  });
});
