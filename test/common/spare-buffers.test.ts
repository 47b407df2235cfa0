/**
 * The buffers given back (src/common/spare-buffers.ts): kept up to their bytes, and room again once
 * one is taken; pop() takes the last given back, fitting() the smallest that holds the size asked
 * for (the first given back of those alike), none when none does; clear() keeps none.
 */
import { describe, expect, it } from "vitest";
import { SpareBuffers } from "../../src/common/spare-buffers.ts";

describe("SpareBuffers", () => {
  it("keeps buffers up to its bytes, and has room again for as many as are taken", () => {
    const spares = new SpareBuffers(3000);
    const [a, b, c] = [new ArrayBuffer(1000), new ArrayBuffer(1500), new ArrayBuffer(600)];
    expect(spares.give(a)).toBe(true);
    expect(spares.give(b)).toBe(true);
    // 3100 bytes: over the bound, not kept; one that still fits is.
    expect(spares.give(c)).toBe(false);
    expect(spares.give(new ArrayBuffer(500))).toBe(true);
    expect(spares.give(new ArrayBuffer(1))).toBe(false);
    // Taking one frees its bytes (500), no more: a 600 over it again.
    expect(spares.pop()?.byteLength).toBe(500);
    expect(spares.give(c)).toBe(false);
    expect(spares.fitting(1200)).toBe(b);
    expect(spares.give(c)).toBe(true);
    expect(spares.give(new ArrayBuffer(1400))).toBe(true);
    expect(spares.give(new ArrayBuffer(1))).toBe(false);
    spares.clear();
    expect(spares.pop()).toBeUndefined();
    expect(spares.give(new ArrayBuffer(3000))).toBe(true);
  });

  it("takes the last given back with pop(), and the smallest that holds a size with fitting()", () => {
    const spares = new SpareBuffers(1 << 20);
    const sizes = [4000, 1000, 3000, 1000, 2000];
    const buffers = sizes.map((size) => new ArrayBuffer(size));
    for (const buffer of buffers) spares.give(buffer);
    // None holds 5000: none taken, all still kept.
    expect(spares.fitting(5000)).toBeUndefined();
    expect(spares.fitting(2500)).toBe(buffers[2]);
    // Of the two of 1000, the first given back.
    expect(spares.fitting(1)).toBe(buffers[1]);
    expect(spares.fitting(1000)).toBe(buffers[3]);
    expect(spares.pop()).toBe(buffers[4]);
    expect(spares.pop()).toBe(buffers[0]);
    expect(spares.pop()).toBeUndefined();
    expect(spares.fitting(0)).toBeUndefined();
  });
});
