/**
 * Searching, filtering and ordering the list on a generated site of 25,000 subjects: for random
 * searches (words and pieces of the names and towns, diacritics dropped, any case, several terms),
 * filters and orderings, at any limit and offset, the count and the page's subjects are those a
 * reference computes here from the source records alone: PostgreSQL's unaccent rules (the table,
 * applied by hand), upper case, a substring test, and the collation's order, ties by id.
 *
 * 25,000 reach every structure the readers tell apart (the first test says so from the records):
 * words of more than RANKED_ROWS subjects (`ŠKOLA`, `OSNOVNA`: positions as a set of their own),
 * three-character pieces above and below TRIPLE_ROWS, suffix files in more than one group of
 * FIRSTS_GROUP, and the readers' own cuts (a walk of an eighth of the list, a sort of a sixteenth)
 * scale with the list. What 100,000 added is the build's, not the answers': a second block of bits
 * (BITS_PLACES) and the stage in its thread (SEARCH_THREAD_FROM), whose shards are the main
 * thread's byte for byte (test/site/search/search-parts.test.ts, search-thread.slow.test.ts). The
 * site has no downloads: the answers read the search files, pages and chunks alone.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSubject } from "../../scripts/generate-subjects.ts";
import { answerRequest, type SiteHost } from "../../src/core/answer-request.ts";
import type { Subject } from "../../src/core/render-page.ts";
import { bucketPath } from "../../src/core/layout.ts";
import { bucketCount, bucketOf, FIRSTS_GROUP, RANKED_ROWS, suffixFileCount, TRIPLE_ROWS } from "../../src/core/search/search-layout.ts";
import { UNACCENT_RULES } from "../../src/core/search/unaccent-table.ts";
import { buildSubjectsSite, diskHosts } from "./fixture-site.ts";

const SIZE = 25_000;
const SUBJECTS: readonly Subject[] = Array.from({ length: SIZE }, (_, i) => makeSubject(21, i));

// The reference, written plainly: no index, every record tested.
const RULES = new Map(UNACCENT_RULES.split("\n").map((line) => line.split("\t") as [string, string]));
const form = (text: string): string =>
  Array.from(text, (c) => RULES.get(c) ?? c)
    .join("")
    .toUpperCase();
const FORMS = SUBJECTS.map((s) => ({ name: form(s.naziv_subjekta), town: form(s.institucija_grad) }));
const collator = new Intl.Collator("hr");
const byCodePoint = (a: string, b: string): number => {
  const x = Array.from(a, (c) => c.codePointAt(0) ?? 0);
  const y = Array.from(b, (c) => c.codePointAt(0) ?? 0);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
  return x.length - y.length;
};
const compareText = (a: string, b: string): number => (a === b ? 0 : collator.compare(a, b) || byCodePoint(a, b));
/**
 * Each subject's place in one field's order (equal values, equal places): the texts' by
 * compareText, the date's by its characters, the id's by number; found once a field. The reference
 * sorts its matches by places, in the same order as by the values, where sorting tens of thousands
 * of matches of a common term by the collator (and by the records' fields) again for every query
 * was most of this file's time.
 */
const PLACES = new Map<keyof Subject, Int32Array>();
function placesOf(field: keyof Subject): Int32Array {
  const known = PLACES.get(field);
  if (known !== undefined) return known;
  const value = (i: number): string | number | boolean => (SUBJECTS[i] as Subject)[field] as string | number | boolean;
  const compare =
    field === "id" || field === "datum_postanka"
      ? (i: number, j: number): number => (value(i) < value(j) ? -1 : value(i) > value(j) ? 1 : 0)
      : (i: number, j: number): number => compareText(String(value(i)), String(value(j)));
  const order = SUBJECTS.map((_, i) => i).sort(compare);
  const places = new Int32Array(SUBJECTS.length);
  order.forEach((i, k) => {
    const before = order[k - 1];
    places[i] = before !== undefined && value(before) === value(i) ? (places[before] as number) : k;
  });
  PLACES.set(field, places);
  return places;
}

