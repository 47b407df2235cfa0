/**
 * What `build --json` lists as changed (src/site/site-changes.ts): the URLs up to a limit, the
 * first in sorted order, and the rest counted, in memory for twice the limit however many changed.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chunkTag, SITE_TAG } from "../../src/core/cache-tags.ts";
import type { Manifest } from "../../src/core/manifest.ts";
import { FirstUrls, siteChanges } from "../../src/site/site-changes.ts";

/** The first `limit` of `urls` as the report lists them, and how many are left out. */
function firstOf(urls: readonly string[], limit: number): { urls: string[]; urlsLeftOut: number } {
  const selection = new FirstUrls(limit);
  for (const url of urls) selection.add(url);
  return selection.done();
}

describe("FirstUrls", () => {
  it.each([
    { name: "none -> none, 0 left out", urls: [], limit: 3, expected: { urls: [], urlsLeftOut: 0 } },
    {
      name: "fewer than the limit -> all, sorted, 0 left out",
      urls: ["c", "a", "b"],
      limit: 5,
      expected: { urls: ["a", "b", "c"], urlsLeftOut: 0 },
    },
    { name: "as many as the limit -> all, 0 left out", urls: ["b", "a"], limit: 2, expected: { urls: ["a", "b"], urlsLeftOut: 0 } },
    {
      name: "one more than the limit -> the first, 1 left out",
      urls: ["b", "c", "a"],
      limit: 2,
      expected: { urls: ["a", "b"], urlsLeftOut: 1 },
    },
    { name: "the smallest last -> still listed", urls: ["e", "d", "c", "b", "a"], limit: 1, expected: { urls: ["a"], urlsLeftOut: 4 } },
    { name: "a URL twice -> listed once, counted once", urls: ["b", "a", "b"], limit: 5, expected: { urls: ["a", "b"], urlsLeftOut: 0 } },
  ])("$name", ({ urls, limit, expected }) => {
    expect(firstOf(urls, limit)).toEqual(expected);
  });

  it("any distinct URLs in any order, any limit: the first `limit` sorted, the rest counted", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string(), { maxLength: 300 }), fc.integer({ min: 1, max: 40 }), (urls, limit) => {
        const sorted = urls.toSorted();
        expect(firstOf(urls, limit)).toEqual({ urls: sorted.slice(0, limit), urlsLeftOut: Math.max(0, urls.length - limit) });
      }),
      { numRuns: 300 },
    );
  });
});

describe("siteChanges", () => {
  const manifest = { baseUrl: "https://s.example", count: 100_000 } as unknown as Manifest;

  it("many changed pages: the first URLs listed and the rest counted, every chunk's tag listed", () => {
    // 5,000 pages of limit 20 in the plain form, and the first 50 records chunks, as a generator: never a list.
    function* written(): Generator<string> {
      for (let page = 4999; page >= 0; page--) yield `pages/plain/20/${Math.floor(page / 1000)}/${page}.json`;
      for (let chunk = 0; chunk < 50; chunk++) yield `records/0/${chunk}.ndjson`;
    }
    const changes = siteChanges(null, manifest, written(), 3);
    expect(changes.urls).toEqual([
      "https://s.example/api/subjekti/",
      "https://s.example/api/subjekti/?limit=20",
      "https://s.example/api/subjekti/?limit=20&offset=100",
    ]);
    // 5,000 pages, page 0 by two URLs.
    expect(changes.urlsLeftOut).toBe(5001 - 3);
    expect(changes.tags).toEqual([SITE_TAG, ...Array.from({ length: 50 }, (_, chunk) => chunkTag(chunk))].sort());
  });
});
