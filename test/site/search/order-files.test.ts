/**
 * The order files (site/search/order-files.ts) and the external sort under them (sorted-runs.ts):
 * with runs of a few values, so that every edge of the merge is reached by construction, the files
 * equal those of a plain sort of the whole list (the order files' definition, model below).
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { compareText } from "../../../src/core/search/match-record.ts";
import { compareOrderValues } from "../../../src/core/search/match-record.ts";
import { descending, groupBits, OrderFiles } from "../../../src/site/search/order-files.ts";
import { RunScratch, SortedRuns, writeUtf8 } from "../../../src/site/search/sorted-runs.ts";

interface Subject {
  readonly code: string;
  readonly name: string;
  readonly town: string;
  readonly date: string;
}

let spill = "";
beforeEach(() => {
  spill = mkdtempSync(join(tmpdir(), "order-files-"));
});
afterEach(() => rmSync(spill, { recursive: true, force: true }));

/** Every place in the order of its value, equal values by place (the runs' contract). */
function sortedBy(values: readonly string[], runSize: number, presort: boolean | number = true): [number, string][] {
  const runs = new SortedRuns(join(spill, `runs-${runSize}`), compareOrderValues, presort, runSize);
  for (const value of values) runs.add(value);
  return visited(runs, values);
}

/** Each place SortedRuns.each visits with its value; each rank checked: the value's among the distinct values, counted from 0. */
function visited(runs: SortedRuns, values: readonly string[]): [number, string][] {
  const out: [number, string][] = [];
  const ranks: number[] = [];
  runs.each((place, rank) => {
    out.push([place, values[place] as string]);
    ranks.push(rank);
  });
  let rank = -1;
  expect(ranks).toEqual(out.map(([, value], i) => (i === 0 || value !== out[i - 1]?.[1] ? ++rank : rank)));
  return out;
}

/** The same, by one sort of the whole list. */
function modelSorted(values: readonly string[]): [number, string][] {
  return values.map((value, place): [number, string] => [place, value]).sort(([p, a], [q, b]) => (a === b ? p - q : compareText(a, b)));
}

/** The order files by one sort of each whole column, as they are defined (docs/search.md). */
function modelFiles(subjects: readonly Subject[]): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const u32 = (values: number[]): Buffer => Buffer.from(new Uint32Array(values).buffer);
  const columns: [string, string[]][] = [
    ["code", subjects.map((s) => s.code)],
    ["name", subjects.map((s) => s.name)],
    ["town", subjects.map((s) => s.town)],
    ["date", subjects.map((s) => s.date)],
  ];
  for (const [name, column] of columns) {
    const distinct = [...new Set(column)].sort(compareText);
    const ranks = column.map((v) => distinct.indexOf(v));
    const places = column.map((_, p) => p);
    const asc = [...places].sort((p, q) => (ranks[p] as number) - (ranks[q] as number) || p - q);
    const desc = [...places].sort((p, q) => (ranks[q] as number) - (ranks[p] as number) || p - q);
    files.set(`${name}.rank`, u32(ranks));
    files.set(`${name}.asc`, u32(asc));
    files.set(`${name}.desc`, u32(desc));
    if (name === "name" || name === "town") {
      // Where each group of equal values begins in the ascending order, a bit a position.
      const groups = Buffer.alloc(Math.ceil(asc.length / 8));
      asc.forEach((p, i) => {
        if (i === 0 || ranks[p] !== ranks[asc[i - 1] as number]) groups[i >>> 3] = (groups[i >>> 3] as number) | (1 << (i & 7));
      });
      files.set(`${name}.groups`, groups);
    }
    if (name === "date") {
      files.set("date.keys", Buffer.from(distinct.map((d) => `${d}\n`).join("")));
      files.set("date.starts", u32([0, ...distinct.map((d) => column.filter((v) => compareText(v, d) <= 0).length)]));
    }
  }
  return files;
}

