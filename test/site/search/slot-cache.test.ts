/** The slots in front of the gathering's Maps (site/search/slot-cache.ts): a text found only where its slot holds that very text. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SlotCache } from "../../../src/site/search/slot-cache.ts";

describe("SlotCache", () => {
  it("answers a text's value while its slot holds it, by its place in a longer text, and nothing for any other text", () => {
    // Two slots: texts share them, and each set takes the slot from another.
    const texts = fc.constantFrom("", "a", "b", "ab", "ba", "aa", "abc", "č", "ač", "\ud83d\ude00");
    const op = fc.oneof(
      texts.map((text) => ({ set: text })),
      fc.tuple(texts, texts, texts).map(([before, text, after]) => ({ get: text, before, after })),
      fc.constant({ clear: true }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const cache = new SlotCache<string>(1);
        // The model: what each text was last set to, since the last clear.
        const model = new Map<string, string>();
        let serial = 0;
        for (const o of ops) {
          if ("clear" in o) {
            cache.clear();
            model.clear();
          } else if ("set" in o) {
            const value = `v${serial++}`;
            cache.set(o.set, value);
            model.set(o.set, value);
          } else {
            const found = cache.get(`${o.before}${o.get}${o.after}`, o.before.length, o.before.length + o.get.length);
            // Found: the text's last value (a slot lost to another text answers nothing).
            if (found !== undefined) expect(found).toBe(model.get(o.get));
          }
        }
        // A text just set is found.
        for (const o of ops)
          if ("set" in o) {
            cache.set(o.set, "last");
            expect(cache.get(`x${o.set}y`, 1, 1 + o.set.length)).toBe("last");
          }
      }),
    );
  });

  it("tells apart two texts of the same hash", () => {
    // Two texts of two code units whose FNV-1a hashes are equal: after a first unit whose products
    // share their high 16 bits with another's, a second unit evens out the low ones.
    const fnv = (text: string): number => {
      let hash = 0x811c9dc5 | 0;
      for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
      return hash;
    };
    const byHigh = new Map<number, number>();
    let pair: [string, string] | undefined;
    for (let unit = 0; pair === undefined; unit++) {
      const product = Math.imul((0x811c9dc5 | 0) ^ unit, 0x01000193);
      const other = byHigh.get(product >>> 16);
      if (other === undefined) byHigh.set(product >>> 16, unit);
      else {
        const low = (product ^ Math.imul((0x811c9dc5 | 0) ^ other, 0x01000193)) & 0xffff;
        pair = [String.fromCharCode(other, 0x41), String.fromCharCode(unit, 0x41 ^ low)];
      }
    }
    expect(fnv(pair[0])).toBe(fnv(pair[1]));
    const [a, b] = pair;
    const cache = new SlotCache<string>(4);
    cache.set(a, "a");
    expect(cache.get(b, 0, b.length)).toBeUndefined();
    expect(cache.get(a, 0, a.length)).toBe("a");
    cache.set(b, "b");
    expect(cache.get(a, 0, a.length)).toBeUndefined();
    expect(cache.get(`(${b})`, 1, 1 + b.length)).toBe("b");
  });
});
