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
    expect([headers.get("Netlify-Cache-Tag"), headers.get("Cache-Tag")]).toEqual(["subjekti,subjekti-chunk-3", "subjekti,subjekti-chunk-3"]);
  });

  it.each([
    ["without an etag -> no ETag header", undefined, undefined],
    ["with an etag -> ETag last", '"abc"', '"abc"'],
  ])("collectionHeaders %s", (_name, etag, expected) => {
    const headers = new Map(collectionHeaders("no-cache", etag));
    expect(headers.get("Content-Type")).toBe("application/json");
    expect(headers.get("Allow")).toBe("GET, HEAD, OPTIONS");
    expect(headers.get("Vary")).toBe("Accept");
    expect(headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(headers.get("X-Frame-Options")).toBe("DENY");
    expect(headers.get("Referrer-Policy")).toBe("same-origin");
    expect(headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(headers.get("Cache-Control")).toBe("no-cache");
    expect(headers.get("ETag")).toBe(expected);
  });

  it("names every header once", () => {
    const names = collectionHeaders("no-cache", '"x"').map(([name]) => name.toLowerCase());
    expect(new Set(names).size).toBe(names.length);
  });
});
