/**
 * The search thread's files made by a thread of their own (threads/file-thread.ts): every file
 * the bytes it was given, across the ring's end and in pieces past a piece's size, its parts' buffer
 * reused at once; a spilled shard whose files the thread makes is the one made here; and the thread's
 * failure is thrown by the maker with its code and path, at its next file or wait.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { makeFilesIn, SpilledShard } from "../../src/site/search/spilled-shard.ts";
import { FileThread, MAX_BYTES } from "../../src/threads/file-thread.ts";

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "file-thread-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** `size` bytes that differ from place to place and from file to file (`seed`). */
function bytesOf(size: number, seed: number): Buffer {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + seed * 7 + (i >>> 11)) & 0xff;
  return bytes;
}

it("makes each file of the bytes given, small and past the ring's size, one buffer reused for the parts", async () => {
  const files = new FileThread();
  const sizes = [0, 1, 700_000, 3 << 20, MAX_BYTES + 12_345, 5, 999_999, 2 << 20, 0, 77, 1 << 20, MAX_BYTES, 3, MAX_BYTES - 3];
  const seen: number[] = [];
  try {
    sizes.forEach((size, seed) => {
      const bytes = bytesOf(size, seed);
      const block = Buffer.alloc(300_001);
      const parts = function* (): Generator<Uint8Array> {
        for (let at = 0; at < size; at += block.length) yield block.subarray(0, bytes.copy(block, 0, at, at + block.length));
      };
      let count = 0;
      files.make(join(dir, `${seed}.bin`), parts(), (part) => void (count += part.length));
      seen.push(count);
    });
    files.drain();
  } finally {
    await files.close();
  }
  expect(seen).toEqual(sizes);
  sizes.forEach((size, seed) => expect(readFileSync(join(dir, `${seed}.bin`)).equals(bytesOf(size, seed))).toBe(true));
});

it("makes a spilled shard's files and hash as they are made here, and each readable by pathOf", async () => {
  const here = new SpilledShard(join(dir, "here"), "search/order");
  const files = new FileThread();
  makeFilesIn(files);
  let there: SpilledShard;
  try {
    there = new SpilledShard(join(dir, "there"), "search/order");
    for (let i = 0; i < 40; i++) there.add(`${i}.rank`, bytesOf(i * 50_000, i));
    expect(readFileSync(there.pathOf("39.rank")).equals(bytesOf(39 * 50_000, 39))).toBe(true);
    files.drain();
  } finally {
    makeFilesIn(null);
    await files.close();
  }
  for (let i = 0; i < 40; i++) here.add(`${i}.rank`, bytesOf(i * 50_000, i));
  const [a, b] = [here.done(), there.done()];
  expect(b.hash).toBe(a.hash);
  expect([...b.files()].map((f) => Buffer.from(f.bytes).toString("hex"))).toEqual(
    [...a.files()].map((f) => Buffer.from(f.bytes).toString("hex")),
  );
});

it("throws the thread's failure, its code and path, at the next wait and every later file", async () => {
  const files = new FileThread();
  const missing = join(dir, "no-such-dir", "a.bin");
  try {
    files.make(missing, [Buffer.from("a")], () => undefined);
    expect(() => files.drain()).toThrow(expect.objectContaining({ code: "ENOENT", path: missing }) as Error);
    expect(() => files.make(join(dir, "b.bin"), [Buffer.from("b")], () => undefined)).toThrow(
      expect.objectContaining({ code: "ENOENT" }) as Error,
    );
  } finally {
    await files.close();
  }
});