function orderFiles(subjects: readonly Subject[], runSize: number): { files: Map<string, Buffer>; namePositions: number[] } {
  const orders = new OrderFiles(join(spill, `shard-${runSize}`), runSize);
  for (const s of subjects) orders.add(s.code, s.name, s.town, s.date);
  const { shard, namePositions } = orders.finish();
  const files = new Map<string, Buffer>();
  for (const { name, bytes } of shard.files()) files.set(name, Buffer.from(bytes));
  return { files, namePositions: [...namePositions] };
}

// Names equal under ICU but not byte for byte (a composed and a combining accent; an ignorable
// control character), the Croatian letters and digraphs, case, spaces, digits and dashes.
const PIECES = [
  "a",
  "A",
  "c",
  "č",
  "ć",
  "d",
  "dž",
  "đ",
  "l",
  "lj",
  "Lj",
  "LJ",
  "n",
  "nj",
  "NJ",
  "Dž",
  "z",
  "ž",
  "\u00e1",
  "a\u0301",
  "\u0001",
  " ",
  "0",
  "1",
  "-",
  "",
];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 4 }).map((parts) => parts.join(""));
const digits = fc.array(fc.constantFrom("0", "1", "9", "-"), { maxLength: 4 }).map((parts) => parts.join(""));

describe("SortedRuns", () => {
  it("keeps equal values' places rising across a run boundary inside their group", () => {
    // Runs of 3: places 2, 3, 4 (one group) straddle the first boundary; 5 and 9 the next ones.
    const values = ["b", "a", "x", "x", "x", "a", "c", "b", "c", "a"];
    expect(sortedBy(values, 3)).toEqual(modelSorted(values));
    expect(sortedBy(values, 3).map(([place]) => place)).toEqual([1, 5, 9, 0, 7, 6, 8, 2, 3, 4]);
  });

  it("reads back a group of equal values larger than a read block (a run holds each distinct value once, then its places)", () => {
    // 100,000 places of one name in each full run: 400,000 bytes of places, past the 256 KiB a reader reads at a time.
    const values = Array.from({ length: 250_000 }, (_, place) => (place % 5 === 4 ? `Škola ${place % 7}` : "Dječji vrtić"));
    expect(sortedBy(values, 125_000)).toEqual(modelSorted(values));
  });

  it("writes and reads back a text longer than a write block (its key and UTF-8 past 256 KiB), with and without keys", () => {
    const long = "Škola ".repeat(20_000);
    const values = ["b", long, "a", `${long}x`, long, "c", "a"];
    for (const presort of [true, false]) expect(sortedBy(values, 2, presort)).toEqual(modelSorted(values));
  });

  it("sorts a single value, no value, and empty texts", () => {
    expect(sortedBy(["x"], 1)).toEqual([[0, "x"]]);
    expect(sortedBy([], 1)).toEqual([]);
    expect(sortedBy(["", "a", "", ""], 2)).toEqual([
      [0, ""],
      [2, ""],
      [3, ""],
      [1, "a"],
    ]);
  });

  it("orders texts equal under ICU by their code points, in one run or across runs", () => {
    const values = ["a\u0301", "\u00e1", "ab", "a\u0001b", "\u00e1", "a\u0301"];
    for (const runSize of [1, 2, 100]) expect(sortedBy(values, runSize)).toEqual(modelSorted(values));
  });

  it("is one sort of the whole list, whatever the run size (with the cheap key, without, or with it from some distinct values on)", () => {
    const presorts = fc.oneof(fc.boolean(), fc.integer({ min: 0, max: 8 }));
    fc.assert(
      fc.property(fc.array(text, { maxLength: 60 }), fc.integer({ min: 1, max: 7 }), presorts, (values, runSize, presort) => {
        expect(sortedBy(values, runSize, presort)).toEqual(modelSorted(values));
      }),
    );
  });

  it("takes a run's groups in a row while it holds the least value, an equal value of a lower run first", () => {
    // Runs of 3: the second gives b and c in a row, then d, which the first run holds too (places 1 and 2).
    const values = ["a", "d", "d", "b", "c", "d"];
    for (const presort of [true, false]) {
      expect(sortedBy(values, 3, presort).map(([place]) => place)).toEqual([0, 3, 4, 1, 2, 5]);
    }
    // Ranges apart, in place order (a register's codes): each run whole, then the next.
    const codes = Array.from({ length: 40 }, (_, place) => String(1000 + place));
    expect(sortedBy(codes, 7, false)).toEqual(modelSorted(codes));
  });

  it("leaves no run behind in the scratch directory", () => {
    sortedBy(["c", "b", "a", "b"], 1);
    expect(readdirSync(spill)).toEqual([]);
  });

  it("leaves nothing of a run in the next one's sort, whose arrays it keeps (fewer distinct values, shorter texts, a shorter last run)", () => {
    // Runs of 4: eight distinct long names, then one name four times, then one short one: each run's
    // groups are fewer than the last's, so a group, a place or a key left from a run before shows.
    const values = [
      ...["Osnovna škola H", "Dječji vrtić G", "Osnovna škola F", "Dom E"],
      ...["Osnovna škola D", "Vrtić C", "Škola B", "Škola A"],
      ...["X", "X", "X", "X"],
      "b",
    ];
    for (const presort of [true, false]) expect(sortedBy(values, 4, presort)).toEqual(modelSorted(values));
  });

  it("shares one scratch between sorts whose runs fill together and are merged in turn (OrderFiles's fields)", () => {
    const scratch = new RunScratch();
    const columns = [
      ["k", "c", "a", "z", "b", "b", "y"],
      ["Škola", "Vrtić", "Dom", "Dom", "Ab", "Škola", "Ab"],
    ];
    const runs = columns.map((_, i) => new SortedRuns(join(spill, `shared-${i}`), compareOrderValues, i === 1, 2, scratch));
    for (let place = 0; place < 7; place++) columns.forEach((column, i) => runs[i]?.add(column[place] as string));
    columns.forEach((column, i) => {
      expect(visited(runs[i] as SortedRuns, column)).toEqual(modelSorted(column));
    });
  });
});

