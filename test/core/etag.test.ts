import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { matchesIfNoneMatch, pageEtag } from "../../src/core/etag.ts";

const TAG = pageEtag("0123456789abcdef", "https://x.org", "limit=20&offset=0");

describe("pageEtag", () => {
  it("is a strong, quoted tag starting with the first 12 characters of the site hash", () => {
    expect(TAG).toMatch(/^"0123456789ab-[0-9a-z]+"$/);
  });

  it.each([
    ["another site hash", pageEtag("ffff456789abcdef", "https://x.org", "limit=20&offset=0")],
    ["another base URL", pageEtag("0123456789abcdef", "https://y.org", "limit=20&offset=0")],
    ["another query", pageEtag("0123456789abcdef", "https://x.org", "limit=20&offset=20")],
  ])("differs for %s", (_name, other) => {
    expect(other).not.toBe(TAG);
  });

  // Golden values from an independent Python port of cyrb53 that gives the published values
  // (cyrb53("a") = 7929297801672961, cyrb53("revenge") = 4051478007546757): a change of the
  // hash or of what it covers changes every tag, and every cached page is revalidated.
  it.each([
    ["https://x.org", "limit=20&offset=0", 0, '"0123456789ab-6g3ju1a493"'],
    ["https://x.org", "limit=20&offset=0", 4, '"0123456789ab-1jjncugpuc2"'],
    ["http://testserver", "limit=20&offset=0&format=api", 0, '"0123456789ab-qzvpseok1w"'],
  ])("of %s ?%s indent %i -> %s (golden)", (base, query, indent, tag) => {
    expect(pageEtag("0123456789abcdef", base, query, indent)).toBe(tag);
  });

  it("differs for any two different queries, and for an indent", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.string({ maxLength: 40 }), fc.integer({ min: 1, max: 8 }), (a, b, indent) => {
        fc.pre(a !== b);
        expect(pageEtag("0123456789abcdef", "https://x.org", a)).not.toBe(pageEtag("0123456789abcdef", "https://x.org", b));
        expect(pageEtag("0123456789abcdef", "https://x.org", a, indent)).not.toBe(pageEtag("0123456789abcdef", "https://x.org", a));
      }),
    );
  });

  it("holds only characters allowed in an entity tag, for any hex site hash, base URL and query", () => {
    const hexHash = fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: 12, maxLength: 64 });
    fc.assert(
      fc.property(hexHash, fc.string({ unit: "binary" }), fc.string({ unit: "binary" }), (hash, base, query) => {
        expect(pageEtag(hash, base, query)).toMatch(/^"[\x21\x23-\x7e]*"$/u);
      }),
    );
  });
});

describe("matchesIfNoneMatch", () => {
  it.each([
    ["absent (null) -> false", null, false],
    ["absent (undefined) -> false", undefined, false],
    ["'' -> false", "", false],
    ["the tag -> true", TAG, true],
    ["'*' -> true", "*", true],
    ["' * ' -> true", " * ", true],
    ["W/ + the tag -> true (weak comparison)", `W/${TAG}`, true],
    ["a list holding the tag -> true", `"other", ${TAG}`, true],
    ["a list without it -> false", `"other", "more"`, false],
    ["the tag unquoted -> false", TAG.slice(1, -1), false],
    ["another tag -> false", '"0123456789ab-zzz"', false],
  ])("%s", (_name, header, expected) => {
    expect(matchesIfNoneMatch(header, TAG)).toBe(expected);
  });
});
