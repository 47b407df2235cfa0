/** searchForm by a table of code units (site/search/unit-forms.ts): the same string as searchForm's for any text. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { searchForm } from "../../../src/core/search/normalise.ts";
import { unitSearchForm } from "../../../src/site/search/unit-forms.ts";

describe("unitSearchForm", () => {
  it("is searchForm for every code unit of the table and past it, alone, beside ASCII and beside another", () => {
    for (let unit = 0; unit < 0x3000; unit++) {
      const char = String.fromCharCode(unit);
      for (const text of [char, `a${char}b`, `Č${char}`, `${char}ß`, `${char}${char}`]) expect(unitSearchForm(text)).toBe(searchForm(text));
    }
  });

  it("is searchForm for texts of any characters (names, accents, expansions, surrogate pairs, long texts)", () => {
    const chars = fc.constantFrom(
      "a",
      "Z",
      "č",
      "Ć",
      "đ",
      "Đ",
      "ǅ",
      "ß",
      "ﬁ",
      "ŉ",
      "¼",
      "\u0301",
      "é",
      "ж",
      "Ω",
      " ",
      "\ud83d\ude00",
      "\ud83d",
      "ı",
      "ſ",
    );
    const texts = fc.oneof(
      fc.array(chars, { maxLength: 12 }).map((parts) => parts.join("")),
      fc.string({ unit: "binary", maxLength: 12 }),
      fc.array(chars, { minLength: 250, maxLength: 300 }).map((parts) => parts.join("")),
    );
    fc.assert(
      fc.property(texts, (text) => {
        expect(unitSearchForm(text)).toBe(searchForm(text));
      }),
      { numRuns: 3000 },
    );
  });
});
