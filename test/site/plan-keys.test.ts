/**
 * The key lookups' plan (src/site/plan-keys.ts) read once and sorted a part at a time: whatever the
 * parts (one, or many small ones whose buffers spill to their files many times), the OIB index's
 * files are those of every subject's (OIB, place) sorted whole, byte for byte, with the same hashes.
 */
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { oibLineLength, oibPlaceWidth, oibPrefixDigits, writeOibLine } from "../../src/core/key-index.ts";
import { oibFileName } from "../../src/core/layout.ts";
import type { ShardPlan } from "../../src/site/hand-offs.ts";
import { type KeyParts, planKeys } from "../../src/site/plan-keys.ts";
import { useTempDir } from "../file-trees.ts";

const CHUNK = 1000;
/** Two prefix digits: a hundred OIB files. */
const COUNT = 25_300;
const work = useTempDir();

/** A small generator of its own: the same list every run. */
function* numbers(seed: number): Generator<number> {
  let x = seed;
  for (;;) {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    yield x;
  }
}

/** OIBs spread over every prefix, a run of them in one prefix (a skewed part), repeated ones, and leading zeros. */
function oibs(): string[] {
  const random = numbers(7);
  return Array.from({ length: COUNT }, (_, i) => {
    const r = random.next().value as number;
    if (i % 5 === 0) return `37${String(r % 1e9).padStart(9, "0")}`;
    if (i % 11 === 0) return "00000000042";
    return String((r * 47) % 1e11).padStart(11, "0");
  });
}

/** A record's fields from its name to its OIB's opening quote (its name `S` unless the test says). */
type NameAndOib = (place: number) => string;
const PLAIN_NAME: NameAndOib = () => '"naziv_subjekta":"S","oib":"';

function writeChunks(dir: string, list: readonly string[], nameAndOib = PLAIN_NAME): (chunk: number) => { path: string } {
  const paths: string[] = [];
  for (let first = 0; first < list.length; first += CHUNK) {
    const lines = list
      .slice(first, first + CHUNK)
      .map((oib, k) => `{"id":${first + k + 1},"jedinstvena_oznaka":"${first + k + 10}",${nameAndOib(first + k)}${oib}","x":1}\n`);
    const path = join(dir, `${first / CHUNK}.ndjson`);
    writeFileSync(path, lines.join(""));
    paths.push(path);
  }
  return (chunk) => ({ path: paths[chunk] as string });
}

/** The OIB index's files by name, as every (OIB, place) sorted at once makes them. */
function expected(list: readonly string[]): Map<string, Buffer> {
  const digits = oibPrefixDigits(list.length);
  const width = oibPlaceWidth(list.length);
  const order = list.map((oib, place) => ({ oib, place })).sort((a, b) => (a.oib < b.oib ? -1 : a.oib > b.oib ? 1 : a.place - b.place));
  const files = new Map<string, Buffer>();
  for (let p = 0; p < 10 ** digits; p++) files.set(oibFileName(String(p).padStart(digits, "0")), Buffer.alloc(0));
  for (const { oib, place } of order) {
    const line = Buffer.alloc(oibLineLength(width));
    writeOibLine(line, 0, Number(oib), place, width);
    const name = oibFileName(oib.slice(0, digits));
    files.set(name, Buffer.concat([files.get(name) as Buffer, line]));
  }
  return files;
}

function filesOf(shards: readonly ShardPlan[]): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const shard of shards.slice(1)) for (const { name, bytes } of shard.files()) files.set(name, Buffer.from(bytes));
  return files;
}

describe("planKeys", () => {
  const list = oibs();

  it.each<[string, KeyParts | undefined]>([
    ["one part", undefined],
    ["small parts that spill many times", { partKeys: 3000, buffered: 64 }],
    ["a prefix a part, seven keys a buffer", { partKeys: 1, buffered: 7 }],
  ])("writes the OIB index of every (OIB, place) sorted whole: %s", (name, parts) => {
    const dir = join(work.path, name.replaceAll(" ", "-"));
    const fileOf = writeChunks(join(work.path), list);
    const shards = planKeys(COUNT, CHUNK, fileOf, dir, parts);
    const want = expected(list);
    const got = filesOf(shards);
    expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
    for (const [file, bytes] of want) expect(got.get(file)?.equals(bytes), file).toBe(true);
    // The parts' scratch files are gone; only the shards' directories are left.
    expect(readdirSync(dir).filter((entry) => entry.includes("part"))).toEqual([]);
  });

  it("plans the same shards, hashes and all, however the keys are parted", () => {
    const fileOf = writeChunks(work.path, list);
    const hashes = (parts?: KeyParts): string[] =>
      planKeys(COUNT, CHUNK, fileOf, join(work.path, `h-${parts?.partKeys ?? 0}`), parts).map((s) => `${s.key} ${s.hash}`);
    expect(hashes({ partKeys: 2000, buffered: 100 })).toEqual(hashes());
  });

  it("finds each OIB past names with escapes, and in a record of another shape", () => {
    // Escaped quotes and backslashes (one ending the name), the OIB field's own text escaped in a name, an empty name, and a
    // field between the name and the OIB (not the rendered shape: found by its name).
    const names = ['Vrtić \\"Rabra\\"', "a\\\\", 'x\\",\\"oib\\":\\"99999999999', "", "S"];
    const nameAndOib: NameAndOib = (place) =>
      place % 7 === 6 ? '"naziv_subjekta":"S","razina":"x","oib":"' : `"naziv_subjekta":"${names[place % names.length] as string}","oib":"`;
    const dir = join(work.path, "escapes");
    const shards = planKeys(COUNT, CHUNK, writeChunks(work.path, list, nameAndOib), dir);
    const want = expected(list);
    const got = filesOf(shards);
    for (const [file, bytes] of want) expect(got.get(file)?.equals(bytes), file).toBe(true);
  });

  it("counts the subjects the chunk files hold", () => {
    const fileOf = writeChunks(work.path, list);
    expect(() => planKeys(COUNT + 1, CHUNK, fileOf, join(work.path, "short"))).toThrow(/hold 25300 subjects, not 25301/);
  });
});
