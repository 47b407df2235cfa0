/**
 * The escaped text of a block (ascii-json.ts) is the block decoded from UTF-8, in brackets, with
 * each UTF-16 unit past ASCII written as its `\uXXXX` escape, and so parses to the very values the
 * decoding does; it fails to parse where that does; a block it cannot escape safely (not UTF-8, or
 * a character past ASCII after a backslash) gets no text.
 *
 * The oracle is that text, written here independently of the scan, not JSON.parse of the escaped
 * text against JSON.parse of the decoded one: V8 13.6 (Node 24) can read an escaped key (`"\u010d"`,
 * `"\""`) back as a like key with a backslash that an earlier parse held (nodejs/node#63785), so
 * random records with backslashes and letters past ASCII in their keys made the oracle, not the
 * text, wrong. Whether a text parses at all the bug does not change, so that is still compared.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { asciiArrayText } from "../../../src/data/sources/ascii-json.ts";

/** Decodes UTF-8 or throws; a byte-order mark is kept (it is a character past ASCII like any other). */
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** What asciiArrayText must give for `bytes`, written the plain way: decode, refuse, escape each unit by a regular expression. */
function expectedText(bytes: Uint8Array): string | undefined {
  let text: string;
  try {
    text = STRICT_UTF8.decode(bytes);
  } catch {
    return undefined;
  }
  if (/\\[^\x00-\x7f]/.test(text)) return undefined;
  return `[${text.replace(/[^\x00-\x7f]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`)}]`;
}

/** Whether `text` is JSON (the V8 bug reads some keys wrongly, but never makes JSON of what is not, or the reverse). */
function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch (error) {
    if (error instanceof SyntaxError) return false;
    throw error;
  }
}

/** `bytes` at `offset` (1 to 3) in a larger buffer: a part of a block begins anywhere, and the word scan starts at its first aligned byte. */
function unaligned(bytes: Uint8Array, offset = 1): Uint8Array {
  const buffer = new Uint8Array(bytes.length + offset);
  buffer.set(bytes, offset);
  return buffer.subarray(offset);
}

/** `bytes` aligned and at each of the three offsets that are not. */
const views = (bytes: Uint8Array): Uint8Array[] => [bytes, unaligned(bytes, 1), unaligned(bytes, 2), unaligned(bytes, 3)];

/** The block's text is the expected one, at every offset; `parsed`: and it parses exactly when the decoded block does. */
const sameAsExpected = (bytes: Uint8Array, parsed = true): void => {
  for (const view of views(bytes)) {
    const text = asciiArrayText(view);
    expect(text).toBe(expectedText(view));
    if (text === undefined) continue;
    expect(/^[\x00-\x7f]*$/.test(text)).toBe(true);
    if (!parsed) continue;
    expect(parses(text)).toBe(parses(`[${Buffer.from(view).toString("utf8")}]`));
  }
};

describe("asciiArrayText", () => {
  it("escapes every character past ASCII, in and past the BMP", () => {
    const bytes = Buffer.from(JSON.stringify({ a: "čćžšđ ČĆŽŠĐ €\u2028 😀" }) + ',"x"');
    const text = asciiArrayText(bytes);
    expect(text).toBe(String.raw`[{"a":"\u010d\u0107\u017e\u0161\u0111 \u010c\u0106\u017d\u0160\u0110 \u20ac\u2028 \ud83d\ude00"},"x"]`);
    expect(JSON.parse(text as string)).toEqual(JSON.parse(`[${bytes.toString("utf8")}]`));
  });

  it("gives no text for bytes that are not UTF-8, or a character past ASCII after a backslash", () => {
    expect(asciiArrayText(Buffer.from([0x22, 0xc4, 0x22]))).toBeUndefined();
    // `"\č"` is no JSON; `"\\u010d"` would be.
    expect(asciiArrayText(Buffer.from('"\\č"'))).toBeUndefined();
    expect(parses('["\\č"]')).toBe(false);
  });

  it('escapes the keys Node 24 misread after a like one: `č` and `"` after `\\` (the old oracle failed on these)', () => {
    // Not parsed here: a parse of the key `\\` would leave it for a later parse in this worker to misread.
    sameAsExpected(Buffer.from('{"a":0,"\\\\":0}'), false);
    sameAsExpected(Buffer.from('{"a":0,"č":0},{"a":0,"\\"":0}'), false);
    expect(asciiArrayText(Buffer.from('{"a":0,"č":0}'))).toBe(String.raw`[{"a":0,"\u010d":0}]`);
  });

  it("keeps ASCII as it is, whatever its length against the word scan", () => {
    for (let n = 0; n < 12; n++) {
      const bytes = Buffer.from(`"${"a".repeat(n)}"`);
      for (const view of views(bytes)) expect(asciiArrayText(view)).toBe(`["${"a".repeat(n)}"]`);
    }
  });

  it("is the decoded block escaped, and parses where it does: records, broken JSON and stray bytes alike", () => {
    const piece = fc.oneof(
      fc.constantFrom(
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        '"',
        "\\",
        "\\u",
        "\\u0",
        "0",
        "1e5",
        "-",
        " ",
        "\n",
        "true",
        "null",
        "č",
        "ž",
        "😀",
        "\u2028",
      ),
      fc.string({ unit: "grapheme", maxLength: 4 }),
    );
    const text = fc.array(piece, { maxLength: 30 }).map((parts) => Buffer.from(parts.join("")));
    const records = fc
      .array(fc.dictionary(fc.string({ unit: "grapheme" }), fc.oneof(fc.string({ unit: "grapheme" }), fc.integer(), fc.boolean())), {
        maxLength: 5,
      })
      .map((values) => Buffer.from(values.map((v) => JSON.stringify(v)).join(",")));
    const stray = fc.uint8Array({ maxLength: 20 });
    // Records (keys with backslashes and letters past ASCII among them) are JSON by construction: only
    // their text is compared, so no JSON.parse here holds such keys for a later parse to misread.
    const cases = fc.oneof(
      text.map((bytes) => ({ bytes, parsed: true })),
      records.map((bytes) => ({ bytes, parsed: false })),
      stray.map((bytes) => ({ bytes, parsed: true })),
    );
    fc.assert(
      fc.property(cases, ({ bytes, parsed }) => sameAsExpected(bytes, parsed)),
      { numRuns: 3000 },
    );
  });
});
