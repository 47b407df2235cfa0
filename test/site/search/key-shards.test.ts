/**
 * A range of buckets made by hand, its buckets made of it (site/search/key-shards.ts
 * writeBuckets): each key's set read back is the places of the subjects that hold it, whatever
 * mark comes before a subject's first item (the next place, a gap of one byte, a gap past 255
 * and past 16,383: a varint of two and of three bytes), whichever item that is (a small key, a
 * token, a token of wide units, a town by text), with more keys in the range than the counts'
 * first array holds (4,096), and a range after a larger one in the same scratch arrays; and the
 * same read a few bytes at a time from the scratch file, so that marks, items and texts straddle
 * the window's refills and a text is longer than the window.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeRows, toList } from "../../../src/core/search/row-sets.ts";
import { bucketFileNames } from "../../../src/core/search/search-layout.ts";
import { BucketScratch, knownText, NEXT_PLACE, type SmallKeys, writeBuckets } from "../../../src/site/search/key-shards.ts";
import { type ByteSource, bytesSource, SpillBytes, SpillFile } from "../../../src/site/search/spill-bytes.ts";
import type { SpilledShard } from "../../../src/site/search/spilled-shard.ts";
import type { SuffixEntries } from "../../../src/site/search/suffix-files.ts";
import { tempDir } from "../../file-trees.ts";

const BUCKETS = 4;
const SMALL: SmallKeys = { names: ["f:all", "f:0", "f:1", "f:2"], buckets: [0, 1, 2, 3] };
/** The steps from a subject's place to the next's, in turn: the next place, gaps of a byte, past 255, past 16,383. */
const STEPS = [1, 1, 2, 7, 1, 300, 1, 1, 3, 20_000, 1, 130];

let work: string;
beforeAll(async () => {
  work = await tempDir();
});
afterAll(() => rm(work, { recursive: true, force: true }));

/** A subject's keys, each an item of the range as the gathering writes it (plan-search.ts). */
type Item = { readonly small: number } | { readonly token: string } | { readonly town: string };

/** The key an item stands for, as writeBuckets names it. */
function keyOf(item: Item): string {
  if ("small" in item) return SMALL.names[item.small] as string;
  return "token" in item ? item.token : item.town;
}

/**
 * `subjects` subjects from place `first`, `steps` apart in turn, `unique` tokens of their own each
 * (and one of `long` characters, when given): the range's bytes, their size, items, the list's
 * count and each key's places. `spill`: where the bytes go (by default in memory; a small limit
 * puts them in its file). `again`: a token or town met before is named by its number (knownText),
 * but at every `again`-th time it is met, when its text is written again and numbered anew (as a
 * token the gathering's caches let go and made again).
 */
function madeRange(
  subjects: number,
  first: number,
  unique: number,
  steps: readonly number[],
  spill = new SpillBytes(new SpillFile(join(work, "never")), 1 << 30),
  long = 0,
  again = 0,
): { bytes: () => ByteSource; spilled: boolean; size: number; items: number; count: number; truth: Map<string, number[]> } {
  const truth = new Map<string, number[]>();
  let place = first;
  let last = -1;
  let items = 0;
  // Each text's number in the range (its last), how often it was met, and the texts written.
  const numbers = new Map<string, number>();
  const met = new Map<string, number>();
  let written = 0;
  const text = (key: string, write: () => void): void => {
    const times = (met.get(key) ?? 0) + 1;
    met.set(key, times);
    const known = numbers.get(key);
    if (again > 0 && known !== undefined && times % again !== 0) spill.varint(knownText(known));
    else {
      write();
      numbers.set(key, written++);
    }
  };
  // Tokens of INLINE_ROWS (8) members at most, so that their places are in their suffix entries.
  const shared = Math.ceil(subjects / 7);
  for (let s = 0; s < subjects; s++) {
    const keys: Item[] = [
      { small: 0 },
      { small: 1 + (s % 3) },
      { token: `tok${s % shared}` },
      { token: `žt${s % (shared + 1)}` },
      { town: `c:Grad ${s % 7}` },
    ];
    for (let u = 0; u < unique; u++) keys.push({ token: `u${first}_${s}_${u}` });
    if (long > 0) keys.push({ token: `${s % 2 === 0 ? "L" : "ž"}${Math.floor(s / 8)}`.padEnd(long, "x") });
    // Each kind of item first in turn, right after the subject's mark.
    const start = s % 5;
    const ordered = [...keys.slice(start), ...keys.slice(0, start)];
    if (place - last === 1) spill.varint(NEXT_PLACE);
    else {
      spill.varint(0);
      spill.varint(place - last);
    }
    for (const item of ordered) {
      if ("small" in item) spill.varint(2 * item.small + 2);
      else if ("token" in item) text(item.token, () => spill.text(item.token));
      else {
        text(item.town, () => {
          spill.varint(1);
          spill.text(item.town);
        });
      }
      const key = keyOf(item);
      let places = truth.get(key);
      if (places === undefined) truth.set(key, (places = []));
      places.push(place);
      items++;
    }
    last = place;
    place += steps[s % steps.length] as number;
  }
  const spilled = spill.spilled;
  const size = spill.size;
  const bytes = spilled ? spill.reader() : bytesSource(spill.take());
  return { bytes: () => bytes, spilled, size, items, count: last + 1, truth };
}

