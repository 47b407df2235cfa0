/**
 * The diff found from the chunks that can differ (chunked-diff.ts, list-chunks.ts) is the diff of
 * the snapshots whole, byte for byte: the same diff file, the same counts and names in the state
 * and the Atom feed. Each case publishes an old list then a new one twice over, once with the
 * chunks and the note of the old list, once without (the whole diff: the oracle); which way each
 * ran is read from diffPaths, never from the clock. Then the fallbacks: a stale, corrupt or
 * mis-sized note, or no build cache, give the whole diff. Last, through buildSite: an edited
 * record's diff is the same with the note and without.
 */
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentHash } from "../../src/common/content-hash.ts";
import { cacheDirOf } from "../../src/data/read/build-cache.ts";
import { chunkGaps, diffPaths, type ListChunks } from "../../src/feed/list-chunks.ts";
import { readPreviousFeed } from "../../src/feed/read-previous.ts";
import { writeFeed } from "../../src/feed/write-feed.ts";
import { build } from "../site/built-site.ts";

const CHUNK = 1000;
const RECORDS = 20_000;

let root: string;
let runs = 0;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "subjekti-chunked-diff-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A rendered record line as the build writes it (id first), named for the Atom feed's names. */
const line = (id: number, name = `Subjekt ${id}`): string => `${JSON.stringify({ id, naziv_subjekta: name, grad: "Zagreb" })}\n`;

/** A list: record lines in id order. */
type List = string[];

const base = (): List => Array.from({ length: RECORDS }, (_, i) => line(2 * i + 10));

const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");

/** Writes `list`'s chunk files under `dir`: their hashes and files, the note's file given. */
async function chunksOf(dir: string, list: List, noteFile: string): Promise<ListChunks> {
  await mkdir(dir, { recursive: true });
  const hashes: string[] = [];
  for (let c = 0; c * CHUNK < list.length; c++) {
    const bytes = list.slice(c * CHUNK, (c + 1) * CHUNK).join("");
    hashes.push(contentHash(bytes));
    await writeFile(join(dir, `${c}.ndjson`), bytes);
  }
  return { hashes, path: (c) => join(dir, `${c}.ndjson`), noteFile };
}

/** Publishes `list` into `outDir` as a build would (the previous feed read from it), with its chunks when given. */
async function publish(outDir: string, list: List, chunks: ListChunks | undefined, day: number): Promise<void> {
  const previous = await readPreviousFeed(undefined, outDir);
  try {
    async function* records(): AsyncGenerator<Uint8Array> {
      for (let c = 0; c * CHUNK < list.length; c++) yield Buffer.from(list.slice(c * CHUNK, (c + 1) * CHUNK).join(""));
    }
    const input = {
      outDir,
      records,
      count: list.length,
      published: new Date(Date.UTC(2026, 0, day)),
      previous,
      keep: { count: 10 },
      baseUrl: "http://testserver",
    };
    await writeFeed(chunks === undefined ? input : { ...input, chunks });
  } finally {
    await previous?.dispose();
  }
}

/** The files a diff decides: the diff, the state (counts, names) and the Atom feed. */
async function feedFiles(outDir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const name of ["2.json", "state.json", "feed.atom"]) files[name] = await readFile(join(outDir, "changes", name), "utf8");
  return files;
}

/**
 * `old` then `now` published with chunks and a note (`spoil` may change the note between), and
 * again with none; both sites' feed files, and which way the first diff ran.
 */
async function bothWays(
  old: List,
  now: List,
  spoil?: (noteFile: string) => Promise<void>,
): Promise<{ chunked: Record<string, string>; whole: Record<string, string>; path: string }> {
  const dir = join(root, String(runs++));
  const noteFile = join(dir, "feed-chunks.json");
  await publish(join(dir, "a"), old, await chunksOf(join(dir, "old"), old, noteFile), 1);
  await spoil?.(noteFile);
  const before = { ...diffPaths };
  await publish(join(dir, "a"), now, await chunksOf(join(dir, "new"), now, noteFile), 2);
  const path = diffPaths.chunked > before.chunked ? "chunked" : diffPaths.whole > before.whole ? `whole: ${diffPaths.reason}` : "none";
  await publish(join(dir, "b"), old, undefined, 1);
  await publish(join(dir, "b"), now, undefined, 2);
  const result = { chunked: await feedFiles(join(dir, "a")), whole: await feedFiles(join(dir, "b")), path };
  await rm(dir, { recursive: true, force: true });
  return result;
}

