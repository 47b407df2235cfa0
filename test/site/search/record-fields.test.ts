/**
 * The fields of a rendered record read from its bytes (site/search/record-fields.ts): what
 * JSON.parse reads, for names with quotes, backslashes, escapes, line separators and characters
 * past the Basic Multilingual Plane, and for a record that is not laid out as the build writes it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { renderSubject, type Subject } from "../../../src/core/render-page.ts";
import { readRecordFields, type RecordFields } from "../../../src/site/search/record-fields.ts";

const subject = (name: string, town: string, over: Partial<Subject> = {}): Subject => ({
  id: 7,
  jedinstvena_oznaka: "0007",
  naziv_subjekta: name,
  oib: "12345678901",
  razina: "lokalna",
  datum_postanka: "1990-01-02",
  status_subjekta: true,
  odobreno: false,
  institucija_grad: town,
  institucija_email: "a@b.hr",
  ...over,
});

/** The fields read from `line` amid other records, and JSON.parse's. */
function both(line: string): [RecordFields, RecordFields] {
  const bytes = Buffer.from(`{"id":1}\n${line}\n{"id":2}`);
  const start = bytes.indexOf(0x0a) + 1;
  const end = bytes.indexOf(0x0a, start);
  const read: RecordFields = { code: "", name: "", razina: "", date: "", status: false, odobreno: false, town: "" };
  readRecordFields(bytes, start, end, read);
  const r = JSON.parse(line) as Subject;
  const parsed = {
    code: r.jedinstvena_oznaka,
    name: r.naziv_subjekta,
    razina: r.razina,
    date: r.datum_postanka,
    status: r.status_subjekta,
    odobreno: r.odobreno,
    town: r.institucija_grad,
  };
  return [read, parsed];
}

describe("readRecordFields", () => {
  it.each([
    ["plain", "Osnovna škola Noje", "Bakra"],
    // Each string decoded by the decoder its bytes call for: one byte a unit when all are ASCII, UTF-8 else.
    ["ASCII only", "Osnovna skola Noje", "Bakar"],
    ["Croatian letters", "Čakovečki Ćiro Đuro Šime Žaba čćđšž", "Đakovo"],
    ["a town longer than a recent text's slot", "Dom zdravlja", `Općina ${"Ž".repeat(40)} i ${"z".repeat(30)}`],
    ["an ASCII town longer than a recent text's slot", "Žalac 😀", "Z".repeat(80)],
    ["quotes", 'Udruga "Sloga"', 'Grad "X"'],
    ["backslashes", "A\\B \\\\ C\\", "\\"],
    ["a quote after a backslash", 'Kraj \\"', '\\"'],
    ["control characters", "Tab\there\nnew\u0000line", "\u001f"],
    ["line separators", "Prvi\u2028drugi\u2029", "\u2028"],
    ["past the BMP", "Emoji 😀 𝔸𝔹ℂ", "𝒢rad"],
    ["a lone surrogate", "Pola \ud83d", "\ude00"],
    ["empty", "", ""],
  ])("reads %s as JSON.parse does", (_, name, town) => {
    const [read, parsed] = both(renderSubject(subject(name, town)));
    expect(read).toEqual(parsed);
  });

  it("reads any name and town as JSON.parse does", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary" }),
        fc.string({ unit: "binary" }),
        fc.boolean(),
        fc.boolean(),
        (name, town, status, odobreno) => {
          const [read, parsed] = both(renderSubject(subject(name, town, { status_subjekta: status, odobreno })));
          expect(read).toEqual(parsed);
        },
      ),
    );
  });

  it("reads towns, dates and razinas that repeat, and others of the same length, as JSON.parse does", () => {
    // Texts kept from record to record: each read must be its own record's, also when a slot held another of its length.
    const ascii = fc.stringMatching(/^[A-Za-z]{0,3}$/);
    fc.assert(
      fc.property(fc.array(fc.tuple(ascii, ascii, fc.constantFrom("1990-01-02", "1990-01-03", "ÄÖ")), { maxLength: 40 }), (records) => {
        for (const [town, razina, date] of records) {
          const [read, parsed] = both(renderSubject(subject("Ime", town, { razina: razina as Subject["razina"], datum_postanka: date })));
          expect(read).toEqual(parsed);
        }
      }),
    );
  });

  it("reads towns past ASCII that repeat, among many others of as many bytes, as JSON.parse does", () => {
    // 625 towns of four two-byte letters (eight bytes each), read twice in two orders: kept by
    // their bytes in slots, towns of one slot and length follow each other, and each read must be
    // its own record's. And a town too long for a slot, twice.
    const letters = ["Č", "Ć", "Ž", "Š", "Đ"];
    const towns = letters.flatMap((a) => letters.flatMap((b) => letters.flatMap((c) => letters.map((d) => `${a}${b}${c}${d}`))));
    const long = `Grad ${"Đ".repeat(40)}`;
    for (const town of [...towns, long, ...towns.reverse(), long]) {
      const [read, parsed] = both(renderSubject(subject("Ime", town)));
      expect(read).toEqual(parsed);
    }
  });

  it("reads a record laid out otherwise by JSON.parse", () => {
    const line = JSON.stringify({
      odobreno: true,
      naziv_subjekta: 'Drugi "red"',
      id: 3,
      jedinstvena_oznaka: "9",
      razina: "r",
      datum_postanka: "d",
      status_subjekta: false,
      institucija_grad: "T",
    });
    const [read, parsed] = both(line);
    expect(read).toEqual(parsed);
    expect(read.name).toBe('Drugi "red"');
  });
});
