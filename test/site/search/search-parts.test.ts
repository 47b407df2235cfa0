/**
 * The search stage divided into parts (site/search/plan-search.ts): however many bucket ranges,
 * and whether its ranges and suffix groups stay in memory or go to the scratch directory, the
 * shards are the same, byte for byte. Small parts by construction (a range of one bucket, limits of
 * a few bytes), so a few thousand subjects reach every boundary.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderSubject, type Subject } from "../../../src/core/render-page.ts";
import { planSearch, type SearchParts } from "../../../src/site/search/plan-search.ts";
import { tempDir } from "../../file-trees.ts";

const COUNT = 2500;
const CHUNK = 1000;
const WORDS = [
  "Osnovna",
  "škola",
  "Vrtić",
  "Udruga",
  '"Sloga"',
  "A\\B",
  "Đurđevac",
  "Ž",
  "Emoji😀",
  "𝔸𝔹ℂ",
  "dom",
  "za",
  "starije",
  "i",
  "nemoćne",
];
let work: string;

/** The record at place `p` of a name and town, rendered as the build renders it. */
function record(p: number, name: string, town: string): string {
  return renderSubject({
    id: p + 1,
    jedinstvena_oznaka: String(p).padStart(5, "0"),
    naziv_subjekta: name,
    oib: "12345678901",
    razina: p % 3 === 0 ? "lokalna" : "nacionalna",
    datum_postanka: `19${String(p % 100).padStart(2, "0")}-01-01`,
    status_subjekta: p % 2 === 0,
    odobreno: p % 5 === 0,
    institucija_grad: town,
    institucija_email: "a@b.hr",
  });
}

beforeAll(async () => {
  work = await tempDir();
  mkdirSync(join(work, "chunks"));
  for (let chunk = 0; chunk * CHUNK < COUNT; chunk++) {
    const lines: string[] = [];
    for (let p = chunk * CHUNK; p < Math.min(COUNT, (chunk + 1) * CHUNK); p++) {
      // Names of common and rare words and of a word of its own; towns some common, most rare.
      const name = [WORDS[p % WORDS.length], WORDS[(p * 7) % WORDS.length], `Ime${(p * 7919) % 3001}`].join(p % 11 === 0 ? "\u00a0" : " ");
      lines.push(record(p, name, p % 4 === 0 ? "Zagreb" : `Grad ${p % 700}`));
    }
    writeFileSync(join(work, "chunks", `${chunk}.ndjson`), `${lines.join("\n")}\n`);
  }
});
afterAll(() => rm(work, { recursive: true, force: true }));

/** The shards' keys and hashes, and the scratch files the stage put aside (before the writer took the shards). */
function planned(name: string, parts?: SearchParts): { readonly hashes: Record<string, string>; readonly scratch: string[] } {
  const spill = join(work, name);
  const shards = planSearch(COUNT, CHUNK, (chunk) => ({ path: join(work, "chunks", `${chunk}.ndjson`) }), spill, parts);
  const scratch = existsSync(spill) ? readdirSync(spill).filter((f) => f === "ranges" || f === "suffixes") : [];
  return { hashes: Object.fromEntries(shards.map((s) => [s.key, s.hash])), scratch };
}

