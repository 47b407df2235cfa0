/** The feed's line cursor: the lines of any stream, cut anywhere, are the text split at `\n` alone. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LineCursor } from "../../src/common/line-cursor.ts";

async function linesOf(pieces: Uint8Array[]): Promise<string[]> {
  const cursor = await LineCursor.open(
    (async function* () {
      yield* pieces;
    })(),
  );
  const lines: string[] = [];
  const decoder = new TextDecoder();
  while (cursor.line !== undefined) {
    lines.push(decoder.decode(cursor.line));
    if (!cursor.step()) await cursor.more();
  }
  return lines;
}

describe("LineCursor", () => {
  it("U+2028 and U+2029 inside a line do not end it (node:readline on Node 24 breaks there)", async () => {
    const text = '{"id":1,"n":"a\u2028b"}\n{"id":2,"n":"c\u2029d"}\n';
    expect(await linesOf([new TextEncoder().encode(text)])).toEqual(['{"id":1,"n":"a\u2028b"}', '{"id":2,"n":"c\u2029d"}']);
  });

  it("any text cut into any pieces -> the text split at \\n (the last line's newline optional)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ unit: fc.constantFrom("a", "č", "\n", "\u2028", "\r", "}"), maxLength: 30 }), { maxLength: 8 }),
        fc.nat(),
        async (parts, seed) => {
          const bytes = new TextEncoder().encode(parts.join(""));
          const pieces: Uint8Array[] = [];
          for (let at = 0, step = (seed % 7) + 1; at < bytes.length; at += step, step = ((step * 5 + seed) % 11) + 1)
            pieces.push(bytes.subarray(at, at + step));
          const text = parts.join("");
          const expected = text === "" ? [] : (text.endsWith("\n") ? text.slice(0, -1) : text).split("\n");
          expect(await linesOf(pieces)).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a 32 MiB line read in 4 KiB chunks -> one line, each byte copied once (it was copied on every chunk: minutes)", async () => {
    const chunk = new Uint8Array(4096).fill(0x61);
    const count = 8192;
    const cursor = await LineCursor.open(
      (async function* () {
        for (let i = 0; i < count; i++) yield chunk;
        yield new Uint8Array([0x0a, 0x62]);
      })(),
    );
    expect(cursor.line?.length).toBe(count * chunk.length);
    expect(cursor.line?.every((byte) => byte === 0x61)).toBe(true);
    await cursor.next();
    expect(cursor.line).toEqual(new Uint8Array([0x62]));
    await cursor.next();
    expect(cursor.line).toBeUndefined();
  });

  it("close before the end -> the stream's generator is ended (its cleanup runs), no line left", async () => {
    let cleaned = false;
    const cursor = await LineCursor.open(
      (async function* () {
        try {
          yield new TextEncoder().encode("a\nb\n");
          yield new TextEncoder().encode("c\n");
        } finally {
          cleaned = true;
        }
      })(),
    );
    expect(cursor.line).toEqual(new TextEncoder().encode("a"));
    await cursor.close();
    expect(cleaned).toBe(true);
    expect(cursor.line).toBeUndefined();
  });
});
