/**
 * The hand-off between the build's stages (src/common/stage-iterables.ts): a pushing producer
 * pulled as an async generator, waiting on each item; stopped when the consumer leaves.
 */
import { describe, expect, it } from "vitest";
import { forEachItem, pulled } from "../../src/common/stage-iterables.ts";

describe("pulled", () => {
  it("yields what the producer puts, in order, and returns what it resolves to", async () => {
    const seen: number[] = [];
    const result = await forEachItem(
      pulled<number, string>(async (put) => {
        for (const n of [1, 2, 3]) await put(n);
        return "done";
      }),
      (n) => seen.push(n),
    );
    expect(seen).toEqual([1, 2, 3]);
    expect(result).toBe("done");
  });

  it("the producer waits on each item until the consumer has taken it and asked for the next", async () => {
    const log: string[] = [];
    await forEachItem(
      pulled<number, void>(async (put) => {
        for (const n of [1, 2]) {
          log.push(`put ${n}`);
          await put(n);
          log.push(`resumed after ${n}`);
        }
      }),
      async (n) => {
        log.push(`take ${n}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        log.push(`taken ${n}`);
      },
    );
    expect(log).toEqual(["put 1", "take 1", "taken 1", "resumed after 1", "put 2", "take 2", "taken 2", "resumed after 2"]);
  });

  it("a consumer that leaves early: put answers false, the producer stops, and what it throws then is dropped", async () => {
    const answers: boolean[] = [];
    let stopped = false;
    const items = pulled<number, void>(async (put) => {
      for (let n = 0; ; n++) {
        const go = await put(n);
        answers.push(go);
        if (!go) {
          stopped = true;
          throw new Error("stopped");
        }
      }
    });
    await expect(
      forEachItem(items, (n) => {
        if (n === 2) throw new Error("the consumer failed");
      }),
    ).rejects.toThrow("the consumer failed");
    expect(answers).toEqual([true, true, false]);
    expect(stopped).toBe(true);
  });

  it("a producer that fails (before any item, or after some) fails the consumer's loop with its error", async () => {
    await expect(
      forEachItem(
        pulled<number, void>(async () => {
          throw new Error("no sources");
        }),
        () => undefined,
      ),
    ).rejects.toThrow("no sources");
    const seen: number[] = [];
    await expect(
      forEachItem(
        pulled<number, void>(async (put) => {
          await put(1);
          throw new Error("bad data");
        }),
        (n) => seen.push(n),
      ),
    ).rejects.toThrow("bad data");
    expect(seen).toEqual([1]);
  });
});
