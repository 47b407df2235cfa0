/** A spilled shard's file given in parts (site/search/spilled-shard.ts) is the file given whole: the same bytes and hash. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { SpilledShard } from "../../../src/site/search/spilled-shard.ts";

let spill = "";
beforeEach(() => {
  spill = mkdtempSync(join(tmpdir(), "spilled-shard-"));
});
afterEach(() => rmSync(spill, { recursive: true, force: true }));

it("makes the same file and hash from parts, one buffer reused, as from the bytes whole", () => {
  const bytes = Buffer.from("abcdefghij");
  const whole = new SpilledShard(join(spill, "whole"), "search/order");
  whole.add("a.rank", bytes);
  whole.add("empty", new Uint8Array(0));
  const parts = new SpilledShard(join(spill, "parts"), "search/order");
  const block = Buffer.alloc(3);
  parts.addParts(
    "a.rank",
    (function* () {
      for (let at = 0; at < bytes.length; at += 3) yield block.subarray(0, bytes.copy(block, 0, at, at + 3));
    })(),
  );
  parts.addParts("empty", []);
  const [a, b] = [whole.done(), parts.done()];
  expect(b.hash).toBe(a.hash);
  expect([...b.files()].map((f) => [f.name, Buffer.from(f.bytes).toString()])).toEqual(
    [...a.files()].map((f) => [f.name, Buffer.from(f.bytes).toString()]),
  );
});
