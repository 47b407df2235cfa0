/**
 * The shard writer threads (src/site/shard-writers.ts over src/threads/worker-pool.ts): real threads
 * writing real files. A shard lands whole under its final name with every file's bytes; a previous
 * version with the same bytes is hard-linked; a failed shard rejects with the fs error's code and
 * path, later tasks fail too, and the threads stop.
 */
import { mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bufferFor, startShardWriters } from "../../src/site/shard-writers.ts";
import { tempDir } from "../file-trees.ts";

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

describe("bufferFor", () => {
  it("takes the smallest kept buffer that holds a task, else makes one an eighth larger: parts creeping up by bytes make no more than are out at once", () => {
    const free = [new ArrayBuffer(300), new ArrayBuffer(100), new ArrayBuffer(200)];
    expect(bufferFor(free, 150).byteLength).toBe(200);
    expect(free.map((b) => b.byteLength)).toEqual([300, 100]);
    expect(bufferFor([], 8000).byteLength).toBeGreaterThanOrEqual(9000);
    // As the writers use them: four out at once, each back when its task is done (kept largest
    // first, four at most), the parts a little larger each time, as an edit's records shard's are.
    free.length = 0;
    const out: ArrayBuffer[] = [];
    const made = new Set<ArrayBuffer>();
    for (let k = 0; k < 30; k++) {
      if (out.length === 4) {
        free.push(out.shift() as ArrayBuffer);
        free.sort((a, b) => b.byteLength - a.byteLength).splice(4);
      }
      const buffer = bufferFor(free, 2_114_370 + 150 * k);
      expect(buffer.byteLength).toBeGreaterThanOrEqual(2_114_370 + 150 * k);
      made.add(buffer);
      out.push(buffer);
    }
    expect(made.size).toBe(4);
  });
});

