/** The table of whole numbers by whole numbers (common/int-table.ts): a Map's answers, across its growths and a clear. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IntTable } from "../../src/common/int-table.ts";

describe("IntTable", () => {
  it("answers what a Map answers, keys alike in their low bits or far apart, grown past its first slots", () => {
    const keys = fc.oneof(
      fc.nat({ max: 50 }),
      fc.nat({ max: 2 ** 24 }).map((k) => k << 6),
      fc.nat({ max: 2 ** 31 - 2 }),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(keys, fc.nat({ max: 2 ** 31 - 1 })), { maxLength: 3000, size: "max" }), (pairs) => {
        const table = new IntTable();
        const model = new Map<number, number>();
        for (const [key, value] of pairs) {
          expect(table.get(key)).toBe(model.get(key) ?? -1);
          if (!model.has(key)) {
            table.set(key, value);
            model.set(key, value);
          }
        }
        for (const [key] of pairs) expect(table.get(key)).toBe(model.get(key));
        table.clear();
        for (const [key] of pairs) expect(table.get(key)).toBe(-1);
      }),
      { numRuns: 50 },
    );
  });
});