describe("writeUtf8", () => {
  it("writes Buffer's UTF-8 of any text: ASCII, two and three bytes, surrogate pairs, lone surrogates as U+FFFD", () => {
    const unit = fc.oneof(
      fc.constantFrom("a", "\u0000", "\u007f", "\u0080", "č", "\u07ff", "\u0800", "\uffff", "\ud83d\ude00", "\ud800", "\udc00", "\udbff"),
      fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 20 }), fc.nat({ max: 5 }), (units, at) => {
        const value = units.join("");
        const out = new Uint8Array(at + 3 * value.length);
        const written = writeUtf8(value, out, at);
        expect(Buffer.from(out.subarray(at, at + written))).toEqual(Buffer.from(value, "utf8"));
      }),
      { numRuns: 500 },
    );
  });
});

describe("OrderFiles", () => {
  const subject = fc.record({ code: digits, name: text, town: text, date: fc.oneof(digits, text) });

  it("makes the files and name positions of one sort of each column, whatever the run size", () => {
    fc.assert(
      fc.property(fc.array(subject, { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 5 }), (subjects, runSize) => {
        const made = orderFiles(subjects, runSize);
        expect(made.files).toEqual(modelFiles(subjects));
        const asc = new Uint32Array(new Uint8Array(made.files.get("name.asc") as Buffer).buffer);
        asc.forEach((place, position) => expect(made.namePositions[place]).toBe(position));
      }),
    );
  });

  it("numbers a field past 65,536 distinct values", () => {
    const subjects = Array.from({ length: 70_000 }, (_, i) => ({
      code: "1",
      name: "a",
      town: `t${String(69_999 - i).padStart(5, "0")}`,
      date: `d${String(69_999 - i).padStart(5, "0")}`,
    }));
    const { files } = orderFiles(subjects, 1 << 16);
    for (const field of ["town", "date"]) {
      const ranks = new Uint32Array(new Uint8Array(files.get(`${field}.rank`) as Buffer).buffer);
      expect(ranks[0]).toBe(69_999);
      expect(ranks[69_999]).toBe(0);
      expect(ranks.every((rank, place) => rank === 69_999 - place)).toBe(true);
    }
  });

  it("numbers dates by their digits' slots as by their texts, more distinct dates than slots, each met twice apart", () => {
    // 70,000 distinct dates (1000-00-00 to 1699-09-09): more than the 65,536 slots, so slots are shared.
    const n = 70_000;
    const date = (i: number): string =>
      `${1000 + Math.floor(i / 100)}-${String(Math.floor(i / 10) % 10).padStart(2, "0")}-${String(i % 10).padStart(2, "0")}`;
    const dates = Array.from({ length: 2 * n }, (_, p) => (p < n ? date((p * 7919) % n) : date((p * 104_729) % n)));
    // Texts of a date's shape that are not all digits take the Map alone.
    dates.push("1000-0x-00", "10000-00-0", "1000-00-00");
    const subjects = dates.map((d) => ({ code: "1", name: "a", town: "a", date: d }));
    const { files } = orderFiles(subjects, 1 << 18);
    const distinct = [...new Set(dates)].sort();
    const rankOf = new Map(distinct.map((d, rank) => [d, rank]));
    const ranks = new Uint32Array(new Uint8Array(files.get("date.rank") as Buffer).buffer);
    expect(ranks.every((rank, place) => rank === rankOf.get(dates[place] as string))).toBe(true);
    expect(files.get("date.keys")?.toString()).toBe(distinct.map((d) => `${d}\n`).join(""));
  });

  it("orders descending by group from the last, places rising within a group", () => {
    const subjects = ["b", "a", "b", "c", "a"].map((name, i) => ({ code: String(i), name, town: name, date: "2000-01-01" }));
    const { files } = orderFiles(subjects, 2);
    expect([...new Uint32Array(new Uint8Array(files.get("name.desc") as Buffer).buffer)]).toEqual([3, 0, 2, 1, 4]);
    expect([...new Uint32Array(new Uint8Array(files.get("name.asc") as Buffer).buffer)]).toEqual([1, 4, 0, 2, 3]);
    expect([...new Uint32Array(new Uint8Array(files.get("name.rank") as Buffer).buffer)]).toEqual([1, 0, 1, 2, 0]);
  });
});

