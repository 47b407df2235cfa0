/**
 * A page of matches in an order of one to three fields, then the id either way, as order-page.ts
 * takes it from the order files (a walk of the first field's permutation, or a sort of the
 * matches' ranks, each ordering only the ties that the page meets), is the page of the matches
 * sorted plainly, field by field: for lists of any size, fields of few or many distinct values
 * (ties of every size), any set of matches (every subject, a list, a bitmap), any offset and limit.
 * Both roads are taken (the walk reads the permutation, the sort does not).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { GroupStarts } from "../../../src/core/search/group-bounds.ts";
import { type FieldOrder, type OrderReader, pageInOrder, type Span } from "../../../src/core/search/order-page.ts";
import { ORDER_FIELDS, type OrderField, type OrderKey } from "../../../src/core/search/read-filters.ts";
import { decodeRows, encodeRows, type RowSet, toList } from "../../../src/core/search/row-sets.ts";

/**
 * A list's order files as the build writes them (order-files.ts), from each field's values (the
 * codes distinct, as the data rules hold them). The dates' groups are listed where each begins, as
 * date.starts does, the names' and towns' as a bitmap over the ascending order (`<f>.groups`).
 */
function orderFiles(
  values: Readonly<Record<OrderField, readonly number[]>>,
  count: number,
): OrderReader & { walked: number; wholeRanks: number; ascending(field: OrderField): Uint32Array } {
  const ranks = new Map<OrderField, Uint32Array>();
  const perms = new Map<string, Uint32Array>();
  for (const field of ORDER_FIELDS) {
    const own = values[field];
    const distinct = [...new Set(own)].sort((a, b) => a - b);
    const rank = Uint32Array.from(own, (v) => distinct.indexOf(v));
    ranks.set(field, rank);
    const places = Array.from({ length: count }, (_, i) => i);
    perms.set(`${field} asc`, Uint32Array.from([...places].sort((a, b) => (rank[a] as number) - (rank[b] as number) || a - b)));
    perms.set(`${field} desc`, Uint32Array.from([...places].sort((a, b) => (rank[b] as number) - (rank[a] as number) || a - b)));
  }
  const reader = {
    count,
    walked: 0,
    wholeRanks: 0,
    ascending: (field: OrderField) => perms.get(`${field} asc`) as Uint32Array,
    async permutation(key: OrderKey, start: number, end: number): Promise<Uint32Array> {
      reader.walked++;
      // A copy, as a range read is.
      return (perms.get(`${key.field} ${key.descending ? "desc" : "asc"}`) as Uint32Array).slice(start, end);
    },
    async ranks(field: OrderField): Promise<Uint32Array> {
      reader.wholeRanks++;
      return ranks.get(field) as Uint32Array;
    },
    async ranksOf(field: OrderField, places: ArrayLike<number>): Promise<ArrayLike<number>> {
      const rank = ranks.get(field) as Uint32Array;
      return Array.from(places, (place) => rank[place] as number);
    },
    async groupStarts(field: OrderField): Promise<GroupStarts | null> {
      if (field === "jedinstvena_oznaka") return null;
      const rank = ranks.get(field) as Uint32Array;
      const perm = perms.get(`${field} asc`) as Uint32Array;
      const starts = Array.from(perm.keys()).filter((at) => at === 0 || rank[perm[at] as number] !== rank[perm[at - 1] as number]);
      if (field === "datum_postanka") return { kind: "list", starts: Uint32Array.from([...starts, count]) };
      const bits = new Uint8Array(Math.ceil(count / 8));
      for (const at of starts) bits[at >>> 3] = (bits[at >>> 3] as number) | (1 << (at & 7));
      return { kind: "bits", bits };
    },
  };
  return reader;
}

/** The page by a plain sort: field by field, then the id. */
function reference(values: Readonly<Record<OrderField, readonly number[]>>, places: readonly number[], order: FieldOrder): number[] {
  return [...places].sort((a, b) => {
    for (const { field, descending } of order.keys) {
      const c = (values[field][a] as number) - (values[field][b] as number);
      if (c !== 0) return descending ? -c : c;
    }
    return order.idDescending ? b - a : a - b;
  });
}

const key: fc.Arbitrary<OrderKey> = fc.record({ field: fc.constantFrom(...ORDER_FIELDS), descending: fc.boolean() });

