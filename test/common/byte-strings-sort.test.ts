/** The multikey quicksort of byte strings (common/byte-strings-sort.ts): the order of the same bytes as latin1 strings sorted by Array.prototype.sort, equal strings by index. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sortByteStrings } from "../../src/common/byte-strings-sort.ts";

/** The strings' bytes one after another and where each begins (and the end). */
function pooled(strings: readonly number[][]): { bytes: Uint8Array; starts: Uint32Array } {
  const starts = new Uint32Array(strings.length + 1);
  strings.forEach((s, i) => (starts[i + 1] = (starts[i] as number) + s.length));
  return { bytes: Uint8Array.from(strings.flat()), starts };
}

/** The built-in's order: each string as latin1 text, then its index. */
function expected(strings: readonly number[][]): number[] {
  const texts = strings.map((s) => String.fromCharCode(...s));
  return strings.map((_, i) => i).sort((a, b) => (texts[a] === texts[b] ? a - b : (texts[a] as string) < (texts[b] as string) ? -1 : 1));
}

/** A 1 at each position of `order` whose string is the same as the next position's. */
function tiesOf(strings: readonly number[][], order: readonly number[]): number[] {
  const text = (i: number): string => String(strings[order[i] as number]);
  return order.map((_, i) =>
    i + 1 < order.length && strings[order[i] as number]?.length === strings[order[i + 1] as number]?.length && text(i) === text(i + 1)
      ? 1
      : 0,
  );
}

describe("sortByteStrings", () => {
  it("orders as the strings' texts sort, a beginning first, equal strings by index, at every size", () => {
    // Few byte values and long shared beginnings: many ties, prefixes and equal strings; sizes past the insertion sort's.
    const byte = fc.oneof(fc.constantFrom(0, 1, 2, 255), fc.nat({ max: 255 }));
    const string = fc.oneof(
      fc.array(byte, { maxLength: 6 }),
      fc.array(byte, { maxLength: 4 }).map((tail) => [79, 83, 78, 79, 86, 78, 65, 32, ...tail]),
    );
    fc.assert(
      fc.property(fc.array(string, { maxLength: 400, size: "max" }), (strings) => {
        const { bytes, starts } = pooled(strings);
        const tied = new Uint8Array(strings.length);
        const order = [...sortByteStrings(bytes, starts, tied)];
        expect(order).toEqual(expected(strings));
        expect([...tied]).toEqual(tiesOf(strings, order));
      }),
      { numRuns: 300 },
    );
  });

  it("sorts thousands of equal and nearly equal strings", () => {
    // Lengths of 1 to 8 about a character of three bytes: strings that end inside one, at its end, or past it.
    const strings = Array.from({ length: 5000 }, (_, i) =>
      [5, 5, 5, 5, 5, 5, 5, 5].slice(0, 1 + (i % 8)).concat(i % 3 === 0 ? [] : [i % 7]),
    );
    const { bytes, starts } = pooled(strings);
    const tied = new Uint8Array(strings.length);
    const order = [...sortByteStrings(bytes, starts, tied)];
    expect(order).toEqual(expected(strings));
    expect([...tied]).toEqual(tiesOf(strings, order));
  });
});