describe("startShardWriters", () => {
  it("writes 20 shards of 0 B to 3 MiB files across 2 threads, each renamed into place whole", async () => {
    const sizeOf = (i: number): number => (i === 7 ? 0 : i === 50 ? 3 << 20 : 1 + ((i * 7919) % 20_000));
    const writers = startShardWriters(2);
    const results = [];
    try {
      for (let s = 0; s < 20; s++) {
        const [tmp, dir] = [join(work, `many/${s}.tmp`), join(work, `many/${s}.abc`)];
        await mkdir(tmp, { recursive: true });
        // Pooled Buffers among them, as small Buffers are: they are copied into the task, never transferred.
        const files = Array.from({ length: 5 }, (_, k) => ({
          name: `${k}.bin`,
          bytes: k % 2 === 0 ? Buffer.from(bytesOf(s * 5 + k, sizeOf(s * 5 + k))) : bytesOf(s * 5 + k, sizeOf(s * 5 + k)),
        }));
        await writers.room();
        results.push(writers.write(files, tmp, dir, null));
      }
      const written = await Promise.all(results);
      expect(written.every((w) => w.written === 5 && w.linked === 0)).toBe(true);
    } finally {
      await writers.close();
    }
    expect((await readdir(join(work, "many"))).filter((name) => name.endsWith(".tmp"))).toEqual([]);
    for (let i = 0; i < 100; i++) {
      const path = join(work, `many/${Math.floor(i / 5)}.abc/${i % 5}.bin`);
      expect((await readFile(path)).equals(bytesOf(i, sizeOf(i))), path).toBe(true);
    }
  });

  it("hard-links a previous version with the same bytes, and writes when it differs or is missing", async () => {
    const [old, tmp, next] = [join(work, "link/old"), join(work, "link/next.tmp"), join(work, "link/next")];
    await mkdir(old, { recursive: true });
    await mkdir(tmp, { recursive: true });
    await writeFile(join(old, "same.json"), "[1,2,3]");
    await writeFile(join(old, "changed.json"), "[1,2,3]");
    const files = [
      { name: "same.json", bytes: Buffer.from("[1,2,3]") },
      { name: "changed.json", bytes: Buffer.from("[1,2,4]") },
      { name: "missing.json", bytes: Buffer.from("[5]") },
    ];
    const writers = startShardWriters(1);
    try {
      expect(await writers.write(files, tmp, next, old)).toEqual({ written: 2, linked: 1, bytesWritten: 10, linkedFiles: [0] });
    } finally {
      await writers.close();
    }
    expect((await stat(join(next, "same.json"))).ino).toBe((await stat(join(old, "same.json"))).ino);
    expect((await stat(join(next, "changed.json"))).ino).not.toBe((await stat(join(old, "changed.json"))).ino);
    expect(await readFile(join(next, "changed.json"), "utf8")).toBe("[1,2,4]");
    expect(await readFile(join(old, "changed.json"), "utf8")).toBe("[1,2,3]");
    expect(await readFile(join(next, "missing.json"), "utf8")).toBe("[5]");
  });

  it("places files already on disk: linked from the old version when their bytes are the same (compared a piece at a time), else from where they wait", async () => {
    const [from, old, tmp, next] = ["place/from", "place/old", "place/next.tmp", "place/next"].map((path) => join(work, path)) as [
      string,
      string,
      string,
      string,
    ];
    for (const dir of [from, old, tmp]) await mkdir(dir, { recursive: true });
    // Past the thread's piece of 1 MiB: the files differ in their last byte only, or not at all.
    const big = bytesOf(3, (3 << 20) + 5);
    const changed = Buffer.from(big);
    changed[changed.length - 1] = (changed.at(-1) ?? 0) ^ 1;
    await writeFile(join(from, "same.bin"), big);
    await writeFile(join(old, "same.bin"), big);
    await writeFile(join(from, "last-byte.bin"), changed);
    await writeFile(join(old, "last-byte.bin"), big);
    await writeFile(join(from, "shorter.bin"), big.subarray(0, 100));
    await writeFile(join(old, "shorter.bin"), big);
    await writeFile(join(from, "new.bin"), "[5]");
    const writers = startShardWriters(1);
    try {
      expect(await writers.place(["same.bin", "last-byte.bin", "shorter.bin", "new.bin"], from, tmp, next, old)).toEqual({
        written: 3,
        linked: 1,
        bytesWritten: changed.length + 100 + 3,
        linkedFiles: [0],
      });
    } finally {
      await writers.close();
    }
    expect((await stat(join(next, "same.bin"))).ino).toBe((await stat(join(old, "same.bin"))).ino);
    expect((await readFile(join(next, "last-byte.bin"))).equals(changed)).toBe(true);
    expect((await readFile(join(next, "shorter.bin"))).equals(big.subarray(0, 100))).toBe(true);
    expect(await readFile(join(next, "new.bin"), "utf8")).toBe("[5]");
    // The old version is left as it was.
    expect((await readFile(join(old, "last-byte.bin"))).equals(big)).toBe(true);
  });

  it("compares bytes in memory with a previous file a piece at a time: a difference in the last byte of a 3 MiB file is written", async () => {
    const at = (name: string): string => join(work, "pieces", name);
    for (const dir of ["old", "next.tmp"]) await mkdir(at(dir), { recursive: true });
    const big = bytesOf(5, 3 << 20);
    const last = Buffer.from(big);
    last.writeUInt8(last.readUInt8(last.length - 1) ^ 1, last.length - 1);
    await writeFile(at("old/same.bin"), big);
    await writeFile(at("old/last.bin"), big);
    await writeFile(at("old/longer.bin"), big.subarray(0, big.length - 1));
    const files = [
      { name: "same.bin", bytes: big },
      { name: "last.bin", bytes: last },
      { name: "longer.bin", bytes: big },
    ];
    const writers = startShardWriters(1);
    try {
      expect(await writers.write(files, at("next.tmp"), at("next"), at("old"))).toMatchObject({ written: 2, linked: 1, linkedFiles: [0] });
    } finally {
      await writers.close();
    }
    for (const { name, bytes } of files) expect((await readFile(at(`next/${name}`))).equals(bytes), name).toBe(true);
  });

  it("files their producer vouches for are linked from its directory unread; every other file is still compared, and written when it changed", async () => {
    const at = (name: string): string => join(work, "kept", name);
    for (const dir of ["old", "from", "a.tmp", "b.tmp"]) await mkdir(at(dir), { recursive: true });
    await writeFile(at("old/kept.bin"), bytesOf(1, 3000));
    await writeFile(at("old/same.bin"), bytesOf(2, 3000));
    await writeFile(at("old/changed.bin"), bytesOf(3, 3000));
    // Spilled: the kept file is not in the scratch directory at all; the others are.
    await writeFile(at("from/same.bin"), bytesOf(2, 3000));
    await writeFile(at("from/changed.bin"), bytesOf(4, 3000));
    const names = ["kept.bin", "same.bin", "changed.bin"];
    const writers = startShardWriters(1);
    try {
      expect(await writers.place(names, at("from"), at("a.tmp"), at("a"), at("old"), { from: at("old"), files: [0] })).toEqual({
        written: 1,
        linked: 2,
        bytesWritten: 3000,
        linkedFiles: [0, 1],
      });
      // In memory: the kept file's bytes (here, others than the old file's) are not even looked at.
      const files = [
        { name: "kept.bin", bytes: bytesOf(9, 10) },
        { name: "same.bin", bytes: bytesOf(2, 3000) },
        { name: "changed.bin", bytes: bytesOf(4, 3000) },
      ];
      expect(await writers.write(files, at("b.tmp"), at("b"), at("old"), { from: at("old"), files: [0] })).toEqual({
        written: 1,
        linked: 2,
        bytesWritten: 3000,
        linkedFiles: [0, 1],
      });
    } finally {
      await writers.close();
    }
    for (const next of ["a", "b"]) {
      expect((await stat(at(`${next}/kept.bin`))).ino).toBe((await stat(at("old/kept.bin"))).ino);
      expect((await stat(at(`${next}/same.bin`))).ino).toBe((await stat(at("old/same.bin"))).ino);
      expect((await readFile(at(`${next}/changed.bin`))).equals(bytesOf(4, 3000))).toBe(true);
      expect((await readFile(at("old/changed.bin"))).equals(bytesOf(3, 3000))).toBe(true);
    }
  });

  it("a shard whose temporary directory is missing rejects with ENOENT and the path, later tasks fail, and close() stops every thread", async () => {
    const ports = messagePorts();
    const writers = startShardWriters(2);
    expect(messagePorts()).toBeGreaterThan(ports);
    const tmp = join(work, "fail/no-such-dir");
    const failure = await writers.write([{ name: "1.json", bytes: Buffer.from("{}") }], tmp, join(work, "fail/done"), null).then(
      () => null,
      (error: unknown) => error as NodeJS.ErrnoException,
    );
    expect(failure).toBeInstanceOf(Error);
    expect(failure?.code).toBe("ENOENT");
    expect(failure?.path).toBe(join(tmp, "1.json"));
    expect(failure?.message).toContain(tmp);
    await expect(writers.write([], tmp, tmp, null)).rejects.toThrow(/ENOENT/);
    await expect(writers.room()).rejects.toThrow(/ENOENT/);
    await writers.close();
    expect(messagePorts()).toBe(ports);
  });

  it("close() while shards are in flight stops the threads without waiting for the writes", async () => {
    const ports = messagePorts();
    const writers = startShardWriters(2);
    // As many as two threads take at once (two shards each).
    for (let s = 0; s < 4; s++) {
      const tmp = join(work, `abort/${s}.tmp`);
      await mkdir(tmp, { recursive: true });
      void writers
        .write(
          Array.from({ length: 50 }, (_, k) => ({ name: `${k}.bin`, bytes: bytesOf(k, 64 << 10) })),
          tmp,
          join(work, `abort/${s}`),
          null,
        )
        .catch(() => undefined);
    }
    await writers.close();
    expect(messagePorts()).toBe(ports);
  });
});
