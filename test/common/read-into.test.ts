/**
 * WholeFiles reads file after file into one buffer, blocking or not: each read is that file's bytes,
 * whole, however the sizes go (a smaller one after a larger, a larger growing the buffer, an empty
 * one). filesAhead reads the next files while one is taken: each file's bytes in order, intact until
 * the next is asked for, and a file that cannot be read fails at its turn, after those before it.
 * filePieces gives an open file's bytes in pieces of one buffer, whole, at every size about a piece's.
 * readIntoAsync reads at a position until all the bytes asked for have come, or the file has ended.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { open } from "node:fs/promises";
import { filePieces, filesAhead, readIntoAsync, WholeFiles } from "../../src/common/read-into.ts";
import { useTempDir } from "../file-trees.ts";

const work = useTempDir();

function files(): { path: string; bytes: Buffer }[] {
  const sizes = [5000, 120, 0, 70_000, 3, 200_000, 4999];
  return sizes.map((size, i) => {
    const bytes = Buffer.alloc(size, 0x61 + i);
    if (size > 0) bytes[size - 1] = 0x0a;
    const path = join(work.path, `${i}.ndjson`);
    writeFileSync(path, bytes);
    return { path, bytes };
  });
}

describe("WholeFiles", () => {
  it("reads each file whole into the one buffer, a smaller after a larger and a larger after both", () => {
    const reader = new WholeFiles();
    const read = files().map(({ path, bytes }) => {
      const got = reader.read(path);
      expect(got.equals(bytes), path).toBe(true);
      return got;
    });
    // One buffer: the reads after the buffer's last growth share it.
    expect(read[6]?.buffer).toBe(read[5]?.buffer);
  });

  it("readAsync: the same, without blocking the thread", async () => {
    const reader = new WholeFiles();
    const read: Buffer[] = [];
    for (const { path, bytes } of files()) {
      const got = await reader.readAsync(path);
      expect(got.equals(bytes), path).toBe(true);
      read.push(got);
    }
    expect(read[6]?.buffer).toBe(read[5]?.buffer);
  });
});

describe("filesAhead", () => {
  it.each([1, 2, 4, 16])(
    "gives each file's bytes in order, %i read at once, a file's buffer read into again only once the next is asked for",
    async (ahead) => {
      const all = files();
      // Asked for so far (each next() of the loop): file k may start only once file k - ahead is done
      // with, that is, once the file after it was asked for.
      let asked = 0;
      const started: number[] = [];
      const pathOf = (k: number): string => {
        started.push(k);
        expect(k, `file ${k} started with ${asked} asked for`).toBeLessThanOrEqual(asked + Math.min(ahead, all.length) - 2);
        return (all[k] as { path: string }).path;
      };
      const files$ = filesAhead(all.length, pathOf, ahead);
      for (let i = 0; ; i++) {
        asked++;
        const next = await files$.next();
        if (next.done === true) break;
        expect(next.value.equals((all[i] as { bytes: Buffer }).bytes), `file ${i}`).toBe(true);
      }
      expect(started).toEqual(all.map((_, k) => k));
    },
  );

  it("a file that cannot be read fails at its turn, after every file before it, none left unhandled", async () => {
    const all = files();
    const paths = [...all.map((f) => f.path), join(work.path, "missing.ndjson"), (all[0] as { path: string }).path];
    const seen: number[] = [];
    const read = async (): Promise<void> => {
      for await (const got of filesAhead(paths.length, (k) => paths[k] as string, 4)) seen.push(got.length);
    };
    await expect(read()).rejects.toThrow(/ENOENT/);
    expect(seen).toEqual(all.map((f) => f.bytes.length));
  });
});

describe("filePieces", () => {
  it.each([0, 1, 2 ** 20 - 1, 2 ** 20, 2 ** 20 + 1, 3.5 * 2 ** 20])(
    "gives a file of %i bytes whole, in order, at most a megabyte a piece",
    async (size) => {
      const bytes = Buffer.alloc(size);
      for (let i = 0; i < size; i++) bytes[i] = (i * 7 + (i >> 12)) & 0xff;
      const path = join(work.path, `pieces-${size}.bin`);
      writeFileSync(path, bytes);
      const file = await open(path, "r");
      const seen: Buffer[] = [];
      try {
        // Copied: a piece lasts only until the next is asked for.
        for await (const piece of filePieces(file)) seen.push(Buffer.from(piece));
      } finally {
        await file.close();
      }
      expect(seen.every((piece) => piece.length > 0 && piece.length <= 2 ** 20)).toBe(true);
      expect(Buffer.concat(seen).equals(bytes)).toBe(true);
    },
  );
});

describe("readIntoAsync", () => {
  it("reads the bytes asked for at a position into a place in the buffer, fewer where the file ends", async () => {
    const bytes = Buffer.alloc(300_000);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 13 + (i >> 10)) & 0xff;
    const path = join(work.path, "at.bin");
    writeFileSync(path, bytes);
    const file = await open(path, "r");
    try {
      const into = Buffer.alloc(200_010, 0x2e);
      expect(await readIntoAsync(file, into, 10, 200_000, 50_000)).toBe(200_000);
      expect(into.subarray(10).equals(bytes.subarray(50_000, 250_000))).toBe(true);
      expect(into.subarray(0, 10).equals(Buffer.alloc(10, 0x2e))).toBe(true);
      // Past the end: what there is.
      expect(await readIntoAsync(file, into, 0, 100_000, 250_000)).toBe(50_000);
      expect(into.subarray(0, 50_000).equals(bytes.subarray(250_000))).toBe(true);
      expect(await readIntoAsync(file, into, 0, 10, 300_000)).toBe(0);
    } finally {
      await file.close();
    }
  });
});