/** The range's buckets made into a fake shard and fake suffix entries, read back: each key's places. */
function madeSets(range: ReturnType<typeof madeRange>, count: number, scratch: BucketScratch): Map<string, number[]> {
  const files = new Map<string, Uint8Array>();
  const shard = { add: (name: string, bytes: Uint8Array) => files.set(name, Uint8Array.from(bytes)) } as unknown as SpilledShard;
  const entries: string[] = [];
  const suffixes = {
    add: (entry: string) => entries.push(entry),
    addBytes: (bytes: Uint8Array, from: number, to: number) => entries.push(Buffer.from(bytes.subarray(from, to)).toString("utf8")),
    addSuffixes: (bytes: Uint8Array, end: number, count: number) => {
      for (let i = 0; i < count; i++) entries.push(`["${Buffer.from(bytes.subarray(2 + i, end)).toString("utf8")}`);
    },
  } as unknown as SuffixEntries;
  const namePositions = Uint32Array.from({ length: count }, (_, p) => count - 1 - p);
  writeBuckets(
    { from: 0, to: BUCKETS, bytes: range.bytes(), items: range.items },
    BUCKETS,
    count,
    namePositions,
    SMALL,
    suffixes,
    shard,
    512,
    scratch,
  );
  const sets = new Map<string, number[]>();
  for (let b = 0; b < BUCKETS; b++) {
    const names = bucketFileNames(b);
    const values = files.get(names.values) as Uint8Array;
    const index = JSON.parse(Buffer.from(files.get(names.index) as Uint8Array).toString("utf8")) as [string, number, number][];
    for (const [key, offset, length] of index) sets.set(key, [...toList(decodeRows(values.subarray(offset, offset + length)))]);
  }
  for (const entry of entries) {
    const [suffix, places, positions] = JSON.parse(entry) as [string, number[], number[]];
    // A token's own entry (no token here is another's suffix), its positions by name beside its places.
    if (!range.truth.has(suffix)) continue;
    expect(positions).toEqual(places.map((p) => namePositions[p]));
    sets.set(suffix, places);
  }
  return sets;
}

describe("writeBuckets", () => {
  it("reads every key's places back through every mark, past the counts' first array, range after range", () => {
    const scratch = new BucketScratch();
    // The first range larger than the second (more keys and gaps), whose arrays the second reuses;
    // the third's gaps, 4,096, fill the gaps' first array (whose last byte is read past them).
    const large = madeRange(700, 0, 8, STEPS);
    const small = madeRange(150, 5, 1, STEPS);
    const gaps = madeRange(4096, 5, 0, [2]);
    expect(large.truth.size).toBeGreaterThan(4096);
    for (const range of [large, small, gaps]) {
      const sets = madeSets(range, range.count, scratch);
      expect(sets).toEqual(range.truth);
    }
  });

  it("reads the same sets from the scratch file a window of a few bytes at a time, a text longer than the window among them", () => {
    const file = new SpillFile(join(work, "windows"));
    // Blocks of 100 bytes in the file, read through a window of 24 (its least) and a text of 60 characters (120 bytes wide).
    const scratch = new BucketScratch(1);
    try {
      // The third names the texts it met before by their numbers, which straddle the refills too.
      for (const [subjects, unique, again] of [
        [300, 3, 0],
        [40, 0, 0],
        [300, 3, 3],
      ] as const) {
        const spill = new SpillBytes(file, 100);
        const range = madeRange(subjects, 3, unique, STEPS, spill, 60, again);
        expect(range.spilled).toBe(true);
        const sets = madeSets(range, range.count, scratch);
        expect(sets).toEqual(range.truth);
      }
    } finally {
      file.close();
    }
  });

  it("reads a token or town written before by its number, and one written again by its text", () => {
    const scratch = new BucketScratch();
    // Numbers past the first array of the texts' keys (4,096), in two bytes and in three.
    const range = madeRange(3000, 0, 2, STEPS, undefined, 0, 5);
    expect(range.truth.size).toBeGreaterThan(4096);
    expect(range.size).toBeLessThan(madeRange(3000, 0, 2, STEPS).size);
    expect(madeSets(range, range.count, scratch)).toEqual(range.truth);
  });
});
