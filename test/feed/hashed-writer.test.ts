/**
 * The hashed writer copies what it is given into the block it is filling: the caller's bytes may
 * change as soon as `add` returns, the block a flush is writing is not filled again before its
 * write is done (the bytes added after the flush go into the other), and bytes added past a block
 * before a flush grow the block, none lost.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HashedWriter } from "../../src/feed/hashed-writer.ts";
import { tempDir } from "../file-trees.ts";

const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

describe("HashedWriter", () => {
  it("writes and hashes the bytes as they were added, though the caller changed them after, flushed or not, past its block or not", async () => {
    const path = join(await tempDir(), "out");
    const out = new HashedWriter(path);
    const expected: Buffer[] = [];
    // One buffer of the caller's, refilled: some adds fill less than a block, one three blocks at once (before a flush).
    const scratch = Buffer.alloc(3 << 20);
    for (const [i, size] of [100, 700_000, 3 << 20, 5, 1 << 20, 0, 42].entries()) {
      const bytes = scratch.subarray(0, size);
      for (let at = 0; at < size; at++) bytes[at] = (at * 7 + i) & 0xff;
      expected.push(Buffer.from(bytes));
      out.add(bytes);
      scratch.fill(0xee);
      if (out.full) await out.flush();
    }
    const whole = Buffer.concat(expected);
    expect(await out.end()).toBe(sha256(whole));
    expect(out.bytes).toBe(whole.length);
    expect((await readFile(path)).equals(whole)).toBe(true);
  });
});
