/**
 * The sort of a group of suffix entries (site/search/suffix-files.ts): split by code unit into
 * parts of a few entries at most (by construction: parts of one, two or three), it is one sort of
 * the whole group, narrow and wide texts alike, with entries that end where others go on.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bufferOf, SpillBytes } from "../../../src/site/search/spill-bytes.ts";
import { sortedEntries } from "../../../src/site/search/suffix-files.ts";

let spill = "";
beforeEach(() => {
  spill = mkdtempSync(join(tmpdir(), "suffix-files-"));
});
afterEach(() => rmSync(spill, { recursive: true, force: true }));

/** The entries as SpillBytes.text writes them, one after another. */
function written(entries: readonly string[]): Buffer {
  const bytes = new SpillBytes(join(spill, "group"), 1 << 20);
  for (const entry of entries) bytes.text(entry);
  return bufferOf(bytes.take());
}

/** The entries of `entries` sorted by sortedEntries, read back from where it says they begin. */
function sorted(entries: readonly string[], atOnce: number, depth?: number): string[] {
  const buffer = written(entries);
  const texts = new Map<number, string>();
  let at = 0;
  for (const entry of entries) {
    texts.set(at, entry);
    const size = (/^[\u0000-\u00ff]*$/.test(entry) ? 1 : 2) * entry.length;
    at += varintSize(4 * size + 1) + size;
  }
  return [...sortedEntries(buffer, atOnce, depth)].map((start) => texts.get(start) as string);
}

function varintSize(value: number): number {
  let size = 1;
  for (let v = value; v >= 0x80; v = Math.floor(v / 0x80)) size++;
  return size;
}

// Narrow units, one past 255 (a wide text) and one past the Basic Multilingual Plane.
const unit = fc.constantFrom("a", "b", "Z", '"', "\u00ff", "\u0161", "😀");
const entry = fc.array(unit, { maxLength: 5 }).map((units) => units.join(""));

describe("sortedEntries", () => {
  it("is one sort of the whole group, whatever the part's size", () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 40 }), fc.integer({ min: 1, max: 3 }), (entries, atOnce) => {
        expect(sorted(entries, atOnce, 0)).toEqual([...entries].sort());
      }),
    );
  });

  it("splits past the shared prefix, equal and ended entries first", () => {
    const entries = ['["ab', '["ab"', '["ab', '["ab"x', '["ab"\u0161', '["ab"a', '["ab"a'];
    expect(sorted(entries, 1)).toEqual([...entries].sort());
    expect(sorted([], 1)).toEqual([]);
  });
});