interface Query {
  readonly terms: readonly string[];
  readonly razina?: "lokalna" | "nacionalna";
  readonly town?: string;
  readonly status?: boolean;
  readonly approved?: boolean;
  readonly from?: string;
  readonly to?: string;
  readonly ordering: readonly string[];
  readonly limit: number;
  readonly offset: number;
}

function reference(q: Query): { count: number; ids: number[] } {
  return pageOf(sortedMatches(q), q.offset, q.limit);
}

/** The page at `offset` of `limit` of the matches in their order: the count, and the page's ids. */
function pageOf(matches: readonly number[], offset: number, limit: number): { count: number; ids: number[] } {
  return { count: matches.length, ids: matches.slice(offset, offset + limit).map((i) => (SUBJECTS[i] as Subject).id) };
}

/** Every subject `q` matches (its terms and filters; its page aside), in its order, ties by id. */
function sortedMatches(q: Query): number[] {
  const terms = q.terms.map(form);
  const matches: number[] = [];
  // A subject matches every filter and has every term in its name or town: the fields' tests first, the cheaper.
  const matching = (i: number): boolean => {
    const s = SUBJECTS[i] as Subject;
    if (q.razina !== undefined && s.razina !== q.razina) return false;
    if (q.town !== undefined && s.institucija_grad !== q.town) return false;
    if (q.status !== undefined && s.status_subjekta !== q.status) return false;
    if (q.approved !== undefined && s.odobreno !== q.approved) return false;
    if (q.from !== undefined && s.datum_postanka < q.from) return false;
    if (q.to !== undefined && s.datum_postanka > q.to) return false;
    const f = FORMS[i] as { name: string; town: string };
    for (const t of terms) if (!f.name.includes(t) && !f.town.includes(t)) return false;
    return true;
  };
  for (let i = 0; i < SUBJECTS.length; i++) if (matching(i)) matches.push(i);
  const keys = [...q.ordering, "id"].map((o) => ({
    places: placesOf(o.replace(/^-/, "") as keyof Subject),
    sign: o.startsWith("-") ? -1 : 1,
  }));
  matches.sort((i, j) => {
    for (const { places, sign } of keys) {
      const c = (places[i] as number) - (places[j] as number);
      if (c !== 0) return sign * c;
    }
    return 0;
  });
  return matches;
}

const FOLD: Record<string, string> = { č: "c", ć: "c", đ: "d", š: "s", ž: "z", Č: "C", Ć: "C", Đ: "D", Š: "S", Ž: "Z" };
const term = fc
  .tuple(fc.nat(SIZE - 1), fc.boolean(), fc.nat(), fc.nat(), fc.constantFrom("as is", "folded", "upper", "lower"))
  .map(([i, inTown, at, length, shape]) => {
    const s = SUBJECTS[i] as Subject;
    const words = (inTown ? s.institucija_grad : s.naziv_subjekta).split(" ").filter((w) => w !== "");
    const word = words[at % words.length] ?? "x";
    const start = at % word.length;
    let piece = word.slice(start, start + 1 + (length % (word.length - start)));
    if (shape === "folded") piece = piece.replace(/[čćđšžČĆĐŠŽ]/g, (c) => FOLD[c] ?? c);
    if (shape === "upper") piece = piece.toUpperCase();
    if (shape === "lower") piece = piece.toLowerCase();
    return piece;
  });
/** Three characters of a name or town, diacritics dropped or kept, in any case (mixed too): common pieces have a set of their own, rare ones not. */
const triple = fc
  .tuple(fc.nat(SIZE - 1), fc.boolean(), fc.nat(), fc.constantFrom("as is", "folded", "upper", "mixed"))
  .map(([i, inTown, at, shape]) => {
    const s = SUBJECTS[i] as Subject;
    const words = (inTown ? s.institucija_grad : s.naziv_subjekta).split(" ").filter((w) => [...w].length >= 3);
    const chars = [...(words[at % Math.max(1, words.length)] ?? "Grad")];
    const start = at % (chars.length - 2);
    let piece = chars.slice(start, start + 3).join("");
    if (shape === "folded") piece = piece.replace(/[čćđšžČĆĐŠŽ]/g, (c) => FOLD[c] ?? c);
    if (shape === "upper") piece = piece.toUpperCase();
    if (shape === "mixed") piece = [...piece].map((c, k) => (k % 2 === 0 ? c.toLowerCase() : c.toUpperCase())).join("");
    return piece;
  });
