/** Bytes put aside while the search gathers (site/search/spill-bytes.ts): the same back, from memory or from the scratch file. */
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reusedBytes } from "../../../src/common/reused-arrays.ts";
import { bufferOf, SpillBytes, SpillFile, textAt, textSize } from "../../../src/site/search/spill-bytes.ts";
import { tempDir } from "../../file-trees.ts";

let work: string;
beforeAll(async () => {
  work = await tempDir();
});
afterAll(() => rm(work, { recursive: true, force: true }));

const TEXTS = ["", "A", "OSNOVNA", "ŠKOLA", "😀x", "\ud83d", "x".repeat(300)];
const NUMBERS = [0, 1, 127, 128, 16_383, 16_384, 2 ** 31, 2 ** 53 - 1];

/** Appends the numbers and texts to each of `spills` in turn (`salt` added to the numbers of the second, third…). */
function append(spills: readonly SpillBytes[]): void {
  for (let i = 0; i < 20; i++) {
    spills.forEach((spill, s) => {
      for (const n of NUMBERS) spill.varint(n === 0 ? s : n);
      for (const t of TEXTS) spill.text(t);
      spill.narrowText(Buffer.from("ABC"), 1, 3);
    });
  }
}

/** Writes the numbers and texts, then reads them back. */
function roundTrip(path: string, limit: number): { readonly back: (number | string)[]; readonly spilled: boolean } {
  const file = new SpillFile(path);
  const spill = new SpillBytes(file, limit);
  append([spill]);
  const spilled = existsSync(path);
  expect(spill.spilled).toBe(spilled);
  const back = readBack(spill);
  file.close();
  return { back, spilled };
}

/** What `spill` gives back, as numbers and texts. */
function readBack(spill: SpillBytes): (number | string)[] {
  const bytes = bufferOf(spill.take());
  const back: (number | string)[] = [];
  let at = 0;
  const varint = (): number => {
    let value = 0;
    for (let shift = 1; ; shift *= 0x80) {
      const b = bytes[at++] as number;
      value += (b & 0x7f) * shift;
      if (b < 0x80) return value;
    }
  };
  for (let i = 0; i < 20; i++) {
    for (let n = 0; n < NUMBERS.length; n++) back.push(varint());
    for (let t = 0; t < TEXTS.length + 1; t++) {
      const header = varint();
      back.push(textAt(bytes, at, header));
      at += textSize(header);
    }
  }
  expect(at).toBe(bytes.length);
  return back;
}

describe("SpillBytes", () => {
  const expected = Array.from({ length: 20 }, () => [...NUMBERS, ...TEXTS, "BC"]).flat();

  it("gives back what was appended, held in memory while under its limit", () => {
    const path = join(work, "small");
    const { back, spilled } = roundTrip(path, 1 << 20);
    expect(back).toEqual(expected);
    expect(spilled).toBe(false);
  });

  it("gives back what was appended when most of it went to its file", () => {
    const path = join(work, "spilled");
    const { back, spilled } = roundTrip(path, 64);
    expect(spilled).toBe(true);
    expect(back).toEqual(expected);
  });

  it("gives each of several sharing one file its own bytes, their blocks interleaved there", () => {
    const file = new SpillFile(join(work, "shared"));
    const spills = [new SpillBytes(file, 64), new SpillBytes(file, 100), new SpillBytes(file, 1 << 20)];
    append(spills);
    expect(spills.map((spill) => spill.spilled)).toEqual([true, true, false]);
    // Taken in another order than they were made: each reads its own blocks back.
    for (const s of [2, 0, 1]) {
      const own = Array.from({ length: 20 }, () => [s, ...NUMBERS.slice(1), ...TEXTS, "BC"]).flat();
      expect(readBack(spills[s] as SpillBytes)).toEqual(own);
    }
    file.close();
    const late = new SpillBytes(file, 1);
    late.varint(1);
    expect(() => late.varint(300)).toThrow(/closed/);
  });

  it("reads what went to its file back into a reused array when given one, each of several taking its own bytes there in turn", () => {
    const file = new SpillFile(join(work, "room"));
    // Spilled at different limits, each holding as many bytes: the first take makes the array.
    const spills = [new SpillBytes(file, 64), new SpillBytes(file, 100), new SpillBytes(file, 40)];
    append(spills);
    const room = reusedBytes();
    const arrays = new Set<ArrayBufferLike>();
    for (const s of [1, 0, 2]) {
      const own = Array.from({ length: 20 }, () => [s, ...NUMBERS.slice(1), ...TEXTS, "BC"]).flat();
      const taken = (spills[s] as SpillBytes).take(room);
      // Read into the room's array: what it holds now.
      expect(taken.buffer).toBe(room.view(taken.length).buffer);
      arrays.add(taken.buffer);
      const again = new SpillBytes(file, 1 << 20);
      again.bytes(taken, 0, taken.length);
      expect(readBack(again)).toEqual(own);
    }
    // The first take made the room's array; the others, no longer than it, were read into it.
    expect(arrays.size).toBe(1);
    file.close();
  });

  it("reads its bytes back in order a part at a time, the file's blocks and then what was in memory, as take() gives them whole", () => {
    const file = new SpillFile(join(work, "parts"));
    const [parted, whole] = [new SpillBytes(file, 64), new SpillBytes(file, 64)];
    // Each alone: the same bytes in both (append salts the second of several).
    append([parted]);
    append([whole]);
    expect(parted.spilled).toBe(true);
    const reader = parted.reader();
    expect(parted.size).toBe(0);
    const expected = whole.take();
    // Parts of 7 bytes at most: most straddle a block's end, and none is longer than asked.
    const back = new Uint8Array(expected.length + 7);
    let at = 0;
    for (let read = reader.read(back, at, 7); read > 0; read = reader.read(back, at, 7)) {
      expect(read).toBeLessThanOrEqual(7);
      at += read;
    }
    expect(at).toBe(expected.length);
    expect(back.subarray(0, at)).toEqual(expected);
    file.close();
  });
});
