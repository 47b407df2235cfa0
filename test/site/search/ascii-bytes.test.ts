/**
 * ASCII text made as bytes (site/search/ascii-bytes.ts) and a token's payload written through it
 * (key-shards.ts writeTokenPayload): the same text as template strings make, grown past any buffer.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { INLINE_ROWS } from "../../../src/core/search/search-layout.ts";
import { AsciiBytes } from "../../../src/site/search/ascii-bytes.ts";
import { tokenPayload } from "../../../src/site/search/key-shards.ts";

describe("AsciiBytes", () => {
  it("writes whole numbers as `${n}` does, and texts and bytes as given, across growths", () => {
    const numbers = fc.oneof(fc.nat(), fc.constantFrom(0, 9, 10, 99, 100, 2 ** 31, 2 ** 32, 2 ** 53 - 1), fc.nat({ max: 2 ** 53 - 1 }));
    const part = fc.oneof(
      numbers.map((n) => ({ n })),
      fc.string({ maxLength: 40 }).map((t) => ({ t: t.replace(/[^\x00-\x7f]/g, "?") })),
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 200 }), (parts) => {
        const out = new AsciiBytes();
        out.byte(0x5b);
        out.reset();
        let model = "";
        for (const p of parts) {
          if ("n" in p) {
            out.uint(p.n);
            model += `${p.n}`;
          } else {
            out.ascii(p.t);
            out.byte(0x2c);
            model += `${p.t},`;
          }
        }
        expect(out.text()).toBe(model);
        expect(out.bytes.subarray(0, out.length).toString("latin1")).toBe(model);
      }),
    );
  });
});

describe("tokenPayload", () => {
  /** The payload as template strings wrote it (its definition: docs/search.md). */
  function modelPayload(places: number[], positions: number[]): string | null {
    if (places.length > INLINE_ROWS) return null;
    return `[${places.join(",")}],[${places.map((p) => positions[p]).join(",")}]`;
  }

  it("is `[<places>],[<positions>]` inline, and `<bucket>,<offset>,<length>,<kind>,<offset>,<length>` where its set is put", () => {
    const count = 20_000;
    const positions = Array.from({ length: count }, (_, p) => (p * 7919) % count);
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat({ max: count - 1 }), { minLength: 1, maxLength: 5000 }), fc.nat({ max: 1e9 }), (members, start) => {
        const places = [...members].sort((a, b) => a - b);
        const puts: [number, number, number][] = [];
        let size = start;
        const put = (bytes: Uint8Array): [number, number, number] => {
          const at: [number, number, number] = [start % 1000, size, bytes.length];
          puts.push(at);
          size += bytes.length;
          return at;
        };
        const payload = tokenPayload(places, 0, places.length, count, positions, put);
        const inline = modelPayload(places, positions);
        if (inline !== null) expect(payload).toBe(inline);
        else {
          const kind = places.length <= 4096 ? 0 : 1;
          const [set, ranked] = puts as [[number, number, number], [number, number, number]];
          expect(payload).toBe(`${set.join(",")},${kind},${ranked[1]},${ranked[2]}`);
        }
      }),
      { numRuns: 60 },
    );
  });
});
