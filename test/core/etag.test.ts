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

  it("is a pure function of its inputs", () => {
    expect(pageEtag("0123456789abcdef", "https://x.org", "limit=20&offset=0")).toBe(TAG);
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