describe("planSearch in parts", () => {
  it("makes the same shards from one range in memory as from many put aside", () => {
    const whole = planned("whole", { partitionBuckets: 125, rangeLimit: 1 << 20, groupLimit: 1 << 20 });
    // Nothing put aside below the limits: a small list never touches the disk.
    expect(whole.scratch).toEqual([]);
    const parts = planned("parts", { partitionBuckets: 1, rangeLimit: 64, groupLimit: 64 });
    // The ranges' blocks past their limit in one scratch file, the suffix groups' in another.
    expect(parts.scratch.sort()).toEqual(["ranges", "suffixes"]);
    expect(parts.hashes).toEqual(whole.hashes);
    expect(Object.keys(whole.hashes).filter((k) => k.startsWith("search/suffixes/"))).toHaveLength(2);
  });

  it("keeps a three-character piece's set by its size alone: the suffixes stay as they are", () => {
    const every = planned("every", { partitionBuckets: 125, rangeLimit: 1 << 20, groupLimit: 1 << 20, tripleRows: 0 });
    const none = planned("none", { partitionBuckets: 125, rangeLimit: 1 << 20, groupLimit: 1 << 20, tripleRows: Infinity });
    const common = planned("default").hashes;
    const differ = (a: Record<string, string>, b: Record<string, string>): string[] => Object.keys(a).filter((k) => a[k] !== b[k]);
    // Only the keys shards differ (the sets under `g:` sit in existing buckets), and the default keeps some pieces' sets, not all.
    expect(differ(every.hashes, none.hashes)).toEqual(["search/keys/0"]);
    expect(differ(common, none.hashes)).toEqual(["search/keys/0"]);
    expect(differ(common, every.hashes)).toEqual(["search/keys/0"]);
  });

  it("adds a token once a subject when two of its words are that token, one cached long ago and one new", () => {
    // ŠKOLA and skola are one token (SKOLA); with the caches rolled at every subject, the third
    // subject finds ŠKOLA in the old generation and makes skola: it must find the token ŠKOLA holds.
    const names = ["Škola", "Škola", "Škola skola", "Škola Vis", "Vis skola", "Škola"];
    const towns = ["Vis", "Hvar", "Vis", "Škola", "Hvar", "Vis"];
    writeFileSync(join(work, "few.ndjson"), `${names.map((name, p) => record(p, name, towns[p] as string)).join("\n")}\n`);
    const few = (cacheBytes: number): Record<string, string> => {
      const spill = join(work, `few-${cacheBytes}`);
      const parts = { partitionBuckets: 125, rangeLimit: 1 << 20, groupLimit: 1 << 20, cacheBytes };
      return Object.fromEntries(
        planSearch(names.length, CHUNK, () => ({ path: join(work, "few.ndjson") }), spill, parts).map((s) => [s.key, s.hash]),
      );
    };
    expect(few(1)).toEqual(few(Infinity));
  });

  it("cuts a name or town at any token break: its suffixes are its tokens'", () => {
    // Names of words apart by spaces (cut word by word), by other breaks (the name cut whole), and
    // towns of one token, of two, and of one twice.
    const names = ["Škola Vis", "Dom\u00a0za\tstarije", "Vrtić", "Udruga\u2003Sloga"];
    const towns = ["Slavonski Brod", "Vis", "Novi  Novi", "Hvar"];
    writeFileSync(join(work, "breaks.ndjson"), `${names.map((name, p) => record(p, name, towns[p] as string)).join("\n")}\n`);
    const shards = planSearch(names.length, CHUNK, () => ({ path: join(work, "breaks.ndjson") }), join(work, "breaks"));
    const suffixes = new Set<string>();
    for (const shard of shards.filter((s) => s.key.startsWith("search/suffixes/")))
      for (const file of shard.files())
        if (file.name !== "firsts.json")
          for (const [suffix] of JSON.parse(Buffer.from(file.bytes).toString()) as [string][]) suffixes.add(suffix);
    expect([...suffixes].filter((suffix) => /\s/u.test(suffix))).toEqual([]);
    for (const token of ["SKOLA", "STARIJE", "VRTIC", "UDRUGA", "SLOGA", "SLAVONSKI", "BROD", "NOVI", "HVAR"])
      expect(suffixes).toContain(token);
  });

  it("makes the same shards whether its caches of tokens, words and towns are dropped at every subject or never", () => {
    const never = planned("never", { partitionBuckets: 125, rangeLimit: 1 << 20, groupLimit: 1 << 20, cacheBytes: Infinity }).hashes;
    // A few hundred bytes: the young generation is full after a subject or two, so words and towns
    // are found in the old one and moved, or made again, all the time.
    for (const cacheBytes of [1, 600, 4000]) {
      expect(
        planned(`cache-${cacheBytes}`, { partitionBuckets: 125, rangeLimit: 1 << 20, groupLimit: 1 << 20, cacheBytes }).hashes,
      ).toEqual(never);
    }
  });

  it("makes the same shards when each generation of the caches fills several slabs of keys, and slabs are used again", () => {
    const never = planned("slabs-never", { partitionBuckets: 125, rangeLimit: 1 << 20, groupLimit: 1 << 20, cacheBytes: Infinity }).hashes;
    // Slabs of 16 or 64 keys (a word of seven letters has 18: a slab of its own length), generations
    // of a few dozen tokens: each generation fills many slabs, and the young one fills again those
    // the old one had, while the tokens it moved from there hold their keys in its own.
    for (const [slabInts, cacheBytes] of [
      [16, 20_000],
      [64, 20_000],
      [64, 200_000],
    ] as const) {
      const parts = { partitionBuckets: 125, rangeLimit: 1 << 20, groupLimit: 1 << 20, cacheBytes, slabInts };
      expect(planned(`slabs-${slabInts}-${cacheBytes}`, parts).hashes).toEqual(never);
    }
  });

  it("makes the same shards whether the commonest keys' members are gathered as bits, from any block on, or all as items", () => {
    const items = planned("items", { partitionBuckets: 125, rangeLimit: 1 << 20, groupLimit: 1 << 20, bitsPlaces: Infinity });
    expect(items.scratch).toEqual([]);
    // Blocks of 8 and 64 places: keys set apart early and late, a last block cut short (2,500 places),
    // sets of bits that end as bitmaps and as lists; with ranges of one bucket put aside, the bits'
    // blocks lie between the ranges' in the one scratch file.
    for (const bitsPlaces of [8, 64, 1 << 16]) {
      expect(planned(`bits-${bitsPlaces}`, { partitionBuckets: 125, rangeLimit: 1 << 20, groupLimit: 1 << 20, bitsPlaces }).hashes).toEqual(
        items.hashes,
      );
    }
    const spilled = planned("bits-spilled", { partitionBuckets: 1, rangeLimit: 64, groupLimit: 64, bitsPlaces: 16 });
    expect(spilled.hashes).toEqual(items.hashes);
    // A token's keys set apart are moved before its others when it is next added after a block that
    // set keys apart: here keys are set apart block after block while tokens move from one generation
    // of the caches to the next (their keys copied with them, split or not yet) and are made again.
    for (const [bitsPlaces, cacheBytes, slabInts] of [
      [8, 20_000, 16],
      [24, 600, 64],
    ] as const) {
      const parts = { partitionBuckets: 125, rangeLimit: 1 << 20, groupLimit: 1 << 20, bitsPlaces, cacheBytes, slabInts };
      expect(planned(`bits-${bitsPlaces}-${cacheBytes}`, parts).hashes).toEqual(items.hashes);
    }
  });

  it("makes the same shards whether the order files merge many runs or sort one", () => {
    // A run of one value, of three (names tied across runs), and of 97: the merge of 2,500 runs, of
    // 834 and of 26 against the default's one run.
    const one = planned("runs-one").hashes;
    for (const runSize of [1, 3, 97]) {
      const parts = { partitionBuckets: 125, rangeLimit: 1 << 20, groupLimit: 1 << 20, runSize };
      expect(planned(`runs-${runSize}`, parts).hashes).toEqual(one);
    }
  });

  it("orders the sample's real names, codes and towns the same from many runs as from one", () => {
    // The sample's 5,758 subjects (diacritics, the digraphs, names and towns that tie, empty towns):
    // the differential test against DRF on PostgreSQL builds them as one run, so a merge of many must
    // make the very same order shard for that comparison to hold for a list of millions.
    const sample = (JSON.parse(readFileSync(join(import.meta.dirname, "../../../data/subjekti.json"), "utf8")) as Subject[]).toSorted(
      (a, b) => a.id - b.id,
    );
    const dir = join(work, "sample");
    mkdirSync(dir);
    for (let chunk = 0; chunk * CHUNK < sample.length; chunk++)
      writeFileSync(
        join(dir, `${chunk}.ndjson`),
        `${sample
          .slice(chunk * CHUNK, (chunk + 1) * CHUNK)
          .map(renderSubject)
          .join("\n")}\n`,
      );
    const orderOf = (runSize?: number): string | undefined => {
      const parts = { partitionBuckets: 125, rangeLimit: 1 << 20, groupLimit: 1 << 20, ...(runSize === undefined ? {} : { runSize }) };
      const shards = planSearch(
        sample.length,
        CHUNK,
        (chunk) => ({ path: join(dir, `${chunk}.ndjson`) }),
        join(work, `sample-${runSize}`),
        parts,
      );
      return shards.find((s) => s.key === "search/order")?.hash;
    };
    const whole = orderOf();
    expect(whole).toBeDefined();
    for (const runSize of [64, 1000]) expect(orderOf(runSize)).toBe(whole);
  });

  it("makes the same shards from ranges of four buckets", () => {
    expect(planned("four", { partitionBuckets: 4, rangeLimit: 1 << 20, groupLimit: 1 << 20 }).hashes).toEqual(planned("one").hashes);
  });
});
