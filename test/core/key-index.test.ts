/** The key indexes' text, searched as the hosts search it: expected values written out by hand. */
import { describe, expect, it } from "vitest";
import {
  boundsLine,
  chunkOfCode,
  chunkOfId,
  findRecord,
  oibLineLength,
  oibPlaces,
  oibPlaceWidth,
  oibPrefixDigits,
  recordCode,
  recordOib,
  writeOibLine,
} from "../../src/core/key-index.ts";

// Three chunks whose first subjects are (id 4, code 0001), (id 1280, code 1001), (id 99999, code 12000).
const BOUNDS = [boundsLine(4, "0001", 5), boundsLine(1280, "1001", 5), boundsLine(99_999, "12000", 5)].join("");

describe("the bounds", () => {
  it("are fixed-width lines: the id in 16 digits, the code's value padded to the widest", () => {
    expect(BOUNDS).toBe("0000000000000004 00001\n0000000000001280 01001\n0000000000099999 12000\n");
  });

  it.each([
    [4n, 0],
    [5n, 0],
    [1279n, 0],
    [1280n, 1],
    [99_998n, 1],
    [99_999n, 2],
    [10n ** 15n, 2],
    [3n, -1],
    [0n, -1],
    [-5n, -1],
    [2n ** 53n, -1],
  ])("id %s -> chunk %i", (id, chunk) => {
    expect(chunkOfId(BOUNDS, id)).toBe(chunk);
  });

  it.each([
    ["0001", 0],
    ["1", 0],
    ["1000", 0],
    ["01001", 1],
    ["11999", 1],
    ["12000", 2],
    ["123456789", 2],
    ["0000", -1],
  ])("code %s -> chunk %i (by value; the chunk then matches the text exactly)", (code, chunk) => {
    expect(chunkOfCode(BOUNDS, code)).toBe(chunk);
  });

  it("no chunk: nothing found", () => {
    expect(chunkOfId("", 5n)).toBe(-1);
    expect(chunkOfCode("", "0001")).toBe(-1);
  });
});

/** The OIB index line the build writes (writeOibLine) for the subject at `place` in the list, as text. */
function oibLine(oib: string, place: number, width: number): string {
  const line = new Uint8Array(oibLineLength(width));
  writeOibLine(line, 0, Number(oib), place, width);
  return String.fromCharCode(...line);
}

describe("the OIB index", () => {
  const width = oibPlaceWidth(500);
  const index = [
    oibLine("02601815905", 7, width),
    oibLine("19960308249", 2, width),
    oibLine("19960308249", 40, width),
    oibLine("19960308249", 311, width),
    oibLine("76131860912", 0, width),
  ].join("");

  it("lines: the OIB and the subject's place in the list, padded to the widest place", () => {
    expect(index.split("\n")[0]).toBe("02601815905 007");
    expect(index.split("\n")[4]).toBe("76131860912 000");
  });

  it.each([
    [1, 1],
    [10, 1],
    [11, 2],
    [1_000_000, 6],
    [1_000_001, 7],
  ])("a list of %i subjects: places of %i digits", (count, digits) => {
    expect(oibPlaceWidth(count)).toBe(digits);
  });

  it.each([
    ["02601815905", [7]],
    ["19960308249", [2, 40, 311]],
    ["76131860912", [0]],
    ["00000000000", []],
    ["19960308248", []],
    ["99999999999", []],
  ])("%s -> the subjects at places %j", (oib, places) => {
    expect(oibPlaces(index, oib)).toEqual(places);
  });

  it("the width is read from the file: wider places still parse", () => {
    const wide = oibLine("12345678901", 98_765_432, 9);
    expect(wide).toBe("12345678901 098765432\n");
    expect(oibPlaces(wide, "12345678901")).toEqual([98_765_432]);
  });

  it.each([
    [0, 0],
    [1000, 0],
    [1001, 1],
    [10_000, 1],
    [10_001, 2],
    [1_000_000, 3],
    [10_000_000, 4],
  ])("%i subjects -> files named by %i digits (a thousand lines a file at most on average)", (count, digits) => {
    expect(oibPrefixDigits(count)).toBe(digits);
  });
});

describe("a subject in its chunk", () => {
  const chunk = [
    '{"id":5,"jedinstvena_oznaka":"0002","naziv_subjekta":"{\\"id\\":55,\\"jedinstvena_oznaka\\":\\"0003\\",","oib":"76131860912"}',
    '{"id":55,"jedinstvena_oznaka":"0003","naziv_subjekta":"x\\",\\"oib\\":\\"1","oib":"19960308249"}',
  ].join("\n");
  const bytes = new TextEncoder().encode(chunk);

  const found = (key: { id: bigint } | { code: string }): string | null => {
    const record = findRecord(bytes, key);
    return record === null ? null : new TextDecoder().decode(record);
  };

  it("by id and by code, never by the same text inside a name", () => {
    expect(found({ id: 55n })).toBe(chunk.split("\n")[1]);
    expect(found({ code: "0003" })).toBe(chunk.split("\n")[1]);
    expect(found({ id: 5n })).toBe(chunk.split("\n")[0]);
    expect(found({ id: 6n })).toBeNull();
    expect(found({ id: 1n })).toBeNull();
    expect(found({ id: 555n })).toBeNull();
    expect(found({ code: "3" })).toBeNull();
    expect(found({ code: "0002" })).toBe(chunk.split("\n")[0]);
  });

  it("by a binary search over a thousand lines: every id and code found, every gap none", () => {
    const lines = Array.from(
      { length: 1000 },
      (_, i) => `{"id":${3 * i + 1},"jedinstvena_oznaka":"${String(2 * i + 7).padStart(4, "0")}","naziv_subjekta":"${"x".repeat(i % 37)}"}`,
    );
    const many = new TextEncoder().encode(lines.join("\n") + "\n");
    const text = (record: Uint8Array | null): string | null => (record === null ? null : new TextDecoder().decode(record));
    for (let i = 0; i < 1000; i++) {
      expect(text(findRecord(many, { id: BigInt(3 * i + 1) }))).toBe(lines[i]);
      expect(findRecord(many, { id: BigInt(3 * i + 2) })).toBeNull();
      expect(text(findRecord(many, { code: String(2 * i + 7).padStart(4, "0") }))).toBe(lines[i]);
      expect(findRecord(many, { code: String(2 * i + 8).padStart(4, "0") })).toBeNull();
    }
  });

  it("its OIB and code read from its bytes, past quotes escaped in the name", () => {
    const second = chunk.split("\n")[1] ?? "";
    expect([recordOib(second), recordCode(second)]).toEqual(["19960308249", "0003"]);
  });
});
