/** What a host keeps of the files it read: the least recently used go first, a missing or failed read is never kept. */
import { describe, expect, it } from "vitest";
import { KeptFiles } from "../../src/core/kept-files.ts";

/** A kept-files of strings sized by length, and a loader that counts its reads. */
function keeper(budget: number): { kept: KeptFiles<string>; get: (path: string) => Promise<string | null>; reads: string[] } {
  return keeperOf(new KeptFiles<string>((text) => text.length, budget));
}

/** Reads through `kept` of files whose text is their name padded to 10 characters ("missing…" is missing), recording each read. */
function keeperOf(kept: KeptFiles<string>): { kept: KeptFiles<string>; get: (path: string) => Promise<string | null>; reads: string[] } {
  const reads: string[] = [];
  const get = (path: string): Promise<string | null> =>
    kept.get(path, () => {
      reads.push(path);
      return Promise.resolve(path.startsWith("missing") ? null : path.padEnd(10, "."));
    });
  return { kept, get, reads };
}

describe("KeptFiles", () => {
  it("reads a file once while it is kept", async () => {
    const { get, reads } = keeper(100);
    expect(await get("a")).toBe("a.........");
    expect(await get("a")).toBe("a.........");
    expect(reads).toEqual(["a"]);
  });

  it("forgets the least recently used first, once over its budget", async () => {
    const { get, reads } = keeper(30);
    for (const path of ["a", "b", "c"]) await get(path);
    await get("a"); // a is now the most recent: b is the oldest
    await get("d"); // 40 bytes: b goes
    await get("a");
    await get("c");
    await get("b");
    expect(reads).toEqual(["a", "b", "c", "d", "b"]);
  });

  it("keeps neither a missing file nor a failed read", async () => {
    const { get, reads } = keeper(100);
    expect(await get("missing")).toBeNull();
    expect(await get("missing")).toBeNull();
    expect(reads).toEqual(["missing", "missing"]);
    const kept = new KeptFiles<string>((text) => text.length, 100);
    let fail = true;
    const load = (): Promise<string | null> => (fail ? Promise.reject(new Error("network")) : Promise.resolve("ok"));
    await expect(kept.get("x", load)).rejects.toThrow("network");
    fail = false;
    expect(await kept.get("x", load)).toBe("ok");
  });

  it("counts a file still being read only once it is read, and shares the read", async () => {
    const kept = new KeptFiles<string>((text) => text.length, 15);
    let release: (value: string) => void = () => undefined;
    let loads = 0;
    const slow = kept.get("slow", () => {
      loads += 1;
      return new Promise<string>((done) => (release = done));
    });
    const again = kept.get("slow", () => Promise.resolve("never"));
    // Over the budget while "slow" is in flight: it is not forgotten (nor subtracted) before it is read.
    await kept.get("big", () => Promise.resolve("x".repeat(20)));
    const third = kept.get("slow", () => {
      loads += 1;
      return Promise.resolve("a second read");
    });
    release("0123456789");
    expect(await third).toBe("0123456789");
    expect(await slow).toBe("0123456789");
    expect(await again).toBe("0123456789");
    expect(loads).toBe(1);
    // Both are kept until the next read settles (the newest is never forgotten, nor one being read);
    // then the least recently used go until the budget holds: "slow" and "big", counted once each.
    const { get, reads } = keeperOf(kept);
    await get("c");
    await get("slow");
    await get("big");
    await get("c");
    expect(reads).toEqual(["c", "slow", "big", "c"]);
  });
});
