import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildLinks, COLLECTION_PATH, compareCodePoints, encodeLinkQuery, extraParams, quotePlus } from "../../src/core/build-links.ts";
import { parseQuery, type QueryParam, readPaging, unquotePlus } from "../../src/core/request/read-query.ts";

const BASE = "https://example.org";
const link = (query: string): string => `${BASE}${COLLECTION_PATH}?${query}`;

/** Any single code point, lone surrogates included (fast-check's "binary" unit leaves them out). */
const anyCodePoint = fc.integer({ min: 0, max: 0x10ffff }).map((cp) => String.fromCodePoint(cp));
const anyString = fc.string({ unit: anyCodePoint, maxLength: 12 });
const wellFormed = fc.string({ unit: "binary", maxLength: 24 });

describe("quotePlus", () => {
  it.each([
    ["'' -> ''", "", ""],
    ["'abc' -> 'abc'", "abc", "abc"],
    ["'A-Z a-z 0-9 _.-~' kept", "AZaz09_.-~", "AZaz09_.-~"],
    ["'x y' -> 'x+y'", "x y", "x+y"],
    ["'a/b' -> 'a%2Fb'", "a/b", "a%2Fb"],
    ["'+' -> '%2B'", "+", "%2B"],
    ["'%' -> '%25'", "%", "%25"],
    ["'č' -> '%C4%8D' (UTF-8, uppercase hex)", "\u010d", "%C4%8D"],
    ["'😀' -> '%F0%9F%98%80' (astral)", "\u{1f600}", "%F0%9F%98%80"],
    ["'\\0' -> '%00'", "\0", "%00"],
    ['"\'()!*" all escaped', "'()!*", "%27%28%29%21%2A"],
  ])("%s", (_name, input, expected) => {
    expect(quotePlus(input)).toBe(expected);
  });

  it("writes only A-Z a-z 0-9 _ . - ~ + and %XX (uppercase hex)", () => {
    fc.assert(
      fc.property(wellFormed, (s) => {
        expect(quotePlus(s)).toMatch(/^(?:[A-Za-z0-9_.~+-]|%[0-9A-F]{2})*$/);
      }),
    );
  });

  it("round-trips through unquotePlus for well-formed strings", () => {
    fc.assert(
      fc.property(wellFormed, (s) => {
        expect(unquotePlus(quotePlus(s))).toBe(s);
      }),
    );
  });
});