const rename = (list: List, index: number): List =>
  list.map((l, i) => (i === index ? line(JSON.parse(l).id as number, `Preimenovan ${index}`) : l));
const at = (list: List, index: number, lines: List): List => [...list.slice(0, index), ...lines, ...list.slice(index)];
const idOf = (l: string): number => JSON.parse(l).id as number;

describe("the chunked diff is the whole diff", () => {
  const cases: [string, (list: List) => List][] = [
    ["the first record renamed", (l) => rename(l, 0)],
    ["a middle record renamed", (l) => rename(l, 10_500)],
    ["the last record renamed", (l) => rename(l, RECORDS - 1)],
    ["the last record of a chunk renamed", (l) => rename(l, 4_999)],
    ["the first record of a chunk renamed", (l) => rename(l, 5_000)],
    ["a record added at the start (every chunk shifts)", (l) => at(l, 0, [line(1)])],
    ["a record added in the middle", (l) => at(l, 9_000, [line(idOf(l[8_999] as string) + 1)])],
    ["a record removed (every later chunk shifts)", (l) => l.filter((_, i) => i !== 3_333)],
    [
      "a record removed and one added a chunk later (the shift ends)",
      (l) =>
        at(
          l.filter((_, i) => i !== 3_333),
          4_500,
          [line(idOf(l[4_500] as string) + 1)],
        ),
    ],
    ["a new last chunk", (l) => [...l, ...Array.from({ length: 10 }, (_, i) => line(100_000 + i))]],
    ["the last chunk shrinking", (l) => l.slice(0, RECORDS - 400)],
    ["the last chunk gone", (l) => l.slice(0, RECORDS - 1000)],
    ["several chunks changed far apart", (l) => [2, 6_000, 6_001, 13_999, 19_000].reduce(rename, l)],
    ["renames in every chunk", (l) => l.map((x, i) => (i % 1000 === 500 ? line(idOf(x), "Svaki") : x))],
    ["every record removed", () => []],
  ];
  for (const [name, edit] of cases) {
    it(name, async () => {
      const old = base();
      const { chunked, whole, path } = await bothWays(old, edit(old));
      expect(path).toBe("chunked");
      expect(chunked).toEqual(whole);
    });
  }

  it("nothing changed: no diff, the note kept for the next", async () => {
    const dir = join(root, String(runs++));
    const noteFile = join(dir, "feed-chunks.json");
    const list = base();
    await publish(join(dir, "a"), list, await chunksOf(join(dir, "old"), list, noteFile), 1);
    const note = await readFile(noteFile, "utf8");
    await rm(noteFile);
    const before = { ...diffPaths };
    await publish(join(dir, "a"), list, await chunksOf(join(dir, "new"), list, noteFile), 2);
    expect(diffPaths).toEqual(before);
    expect(await readFile(noteFile, "utf8")).toBe(note);
    await expect(readFile(join(dir, "a", "changes", "2.json"))).rejects.toThrow();
  });

  it("from an empty list", async () => {
    const { chunked, whole, path } = await bothWays([], base().slice(0, 2_500));
    expect(path).toBe("chunked");
    expect(chunked).toEqual(whole);
  });

  it("seeded random edits: renames, adds and removes anywhere", async () => {
    let seed = 20_261_129;
    const random = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 12; round++) {
      const old = base().filter(() => random(50) !== 0);
      let now = old;
      for (let edits = 1 + random(6); edits > 0; edits--) {
        const i = random(now.length);
        const kind = random(3);
        if (kind === 0) now = rename(now, i);
        else if (kind === 1) now = now.filter((_, j) => j !== i);
        else if (i === 0 || idOf(now[i - 1] as string) < idOf(now[i] as string) - 1) now = at(now, i, [line(idOf(now[i] as string) - 1)]);
      }
      const { chunked, whole, path } = await bothWays(old, now);
      expect(path, `round ${round}`).toBe("chunked");
      expect(chunked, `round ${round}`).toEqual(whole);
    }
  });

  it("the gaps: between index-identical chunks, and the tails of lists of other lengths", () => {
    expect(chunkGaps(["a", "b", "c"], ["a", "x", "c"])).toEqual([{ oldFrom: 1, oldTo: 2, newFrom: 1, newTo: 2 }]);
    expect(chunkGaps(["a", "b"], ["a", "b", "c"])).toEqual([{ oldFrom: 2, oldTo: 2, newFrom: 2, newTo: 3 }]);
    expect(chunkGaps(["a", "b", "c"], ["x", "b"])).toEqual([
      { oldFrom: 0, oldTo: 1, newFrom: 0, newTo: 1 },
      { oldFrom: 2, oldTo: 3, newFrom: 2, newTo: 2 },
    ]);
    expect(chunkGaps(["a"], ["a"])).toEqual([]);
    expect(chunkGaps([], [])).toEqual([]);
  });
});

