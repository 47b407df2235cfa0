/**
 * The file-writing threads: real worker threads writing real files. Every file lands with its
 * bytes and is reported once; a previous version with the same bytes is hard-linked; a failed
 * write rejects and the threads still stop.
 */
import { mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFileWriters } from "../../src/build/file-writers.ts";
import { tempDir } from "../_tree.ts";

let work: string;
beforeAll(async () => {
  work = await tempDir();
});
afterAll(() => rm(work, { recursive: true, force: true }));

/** Live worker threads show as MessagePorts among the process's active resources. */
function messagePorts(): number {
  return process.getActiveResourcesInfo().filter((name) => name === "MessagePort").length;
}

/** `size` bytes that differ from file to file, so a file landing in another's place shows. */
function bytesOf(seed: number, size: number): Buffer {
  const bytes = Buffer.allocUnsafeSlow(size);
  for (let i = 0; i < size; i++) bytes[i] = (seed * 31 + i) & 0xff;
  return bytes;
}

interface Reported {
  tag: string;
  linked: boolean;
  size: number;
}

describe("startFileWriters", () => {
  it("writes 1,000 files of 0 B to 3 MiB across 2 directories and 2 threads, reporting each once with its size", async () => {
    const dirs = [join(work, "many/a"), join(work, "many/b")];
    for (const dir of dirs) await mkdir(dir, { recursive: true });
    // Sizes that fill batches unevenly: empty, small, one past a 1 MiB batch, one several batches big.
    const sizeOf = (i: number): number => (i === 7 ? 0 : i === 500 ? (1 << 20) + 1 : i === 900 ? 3 << 20 : 1 + ((i * 7919) % 20_000));
    const reported: Reported[] = [];
    const writers = startFileWriters<string>({ threads: 2, onFile: (tag, linked, size) => reported.push({ tag, linked, size }) });
    try {
      for (let i = 0; i < 1000; i++) {
        // A Buffer from Node's shared pool, as small Buffers are: it must be copied, not transferred.
        const bytes = i % 2 === 0 ? Buffer.from(bytesOf(i, sizeOf(i))) : bytesOf(i, sizeOf(i));
        writers.add(`file ${i}`, join(dirs[i % 2] as string, `${i}.bin`), bytes, null);
        if (!writers.hasRoom) await writers.room();
      }
      await writers.drain();
    } finally {
      await writers.close();
    }
    expect(reported).toHaveLength(1000);
    expect(new Set(reported.map((r) => r.tag)).size).toBe(1000);
    expect(reported.every((r) => !r.linked && r.size === sizeOf(Number(r.tag.slice(5))))).toBe(true);
    for (let i = 0; i < 1000; i++) {
      const path = join(dirs[i % 2] as string, `${i}.bin`);
      expect((await readFile(path)).equals(bytesOf(i, sizeOf(i))), path).toBe(true);
    }
  });

  it("hard-links a previous version with the same bytes, and writes when it differs or is missing", async () => {
    const [old, next] = [join(work, "link/old"), join(work, "link/next")];
    await mkdir(old, { recursive: true });
    await mkdir(next, { recursive: true });
    await writeFile(join(old, "same.json"), "[1,2,3]");
    await writeFile(join(old, "changed.json"), "[1,2,3]");
    const reported: Reported[] = [];
    const writers = startFileWriters<string>({ threads: 1, onFile: (tag, linked, size) => reported.push({ tag, linked, size }) });
    try {
      writers.add("same", join(next, "same.json"), Buffer.from("[1,2,3]"), join(old, "same.json"));
      writers.add("changed", join(next, "changed.json"), Buffer.from("[1,2,4]"), join(old, "changed.json"));
      writers.add("missing", join(next, "missing.json"), Buffer.from("[5]"), join(old, "missing.json"));
      await writers.drain();
    } finally {
      await writers.close();
    }
    expect(reported).toEqual([
      { tag: "same", linked: true, size: 7 },
      { tag: "changed", linked: false, size: 7 },
      { tag: "missing", linked: false, size: 3 },
    ]);
    expect((await stat(join(next, "same.json"))).ino).toBe((await stat(join(old, "same.json"))).ino);
    expect((await stat(join(next, "changed.json"))).ino).not.toBe((await stat(join(old, "changed.json"))).ino);
    expect(await readFile(join(next, "changed.json"), "utf8")).toBe("[1,2,4]");
    expect(await readFile(join(old, "changed.json"), "utf8")).toBe("[1,2,3]");
    expect(await readFile(join(next, "missing.json"), "utf8")).toBe("[5]");
  });

  it("a write into a missing directory rejects drain() with ENOENT and the path, add() then throws, and close() stops every thread", async () => {
    const ports = messagePorts();
    const dir = join(work, "fail");
    await mkdir(dir);
    const reported: string[] = [];
    const writers = startFileWriters<string>({ threads: 2, onFile: (tag) => reported.push(tag) });
    expect(messagePorts()).toBeGreaterThan(ports);
    const missing = join(dir, "no-such-dir", "1.json");
    writers.add("ok", join(dir, "0.json"), Buffer.from("{}"), null);
    writers.add("bad", missing, Buffer.from("{}"), null);
    const failure = await writers.drain().then(
      () => null,
      (error: unknown) => error as NodeJS.ErrnoException,
    );
    expect(failure).toBeInstanceOf(Error);
    expect(failure?.code).toBe("ENOENT");
    expect(failure?.path).toBe(missing);
    expect(failure?.message).toContain(missing);
    // One batch: the file before the failed one is on disk but, the batch having failed, not reported.
    expect(reported).toEqual([]);
    expect(() => writers.add("late", join(dir, "2.json"), Buffer.from("{}"), null)).toThrow(/ENOENT/);
    await expect(writers.room()).rejects.toThrow(/ENOENT/);
    await writers.close();
    expect(messagePorts()).toBe(ports);
  });

  it("close() while batches are in flight stops the threads without waiting for the writes", async () => {
    const ports = messagePorts();
    const dir = join(work, "abort");
    await mkdir(dir);
    const writers = startFileWriters<null>({ threads: 2, onFile: () => undefined });
    const bytes = bytesOf(1, 64 << 10);
    for (let i = 0; writers.hasRoom; i++) writers.add(null, join(dir, `${i}.bin`), bytes, null);
    await writers.close();
    expect(messagePorts()).toBe(ports);
  });
});
