/**
 * A spilled shard's file given in parts (site/search/spilled-shard.ts) is the file given whole, and
 * a file added from another directory (the previous site's, which the patch of an edit keeps) is
 * the file given as bytes: the same bytes and hash, the file linked, and named as kept. A search
 * shard is hashed over its files' digests (a kept one's as given), a key lookups' over their bytes.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { contentHash } from "../../../src/common/content-hash.ts";
import { VERSION } from "../../../src/core/version.ts";
import { fileDigest, fileDigestsOf, shardHashByDigests, SpilledShard } from "../../../src/site/search/spilled-shard.ts";

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

it("makes the same file and hash from a file linked as from its bytes, and names it kept", () => {
  const previous = join(spill, "previous.bin");
  writeFileSync(previous, "the previous file");
  const written = new SpilledShard(join(spill, "written"), "search/keys/0");
  written.add("0.idx", Buffer.from("[]"));
  written.add("0.bin", Buffer.from("the previous file"));
  const linked = new SpilledShard(join(spill, "linked"), "search/keys/0");
  linked.add("0.idx", Buffer.from("[]"));
  linked.addFile("0.bin", previous);
  const [a, b] = [written.done(), linked.done()];
  expect(b.hash).toBe(a.hash);
  expect([...b.files()].map((f) => [f.name, Buffer.from(f.bytes).toString()])).toEqual(
    [...a.files()].map((f) => [f.name, Buffer.from(f.bytes).toString()]),
  );
  // A hard link to the previous file, not a copy; and the writer is told which file it is.
  expect(statSync(join(b.dir as string, "0.bin")).ino).toBe(statSync(previous).ino);
  expect(b.kept?.dir).toBe(b.dir);
  expect([...(b.kept?.names ?? [])]).toEqual(["0.bin"]);
  expect(a.kept).toBeUndefined();
});

it("hashes a search shard over its files' names and SHA-256, a key lookups' shard over their bytes, and a kept search file by the digest given, unread", () => {
  const bytes = Buffer.from("the file's bytes");
  const search = new SpilledShard(join(spill, "search"), "search/order");
  search.add("a.rank", bytes);
  expect(search.done().hash).toBe(shardHashByDigests("search/order", { names: ["a.rank"], digests: [fileDigest(bytes)] }));
  const oib = new SpilledShard(join(spill, "oib"), "oib/0");
  oib.add("0.json", bytes);
  expect(oib.done().hash).toBe(contentHash(VERSION, "\n", "oib/0", "\n", "0.json", "\n", bytes));
  // A file of other bytes, given with the digest of `bytes`: hashed as `bytes` (never read), linked as it is.
  const other = join(spill, "other.bin");
  writeFileSync(other, "other bytes");
  const kept = new SpilledShard(join(spill, "kept"), "search/order");
  kept.addFile("a.rank", other, { digest: fileDigest(bytes) });
  const plan = kept.done();
  expect(plan.hash).toBe(shardHashByDigests("search/order", { names: ["a.rank"], digests: [fileDigest(bytes)] }));
  expect(fileDigestsOf(plan)).toEqual({ names: ["a.rank"], digests: [fileDigest(bytes)] });
  expect(statSync(join(plan.dir as string, "a.rank")).ino).toBe(statSync(other).ino);
});
