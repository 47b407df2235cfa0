/** The key indexes' text, searched as the hosts search it: expected values written out by hand. */
import { describe, expect, it } from "vitest";
import {
  boundsLine,
  chunkOfCode,
  chunkOfId,
  findRecord,
  type OibEntry,
  oibEntries,
  oibLineLength,
  type OibWidths,
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

/** The OIB index line the build writes (writeOibLine) for a subject whose record is bytes `start` to `end` of chunk `chunk`, as text. */
function oibLine(oib: string, entry: OibEntry, widths: OibWidths): string {
  const line = new Uint8Array(oibLineLength(widths));
  writeOibLine(line, 0, Number(oib), entry, widths);
  return String.fromCharCode(...line);
}

describe("the OIB index", () => {
  const widths = { chunk: 2, start: 5, length: 3 };
  /** The subject at `position` of a list in chunks of 100 records of 300 bytes. */
  const entry = (position: number): { chunk: number; start: number; end: number } => ({
    chunk: Math.floor(position / 100),
    start: (position % 100) * 300,
    end: (position % 100) * 300 + 299,
  });
  const index = [
    oibLine("02601815905", entry(7), widths),
    oibLine("19960308249", entry(2), widths),
    oibLine("19960308249", entry(40), widths),
    oibLine("19960308249", entry(311), widths),
    oibLine("76131860912", entry(0), widths),
  ].join("");

  it("lines: the OIB, the chunk, the record's first byte in it and its length, padded", () => {
    expect(index.split("\n")[0]).toBe("02601815905 00 02100 299");
  });

  it.each([
    ["02601815905", [7]],
    ["19960308249", [2, 40, 311]],
    ["76131860912", [0]],
    ["00000000000", []],
    ["19960308248", []],
    ["99999999999", []],
  ])("%s -> the records of the subjects at %j", (oib, positions) => {
    expect(oibEntries(index, oib)).toEqual(positions.map(entry));
  });

  it("widths are read from the file: wider numbers still parse", () => {
    const wide = oibLine("12345678901", { chunk: 12_345, start: 98_765_432, end: 98_775_431 }, { chunk: 5, start: 9, length: 5 });
    expect(wide).toBe("12345678901 12345 098765432 09999\n");
    expect(oibEntries(wide, "12345678901")).toEqual([{ chunk: 12_345, start: 98_765_432, end: 98_775_431 }]);
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
