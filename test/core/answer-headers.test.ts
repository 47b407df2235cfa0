import { describe, expect, it } from "vitest";
import { collectionHeaders, commonHeaders } from "../../src/core/answer-headers.ts";

describe("answer headers", () => {
  it("commonHeaders -> security headers, CORS and the given Cache-Control", () => {
    expect(commonHeaders("public, max-age=60")).toEqual([
      ["X-Content-Type-Options", "nosniff"],
      ["X-Frame-Options", "DENY"],
      ["Referrer-Policy", "same-origin"],
      ["Access-Control-Allow-Origin", "*"],
      ["Cache-Control", "public, max-age=60"],
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
    ["Cache-Control", "no-cache"],
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