const page = fc
  .record({ count: fc.integer({ min: 1, max: 400 }), distinct: fc.constantFrom(1, 2, 5, 40, 1000), every: fc.boolean() })
  .chain(({ count, distinct, every }) =>
    fc.record({
      count: fc.constant(count),
      values: fc.record(
        Object.fromEntries(
          ORDER_FIELDS.map((f) => [
            f,
            f === "jedinstvena_oznaka"
              ? fc.shuffledSubarray([...Array(count).keys()], { minLength: count, maxLength: count })
              : fc.array(fc.nat(distinct), { minLength: count, maxLength: count }),
          ]),
        ) as Record<OrderField, fc.Arbitrary<number[]>>,
      ),
      // Every subject, or a subset of any density (stored as a list or, past count/8, a bitmap).
      places: every
        ? fc.constant(null)
        : fc
            .oneof(fc.nat(4), fc.nat(100))
            .chain((percent) =>
              fc
                .array(fc.nat(99), { minLength: count, maxLength: count })
                .map((draws) => draws.flatMap((draw, place) => (draw < percent ? [place] : []))),
            ),
      order: fc.record({ keys: fc.array(key, { minLength: 1, maxLength: 3 }), idDescending: fc.boolean() }),
      // A run of the dates' ascending order that holds every match (a date range), as two ends in thousandths of the list.
      dated: fc.option(fc.tuple(fc.nat(1000), fc.nat(1000)), { nil: null }),
      // Taken modulo one more than the matches: a page in them, or just past them.
      offset: fc.nat(count),
      limit: fc.integer({ min: 1, max: 120 }),
    }),
  );

describe("pageInOrder", () => {
  it("is the page of the matches sorted field by field, then by id", async () => {
    const roads = { walk: 0, sort: 0 };
    await fc.assert(
      fc.asyncProperty(page, async ({ count, values, places: drawnPlaces, order, dated, offset: drawn, limit }) => {
        const files = orderFiles(values, count);
        // With a date range, the matches are those within its run of date.asc, and the walks are told so.
        let span: Span | null = null;
        let places = drawnPlaces;
        if (dated !== null && places !== null) {
          let [start, end] = dated.map((k) => Math.floor((k * count) / 1000)).sort((a, b) => a - b) as [number, number];
          // A run of whole dates: its ends where the date changes.
          const asc = files.ascending("datum_postanka");
          const date = (at: number): number | undefined => values.datum_postanka[asc[at] as number];
          while (start > 0 && start < count && date(start - 1) === date(start)) start--;
          while (end > start && end < count && date(end - 1) === date(end)) end++;
          span = { field: "datum_postanka", start, end };
          const inRun = new Set(asc.subarray(start, end));
          places = places.filter((place) => inRun.has(place));
        }
        const set: RowSet = places === null ? { kind: "all", count } : decodeRows(encodeRows(places, count));
        const matches = places ?? [...toList(set)];
        const offset = drawn % (matches.length + 1);
        const want = Math.min(matches.length, offset + limit);
        const found = await pageInOrder(set, order, offset, want, files, span);
        expect(found).toEqual(reference(values, matches, order).slice(offset, want));
        if (places !== null && offset < want) roads[files.walked > 0 ? "walk" : "sort"]++;
      }),
      { numRuns: 600 },
    );
    expect(roads.walk).toBeGreaterThan(20);
    expect(roads.sort).toBeGreaterThan(20);
  });

  it.each([
    ["a town's many ties, a date descending after it, deep in the page", [{ field: "institucija_grad", descending: false }], true],
    ["the name descending, a date descending after it", [{ field: "naziv_subjekta", descending: true }], false],
  ] as const)("%s", async (_, keys, idDescending) => {
    // 1,000 subjects in 7 towns: the groups are larger than a page, the page starts inside one.
    const count = 1000;
    const values = Object.fromEntries(
      ORDER_FIELDS.map((f, k) => [
        f,
        Array.from({ length: count }, (_, i) => (f === "jedinstvena_oznaka" ? (i * 7919) % count : (i * (k + 3)) % 7)),
      ]),
    ) as Record<OrderField, number[]>;
    const order: FieldOrder = { keys: [...keys, { field: "datum_postanka", descending: true }], idDescending };
    const places = Array.from({ length: count }, (_, i) => i).filter((i) => i % 3 !== 0);
    for (const [offset, want] of [
      [0, 20],
      [150, 170],
      [500, 566],
      [640, 666],
    ] as const) {
      const found = await pageInOrder(decodeRows(encodeRows(places, count)), order, offset, want, orderFiles(values, count));
      expect(found).toEqual(reference(values, places, order).slice(offset, want));
    }
  });
});
