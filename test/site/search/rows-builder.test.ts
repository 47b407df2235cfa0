/**
 * The whole stage's sets written where they go in a bucket's values (writeRows into a buffer used
 * again, whatever the bucket before left there) are encodeRows's bytes, which are the stored form
 * core/search/row-sets.ts reads; and a bucket's values keep every set laid before as they grow.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeRows as storedRows } from "../../../src/core/search/row-sets.ts";
import { BucketValues } from "../../../src/site/search/key-shards.ts";
import { encodeRows, rowsLength, writeRows } from "../../../src/site/search/rows-builder.ts";

/** Distinct rising places among `count`, and the count. */
const placesOfCount = fc
  .integer({ min: 1, max: 400 })
  .chain((count) => fc.tuple(fc.uniqueArray(fc.integer({ min: 0, max: count - 1 }), { maxLength: count }), fc.constant(count)));

describe("writeRows", () => {
  it("writes encodeRows's bytes (the stored form) over whatever the buffer held, and nothing past them", () => {
    fc.assert(
      fc.property(placesOfCount, fc.integer({ min: 0, max: 9 }), ([unsorted, count], at) => {
        const places = [...unsorted].sort((a, b) => a - b);
        const bytes = encodeRows(places, 0, places.length, count);
        expect(bytes).toEqual(storedRows(places, count));
        const length = rowsLength(places, 0, places.length, count);
        expect(length).toBe(bytes.length);
        const out = new Uint8Array(at + length + 3).fill(0xff);
        writeRows(out, at, places, 0, places.length, count);
        expect(out.subarray(at, at + length)).toEqual(bytes);
        expect([...out.subarray(0, at), ...out.subarray(at + length)].every((b) => b === 0xff)).toBe(true);
      }),
    );
  });
});

describe("BucketValues", () => {
  it("keeps the sets laid before as it grows, and starts again empty", () => {
    const values = new BucketValues();
    const sets = Array.from({ length: 40 }, (_, i) => new Uint8Array(3000 + i).fill(i + 1));
    const offsets = sets.map((set, i) => (i % 2 === 0 ? values.append(set) : values.room(set.length)));
    sets.forEach((set, i) => {
      if (i % 2 === 1) values.bytes.set(set, offsets[i]);
    });
    expect(values.length).toBe(sets.reduce((sum, set) => sum + set.length, 0));
    sets.forEach((set, i) => expect(values.bytes.subarray(offsets[i], (offsets[i] as number) + set.length)).toEqual(set));
    values.reset();
    expect(values.append(new Uint8Array([7]))).toBe(0);
    expect(values.length).toBe(1);
  });
});
