/**
 * A source read in pieces into two buffers in turn (decode-source.ts, readSourcePieces): the pieces
 * are the file's bytes in order, each whole until the next is asked for though the read of the next
 * runs meanwhile; a taker that stops early leaves nothing open; and the UTF-8 check sees every piece.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setImmediate } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { readSourcePieces } from "../../../src/data/sources/decode-source.ts";
import type { SourceFile } from "../../../src/data/sources/source-file.ts";
import { tempDir } from "../../file-trees.ts";

async function sourceOf(bytes: Buffer): Promise<SourceFile> {
  const path = join(await tempDir(), "subjekti.json");
  await writeFile(path, bytes);
  return { name: "subjekti.json", path, kind: "json", locateBy: "index" } as SourceFile;
}

describe("readSourcePieces", () => {
  it("gives the file's bytes in order, each piece whole while the taker holds it (the next read runs meanwhile)", async () => {
    const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => `${i},`).join(""));
    const source = readSourcePieces(await sourceOf(bytes), 37);
    const seen: Buffer[] = [];
    for await (const piece of source.pieces()) {
      const copy = Buffer.from(piece);
      // The taker works a while: the read of the next piece, under way, lands elsewhere.
      for (let i = 0; i < 5; i++) await setImmediate();
      expect(piece.equals(copy)).toBe(true);
      expect(piece.length).toBeLessThanOrEqual(37);
      seen.push(copy);
    }
    expect(Buffer.concat(seen).equals(bytes)).toBe(true);
    expect(await source.problems()).toEqual([]);
  });

  it("stops when the taker stops, and judges the UTF-8 of what was read; a bad byte read is located", async () => {
    const good = Buffer.from("[".padEnd(200, " "));
    const stopped = readSourcePieces(await sourceOf(good), 16);
    for await (const piece of stopped.pieces()) if (piece.length > 0) break;
    expect(await stopped.problems()).toEqual([]);
    const bad = Buffer.concat([Buffer.from('[{"naziv":"'), Buffer.from([0xe8]), Buffer.from('"}]')]);
    const source = readSourcePieces(await sourceOf(bad), 4);
    for await (const _ of source.pieces());
    const problems = await source.problems();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ severity: "error", line: 1, column: 12 });
  });
});
