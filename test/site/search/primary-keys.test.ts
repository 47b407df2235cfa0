/**
 * The primary keys (site/search/primary-keys.ts): wherever two texts both have a key and the keys
 * differ, the keys' order as plain text is compareText's (the order files' collation), which the
 * external sort's merge (sorted-runs.ts) takes in its place; texts the table cannot key have none.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareText } from "../../../src/core/search/match-record.ts";
import { primaryKey } from "../../../src/site/search/primary-keys.ts";

/** Whether the keys of `a` and `b`, where both have one and they differ, order them as compareText does. */
function keysAgree(a: string, b: string): boolean {
  const x = primaryKey(a);
  const y = primaryKey(b);
  if (x === undefined || y === undefined || x === y) return true;
  return x < y === compareText(a, b) < 0;
}

/** Every character of the table's ranges, and a few beyond them. */
const CHARS: string[] = [];
for (const [first, last] of [
  [0x20, 0x7e],
  [0xa0, 0x17f],
  [0x2010, 0x2027],
] as const)
  for (let code = first; code <= last; code++) CHARS.push(String.fromCharCode(code));

/** Pieces whose order is not a character's at a time: Croatian's letters of two, expansions, ignorables, combining marks. */
const PIECES = [
  ...["d", "D", "l", "L", "n", "N", "j", "J", "z", "Z", "ž", "Ž", "dž", "Dž", "DŽ", "dŽ", "lj", "Lj", "LJ", "lJ", "nj", "Nj", "NJ", "nJ"],
  ...[
    "ǆ",
    "ǅ",
    "ǉ",
    "ǌ",
    "ß",
    "ss",
    "s",
    "æ",
    "ae",
    "œ",
    "ĳ",
    "ij",
    "ŀ",
    "ŉ",
    "þ",
    "ø",
    "ł",
    "đ",
    "Đ",
    "č",
    "ć",
    "š",
    "a",
    "á",
    "a\u0301",
    "z\u030c",
  ],
  ...["\u00ad", "\u0001", " ", "\u00a0", "-", "\u2013", ".", "0", "9", "'", "\u2019", "Ω", "\ud83d\ude00", "\ud800"],
];

describe("primaryKey", () => {
  it("orders every two characters of its table as the collation does, where their keys differ", () => {
    for (const a of CHARS) for (const b of CHARS) if (!keysAgree(a, b)) expect([a, b]).toEqual("keys in the collation's order");
  });

  it("orders texts of Croatian's letters of two, expansions and characters it does not key as the collation does", () => {
    const text = fc.array(fc.constantFrom(...PIECES, ...CHARS.slice(0, 95)), { maxLength: 6 }).map((parts) => parts.join(""));
    fc.assert(
      fc.property(text, text, (a, b) => keysAgree(a, b)),
      { numRuns: 20_000 },
    );
  });

  it("keys the letters of two as one letter after their first, and leaves out what it cannot order", () => {
    // "lj" is a letter after "l": after "lz", where a key a character at a time would put it before.
    expect(primaryKey("lj")! > primaryKey("lz")!).toBe(true);
    expect(primaryKey("nj")! > primaryKey("nz")!).toBe(true);
    expect(primaryKey("dž")! > primaryKey("dz")!).toBe(true);
    expect(primaryKey("Ljubljana")).toBe(primaryKey("LJUBLJANA"));
    expect(primaryKey("Ljubljana")?.length).toBe(7);
    // Case and accents are below the primary level: one key, the collation decides.
    expect(primaryKey("Čakovec")).toBe(primaryKey("čakovec"));
    expect(primaryKey("e")).toBe(primaryKey("é"));
    // No key: an expansion sharing another letter's weight, an ignorable character, a character outside the table.
    for (const text of ["Straße", "a\u00adb", "a\u0301", "Ωmega", "\ud800", "\u0001"]) expect(primaryKey(text)).toBeUndefined();
    expect(primaryKey("")).toBe("");
  });
});
