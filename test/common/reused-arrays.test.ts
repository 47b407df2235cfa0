/**
 * What the search stage uses again from range to range (common/reused-arrays.ts): the same
 * memory while it is large enough, each view of the length asked for, zeros when asked for whatever
 * the views before left. (The chunk files' one buffer is common/read-into.ts's, tested beside it.)
 */
import { describe, expect, it } from "vitest";
import { reusedInt32s } from "../../src/common/reused-arrays.ts";

describe("Reused", () => {
  it("hands out views of one array while it is large enough, zeroed when asked", () => {
    const reused = reusedInt32s();
    const first = reused.view(100);
    expect(first.length).toBe(100);
    first.fill(7);
    const second = reused.view(50);
    expect(second.length).toBe(50);
    expect(second.buffer).toBe(first.buffer);
    // Not zeroed: what the first view left.
    expect([...second].every((v) => v === 7)).toBe(true);
    second.fill(9);
    const zeroed = reused.view(100, true);
    expect(zeroed.buffer).toBe(first.buffer);
    expect([...zeroed].every((v) => v === 0)).toBe(true);
  });

  it("grows to a larger length asked for, its view zeros, and serves smaller lengths from it after", () => {
    const reused = reusedInt32s();
    reused.view(100).fill(7);
    const grown = reused.view(1000);
    expect(grown.length).toBe(1000);
    expect([...grown].every((v) => v === 0)).toBe(true);
    expect(reused.view(900).buffer).toBe(grown.buffer);
    // A little more than it holds: a quarter more at least, not one more each time.
    const more = reused.view(1001);
    expect(more.buffer).not.toBe(grown.buffer);
    expect(more.buffer.byteLength).toBe(4 * 1250);
  });
});