describe("the whole diff when the note cannot be used", () => {
  const old = base();
  const now = rename(old, 12_345);
  const spoils: [string, (noteFile: string) => Promise<void>, string][] = [
    ["no note", (file) => rm(file), "whole: no note"],
    [
      "a note of another list",
      async (file) => writeFile(file, JSON.stringify({ ...JSON.parse(await readFile(file, "utf8")), version: sha256("other") })),
      "whole: the note is of another list",
    ],
    ["a corrupt note", (file) => writeFile(file, '{"version":'), "whole: the note is no JSON"],
    ["a note of another shape", (file) => writeFile(file, JSON.stringify({ version: 1, chunks: {} })), "whole: the note is not one"],
    [
      "a note whose lengths do not sum to the snapshot's size",
      async (file) => {
        const note = JSON.parse(await readFile(file, "utf8")) as { chunks: [string, number][] };
        (note.chunks[3] as [string, number])[1] += 1;
        await writeFile(file, JSON.stringify(note));
      },
      "whole: the note's lengths are not the snapshot's size",
    ],
  ];
  for (const [name, spoil, expected] of spoils) {
    it(name, async () => {
      const { chunked, whole, path } = await bothWays(old, now, spoil);
      expect(path).toBe(expected);
      expect(chunked).toEqual(whole);
    });
  }

  it("no build cache: no chunks given, no note written", async () => {
    const dir = join(root, String(runs++));
    const before = { ...diffPaths };
    await publish(dir, old, undefined, 1);
    await publish(dir, now, undefined, 2);
    expect(diffPaths.whole).toBe(before.whole + 1);
    expect(diffPaths.reason).toBe("no build cache");
  });
});

describe("through buildSite", () => {
  type Subject = Record<string, unknown> & { id: number; naziv_subjekta: string };
  const sample = async (): Promise<Subject[]> => JSON.parse(await readFile("data/subjekti.json", "utf8")) as Subject[];

  /** Builds the sample, then it with one record renamed; `beforeEdit` may remove the note. The edit's diff and the way it ran. */
  async function editedDiff(name: string, beforeEdit: (noteFile: string) => Promise<void>): Promise<{ diff: string; path: string }> {
    const dir = join(root, name);
    const site = join(dir, "site");
    const cacheDir = join(dir, "cache");
    await mkdir(join(dir, "data"), { recursive: true });
    const list = await sample();
    await writeFile(join(dir, "data", "subjekti.json"), JSON.stringify(list));
    await build(join(dir, "data"), site, { feed: true, cacheDir });
    const edited = list.map((s, i) => (i === 2_500 ? { ...s, naziv_subjekta: `${s.naziv_subjekta} (preimenovan)` } : s));
    await writeFile(join(dir, "data", "subjekti.json"), JSON.stringify(edited));
    await beforeEdit(`${cacheDirOf(cacheDir, site)}.feed-chunks.json`);
    const before = { ...diffPaths };
    await build(join(dir, "data"), site, { feed: true, cacheDir });
    const path = diffPaths.chunked > before.chunked ? "chunked" : `whole: ${diffPaths.reason}`;
    return { diff: await readFile(join(site, "changes", "2.json"), "utf8"), path };
  }

  it("an edited record's diff is the same with the note and without", async () => {
    const withNote = await editedDiff("with-note", async () => undefined);
    const without = await editedDiff("without-note", (file) => rm(file));
    expect(withNote.path).toBe("chunked");
    expect(without.path).toBe("whole: no note");
    expect(withNote.diff).toBe(without.diff);
    expect(JSON.parse(withNote.diff).changes).toHaveLength(1);
  });
});
