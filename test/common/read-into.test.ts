/** WholeFiles reads file after file into one buffer, blocking or not: each read is that file's bytes, whole, however the sizes go (a smaller one after a larger, a larger growing the buffer, an empty one). */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { WholeFiles } from "../../src/common/read-into.ts";
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
