/** Bytes put aside while the search gathers (site/search/spill-bytes.ts): the same back, from memory or from the scratch file. */
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bufferOf, SpillBytes, textAt, textSize } from "../../../src/site/search/spill-bytes.ts";
import { tempDir } from "../../file-trees.ts";

let work: string;
beforeAll(async () => {
  work = await tempDir();
});
afterAll(() => rm(work, { recursive: true, force: true }));

const TEXTS = ["", "A", "OSNOVNA", "ŠKOLA", "😀x", "\ud83d", "x".repeat(300)];
const NUMBERS = [0, 1, 127, 128, 16_383, 16_384, 2 ** 31, 2 ** 53 - 1];

/** Writes the numbers and texts, then reads them back. */
function roundTrip(path: string, limit: number): { readonly back: (number | string)[]; readonly spilled: boolean } {
  const spill = new SpillBytes(path, limit);
  for (let i = 0; i < 20; i++) {
    for (const n of NUMBERS) spill.varint(n);
    for (const t of TEXTS) spill.text(t);
    spill.narrowText(Buffer.from("ABC"), 1, 3);
  }
  const spilled = existsSync(path);
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
  return { back, spilled };
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
});
