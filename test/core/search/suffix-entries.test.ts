/**
 * A suffix file scanned for a term's entries gives what `JSON.parse` of the file, its entries kept
 * where the suffix starts with the term, gives: each rare token's places (and positions, asked
 * for), each stored set's numbers, in file order, whatever the suffixes hold (quotes, backslashes,
 * control characters, letters past ASCII) and wherever the term's entries lie in the file.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { suffixKey } from "../../../src/core/search/search-layout.ts";
import { scanSuffixes } from "../../../src/core/search/suffix-entries.ts";

type Entry = [string, number[], number[]] | [string, number, number, number, ...number[]];

/** What a scan hands on, as plain values. */
function scanned(json: string, term: string, positions: boolean): unknown[] {
  const out: unknown[] = [];
  scanSuffixes(json, suffixKey(term), positions, {
    inline: (places, ps) => out.push(["inline", [...places], ps === null ? null : [...ps]]),
    stored: (...numbers) => out.push(["stored", ...numbers]),
  });
  return out;
}

/** The same from the parsed file. */
function parsed(json: string, term: string, positions: boolean): unknown[] {
  return (JSON.parse(json) as Entry[])
    .filter(([suffix]) => suffix.startsWith(term))
    .map(([, first, second, ...rest]) =>
      Array.isArray(first)
        ? ["inline", first, positions ? second : null]
        : rest.length === 1
          ? ["stored", first, second, rest[0], -1, 0, 0]
          : ["stored", first, second, ...rest],
    );
}

const file = (entries: readonly Entry[]): string =>
  JSON.stringify([...entries].sort((a, b) => (suffixKey(a[0]) < suffixKey(b[0]) ? -1 : 1)));

describe("scanSuffixes", () => {
  it("reads what the build writes", () => {
    const json = file([
      ["SLAVA", [3, 19], [40, 2]],
      ["SLAB", 12, 0, 37, 0, 40, 8],
      ["SLAVONSKI", 7, 300, 125001, 1, 125304, 125001],
      ["SLAVONSKI", 9, 20, 5],
      ["SKLA", [1], [0]],
      ["SLB", [4, 5, 6, 7, 8, 9, 10, 11, 12], [0, 1, 2, 3, 4, 5, 6, 7, 8]],
      ['S"LA\\', [2], [9]],
    ]);
    for (const term of ["SLA", "SLAV", "S", "SKLA", "SL", 'S"', 'S"LA\\', "ZZZ"])
      for (const positions of [true, false]) expect(scanned(json, term, positions)).toEqual(parsed(json, term, positions));
  });

  it("reads an empty file", () => {
    expect(scanned("[]", "ABC", true)).toEqual([]);
  });

  it("finds every entry JSON.parse finds, in its order, for any suffixes", () => {
    const text = fc.string({ unit: fc.constantFrom("A", "B", "Š", '"', "\\", "\n", "\u0001", "😀", " "), minLength: 1, maxLength: 6 });
    const numbers = (min: number, max: number) => fc.array(fc.nat({ max: 2_000_000 }), { minLength: min, maxLength: max });
    const entry: fc.Arbitrary<Entry> = fc.oneof(
      fc.tuple(text, numbers(1, 9), numbers(1, 9)).map(([s, places, positions]): Entry => [s, places, positions]),
      fc.tuple(text, numbers(3, 3)).map(([s, n]): Entry => [s, n[0] ?? 0, n[1] ?? 0, n[2] ?? 0]),
      fc.tuple(text, numbers(6, 6)).map(([s, n]): Entry => [s, ...(n as [number, number, number, number, number, number])]),
    );
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 30 }), text, fc.boolean(), (entries, term, positions) => {
        const json = file(entries);
        expect(scanned(json, term, positions)).toEqual(parsed(json, term, positions));
        // A term that is the start of some entry's suffix, too (whole characters: a term from a URL holds no lone surrogate).
        const some = entries[0] === undefined ? term : [...entries[0][0]].slice(0, 2).join("");
        expect(scanned(json, some, positions)).toEqual(parsed(json, some, positions));
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    ["not a list", "{}"],
    ["a cut file", '[["ABC",[1],[2]'],
    ["a stored set of four numbers", '[["ABC",1,2,3,4]]'],
    ["a number that is not one", '[["ABC",[1x],[2]]]'],
    ["whitespace the build never writes", '[["ABC", [1],[2]]]'],
    ["something after the list", '[["ABC",[1],[2]]]x'],
  ])("refuses %s (a SyntaxError, as JSON.parse would throw)", (_, json) => {
    expect(() => scanned(json, "ABC", true)).toThrow(SyntaxError);
  });
});
