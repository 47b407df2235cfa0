/**
 * The sort of a group of suffix entries (site/search/suffix-files.ts): split by code unit into
 * parts of a few entries at most (by construction: parts of one, two or three), it is one sort of
 * the whole group, narrow and wide texts alike, with entries that end where others go on.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bufferOf, SpillBytes, SpillFile } from "../../../src/site/search/spill-bytes.ts";
import { suffixCuts } from "../../../src/site/search/suffix-cuts.ts";
import { GroupSort, SuffixEntries } from "../../../src/site/search/suffix-files.ts";

let spill = "";
beforeEach(() => {
  spill = mkdtempSync(join(tmpdir(), "suffix-files-"));
});
afterEach(() => rmSync(spill, { recursive: true, force: true }));

/** The entries as SpillBytes.text writes them, one after another, each followed by its flags (a byte, none set). */
function written(entries: readonly string[]): Buffer {
  const bytes = new SpillBytes(new SpillFile(join(spill, "group")), 1 << 20);
  for (const entry of entries) {
    bytes.text(entry);
    bytes.varint(0);
  }
  return bufferOf(bytes.take());
}

/**
 * The entries of `entries` sorted by GroupSort, read back from where its `texts` say each text
 * begins (its `ends` checked against each text's end: the two arrays move together).
 */
function sorted(entries: readonly string[], atOnce: number, depth = 4): string[] {
  const buffer = written(entries);
  const texts = new Map<number, { entry: string; end: number }>();
  let at = 0;
  for (const entry of entries) {
    const size = (/^[\u0000-\u00ff]*$/.test(entry) ? 1 : 2) * entry.length;
    const text = at + varintSize(4 * size + 1);
    texts.set(text, { entry, end: text + size });
    at = text + size + 1;
  }
  const sort = new GroupSort();
  sort.sort(buffer, atOnce, depth);
  return Array.from(sort.texts, (text, i) => {
    const found = texts.get(text);
    expect(sort.ends[i]).toBe(found?.end);
    return found?.entry as string;
  });
}

function varintSize(value: number): number {
  let size = 1;
  for (let v = value; v >= 0x80; v = Math.floor(v / 0x80)) size++;
  return size;
}

// Narrow units, one past 255 (a wide text) and one past the Basic Multilingual Plane.
const unit = fc.constantFrom("a", "b", "Z", '"', "\u00ff", "\u0161", "😀");
const entry = fc.array(unit, { maxLength: 5 }).map((units) => units.join(""));

describe("GroupSort", () => {
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

// One-byte units only, so that a part of many is sorted as bytes (a radix pass, then insertion).
const narrowUnit = fc.constantFrom("a", "b", "c", "Z", '"', ",", "\u00e9", "\u00ff");
const narrowEntry = fc.array(narrowUnit, { maxLength: 8 }).map((units) => units.join(""));

describe("GroupSort of one-byte entries", () => {
  it("sorts a part of many as bytes in the order of the strings", () => {
    fc.assert(
      fc.property(fc.array(narrowEntry, { minLength: 30, maxLength: 300 }), (entries) => {
        expect(sorted(entries, 1 << 20, 0)).toEqual([...entries].sort());
      }),
    );
  });

  it("sorts groups that share long beginnings (one suffix, payloads apart), some ending where the others go on", () => {
    const shared = fc.constantFrom("", "ANJE", 'ANJE",[', 'ANJE",[1234', 'ANJE",[1234,');
    const long = fc.tuple(shared, narrowEntry).map(([prefix, tail]) => prefix + tail);
    fc.assert(
      fc.property(fc.array(long, { minLength: 30, maxLength: 300 }), (entries) => {
        expect(sorted(entries, 1 << 20, 0)).toEqual([...entries].sort());
      }),
    );
  });
});

describe("GroupSort of many one-byte entries", () => {
  it("sorts many groups of more than a few at each depth, one after another, in one sort", () => {
    // Every entry of eight units at most from eight: at each depth, many groups past what an
    // insertion sorts, each counted in the counts its depth keeps from the group before.
    const units = ["a", "b", "c", "Z", '"', ",", "\u00e9", "\u00ff"];
    const entries = Array.from({ length: 3000 }, (_, i) =>
      Array.from({ length: (i * 7) % 9 }, (_, k) => units[(i * 13 + k * 5 + (i >> 3)) % 8]).join(""),
    );
    expect(sorted(entries, 1 << 20, 0)).toEqual([...entries].sort());
  });
});

describe("SuffixEntries", () => {
  /** The suffix files as they are defined: every entry sorted as a string, cut by suffixCuts, each file the JSON array of its entries. */
  function model(entries: readonly string[], files: number): string[] {
    const all = [...entries].sort();
    const cuts = suffixCuts(all, files);
    return cuts.slice(1).map((end, f) => `[${all.slice(cuts[f], end).join(",")}]`);
  }

  it("makes the files of one sort of every entry, ASCII, Latin-1 and wider, whatever the group's bound", () => {
    const words = ["OSNOVNA", "OSNOVE", "ŠKOLA", "ŠKOLE", "VRTIĆ", "CAFÉ", "ZAGREB", "ZAGORJE", "OS", "ŽUPA"];
    const entries: string[] = [];
    words.forEach((word, w) => {
      for (let i = 0; i + 2 <= word.length; i++) for (let p = 0; p < 7; p++) entries.push(`["${word.slice(i)}",[${w * 31 + p}]]`);
    });
    for (const [limit, atOnce] of [
      [1 << 20, 1 << 20],
      [64, 3],
    ] as const) {
      const dir = join(spill, `s-${limit}`);
      mkdirSync(dir);
      const suffixes = new SuffixEntries(dir, 5, limit, atOnce);
      for (const entry of entries) {
        if (/^[\x00-\x7f]*$/.test(entry)) {
          const bytes = Buffer.from(`..${entry}..`, "latin1");
          suffixes.addBytes(bytes, 2, bytes.length - 2);
        } else suffixes.add(entry);
      }
      const files = suffixes
        .shards()
        .slice(0, -1)
        .flatMap((shard) => [...shard.files()].map((file) => Buffer.from(file.bytes).toString("utf8")));
      expect(files).toEqual(model(entries, 5));
    }
  });

  it("makes the same files of a token's suffixes added at once (addSuffixes), four hashed at a time", () => {
    const words = ["OSNOVNA", "OSNOVE", "ZAGREB", "ZAGORJE", "OS", "VRT", "SKOLA", "KOLA", "NJE"];
    const entries: string[] = [];
    const suffixes = new SuffixEntries(spill, 7, 64, 3);
    words.forEach((word, w) => {
      for (let p = 0; p < 5; p++) {
        const payload = `[${w * 31 + p},${p}]`;
        for (let i = 0; i + 3 <= word.length; i++) entries.push(`["${word.slice(i)}",${payload}]`);
        const bytes = Buffer.from(`["${word}",${payload}]`, "latin1");
        suffixes.addSuffixes(bytes, bytes.length, Math.max(0, word.length - 2));
      }
    });
    expect(suffixes.count).toBe(entries.length);
    const files = suffixes
      .shards()
      .slice(0, -1)
      .flatMap((shard) => [...shard.files()].map((file) => Buffer.from(file.bytes).toString("utf8")));
    expect(files).toEqual(model(entries, 7));
  });
});
