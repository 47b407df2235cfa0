import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { base36, bytesEtag, contentEtag, etagAt, etagsText, matchesIfNoneMatch } from "../../src/core/etag.ts";

const UTF8 = new TextEncoder();
const TAG = contentEtag('{"count":1}');

describe("bytesEtag", () => {
  // Golden values, computed apart from this code (a few lines of Python over the same
  // definition: cyrb53's lanes fed little-endian 32-bit words, then the last bytes one by one; one
  // byte alone is cyrb53's own published cyrb53("a") = 7929297801672961). A change of the hash
  // changes every tag, and every cached answer is fetched again.
  it.each([
    ["a", `"${(7929297801672961).toString(36)}-1"`],
    ["revenge", `"${(8834805942431401).toString(36)}-7"`],
    ["0123456789abcdef", `"${(8834678123501541).toString(36)}-g"`],
  ])("of %s -> %s (golden)", (text, tag) => {
    expect(bytesEtag(UTF8.encode(text))).toBe(tag);
  });

  it("writes the hash in base 36 as toString(36) does, over the hash's whole range and at each digit's carry", () => {
    const edges = [0, 1, 35, 36, 36 ** 5 - 1, 36 ** 5, 36 ** 5 + 1, 36 ** 6, 36 ** 10 - 1, 36 ** 10, 2 ** 32, 2 ** 53 - 1];
    for (const n of edges) expect(base36(n)).toBe(n.toString(36));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 52 }), fc.double({ min: 0, max: 1, noNaN: true }), (bits, fraction) => {
        const n = Math.min(2 ** 53 - 1, Math.floor(fraction * 2 ** bits));
        expect(base36(n)).toBe(n.toString(36));
      }),
      { numRuns: 2000 },
    );
  });

  it("is the same for the same bytes at any alignment (a view into a larger buffer is read word by word)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.integer({ min: 0, max: 7 }), (bytes, shift) => {
        const padded = new Uint8Array(bytes.length + shift);
        padded.set(bytes, shift);
        expect(bytesEtag(padded.subarray(shift))).toBe(bytesEtag(bytes));
      }),
    );
  });

  it("is the tag of the text's UTF-8 bytes, for any text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (text) => {
        expect(contentEtag(text)).toBe(bytesEtag(UTF8.encode(text)));
      }),
    );
  });

  it("differs for any two different byte strings of the same length (here: one byte changed)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 200 }), fc.nat(), fc.integer({ min: 1, max: 255 }), (bytes, at, delta) => {
        const other = Uint8Array.from(bytes);
        const i = at % bytes.length;
        other[i] = ((other[i] ?? 0) + delta) % 256;
        expect(bytesEtag(other)).not.toBe(bytesEtag(bytes));
      }),
    );
  });

  it("holds only characters allowed in a strong entity tag", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        expect(bytesEtag(bytes)).toMatch(/^"[\x21\x23-\x7e]+"$/u);
      }),
    );
  });
});

describe("etagAt", () => {
  const list = etagsText(['"a-1"', '"b-2"', '"c-3"']);
  it.each([
    [0, '"a-1"'],
    [1, '"b-2"'],
    [2, '"c-3"'],
    [3, null],
  ])("line %i of a list of three -> %s", (index, tag) => {
    expect(etagAt(list, index)).toBe(tag);
  });
  it("reads no tag from an empty, cut or garbled list", () => {
    expect(etagAt("", 0)).toBeNull();
    expect(etagAt('"a-1"', 0)).toBeNull();
    expect(etagAt("a-1\n", 0)).toBeNull();
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
