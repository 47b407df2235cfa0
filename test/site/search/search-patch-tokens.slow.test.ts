/**
 * The patch of an edit finding a token's previous entry (src/site/search/patch-keys.ts) where the
 * entries of its whole text include a longer token's: a token T and a longer token L ending with
 * it both have an entry under T's suffix key, and the patch must take T's. Built by construction,
 * not found by chance in generated names: T and L are chosen by brute force so that the layout's
 * own hash puts their sets in one bucket at this list's size (a set in another bucket is never
 * taken), and L's subjects are laid so that the eight of them the patch samples all hold T while
 * L has more subjects than T. After each edit, every search file is compared byte for byte with
 * the whole stage's over the same chunk files, and the counters (searchPaths) say which way the
 * stage went.
 */
import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSubject, seedFromText } from "../../../scripts/generate-subjects.ts";
import type { Subject } from "../../../src/core/render-page.ts";
import { searchForm, tokensOf } from "../../../src/core/search/normalise.ts";
import { bucketCount, INLINE_ROWS } from "../../../src/core/search/search-layout.ts";
import { tokenBucket } from "../../../src/site/search/key-shards.ts";
import { searchPaths } from "../../../src/site/search/patch-search.ts";
import { tempDir } from "../../file-trees.ts";
import { PatchedSite } from "./patched-site.ts";

const COUNT = 3000;
const SEED = seedFromText("tokens");
const BUCKETS = bucketCount(COUNT);
/** Letters the generated names do not put together (checked below): the made-up tokens are no real word's suffix. */
const LETTERS = "QXWYJK";

let work: string;
let subjects: Subject[];
let site: PatchedSite;

/** A token of four letters and a longer one ending with it (one letter before it) whose sets share a bucket, and none of `taken`. */
function collidingPair(taken: ReadonlySet<string>): { readonly token: string; readonly longer: string } {
  for (const a of LETTERS)
    for (const b of LETTERS)
      for (const c of LETTERS)
        for (const d of LETTERS) {
          const token = `${a}${b}${c}${d}`;
          if (taken.has(token)) continue;
          for (const e of LETTERS) {
            const longer = `${e}${token}`;
            if (!taken.has(longer) && tokenBucket(token, BUCKETS) === tokenBucket(longer, BUCKETS)) return { token, longer };
          }
        }
  throw new Error("no pair of tokens shares a bucket");
}

/** The places of L's subjects, and which of them the patch samples (its `sample`: 8 spread over them). */
const LONGER_PLACES = Array.from({ length: 20 }, (_, i) => 100 * (i + 1));
const SAMPLED = Array.from({ length: 8 }, (_, i) => LONGER_PLACES[Math.floor((i * (LONGER_PLACES.length - 1)) / 7)] as number);
/** T's subjects besides the sampled ones: T has 11 (a set of its own), L 20. */
const TOKEN_ONLY = [2101, 2102, 2103];

let pair: { readonly token: string; readonly longer: string };
let inline: { readonly token: string; readonly longer: string };

const append = (place: number, words: string): void => {
  const subject = subjects[place] as Subject;
  subjects[place] = { ...subject, naziv_subjekta: `${subject.naziv_subjekta} ${words}` };
};

beforeAll(async () => {
  work = await tempDir("subjekti-search-tokens-");
  subjects = Array.from({ length: COUNT }, (_, i) => makeSubject(SEED, i));
  // No generated token ends with a made-up one: their suffix keys hold only the entries laid here.
  const vocabulary = new Set(subjects.flatMap((s) => tokensOf(searchForm(`${s.naziv_subjekta} ${s.institucija_grad}`))));
  const madeUp = [...vocabulary].filter((token) => [...token.slice(-4)].every((ch) => LETTERS.includes(ch)));
  expect(madeUp).toEqual([]);
  pair = collidingPair(new Set());
  inline = collidingPair(new Set([pair.token, pair.longer]));
  for (const place of LONGER_PLACES) append(place, SAMPLED.includes(place) ? `${pair.longer} ${pair.token}` : pair.longer);
  for (const place of TOKEN_ONLY) append(place, pair.token);
  // The inline case: one subject holds T' and L' alone, so their entries under T's key are the same text.
  append(2500, `${inline.token} ${inline.longer}`);
  site = new PatchedSite(work, subjects);
  await site.build();
}, 300_000);
afterAll(() => rm(work, { recursive: true, force: true }));

/** Applies `edit`, rebuilds over the previous site, checks every search file; the way the stage went (a fallback by its reason). */
async function rebuilt(edit: () => void): Promise<string> {
  return (await site.rebuilt(edit)) === "patched" ? "patched" : `whole: ${searchPaths.reason}`;
}

describe("the patch of an edit, a token beside a longer one ending with it", () => {
  it("lays the case it means to", () => {
    expect(pair.longer.endsWith(pair.token) && pair.longer.length > pair.token.length).toBe(true);
    expect(tokenBucket(pair.token, BUCKETS)).toBe(tokenBucket(pair.longer, BUCKETS));
    // Both have sets (more than INLINE_ROWS subjects), the longer one the larger.
    expect(SAMPLED.length + TOKEN_ONLY.length).toBeGreaterThan(INLINE_ROWS);
    expect(LONGER_PLACES.length).toBeGreaterThan(SAMPLED.length + TOKEN_ONLY.length);
  });

  it("patches the token's own set, not the longer token's that shares its bucket and passes the sample", async () => {
    // A subject gains T: its set must be found and grown. The longer token's set, larger, sharing
    // the bucket and whose sampled subjects all hold T, would be taken for T's by the sample alone.
    expect(await rebuilt(() => append(2900, pair.token))).toBe("patched");
    // And a subject that held T loses it (the token then known to the patch, as a subject had it).
    expect(await rebuilt(() => (subjects[2102] = makeSubject(SEED, 2102)))).toBe("patched");
  }, 600_000);

  it("patches a token whose inline entry is the same text as a longer token's", async () => {
    // T' and L' name the same one subject, so their entries under T''s key are one text: whichever
    // it is taken for, T''s set is that subject, and a subject gaining T' is patched.
    expect(await rebuilt(() => append(2600, inline.token))).toBe("patched");
    expect(await rebuilt(() => (subjects[2600] = makeSubject(SEED, 2600)))).toBe("patched");
  }, 600_000);
});
