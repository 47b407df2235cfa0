/** The radix sort of whole numbers (common/radix-sort.ts): Uint32Array.prototype.sort's order, at every size and width. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RadixSort } from "../../src/common/radix-sort.ts";

describe("RadixSort", () => {
  it("sorts as Uint32Array.prototype.sort does, one sorter used again at every length and width", () => {
    const sorter = new RadixSort();
    // Every width from 1 bit to 32 (one pass of 11 bits, two, three), below and above the few sorted by comparison.
    const arrays = fc
      .integer({ min: 1, max: 32 })
      .chain((bits) => fc.array(fc.nat({ max: 2 ** bits - 1 }), { maxLength: 3000, size: "max" }));
    fc.assert(
      fc.property(arrays, (numbers) => {
        const array = Uint32Array.from(numbers);
        expect(sorter.sort(array)).toBe(array);
        expect([...array]).toEqual([...Uint32Array.from(numbers).sort()]);
      }),
      { numRuns: 200 },
    );
  });
});
