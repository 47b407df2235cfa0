/**
 * Sets of places as the search combines them: a union taken a set at a time (a list while small, a
 * bitmap united word by word and counted by popcount once large) is the plain union, counted and
 * paged alike, whatever the mix of stored lists and bitmaps, at the edges of the list (place 0, the
 * last place, a count that is no multiple of 8 or 32) and for bitmaps on any byte boundary.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  decodeRows,
  encodeRows,
  intersect,
  popcount,
  type RowSet,
  RowUnion,
  selectRows,
  sizeOf,
  toList,
} from "../../../src/core/search/row-sets.ts";

/** A stored set of `rows` among `count`, read back from bytes that start `shift` bytes into their buffer (a range read's bitmap rarely starts on a 4-byte boundary). */
function stored(rows: readonly number[], count: number, shift = 0): RowSet {
  const bytes = encodeRows(rows, count);
  const buffer = new Uint8Array(bytes.length + shift);
  buffer.set(bytes, shift);
  return decodeRows(buffer.subarray(shift));
}

const plainUnion = (parts: readonly (readonly number[])[]): number[] => [...new Set(parts.flat())].sort((a, b) => a - b);

describe("popcount", () => {
  it.each([
    [0, 0],
    [1, 1],
    [0x80000000, 1],
    [0xffffffff, 32],
    [0x55555555, 16],
    [0xf0f0f0f1, 17],
  ])("%i has %i bits set", (word, bits) => {
    expect(popcount(word)).toBe(bits);
  });
});

describe("RowUnion", () => {
  it("is empty with nothing added", () => {
    expect(toList(new RowUnion(100).result())).toEqual(new Uint32Array(0));
  });

  it("hands back the one set added as it is", () => {
    const set = stored([1, 5, 9], 100);
    const union = new RowUnion(100);
    union.add(set);
    expect(union.result()).toBe(set);
  });

  it.each([
    ["place 0 alone", 1, [[0]], []],
    ["the first and last of a byte", 8, [[0, 7]], [3]],
    ["across a word's end, a count past a multiple of 32", 33, [[0, 32], [32]], [31]],
    ["a bitmap and rare places at both ends", 1001, [Array.from({ length: 300 }, (_, i) => i * 3)], [1000, 0, 999]],
    ["a bitmap, a list, the last place", 4099, [Array.from({ length: 4099 }, (_, i) => i).filter((i) => i % 5 === 0), [4098]], [4097, 2]],
    ["every place, count a multiple of 32", 64, [Array.from({ length: 64 }, (_, i) => i), [63]], []],
  ])("%s (%i subjects)", (_, count, sets, places) => {
    for (const shift of [0, 1, 2, 3]) {
      const union = new RowUnion(count);
      for (const rows of sets) union.add(stored(rows, count, shift));
      union.addPlaces(places);
      const result = union.result();
      const expected = plainUnion([...sets, places]);
      expect(sizeOf(result)).toBe(expected.length);
      expect([...toList(result)]).toEqual(expected);
    }
  });

  it("counts, lists and pages any union as the plain union does", () => {
    const count = fc.integer({ min: 1, max: 700 });
    fc.assert(
      fc.property(
        count.chain((n) =>
          fc.record({
            count: fc.constant(n),
            parts: fc.array(
              fc.record({
                rows: fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { maxLength: n }).map((r) => r.sort((a, b) => a - b)),
                loose: fc.boolean(),
                shift: fc.integer({ min: 0, max: 3 }),
              }),
              { maxLength: 6 },
            ),
            from: fc.integer({ min: 0, max: n }),
            limit: fc.integer({ min: 0, max: 50 }),
          }),
        ),
        ({ count, parts, from, limit }) => {
          const union = new RowUnion(count);
          for (const { rows, loose, shift } of parts) {
            // Loose places come in any order and may repeat, as rare tokens' places do.
            if (loose) union.addPlaces([...rows].reverse().concat(rows.slice(0, 2)));
            else union.add(stored(rows, count, shift));
          }
          const result = union.result();
          const expected = plainUnion(parts.map((p) => p.rows));
          expect(sizeOf(result)).toBe(expected.length);
          expect([...toList(result)]).toEqual(expected);
          expect(selectRows(result, from, limit)).toEqual(expected.slice(from, from + limit));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("intersect", () => {
  it("is the plain intersection of any two stored sets, lists or bitmaps on any byte boundary", () => {
    const count = fc.integer({ min: 1, max: 700 });
    const part = (n: number) =>
      fc.record({
        // Dense enough now and then to be stored as a bitmap (past count / 8 places).
        rows: fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { maxLength: n }).map((r) => r.sort((a, b) => a - b)),
        shift: fc.integer({ min: 0, max: 3 }),
      });
    fc.assert(
      fc.property(
        count.chain((n) => fc.record({ count: fc.constant(n), a: part(n), b: part(n) })),
        ({ count, a, b }) => {
          const result = intersect(stored(a.rows, count, a.shift), stored(b.rows, count, b.shift));
          const expected = a.rows.filter((row) => b.rows.includes(row));
          expect(sizeOf(result)).toBe(expected.length);
          expect([...toList(result)]).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
