/** A records chunk's keys in its table, searched as the hosts search them: expected lines written out by hand. */
import { describe, expect, it } from "vitest";
import { keyLine, recordTable, tableIds } from "../../src/core/chunk-keys.ts";
import { codeValue } from "../../src/core/key-index.ts";
import { offsetAt, offsetsOfEnds, recordOffsets } from "../../src/core/record-offsets.ts";

// Codes whose values widen inside the chunk (999 -> 1000 -> 10000), ids with gaps.
const RECORDS = [
  { id: 3, code: "0998" },
  { id: 4, code: "0999" },
  { id: 17, code: "1000" },
  { id: 9_007_199_254_740_991, code: "10000" },
].map(({ id, code }) => `{"id":${id},"jedinstvena_oznaka":"${code}","naziv_subjekta":"Ž \\"x\\""}`);
const ENCODE = new TextEncoder();

/** The keys part of a table made the plain way, from each record's id and code: what recordTable must write. */
function keysPart(ids: readonly number[], codes: readonly string[]): Uint8Array {
  const values = codes.map(codeValue);
  const width = values.reduce((widest, value) => Math.max(widest, value.length), 0);
  const part = new Uint8Array(ids.length * (8 + width));
  const view = new DataView(part.buffer);
  ids.forEach((id, i) => view.setFloat64(i * 8, id, true));
  const text = values.map((value) => value.padStart(width, "0")).join("");
  part.set(new TextEncoder().encode(text), ids.length * 8);
  return part;
}

describe.each([
  ["every line ending in a line break", RECORDS.join("\n") + "\n"],
  ["the last line without its line break", RECORDS.join("\n")],
])("the keys of a chunk (%s)", (_, text) => {
  const chunk = ENCODE.encode(text);
  const table = recordTable(chunk);
  const offsets = recordOffsets(chunk);

  it("follow the offsets: each id as a double, each code's value padded to the widest", () => {
    expect(table.subarray(0, offsets.length)).toEqual(offsets);
    const keys = table.subarray(offsets.length);
    expect(keys).toEqual(keysPart([3, 4, 17, 9_007_199_254_740_991], ["0998", "0999", "1000", "10000"]));
    expect(keys.length).toBe(4 * 8 + 4 * 5);
    expect(new TextDecoder().decode(keys.subarray(4 * 8))).toBe("00998009990100010000");
  });

  it.each([
    [3n, 0],
    [4n, 1],
    [17n, 2],
    [9_007_199_254_740_991n, 3],
    [1n, -1],
    [5n, -1],
    [18n, -1],
  ])("id %s is on line %i", (id, line) => {
    expect(keyLine(table, 4, { id })).toBe(line);
  });

  it.each([
    ["0998", 0],
    ["999", 1],
    ["01000", 2],
    ["10000", 3],
    ["0997", -1],
    ["1001", -1],
    ["100000", -1],
  ])("code %s (by its value) is on line %i", (code, line) => {
    expect(keyLine(table, 4, { code })).toBe(line);
  });

  it("give back the chunk's ids from its table and the chunk's length alone (tableIds); a length past the chunk's last offset reads as none", () => {
    expect(tableIds(table, chunk.length)).toEqual([3, 4, 17, 9_007_199_254_740_991]);
    expect(tableIds(table, chunk.length + 2)).toBeNull();
  });

  it("the line's offsets are the record's bytes", () => {
    const line = keyLine(table, 4, { code: "1000" }) as number;
    expect(new TextDecoder().decode(chunk.subarray(offsetAt(table, line), offsetAt(table, line + 1) - 1))).toBe(RECORDS[2]);
  });
});

it("a table not of the chunk's record count reads as none (null), not as a wrong line", () => {
  const table = recordTable(ENCODE.encode(RECORDS.join("\n") + "\n"));
  expect(keyLine(table, 3, { id: 3n })).toBeNull();
  expect(keyLine(table.subarray(0, 5 * 4), 4, { id: 3n })).toBeNull();
});

it("a table made from where the lines end (a whole rendered block's ends) is the one made by searching the bytes; ends that do not fit the bytes are searched past", () => {
  const chunk = ENCODE.encode(RECORDS.join("\n") + "\n");
  const ends = Uint32Array.from(RECORDS.map((_, i) => ENCODE.encode(RECORDS.slice(0, i + 1).join("\n") + "\n").length));
  expect(offsetsOfEnds(chunk, ends)).toEqual(recordOffsets(chunk));
  expect(recordTable(chunk, ends)).toEqual(recordTable(chunk));
  // A record kept by its keys alone (no bytes: an end repeated), an end not after a "\n", one short of the chunk, none, the last line's "\n" missing.
  const wrong = [
    Uint32Array.from([ends[0] ?? 0, ...ends]),
    Uint32Array.from(ends, (end, i) => (i === 1 ? end - 1 : end)),
    ends.subarray(0, 3),
    new Uint32Array(0),
  ];
  for (const bad of wrong) expect(offsetsOfEnds(chunk, bad)).toBeNull();
  for (const bad of wrong) expect(recordTable(chunk, bad)).toEqual(recordTable(chunk));
  const open = chunk.subarray(0, chunk.length - 1);
  expect(
    offsetsOfEnds(
      open,
      Uint32Array.from(ends, (end, i) => (i === 3 ? end - 1 : end)),
    ),
  ).toBeNull();
});
