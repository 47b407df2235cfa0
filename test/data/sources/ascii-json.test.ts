/**
 * The escaped text of a block (ascii-json.ts) parses to the very values its UTF-8 decoding does,
 * and fails to parse where that does; a block it cannot escape safely gets no text.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { asciiArrayText } from "../../../src/data/sources/ascii-json.ts";

/** What parse-block.ts parsed before: the block decoded from UTF-8, in brackets. */
function decoded(bytes: Uint8Array): unknown {
  return parse(`[${Buffer.from(bytes).toString("utf8")}]`);
}

function parse(text: string): unknown {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return { error: error instanceof SyntaxError };
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

const sameAsDecoded = (bytes: Uint8Array): void => {
  for (const view of views(bytes)) {
    const text = asciiArrayText(view);
    if (text === undefined) continue;
    expect(/^[\x00-\x7f]*$/.test(text)).toBe(true);
    expect(parse(text)).toEqual(decoded(view));
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
    expect(decoded(Buffer.from('"\\č"'))).toEqual({ error: true });
  });

  it("keeps ASCII as it is, whatever its length against the word scan", () => {
    for (let n = 0; n < 12; n++) {
      const bytes = Buffer.from(`"${"a".repeat(n)}"`);
      for (const view of views(bytes)) expect(asciiArrayText(view)).toBe(`["${"a".repeat(n)}"]`);
    }
  });

  it("parses as the decoded block does: records, broken JSON and stray bytes alike", () => {
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
    fc.assert(fc.property(fc.oneof(text, records, stray), sameAsDecoded), { numRuns: 3000 });
  });
});
