/** Texts numbered as first met (common/text-numbers.ts): the numbers a Map gives them, at every size. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TextNumbers } from "../../src/common/text-numbers.ts";

describe("TextNumbers", () => {
  it("numbers each text as a Map numbering them in order of first sight would, past its expected size", () => {
    // Few characters: texts repeat and share beginnings; pairs of the same FNV-1a hash; up to thousands, past the table's first room.
    const text = fc.oneof(
      fc.string({ unit: fc.constantFrom("a", "b", "č", "\ud83d\ude00", " "), maxLength: 6 }),
      fc.constantFrom("costarring", "liquid", "declinate", "macallums", "altarage", "zinke"),
    );
    fc.assert(
      fc.property(fc.array(text, { maxLength: 3000, size: "max" }), fc.nat({ max: 64 }), (texts, expected) => {
        const numbers = new TextNumbers(expected);
        const model = new Map<string, number>();
        for (const t of texts) {
          if (!model.has(t)) model.set(t, model.size);
          expect(numbers.numberOf(t)).toBe(model.get(t));
        }
        expect(numbers.texts).toEqual([...model.keys()]);
      }),
      { numRuns: 100 },
    );
  });
});
