import { describe, expect, it } from "vitest";
import { collectionHeaders, commonHeaders } from "../../src/core/answer-headers.ts";

describe("answer headers", () => {
  it("commonHeaders -> security headers, CORS with ETag and Allow exposed, the given Cache-Control, the site's cache tag", () => {
    expect(commonHeaders("public, max-age=60")).toEqual([
      ["X-Content-Type-Options", "nosniff"],
      ["X-Frame-Options", "DENY"],
      ["Referrer-Policy", "same-origin"],
      ["Access-Control-Allow-Origin", "*"],
      ["Access-Control-Expose-Headers", "ETag, Allow"],
      ["Cache-Control", "public, max-age=60"],
      ["Netlify-Cache-Tag", "subjekti"],
      ["Cache-Tag", "subjekti"],
    ]);
  });

  it("commonHeaders with tags -> both tag headers carry them, comma-separated", () => {
    const headers = new Map(commonHeaders("no-cache", ["subjekti", "subjekti-chunk-3"]));
    expect([headers.get("Netlify-Cache-Tag"), headers.get("Cache-Tag")]).toEqual([
      "subjekti,subjekti-chunk-3",
      "subjekti,subjekti-chunk-3",
    ]);
  });

  // A list, not a Map: the order is what hosts write, and the ETag comes last.
  const COLLECTION = [
    ["Content-Type", "application/json"],
    ["Vary", "Accept"],
    ["Allow", "GET, HEAD, OPTIONS"],
    ["X-Content-Type-Options", "nosniff"],
    ["X-Frame-Options", "DENY"],
    ["Referrer-Policy", "same-origin"],
    ["Access-Control-Allow-Origin", "*"],
    ["Access-Control-Expose-Headers", "ETag, Allow"],
    ["Cache-Control", "no-cache"],
    ["Netlify-Cache-Tag", "subjekti"],
    ["Cache-Tag", "subjekti"],
  ];

  it.each([
    ["without an etag -> the collection's headers in order, no ETag", undefined, COLLECTION],
    ["with an etag -> the same headers, ETag last", '"abc"', [...COLLECTION, ["ETag", '"abc"']]],
  ])("collectionHeaders %s", (_name, etag, expected) => {
    expect(collectionHeaders("no-cache", etag)).toEqual(expected);
  });

  it("names every header once", () => {
    const names = collectionHeaders("no-cache", '"x"').map(([name]) => name.toLowerCase());
    expect(new Set(names).size).toBe(names.length);
  });
});
