/**
 * Where the suffix files are cut (site/search/suffix-cuts.ts): as many files as asked, and cuts
 * chosen by content, so that a few entries added or removed leave the other files' entries as
 * they were.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { suffixKey } from "../../../src/core/search/search-layout.ts";
import { hash52, hash52sOfSuffixes, suffixCuts } from "../../../src/site/search/suffix-cuts.ts";

/** Sorted entries as the stage writes them, some suffixes in several entries. */
const entriesOf = (suffixes: readonly string[]): string[] =>
  suffixes.flatMap((suffix, i) => Array.from({ length: 1 + (i % 3) }, (_, k) => `${suffixKey(suffix)}",${k}]`)).sort();

const files = (entries: readonly string[], cuts: readonly number[]): string[][] =>
  cuts.slice(0, -1).map((from, f) => entries.slice(from, cuts[f + 1]));

describe("suffixCuts", () => {
  it("cuts into as many files as asked, rising", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 3, maxLength: 8 }), { maxLength: 400 }),
        fc.integer({ min: 1, max: 60 }),
        (suffixes, n) => {
          const entries = entriesOf(suffixes);
          const cuts = suffixCuts(entries, n);
          expect(cuts).toHaveLength(n + 1);
          expect(cuts[0]).toBe(0);
          expect(cuts[n]).toBe(entries.length);
          for (let f = 0; f < n; f++) expect(cuts[f] as number).toBeLessThanOrEqual(cuts[f + 1] as number);
        },
      ),
    );
  });

  it("moves at most the files around an added suffix", () => {
    const words = Array.from({ length: 5000 }, (_, i) => `W${(i * 7919) % 100_003}X`);
    const before = entriesOf(words);
    const after = entriesOf([...words, "NEWSUFFIX"]);
    const [a, b] = [files(before, suffixCuts(before, 50)), files(after, suffixCuts(after, 50))];
    const changed = b.filter((file, f) => JSON.stringify(file) !== JSON.stringify(a[f]));
    // The file the new suffix falls in; two if it became a cut itself.
    expect(changed.length).toBeLessThanOrEqual(2);
    expect(changed.some((file) => file.some((entry) => entry.startsWith('["NEWSUFFIX"')))).toBe(true);
  });
});

describe("hash52sOfSuffixes", () => {
  it("is hash52 of each suffix entry of a token, four at a time and the rest one by one", () => {
    const ascii = fc.constantFrom("A", "B", "Z", "0", "9", ",", "[", "]", '"');
    fc.assert(
      fc.property(fc.array(ascii, { maxLength: 14 }), fc.string({ maxLength: 12, unit: ascii }), (units, payload) => {
        const token = units.join("");
        const whole = `["${token}",${payload}]`;
        const bytes = Buffer.from(`..${whole}`, "latin1");
        const count = Math.max(0, token.length - 2);
        const hashes = new Float64Array(count + 3).fill(-1);
        hash52sOfSuffixes(bytes, 4, count, bytes.length, hashes);
        const expected = Array.from({ length: count }, (_, i) => hash52(`["${whole.slice(2 + i)}`));
        expect([...hashes.subarray(0, count)]).toEqual(expected);
        expect([...hashes.subarray(count)]).toEqual([-1, -1, -1]);
      }),
    );
  });
});