const date = fc.integer({ min: 1940, max: 2025 }).map((y) => `${y}-06-15`);
const query: fc.Arbitrary<Query> = fc.record(
  {
    terms: fc.array(term, { minLength: 0, maxLength: 3 }),
    razina: fc.constantFrom("lokalna" as const, "nacionalna" as const),
    town: fc.nat(SIZE - 1).map((i) => (SUBJECTS[i] as Subject).institucija_grad),
    status: fc.boolean(),
    approved: fc.boolean(),
    from: date,
    to: date,
    ordering: fc.array(
      fc.constantFrom(
        "id",
        "-id",
        "naziv_subjekta",
        "-naziv_subjekta",
        "institucija_grad",
        "-institucija_grad",
        "datum_postanka",
        "-datum_postanka",
        "jedinstvena_oznaka",
        "-jedinstvena_oznaka",
      ),
      { maxLength: 2 },
    ),
    limit: fc.constantFrom(1, 20, 100),
    offset: fc.oneof(fc.constantFrom(0, 0, 400), fc.nat(SIZE)),
  },
  { requiredKeys: ["terms", "ordering", "limit", "offset"] },
);

function target(q: Query): string {
  const params = new URLSearchParams();
  if (q.terms.length > 0) params.set("search", q.terms.join(" "));
  if (q.razina !== undefined) params.set("razina", q.razina);
  if (q.town !== undefined) params.set("institucija_grad", q.town);
  if (q.status !== undefined) params.set("status_subjekta", String(q.status));
  if (q.approved !== undefined) params.set("odobreno", String(q.approved));
  if (q.from !== undefined) params.set("datum_postanka__gte", q.from);
  if (q.to !== undefined) params.set("datum_postanka__lte", q.to);
  if (q.ordering.length > 0) params.set("ordering", q.ordering.join(","));
  params.set("limit", String(q.limit));
  params.set("offset", String(q.offset));
  return `/api/subjekti/?${params.toString()}`;
}

/** Whether the site has a set under `g:<piece>` (the piece in search form): a common piece's. */
function hasTripleSet(piece: string): boolean {
  const key = `g:${form(piece)}`;
  const path = bucketPath(built.manifest, bucketOf(key, bucketCount(SIZE)), "index");
  const index = JSON.parse(readFileSync(join(built.dir, path ?? ""), "utf8")) as [string, number, number][];
  return index.some(([k]) => k === key);
}

let built: Awaited<ReturnType<typeof buildSubjectsSite>>;
let remove: () => Promise<void> = async () => undefined;
let site: SiteHost<Uint8Array>;
let rangeSite: SiteHost<Uint8Array>;

beforeAll(async () => {
  built = await buildSubjectsSite("subjekti-search-", SUBJECTS, []);
  remove = built.remove;
  ({ site, rangeSite } = diskHosts(built.dir, built.manifest));
}, 300_000);

afterAll(() => remove());

async function getFrom(host: SiteHost<Uint8Array>, path: string): Promise<{ count: number; ids: number[] }> {
  const answer = await answerRequest({ method: "GET", target: path, scheme: "http", host: "testserver", headers: new Headers() }, host);
  if (answer.kind !== "send" || !(answer.body instanceof Uint8Array)) throw new Error("no body");
  expect(answer.status).toBe(200);
  const page = JSON.parse(Buffer.from(answer.body).toString("utf8")) as { count: number; results: { id: number }[] };
  return { count: page.count, ids: page.results.map((r) => r.id) };
}

