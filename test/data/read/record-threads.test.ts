/**
 * The text buffers of the record threads (src/data/read/record-threads.ts, TextBuffers): a block's
 * text goes into a buffer a thread gave back, never into one still out with another text, and a
 * read that sends a read chunk's blocks out at once takes them all from the buffers given back;
 * a rendered block's buffer goes back once, and only until the read is over (RenderedBuffers).
 */
import { describe, expect, it } from "vitest";
import { RenderedBuffers, TextBuffers } from "../../../src/data/read/record-threads.ts";

/** A text of `length` bytes, each `seed` plus its place. */
const text = (length: number, seed: number): Uint8Array => Uint8Array.from({ length }, (_, i) => (seed + i) & 0xff);

describe("the record threads' text buffers", () => {
  it("put each text of a burst in a buffer of its own, and a later burst in the buffers given back", () => {
    const buffers = new TextBuffers();
    // More at once than the threads' IN_FLIGHT (2 threads x 4): a read chunk's dozen blocks go out together.
    const burst = (seed: number): Uint8Array[] => Array.from({ length: 20 }, (_, k) => text(1000 + 7 * k, seed + k));
    for (const round of [0, 1, 2]) {
      const texts = burst(round * 31);
      const out = texts.map((t) => buffers.copy(t));
      // All still out: none shares a buffer with another, and each holds its own text.
      expect(new Set(out.map((o) => o.buffer)).size).toBe(out.length);
      out.forEach((o, k) => expect(o).toEqual(texts[k]));
      for (const o of out) buffers.give(o.buffer);
      // The first burst made its buffers; the later ones found every one given back.
      expect(buffers.made).toBe(20);
    }
  });

  it("take the smallest buffer given back that holds a text, and make a larger one when none does", () => {
    const buffers = new TextBuffers();
    const [small, large] = [buffers.copy(text(100, 1)), buffers.copy(text(1000, 2))];
    buffers.give(large.buffer);
    buffers.give(small.buffer);
    expect(buffers.copy(text(90, 3)).buffer).toBe(small.buffer);
    expect(buffers.copy(text(500, 4)).buffer).toBe(large.buffer);
    const bigger = buffers.copy(text(2000, 5));
    expect(buffers.made).toBe(3);
    expect(bigger).toEqual(text(2000, 5));
  });
});

describe("the rendered blocks' buffers", () => {
  it("give a buffer back once, for one later task, and none once the read is over", () => {
    const buffers = new RenderedBuffers();
    expect(buffers.take()).toBeUndefined();
    const [a, b] = [new ArrayBuffer(1000), new ArrayBuffer(2000)];
    const giveA = buffers.giver(a);
    giveA();
    // Given back twice: kept once, so no two tasks render into it.
    giveA();
    buffers.giver(b)();
    expect(buffers.take()).toBe(b);
    expect(buffers.take()).toBe(a);
    expect(buffers.take()).toBeUndefined();
    // A buffer transferred away since (detached, empty) is not kept.
    buffers.giver(new ArrayBuffer(0))();
    expect(buffers.take()).toBeUndefined();
    buffers.giver(a)();
    buffers.close();
    expect(buffers.take()).toBeUndefined();
    buffers.giver(b)();
    expect(buffers.take()).toBeUndefined();
  });
});
