/** Values by text found by a text's place in a longer one (common/text-table.ts): what a Map of the sliced texts answers. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TextTable, textHash } from "../../src/common/text-table.ts";

describe("TextTable", () => {
  it("finds a text's value by its place in a longer text, as a Map finds the slice, past its first room", () => {
    // Few characters: texts repeat and share beginnings; pairs of the same FNV-1a hash; thousands of texts.
    const text = fc.oneof(
      fc.string({ unit: fc.constantFrom("a", "b", "č", "\ud83d\ude00", " "), maxLength: 6 }),
      fc.constantFrom("costarring", "liquid", "declinate", "macallums", "altarage", "zinke"),
    );
    const op = fc.tuple(text, fc.constantFrom("", "x", "žž"), fc.constantFrom("", "y"));
    fc.assert(
      fc.property(fc.array(op, { maxLength: 3000, size: "max" }), (ops) => {
        const table = new TextTable<number>();
        const model = new Map<string, number>();
        for (const [t, before, after] of ops) {
          const around = `${before}${t}${after}`;
          const from = before.length;
          const to = from + t.length;
          const hash = textHash(around, from, to);
          expect(hash).toBe(textHash(t, 0, t.length));
          const entry = table.find(around, from, to, hash);
          if (!model.has(t)) {
            expect(entry).toBe(-1);
            model.set(t, model.size);
            table.set(t, hash, model.size - 1);
          } else {
            expect(table.textOf(entry)).toBe(t);
            expect(table.valueOf(entry)).toBe(model.get(t));
          }
        }
      }),
      // A failure is reported as found: shrinking thousands of operations took minutes.
      { numRuns: 100, endOnFailure: true },
    );
  });

  it("holds nothing of its texts once cleared, its arrays kept for the next texts", () => {
    const table = new TextTable<number>(2);
    const words = ["alpha", "beta", "gamma", "delta", "epsilon"];
    words.forEach((word, i) => table.set(word, textHash(word, 0, word.length), i));
    table.clear();
    expect(table.size).toBe(0);
    for (const word of words) expect(table.find(word, 0, word.length, textHash(word, 0, word.length))).toBe(-1);
    // Fewer texts than before: each numbered from 0 again, with its own value.
    expect(table.set("beta", textHash("beta", 0, 4), 10)).toBe(0);
    expect(table.set("zeta", textHash("zeta", 0, 4), 11)).toBe(1);
    expect(table.size).toBe(2);
    expect(table.texts.slice(0, table.size)).toEqual(["beta", "zeta"]);
    expect(table.valueOf(table.find("zeta", 0, 4, textHash("zeta", 0, 4)))).toBe(11);
    expect(table.find("alpha", 0, 5, textHash("alpha", 0, 5))).toBe(-1);
  });
});