describe("descending", () => {
  it("is the same bytes in blocks of any size, a group of equal ranks split across blocks", () => {
    // Ranks by place; ascending: by rank, places rising. Groups of 1, 3 and 2 places.
    const ranks = Uint32Array.from([2, 0, 1, 1, 0, 1]);
    const asc = Uint32Array.from([1, 4, 2, 3, 5, 0]);
    const whole = [0, 2, 3, 5, 1, 4];
    for (const block of [1, 2, 3, 4, 6, 100]) {
      // Each part read as it comes: the parts share one buffer.
      const parts = Array.from(descending(asc, groupBits(asc, ranks), block), (part) => [...new Uint32Array(part.slice().buffer)]);
      expect(parts.flat()).toEqual(whole);
      expect(parts.every((part) => part.length <= block && part.length > 0)).toBe(true);
    }
    expect([...descending(new Uint32Array(0), new Uint8Array(0), 4)]).toEqual([]);
  });
});

describe("compareOrderValues", () => {
  it("is the collation's order, texts of digits and dashes compared as plain text (every one up to 4 long)", () => {
    let all = [""];
    for (let length = 0, last = [""]; length < 4; length++) {
      last = last.flatMap((t) => [..."0123456789-"].map((c) => t + c));
      all = all.concat(last);
    }
    const byCollation = [...all].sort(compareText);
    expect([...all].sort(compareOrderValues)).toEqual(byCollation);
    expect([...all].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(byCollation);
  });
});
