/**
 * The order of a field patched after an edit (src/site/search/patch-orders.ts) equals the order
 * made whole from the values now: the places ascending under the whole stage's comparison (then
 * the place), each place's rank, and for the dates the distinct values and where each begins.
 * Edits of every kind a window meets: a place moved far or not at all, at the first and last
 * position, a value made its neighbour's (two groups one), a group's only place moved away (a rank
 * gone), a value no other place holds (a rank more), several places at once. The previous arrays
 * are read from files as the patch reads them (readU32s).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compareOrderValues } from "../../../src/core/search/match-record.ts";
import { mulberry32 } from "../../../src/common/seeded-random.ts";
import { NoPatch } from "../../../src/site/search/no-patch.ts";
import { patchOrder, readU32s } from "../../../src/site/search/patch-orders.ts";

/** The whole order of `values` (a place's value by index): ascending places, ranks, distinct values and their starts. */
function wholeOrder(values: readonly string[]): { asc: number[]; ranks: number[]; keys: string[]; starts: number[] } {
  const asc = values.map((_, place) => place).sort((a, b) => compareOrderValues(values[a] as string, values[b] as string) || a - b);
  const ranks = new Array<number>(values.length);
  const keys: string[] = [];
  const starts: number[] = [];
  asc.forEach((place, i) => {
    if (i === 0 || values[place] !== values[asc[i - 1] as number]) {
      keys.push(values[place] as string);
      starts.push(i);
    }
    ranks[place] = keys.length - 1;
  });
  starts.push(values.length);
  return { asc, ranks, keys, starts };
}

const dir = mkdtempSync(join(tmpdir(), "patch-orders-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `numbers` as a file of little-endian u32s, read back as the patch reads the previous files. */
function throughFile(name: string, numbers: readonly number[]): Uint32Array {
  const bytes = Buffer.alloc(4 * numbers.length);
  numbers.forEach((n, i) => bytes.writeUInt32LE(n, 4 * i));
  writeFileSync(join(dir, name), bytes);
  return readU32s(join(dir, name));
}

/** Patches the order of `before` to the values `after` (the same but at `changed`), and expects the whole order of `after`. */
function expectPatched(before: readonly string[], after: readonly string[], changed: readonly number[], dates: boolean): void {
  const old = wholeOrder(before);
  const now = wholeOrder(after);
  const patched = patchOrder(
    dates ? "datum_postanka" : "naziv_subjekta",
    throughFile("asc", old.asc),
    throughFile("rank", old.ranks),
    changed,
    (place) => after[place] as string,
    (place) => before[place] as string,
    dates ? old.keys : undefined,
  );
  expect([...patched.asc]).toEqual(now.asc);
  expect([...patched.ranks]).toEqual(now.ranks);
  if (dates)
    expect({ keys: patched.dates?.keys, starts: [...(patched.dates?.starts ?? [])] }).toEqual({ keys: now.keys, starts: now.starts });
  // Outside the window every position holds the place it held.
  for (let i = 0; i < after.length; i++) if (i < patched.from || i >= patched.to) expect(patched.asc[i]).toBe(old.asc[i]);
}

describe("an order patched after an edit", () => {
  const values = ["Bor", "Anka", "Cvijet", "Anka", "Dub", "Anka", "Brijest", "Cvijet", "Ela", "Dub"];
  const byName = wholeOrder(values).asc;
  const edits: [string, number[], (v: string[]) => void][] = [
    ["a name moved from the first position to the last", [byName[0] as number], (v) => (v[byName[0] as number] = "Zora")],
    ["a name moved from the last position to the first", [byName[9] as number], (v) => (v[byName[9] as number] = "Aaa")],
    ["a name changed in place (no position moves)", [6], (v) => (v[6] = "Brijestovo")],
    ["a group's only place moved away (a rank gone, those after one less)", [6], (v) => (v[6] = "Anka")],
    ["a value no other place holds (a rank more, those after one more)", [3], (v) => (v[3] = "Bukva")],
    ["a value made its neighbour's (two groups one)", [6], (v) => (v[6] = "Bor")],
    ["a place leaving a group of three", [3], (v) => (v[3] = "Dub")],
    [
      "several places at once, crossing",
      [1, 4, 8],
      (v) => {
        v[1] = "Ela";
        v[4] = "Anka";
        v[8] = "Aaa";
      },
    ],
  ];
  for (const [name, changed, edit] of edits) {
    it(`equals the whole order: ${name}`, () => {
      const after = [...values];
      edit(after);
      expectPatched(values, after, changed, false);
      expectPatched(values, after, changed, true);
    });
  }

  it("equals the whole order for random edits of a field of few values (ties) and of many", () => {
    const random = mulberry32(7);
    for (const distinct of [3, 12, 400]) {
      for (let round = 0; round < 60; round++) {
        const n = 1 + Math.floor(random() * 300);
        const value = (): string => `v${Math.floor(random() * distinct)}`;
        const before = Array.from({ length: n }, value);
        const after = [...before];
        const changed = [...new Set(Array.from({ length: 1 + Math.floor(random() * 4) }, () => Math.floor(random() * n)))];
        for (const place of changed) after[place] = value();
        expectPatched(before, after, changed, round % 2 === 0);
      }
    }
  });
});

it("gives the patch up where the previous order does not hold a changed place where its value puts it", () => {
  const before = ["b", "a", "c"];
  // An order damaged: b's place and c's swapped.
  const damaged = throughFile("damaged-asc", [1, 2, 0]);
  const ranks = throughFile("damaged-rank", [1, 0, 2]);
  expect(() =>
    patchOrder(
      "naziv_subjekta",
      damaged,
      ranks,
      [0],
      () => "d",
      (place) => before[place] as string,
    ),
  ).toThrow(NoPatch);
});