describe("compareCodePoints", () => {
  it.each([
    ["'a' < 'b'", "a", "b", -1],
    ["'b' > 'a'", "b", "a", 1],
    ["'a' = 'a'", "a", "a", 0],
    ["'a' < 'ab' (prefix first)", "a", "ab", -1],
    ["'Z' < 'a' (uppercase first)", "Z", "a", -1],
    ["'\\uFFFD' < '😀' (UTF-16 would say the opposite)", "\ufffd", "\u{1f600}", -1],
    ["'\\uE000' < '😀'", "\ue000", "\u{1f600}", -1],
    ["'😀' < '😁'", "\u{1f600}", "\u{1f601}", -1],
    // Regression: a lone surrogate is its own code point (D800), below U+E000, not above it.
    ["lone '\\uD800' < '\\uE000'", "\ud800", "\ue000", -1],
    ["lone '\\uDC00' < '😀' (U+1F600)", "\udc00", "\u{1f600}", -1],
  ])("%s", (_name, a, b, sign) => {
    expect(Math.sign(compareCodePoints(a, b))).toBe(sign);
  });

  it("agrees with comparing Array.from(s, codePointAt) lexicographically", () => {
    const reference = (a: string, b: string): number => {
      const x = Array.from(a, (c) => c.codePointAt(0) ?? 0);
      const y = Array.from(b, (c) => c.codePointAt(0) ?? 0);
      for (let i = 0; i < Math.min(x.length, y.length); i++) {
        if (x[i] !== y[i]) return Math.sign((x[i] ?? 0) - (y[i] ?? 0));
      }
      return Math.sign(x.length - y.length);
    };
    fc.assert(
      fc.property(anyString, anyString, (a, b) => {
        expect(Math.sign(compareCodePoints(a, b))).toBe(reference(a, b));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("encodeLinkQuery", () => {
  const p = (...pairs: QueryParam[]): QueryParam[] => pairs;
  it.each([
    ["no extras, offset null -> 'limit=20'", p(), 20, null, "limit=20"],
    ["no extras, offset 40 -> 'limit=20&offset=40'", p(), 20, 40n, "limit=20&offset=40"],
    ["format=api sorts first", p(["format", "api"]), 20, 40n, "format=api&limit=20&offset=40"],
    ["repeated keys keep request order", p(["b", "2"], ["a", "x"], ["b", "1"]), 5, 5n, "a=x&b=2&b=1&limit=5&offset=5"],
    ["blank value keeps its '='", p(["flag", ""]), 5, null, "flag=&limit=5"],
    ["empty key sorts first as '=x'", p(["z", "1"], ["", "x"]), 5, null, "=x&limit=5&z=1"],
    ["uppercase before lowercase", p(["zeta", "1"], ["Alpha", "x y"]), 5, null, "Alpha=x+y&limit=5&zeta=1"],
    ["U+FFFD key before U+1F600 key", p(["\u{1f600}", "1"], ["\ufffd", "2"]), 5, null, "limit=5&%EF%BF%BD=2&%F0%9F%98%80=1"],
    ["offset 10**30 written in digits", p(), 20, 10n ** 30n, `limit=20&offset=1${"0".repeat(30)}`],
  ])("%s", (_name, extras, limit, offset, expected) => {
    expect(encodeLinkQuery(extras, limit, offset)).toBe(expected);
  });
});

describe("buildLinks", () => {
  it.each([
    ["offset 0 of 2000 -> next 20, previous null", "", 2000, link("limit=20&offset=20"), null],
    ["offset 20 of 2000 -> previous without offset", "offset=20", 2000, link("limit=20&offset=40"), link("limit=20")],
    ["offset 40 of 2000 -> previous offset 20", "offset=40", 2000, link("limit=20&offset=60"), link("limit=20&offset=20")],
    ["offset 3 limit 5 -> previous without offset (3-5 <= 0)", "offset=3&limit=5", 2000, link("limit=5&offset=8"), link("limit=5")],
    ["offset 5 limit 5 -> previous without offset (5-5 = 0)", "offset=5&limit=5", 2000, link("limit=5&offset=10"), link("limit=5")],
    ["offset 6 limit 5 -> previous offset 1", "offset=6&limit=5", 2000, link("limit=5&offset=11"), link("limit=5&offset=1")],
    ["offset 1995 limit 5 of 2000 -> next null (1995+5 >= 2000)", "offset=1995&limit=5", 2000, null, link("limit=5&offset=1990")],
    ["offset 1994 limit 5 of 2000 -> next 1999", "offset=1994&limit=5", 2000, link("limit=5&offset=1999"), link("limit=5&offset=1989")],
    ["offset 2005 of 2000 -> previous 1985 (past the end)", "offset=2005", 2000, null, link("limit=20&offset=1985")],
    [
      "offset 10**30 -> previous 10**30-20",
      "offset=1" + "0".repeat(30),
      2000,
      null,
      link(`limit=20&offset=${(10n ** 30n - 20n).toString()}`),
    ],
    ["empty list, offset 0 -> both null", "", 0, null, null],
    ["empty list, offset 25 -> previous offset 5", "offset=25", 0, null, link("limit=20&offset=5")],
    [
      "contract example -> next with every parameter re-sorted and re-encoded",
      "limit=5&format=api&zeta=1&Alpha=x%20y&e=%C4%8D&s=a/b&flag",
      2000,
      link("Alpha=x+y&e=%C4%8D&flag=&format=api&limit=5&offset=5&s=a%2Fb&zeta=1"),
      null,
    ],
    [
      "limit 5000 -> links carry limit=1000 (the limit used)",
      "limit=5000&offset=1000",
      3000,
      link("limit=1000&offset=2000"),
      link("limit=1000"),
    ],
    ["limit=0 -> links carry limit=20", "limit=0&offset=40", 2000, link("limit=20&offset=60"), link("limit=20&offset=20")],
    ["repeated limit -> one limit, the last", "limit=5&limit=7&offset=7", 2000, link("limit=7&offset=14"), link("limit=7")],
  ])("%s", (_name, query, count, next, previous) => {
    const params = parseQuery(query);
    const { limit, offset } = readPaging(params, 1000);
    expect(buildLinks(BASE, extraParams(params), limit, offset, count)).toEqual({ next, previous });
  });

  it("following next from any start visits [offset, count) once, in order", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 0, max: 320 }),
        (count, limitAsked, start) => {
          const visited: number[] = [];
          let query = `limit=${limitAsked}&offset=${start}`;
          for (let hops = 0; hops <= count + 1; hops++) {
            const params = parseQuery(query);
            const { limit, offset } = readPaging(params, 1000);
            const end = Math.min(Number(offset) + limit, count);
            for (let i = Number(offset); i < end; i++) visited.push(i);
            const { next } = buildLinks(BASE, extraParams(params), limit, offset, count);
            if (next === null) break;
            query = new URL(next).search.slice(1);
          }
          const expected = Array.from({ length: Math.max(0, count - start) }, (_, i) => start + i);
          expect(visited).toEqual(expected);
        },
      ),
    );
  });

  it("previous of next is the original page when the offset is a multiple of the limit", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 0, max: 50 }),
        (count, limit, page) => {
          const offset = BigInt(page * limit);
          const { next } = buildLinks(BASE, [], limit, offset, count);
          if (next === null) return;
          const nextParams = parseQuery(new URL(next).search.slice(1));
          const nextPaging = readPaging(nextParams, 1000);
          const { previous } = buildLinks(BASE, extraParams(nextParams), nextPaging.limit, nextPaging.offset, count);
          expect(previous).toBe(offset === 0n ? link(`limit=${limit}`) : link(`limit=${limit}&offset=${offset}`));
        },
      ),
    );
  });
});