it("the list is large enough to reach each structure: words with positions as a set, pieces with a set and without, several groups of suffix files", () => {
  const words = new Map<string, number>();
  const pieces = new Map<string, number>();
  for (const f of FORMS) {
    const own = new Set(`${f.name} ${f.town}`.split(" ").filter((w) => w !== ""));
    const triples = new Set<string>();
    for (const w of own) {
      words.set(w, (words.get(w) ?? 0) + 1);
      const chars = [...w];
      for (let k = 0; k + 3 <= chars.length; k++) triples.add(chars.slice(k, k + 3).join(""));
    }
    for (const t of triples) pieces.set(t, (pieces.get(t) ?? 0) + 1);
  }
  expect([...words.values()].filter((n) => n > RANKED_ROWS).length).toBeGreaterThanOrEqual(2);
  expect([...pieces.values()].some((n) => n > TRIPLE_ROWS)).toBe(true);
  expect([...pieces.values()].some((n) => n <= TRIPLE_ROWS)).toBe(true);
  expect(suffixFileCount(SIZE)).toBeGreaterThan(FIRSTS_GROUP);
});

describe.each(["its page reader", "byte ranges"] as const)(
  "search, filters and ordering over 25,000 subjects (the host gives %s)",
  (kind) => {
    it("count and page equal the reference's for random queries", async () => {
      await fc.assert(
        fc.asyncProperty(query, async (q) => {
          expect(await getFrom(kind === "byte ranges" ? rangeSite : site, target(q))).toEqual(reference(q));
        }),
        { numRuns: kind === "byte ranges" ? 150 : 60 },
      );
    }, 300_000);

    it("one term ordered by name (read from its positions by name alone) equals the reference's", async () => {
      // Common pieces name thousands of tokens, some with a set of positions of their own, others with u32s, or inline.
      const common = fc.constantFrom("gra", "ski", "vrt", "osn", "ica", "dje", "ovi", "sla", "VRTIĆ", "ić", "a");
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(term, common),
          fc.constantFrom(1, 20, 100),
          fc.oneof(fc.constantFrom(0, 400), fc.nat(SIZE)),
          async (t, limit, offset) => {
            const q: Query = { terms: [t], ordering: ["naziv_subjekta"], limit, offset };
            expect(await getFrom(kind === "byte ranges" ? rangeSite : site, target(q))).toEqual(reference(q));
          },
        ),
        { numRuns: 40 },
      );
    }, 300_000);

    it("a term of three characters, from its own set or through the suffixes, equals the reference's", async () => {
      // A common piece is read from its `g:` set, a rare one (TRIPLE_ROWS subjects or fewer) from its tokens' sets: both are drawn.
      const seen = { set: 0, suffixes: 0 };
      await fc.assert(
        fc.asyncProperty(
          triple,
          fc.constantFrom([], ["naziv_subjekta"], ["-id"], ["institucija_grad"]),
          fc.constantFrom(1, 20),
          fc.oneof(fc.constantFrom(0, 0, 400), fc.nat(SIZE)),
          async (t, ordering, limit, offset) => {
            if (hasTripleSet(t)) seen.set++;
            else seen.suffixes++;
            const q: Query = { terms: [t], ordering, limit, offset };
            expect(await getFrom(kind === "byte ranges" ? rangeSite : site, target(q))).toEqual(reference(q));
          },
        ),
        { numRuns: 80 },
      );
      expect(seen.set).toBeGreaterThan(0);
      expect(seen.suffixes).toBeGreaterThan(0);
    }, 300_000);

    it("terms inside other terms (looked up once) change nothing", async () => {
      await fc.assert(
        fc.asyncProperty(
          term,
          fc.nat(),
          fc.boolean(),
          fc.constantFrom([], ["naziv_subjekta"], ["-id"]),
          fc.oneof(fc.constantFrom(0, 400), fc.nat(SIZE)),
          async (t, cut, first, ordering, offset) => {
            const inside = t.slice(cut % t.length).toLowerCase();
            const q: Query = { terms: first ? [inside, t, t] : [t, inside], ordering, limit: 20, offset };
            expect(await getFrom(kind === "byte ranges" ? rangeSite : site, target(q))).toEqual(reference(q));
          },
        ),
        { numRuns: 40 },
      );
    }, 300_000);

    it("orders over date ranges and ties: the date, a town or a code first, a field after, a field again", async () => {
      // A range of more than half the list is read as the runs outside it, a shorter one as its run;
      // the date first walks only the run; a town's ties are told by a page's worth of its ranks or,
      // in a large town, by the rank file whole; each is drawn, and counted here.
      const seen = { long: 0, short: 0, picked: 0, whole: 0 };
      const rankReads = (host: SiteHost<Uint8Array>): SiteHost<Uint8Array> => {
        const { readRange } = host;
        if (readRange === undefined) return host;
        return {
          ...host,
          readRange: async (path, start, end) => {
            if (path.endsWith(".rank")) seen[end - start === SIZE * 4 ? "whole" : "picked"]++;
            return readRange(path, start, end);
          },
        };
      };
      const host = kind === "byte ranges" ? rankReads(rangeSite) : site;
      await fc.assert(
        fc.asyncProperty(
          fc.option(term, { nil: undefined }),
          date,
          fc.boolean(),
          fc.constantFrom(
            ["datum_postanka"],
            ["-datum_postanka"],
            ["datum_postanka", "naziv_subjekta"],
            ["-datum_postanka", "-institucija_grad"],
            ["datum_postanka", "-id"],
            ["institucija_grad", "-naziv_subjekta"],
            ["-institucija_grad", "datum_postanka"],
            ["naziv_subjekta", "naziv_subjekta", "-institucija_grad"],
            ["jedinstvena_oznaka", "naziv_subjekta"],
            ["-jedinstvena_oznaka", "-id"],
          ),
          fc.constantFrom(1, 20),
          fc.oneof(fc.constantFrom(0, 400), fc.nat(SIZE)),
          async (t, day, fromDay, ordering, limit, offset) => {
            const q: Query = { terms: t === undefined ? [] : [t], ...(fromDay ? { from: day } : { to: day }), ordering, limit, offset };
            let inRange = 0;
            for (const s of SUBJECTS) if (fromDay ? s.datum_postanka >= day : s.datum_postanka <= day) inRange++;
            seen[inRange > SIZE / 2 ? "long" : "short"]++;
            // The two queries differ in their offset alone: the same matches, in the same order, sorted once.
            const matches = sortedMatches(q);
            const expected = pageOf(matches, q.offset, q.limit);
            // A page in the matches as often as not: the drawn offset taken within them.
            const within = { ...q, offset: expected.count === 0 ? 0 : q.offset % expected.count };
            expect(await getFrom(host, target(q))).toEqual(expected);
            expect(await getFrom(host, target(within))).toEqual(pageOf(matches, within.offset, within.limit));
          },
        ),
        { numRuns: 60 },
      );
      expect(seen.long).toBeGreaterThan(0);
      expect(seen.short).toBeGreaterThan(0);
      if (kind === "byte ranges") {
        expect(seen.picked).toBeGreaterThan(0);
        expect(seen.whole).toBeGreaterThan(0);
      }
    }, 300_000);

    it("the detail route answers a subject only when it matches the search", async () => {
      await fc.assert(
        fc.asyncProperty(fc.nat(SIZE - 1), term, async (i, t) => {
          const s = SUBJECTS[i] as Subject;
          const found = FORMS[i]?.name.includes(form(t)) === true || FORMS[i]?.town.includes(form(t)) === true;
          const answer = await answerRequest(
            {
              method: "GET",
              target: `/api/subjekti/${s.id}/?search=${encodeURIComponent(t)}`,
              scheme: "http",
              host: "testserver",
              headers: new Headers(),
            },
            kind === "byte ranges" ? rangeSite : site,
          );
          expect(answer.kind === "send" && answer.status).toBe(found ? 200 : 404);
        }),
        { numRuns: 100 },
      );
    }, 120_000);
  },
);
