/**
 * A spilled shard's file given in parts (site/search/spilled-shard.ts) is the file given whole, and
 * a file added from another directory (the previous site's, which the patch of an edit keeps) is
 * the file given as bytes: the same bytes and hash, the file left where it is, and named as kept there. A search
 * shard is hashed over its files' digests (a kept one's as given), a key lookups' over their bytes.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { contentHash } from "../../../src/common/content-hash.ts";
import { DATA_ROOT, MANIFEST_PATH, shardDirPath } from "../../../src/core/layout.ts";
import { LAYOUT_VERSION } from "../../../src/core/manifest.ts";
import { VERSION } from "../../../src/core/version.ts";
import { NoPatch } from "../../../src/site/search/no-patch.ts";
import { keepFile, previousReads } from "../../../src/site/search/patched-shards.ts";
import { PreviousSearch } from "../../../src/site/search/previous-search.ts";
import { SearchFacts } from "../../../src/site/search/search-facts.ts";
import {
  fileDigest,
  fileDigestsOf,
  shardHashByDigests,
  SpilledShard,
  spilledData,
  spilledPlan,
} from "../../../src/site/search/spilled-shard.ts";

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

it("makes the same file and hash from a file kept as from its bytes, and names it kept where it is, unlinked", () => {
  const previous = join(spill, "previous");
  mkdirSync(previous);
  writeFileSync(join(previous, "0.bin"), "the previous file");
  const written = new SpilledShard(join(spill, "written"), "search/keys/0");
  written.add("0.idx", Buffer.from("[]"));
  written.add("0.bin", Buffer.from("the previous file"));
  const kept = new SpilledShard(join(spill, "kept"), "search/keys/0");
  kept.add("0.idx", Buffer.from("[]"));
  kept.addKept("0.bin", previous);
  const [a, b] = [written.done(), kept.done()];
  expect(b.hash).toBe(a.hash);
  expect([...b.files()].map((f) => [f.name, Buffer.from(f.bytes).toString()])).toEqual(
    [...a.files()].map((f) => [f.name, Buffer.from(f.bytes).toString()]),
  );
  // Neither linked nor copied into the scratch directory: the writer is told where the file is, and links it from there.
  expect(existsSync(join(b.dir as string, "0.bin"))).toBe(false);
  expect(b.kept?.dir).toBe(previous);
  expect([...(b.kept?.names ?? [])]).toEqual(["0.bin"]);
  expect(a.kept).toBeUndefined();
  // As data (what crosses from the search thread) and back: the same files, from the same places.
  const again = spilledPlan(spilledData(b));
  expect(again.kept?.dir).toBe(previous);
  expect([...again.files()].map((f) => Buffer.from(f.bytes).toString())).toEqual(["[]", "the previous file"]);
  // A shard's kept files are of one directory.
  expect(() => kept.addKept("1.bin", join(spill, "elsewhere"))).toThrow(/two directories/);
});

it("hashes a search shard over its files' names and SHA-256, a key lookups' shard over their bytes, and a kept search file by the digest given, unread", () => {
  const bytes = Buffer.from("the file's bytes");
  const search = new SpilledShard(join(spill, "search"), "search/order");
  search.add("a.rank", bytes);
  expect(search.done().hash).toBe(shardHashByDigests("search/order", { names: ["a.rank"], digests: [fileDigest(bytes)] }));
  const oib = new SpilledShard(join(spill, "oib"), "oib/0");
  oib.add("0.json", bytes);
  expect(oib.done().hash).toBe(contentHash(VERSION, "\n", "oib/0", "\n", "0.json", "\n", bytes));
  // A file of other bytes, given with the digest of `bytes`: hashed as `bytes` (never read), kept as it is.
  const other = join(spill, "other");
  mkdirSync(other);
  writeFileSync(join(other, "a.rank"), "other bytes");
  const kept = new SpilledShard(join(spill, "kept"), "search/order");
  kept.addKept("a.rank", other, { digest: fileDigest(bytes) });
  const plan = kept.done();
  expect(plan.hash).toBe(shardHashByDigests("search/order", { names: ["a.rank"], digests: [fileDigest(bytes)] }));
  expect(fileDigestsOf(plan)).toEqual({ names: ["a.rank"], digests: [fileDigest(bytes)] });
  expect([...plan.files()].map((f) => Buffer.from(f.bytes).toString())).toEqual(["other bytes"]);
});

it("keeps a previous shard's file by its directory, unread where its digest is known, and gives up the patch where the file is gone", () => {
  // A previous site whose order shard's facts name two files, one of them gone since.
  const digests = { names: ["name.rank", "name.asc"], digests: [fileDigest(Buffer.from("ranks")), fileDigest(Buffer.from("places"))] };
  const hash = shardHashByDigests("search/order", digests);
  const out = join(spill, "site");
  const dir = join(out, DATA_ROOT, shardDirPath("search/order", hash));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "name.rank"), "ranks");
  const manifest = { layout: LAYOUT_VERSION, version: VERSION, count: 1, dirs: { "search/order": hash } };
  writeFileSync(join(out, MANIFEST_PATH), JSON.stringify(manifest));
  const previous = new PreviousSearch(out, new SearchFacts({ files: { "search/order": digests } }));
  const shard = new SpilledShard(join(spill, "patched"), "search/order");
  const reads = previousReads.keptFiles;
  keepFile(previous, shard, "search/order", "name.rank");
  // Its digest known: not read, nor linked, nor copied.
  expect(previousReads.keptFiles).toBe(reads);
  expect(() => keepFile(previous, shard, "search/order", "name.asc")).toThrow(NoPatch);
  const plan = shard.done();
  expect(plan.kept?.dir).toBe(dir);
  expect(existsSync(join(plan.dir as string, "name.rank"))).toBe(false);
  expect([...plan.files()].map((f) => Buffer.from(f.bytes).toString())).toEqual(["ranks"]);
});
