/**
 * The build cache (src/data/read/build-cache.ts): a rebuild that takes unchanged source blocks from it
 * must give exactly the site a build without any cache gives, whatever changed in between; and it
 * must really skip them.
 */
import fc from "fast-check";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DataError } from "../../../src/data/problems/problems.ts";
import type { Subject } from "../../../src/core/render-page.ts";
import { editSubject, makeSubject } from "../../../scripts/generate-subjects.ts";
import { siteTree, tempDir } from "../../file-trees.ts";
import { build } from "../../site/built-site.ts";

const SEED = 7;
/** Enough records for three source blocks and three chunks (1,000 records each). */
const UNIVERSE = 2600;
const universe: Subject[] = Array.from({ length: UNIVERSE }, (_, i) => makeSubject(SEED, i));

let work: string;
beforeAll(async () => {
  work = await tempDir("subjekti-cache-");
});
afterAll(() => rm(work, { recursive: true, force: true }));

/** One version of the data: which records, which renamed, split into a JSON array and an NDJSON file at `cut`. */
interface DataVersion {
  readonly keep: readonly boolean[];
  readonly renamed: readonly number[];
  /** The kept records of [0, cut) of the universe go to the JSON array (pretty or compact), the rest to NDJSON. */
  readonly cut: number;
  readonly pretty: boolean;
  /** The other way round: the NDJSON file holds the first records, so its edits move the array's. */
  readonly ndjsonFirst?: boolean;
}

async function writeData(dir: string, version: DataVersion): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const renamed = new Set(version.renamed);
  const pick = (from: number, to: number): Subject[] =>
    universe.slice(from, to).flatMap((s, k) => (version.keep[from + k] === false ? [] : [renamed.has(from + k) ? editSubject(s) : s]));
  const [before, after] = [pick(0, version.cut), pick(version.cut, UNIVERSE)];
  const [array, lines] = version.ndjsonFirst === true ? [after, before] : [before, after];
  await writeFile(join(dir, "subjekti.json"), JSON.stringify(array, null, version.pretty ? 1 : undefined));
  if (lines.length > 0) await writeFile(join(dir, "rest.ndjson"), lines.map((s) => JSON.stringify(s)).join("\n"));
}

/** Builds `data` twice: into `out` with its cache (and `threads` record threads), and into a fresh directory without any; returns both trees. */
async function buildBoth(
  data: string,
  out: string,
  threads = 0,
): Promise<{ cached: Record<string, string>; clean: Record<string, string>; reused: number; written: number }> {
  const report = await build(data, out, { limits: [20, 37], threads });
  // Beside `out`, not one for the file: a property that ran past its timeout goes on building in the
  // background, and must not rebuild the clean site another test is reading.
  const fresh = `${out}-fresh`;
  await rm(fresh, { recursive: true, force: true });
  await build(data, fresh, { limits: [20, 37], cacheDir: null });
  return { cached: await siteTree(out), clean: await siteTree(fresh), reused: report.reused, written: report.written };
}

const allKept = (): boolean[] => universe.map(() => true);

/** Builds `before` into a new site named `name`, then `after` with the cache (see buildBoth); `between` runs in between. */
async function rebuildAfter(
  name: string,
  before: DataVersion,
  after: DataVersion,
  threads = 0,
  between?: (out: string) => Promise<void>,
): ReturnType<typeof buildBoth> {
  const data = join(work, `${name}-data`);
  const out = join(work, `${name}-out`);
  await writeData(data, before);
  await build(data, out, { limits: [20, 37] });
  await between?.(out);
  await writeData(data, after);
  return buildBoth(data, out, threads);
}

describe("a rebuild with the build cache", () => {
  it("gives byte for byte the site a build without a cache gives, over any sequence of edits", async () => {
    const index = fc.integer({ min: 0, max: UNIVERSE - 1 });
    // A first version, then a few small steps from it, as maintainers edit: toggle (delete or
    // restore) and rename a few records, sometimes move the cut between the two files.
    const start = fc.record({
      dropped: fc.array(index, { maxLength: 40 }),
      cut: fc.oneof(fc.constant(UNIVERSE), fc.integer({ min: 0, max: UNIVERSE })),
      pretty: fc.boolean(),
      ndjsonFirst: fc.boolean(),
    });
    const step = fc.record({
      toggled: fc.array(index, { maxLength: 3 }),
      renamed: fc.array(index, { maxLength: 3 }),
      cut: fc.option(fc.integer({ min: 0, max: UNIVERSE })),
    });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(start, fc.array(step, { minLength: 1, maxLength: 3 }), async (first, steps) => {
        run += 1;
        const data = join(work, `seq-data-${run}`);
        const out = join(work, `seq-out-${run}`);
        const keep = allKept();
        for (const i of first.dropped) keep[i] = false;
        let version: DataVersion = { ...first, keep, renamed: [] };
        await writeData(data, version);
        await build(data, out, { limits: [20, 37] });
        for (const { toggled, renamed, cut } of steps) {
          const next = [...version.keep];
          for (const i of toggled) next[i] = !(next[i] ?? true);
          version = { ...version, keep: next, renamed: [...version.renamed, ...renamed], cut: cut ?? version.cut };
          await writeData(data, version);
          const { cached, clean } = await buildBoth(data, out);
          expect(cached).toEqual(clean);
        }
      }),
      // Six sequences (up to 42 builds of 2,600 subjects): ten passed 120 s at a load of 20-28 with
      // another slow file beside it; fast-check draws other sequences on every run.
      { numRuns: 6 },
    );
  }, 120_000);

  it("parses only the block that holds an edited record, and writes only what changed", async () => {
    const data = join(work, "one-edit-data");
    const out = join(work, "one-edit-out");
    await writeData(data, { keep: allKept(), renamed: [], cut: UNIVERSE, pretty: true });
    const first = await build(data, out, { limits: [20, 37] });
    expect(first.reused).toBe(0);
    const before = await siteTree(out);
    await writeData(data, { keep: allKept(), renamed: [1500], cut: UNIVERSE, pretty: true });
    const { cached, clean, reused, written } = await buildBoth(data, out, 2);
    // Blocks 0 and 2 (1,000 + 600 records) come from the cache; block 1 is read again.
    expect(reused).toBe(1600);
    expect(cached).toEqual(clean);
    // Its chunk and the chunk's offsets, the page of each limit and form that holds it and its
    // shard's tag list, the manifest, and the four descriptions that name the downloads' hashes (the
    // landing page, the data package, the catalogue twice) and the docs' tag list; not the OIB
    // index, whose lines name places in the list, which a renamed record does not move.
    // The search files (_subjekti/search/…) are the known exception, not yet edit-local: the renamed
    // record's words rewrite the key buckets and suffix files they fall in (each shard under a new
    // content name, so compared by logical path). Everything else written is the list above.
    const logical = (path: string): string => path.replace(/\.[0-9a-f]{16}\//, "/");
    const beforeByLogical = new Map(Object.entries(before).map(([p, b]) => [logical(p), b]));
    const search = Object.entries(cached).filter(
      ([path, bytes]) => path.startsWith("_subjekti/search/") && beforeByLogical.get(logical(path)) !== bytes,
    );
    expect(written).toBe(2 + 2 * 2 * 2 + 1 + 4 + 1 + search.length);
    const again = await build(data, out, { limits: [20, 37] });
    expect([again.reused, again.written]).toEqual([UNIVERSE, 0]);
    // The cache keeps the blocks of the data as it is now (each a head and its bytes), the edited block's old version gone.
    const [dir] = await readdir(`${out}.cache`);
    const names = await readdir(join(`${out}.cache`, dir as string));
    expect(names.filter((name) => name.endsWith(".block"))).toHaveLength(3);
    expect(names.filter((name) => name.endsWith(".bytes"))).toHaveLength(3);
  });

  it("an edit that moves every later record (a deletion) still gives the clean site", async () => {
    const before = { keep: allKept(), renamed: [], cut: UNIVERSE, pretty: false };
    const { cached, clean, reused } = await rebuildAfter("shift", before, { ...before, keep: universe.map((_, i) => i !== 10) });
    // Every block after the deletion starts one record earlier, so none of them is known.
    expect(reused).toBe(0);
    expect(cached).toEqual(clean);
  });

  it("records that moved in the list keep their bytes: a deletion in a file before the array's records", async () => {
    const before = { keep: allKept(), renamed: [], cut: 100, pretty: true, ndjsonFirst: true };
    const { cached, clean, reused } = await rebuildAfter("moved", before, { ...before, keep: universe.map((_, i) => i !== 50) }, 2);
    // The array's 2,500 records are unchanged text, each one place earlier in the list.
    expect(reused).toBe(2500);
    expect(cached).toEqual(clean);
  });

  it("NDJSON is taken in blocks of 1,000 lines: an unchanged rebuild parses none, an edit only its block", async () => {
    const data = join(work, "ndjson-data");
    const out = join(work, "ndjson-out");
    const lines = { keep: allKept(), renamed: [], cut: 0, pretty: false };
    await writeData(data, lines);
    await build(data, out);
    expect((await build(data, out)).reused).toBe(UNIVERSE);
    // Line 1,501 is in the second block of lines (1,001-2,000): the other 1,600 are taken from the cache.
    await writeData(data, { ...lines, renamed: [1500] });
    const { cached, clean, reused } = await buildBoth(data, out);
    expect(reused).toBe(UNIVERSE - 1000);
    expect(cached).toEqual(clean);
  });

  it("NDJSON lines that are not JSON are never stored: the error is found again on every build", async () => {
    const data = join(work, "ndjson-bad-data");
    const out = join(work, "ndjson-bad-out");
    await writeData(data, { keep: allKept(), renamed: [], cut: 2000, pretty: false });
    const file = join(data, "rest.ndjson");
    await writeFile(file, `${await readFile(file, "utf8")}\n{"id": 1, oops}\n`);
    for (const run of [1, 2]) {
      const error = await build(data, out).catch((caught: unknown) => caught);
      expect(error, `build ${run}`).toBeInstanceOf(DataError);
      expect((error as DataError).problems.some((p) => p.file.endsWith("rest.ndjson") && p.line === 601)).toBe(true);
    }
  });
});

describe("the cache stands on its own", () => {
  it("the site in dist/ is not an input: a chunk file changed in place behind the build's back is replaced", async () => {
    const before = { keep: allKept(), renamed: [], cut: UNIVERSE, pretty: true };
    const tamper = async (out: string): Promise<void> => {
      // Chunk 0 is one the rebuild writes: the records shard holding chunks 0-2 changes with the edit.
      const [shard] = (await readdir(join(out, "_subjekti/records"))).filter((d) => d.startsWith("0."));
      const chunk = join(out, "_subjekti/records", shard as string, "0.ndjson");
      await writeFile(chunk, (await readFile(chunk, "utf8")).replace("Grad", "Gard"));
    };
    const { cached, clean, reused } = await rebuildAfter("tamper", before, { ...before, renamed: [1500] }, 0, tamper);
    // The chunk file is its block's bytes file in the cache (one file, hard-linked): changed, that block is a miss too.
    expect(reused).toBe(600);
    expect(cached).toEqual(clean);
  });

  it("one copy of the rendered bytes: each records chunk file is its block's bytes file in the cache, linked", async () => {
    const data = join(work, "one-copy-data");
    const out = join(work, "one-copy-out");
    await writeData(data, { keep: allKept(), renamed: [], cut: UNIVERSE, pretty: true });
    await build(data, out, { limits: [20, 37] });
    const [dir] = await readdir(`${out}.cache`);
    const bytesFiles = (await readdir(join(`${out}.cache`, dir as string))).filter((f) => f.endsWith(".bytes"));
    const stored = new Set(await Promise.all(bytesFiles.map(async (f) => (await stat(join(`${out}.cache`, dir as string, f))).ino)));
    const records = join(out, "_subjekti/records");
    const chunks: number[] = [];
    for (const shard of await readdir(records))
      for (const name of await readdir(join(records, shard)))
        if (name.endsWith(".ndjson")) chunks.push((await stat(join(records, shard, name))).ino);
    expect(chunks).toHaveLength(3);
    expect(chunks.filter((ino) => stored.has(ino))).toHaveLength(3);
  });

  it("a block whose bytes file is gone, cut short, or left without its head (a build killed between the two) is a miss", async () => {
    const before = { keep: allKept(), renamed: [], cut: UNIVERSE, pretty: true };
    const damage = async (out: string): Promise<void> => {
      const [dir] = await readdir(`${out}.cache`);
      const base = join(`${out}.cache`, dir as string);
      const heads = (await readdir(base)).filter((f) => f.endsWith(".block")).map((f) => join(base, f.slice(0, -".block".length)));
      expect(heads).toHaveLength(3);
      const [gone, cut, headless] = heads as [string, string, string];
      await rm(`${gone}.bytes`);
      // Through a copy of its own: the site's chunk file, the same file, stays whole.
      const bytes = await readFile(`${cut}.bytes`);
      await rm(`${cut}.bytes`);
      await writeFile(`${cut}.bytes`, bytes.subarray(0, bytes.length - 10));
      await rm(`${headless}.block`);
    };
    const { cached, clean, reused } = await rebuildAfter("bytes-gone", before, before, 0, damage);
    expect(reused).toBe(0);
    expect(cached).toEqual(clean);
  });

  it("a build without the cache in between: the blocks it holds are still what their text renders to", async () => {
    const before = { keep: allKept(), renamed: [], cut: UNIVERSE, pretty: true };
    const other = async (out: string): Promise<void> => {
      const data = join(work, "between-other");
      await writeData(data, { ...before, renamed: [5] });
      await build(data, out, { limits: [20, 37], cacheDir: null });
    };
    const { cached, clean, reused } = await rebuildAfter("between", before, { ...before, renamed: [5, 2500] }, 0, other);
    // Block 1 (records 1000-1999) is the first build's text; blocks 0 and 2 changed.
    expect(reused).toBe(1000);
    expect(cached).toEqual(clean);
  });

  it("a stored block cut short, or of another format, is read again from the source", async () => {
    const before = { keep: allKept(), renamed: [], cut: UNIVERSE, pretty: true };
    /** Records in the one block file left whole. */
    let intact = 0;
    const damage = async (out: string): Promise<void> => {
      const [dir] = await readdir(`${out}.cache`);
      const files = (await readdir(join(`${out}.cache`, dir as string)))
        .filter((f) => f.endsWith(".block"))
        .map((f) => join(`${out}.cache`, dir as string, f));
      expect(files).toHaveLength(3);
      const [cut, other, whole] = files as [string, string, string];
      await writeFile(cut, (await readFile(cut)).subarray(0, 5000));
      const bytes = await readFile(other);
      await writeFile(other, Buffer.from(bytes.toString("latin1").replace(/"format":\d+/, '"format":999'), "latin1"));
      const header = await readFile(whole);
      intact = (JSON.parse(header.toString("utf8", 4, 4 + header.readUInt32LE(0))) as { count: number }).count;
    };
    const { cached, clean, reused } = await rebuildAfter("damaged", before, before, 0, damage);
    expect(intact).toBeGreaterThan(0);
    expect(reused).toBe(intact);
    expect(cached).toEqual(clean);
  });
});

describe("warnings of unchanged blocks", () => {
  /** The universe with record 3's OIB check digit broken: a warning, not an error. */
  async function writeWarned(dir: string, renamed: number[]): Promise<void> {
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    const list = universe.map((s, i) => (renamed.includes(i) ? editSubject(s) : s));
    const warned = list[3] as Subject;
    list[3] = { ...warned, oib: warned.oib.slice(0, 10) + String((Number(warned.oib[10]) + 1) % 10) };
    await writeFile(join(dir, "subjekti.json"), JSON.stringify(list, null, 1));
  }

  it("are reported again, the same, from the cache; --strict makes them errors", async () => {
    const data = join(work, "warned-data");
    const out = join(work, "warned-out");
    await writeWarned(data, []);
    const first = await build(data, out);
    expect(first.warnings).toHaveLength(1);
    await writeWarned(data, [2500]);
    const second = await build(data, out);
    expect(second.reused).toBe(2000);
    expect(second.warnings).toEqual(first.warnings);
    const strict = await build(data, out, { strict: true }).catch((error: unknown) => error);
    expect(strict).toBeInstanceOf(DataError);
    expect((strict as DataError).problems).toEqual(first.warnings.map((w) => ({ ...w, severity: "error" })));
  });

  it("name the file where it is now: the same data in another directory is taken from the cache", async () => {
    const [data, moved, out] = [join(work, "named-data"), join(work, "named-moved"), join(work, "named-out")];
    await writeWarned(data, []);
    const first = await build(data, out);
    await rm(moved, { recursive: true, force: true });
    await rename(data, moved);
    const second = await build(moved, out);
    expect(second.reused).toBe(UNIVERSE);
    expect(second.warnings).toEqual(first.warnings.map((w) => ({ ...w, file: join(moved, "subjekti.json") })));
  });
});

describe("two holders of one OIB, one of them from the cache", () => {
  /** `files` (name -> subjects) as JSON arrays in `dir`, nothing else. */
  async function writeFiles(dir: string, files: Record<string, readonly Subject[]>): Promise<void> {
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    for (const [name, list] of Object.entries(files)) await writeFile(join(dir, name), JSON.stringify(list));
  }
  /** The universe with subject `to` given the OIB of subject `from`. */
  const sharing = (from: number, to: number): Subject[] =>
    universe.map((s, i) => (i === to ? { ...s, oib: (universe[from] as Subject).oib } : s));

  /** Builds `dir` into `out` with its cache, and without any into another site: the warnings of both, and what came from the cache. */
  async function warnedBoth(data: string, out: string): Promise<{ cached: readonly unknown[]; clean: readonly unknown[]; reused: number }> {
    const report = await build(data, out);
    const clean = await build(data, `${out}-fresh`, { cacheDir: null });
    return { cached: report.warnings, clean: clean.warnings, reused: report.reused };
  }

  it.each([
    // The later holder edited, the first one in a block taken from the cache.
    ["an edit gives a subject the OIB of one in an unchanged block", 100, 2500, 2000],
    // The subject warned at is in a block taken from the cache: its name is read back from the cache.
    ["an edit gives a subject the OIB of a later one in an unchanged block", 1500, 50, 1600],
  ])("%s: the warning a build without the cache gives, word for word", async (_, from, to, reused) => {
    const [data, out] = [join(work, `oib-${from}-data`), join(work, `oib-${from}-out`)];
    await writeFiles(data, { "subjekti.json": universe });
    await build(data, out);
    await writeFiles(data, { "subjekti.json": sharing(from, to) });
    const both = await warnedBoth(data, out);
    expect(both.reused).toBe(reused);
    expect(both.cached).toHaveLength(1);
    expect(both.cached[0]).toMatchObject({ field: "oib", index: Math.max(from, to), subject: { name: expect.any(String) } });
    expect(both.cached).toEqual(both.clean);
  });

  it("an edit that takes the shared OIB away leaves no warning", async () => {
    const [data, out] = [join(work, "oib-away-data"), join(work, "oib-away-out")];
    await writeFiles(data, { "subjekti.json": sharing(100, 2500) });
    expect((await build(data, out)).warnings).toHaveLength(1);
    await writeFiles(data, { "subjekti.json": universe });
    const both = await warnedBoth(data, out);
    expect(both.reused).toBe(2000);
    expect(both.cached).toEqual([]);
    expect(both.clean).toEqual([]);
  });

  it("blocks that moved (their file now read first, every block from the cache) warn at the holder now read later", async () => {
    const [data, out] = [join(work, "oib-moved-data"), join(work, "oib-moved-out")];
    const list = sharing(100, 2500);
    await writeFiles(data, { "a.json": list.slice(0, 1300), "b.json": list.slice(1300) });
    const before = await build(data, out);
    expect(before.warnings).toMatchObject([{ file: join(data, "b.json"), index: 1200 }]);
    // The same two files, read the other way round: b.json's records first.
    await writeFiles(data, { "c.json": list.slice(0, 1300), "b.json": list.slice(1300) });
    const { cached, clean, reused } = await warnedBoth(data, out);
    expect(reused).toBe(UNIVERSE);
    expect(cached).toMatchObject([{ file: join(data, "c.json"), index: 100 }]);
    expect(cached).toEqual(clean);
  });
});

describe("keys from the cache, as numbers and bytes (rules/block-keys.ts)", () => {
  /** Builds `list` as one JSON array into `out`, then `edited` with the cache and without any: both sites, or both errors as said. */
  async function rebuildBoth(
    name: string,
    list: readonly Subject[],
    edited: readonly Subject[],
    between?: (cacheDir: string) => Promise<void>,
  ): Promise<{ cached: unknown; clean: unknown; reused: number }> {
    const [data, out] = [join(work, `${name}-data`), join(work, `${name}-out`)];
    await rm(data, { recursive: true, force: true });
    await mkdir(data, { recursive: true });
    await writeFile(join(data, "subjekti.json"), JSON.stringify(list));
    await build(data, out);
    await between?.(`${out}.cache`);
    await writeFile(join(data, "subjekti.json"), JSON.stringify(edited));
    const said = (error: unknown): unknown => (error instanceof DataError ? error.problems : error);
    const report = await build(data, out).catch((error: unknown) => ({ failed: said(error), reused: -1 }));
    const fresh = await build(data, `${out}-fresh`, { cacheDir: null }).catch((error: unknown) => ({ failed: said(error) }));
    const tree = async (site: string, result: object): Promise<unknown> =>
      "failed" in result ? result.failed : { tree: await siteTree(site), warnings: (result as { warnings: unknown }).warnings };
    return { cached: await tree(out, report), clean: await tree(`${out}-fresh`, fresh), reused: report.reused };
  }
  const renamed = (list: readonly Subject[], at: number): Subject[] => list.map((s, i) => (i === at ? editSubject(s) : s));
  // Records 1200 and 1201 (the second block) in the wrong id order: the block is stored, not in order.
  const swapped = universe.map((s, i) => (i === 1200 ? (universe[1201] as Subject) : i === 1201 ? (universe[1200] as Subject) : s));

  it("a block from the cache whose records are out of id order is read record by record: the sorted site a build without the cache gives", async () => {
    const { cached, clean, reused } = await rebuildBoth("keys-swapped", swapped, renamed(swapped, 2500));
    // Every block: the read done again in sorted order finds the edited block too, stored by the first.
    expect(reused).toBe(UNIVERSE);
    expect(cached).toEqual(clean);
  });

  it("a code given again by an edit, first held in a block from the cache: the same errors, located the same", async () => {
    const edited = universe.map((s, i) => (i === 2500 ? { ...s, jedinstvena_oznaka: (universe[100] as Subject).jedinstvena_oznaka } : s));
    const { cached, clean } = await rebuildBoth("keys-code", universe, edited);
    expect(cached).toEqual(clean);
    expect(cached).toEqual(expect.arrayContaining([expect.objectContaining({ field: "jedinstvena_oznaka", index: 2500 })]));
  });

  it("a block file of the previous format (its keys as lines of text) is a miss, not keys read wrong", async () => {
    const previous = async (cacheDir: string): Promise<void> => {
      const [dir] = await readdir(cacheDir);
      for (const name of await readdir(join(cacheDir, dir as string))) {
        const path = join(cacheDir, dir as string, name);
        const bytes = await readFile(path);
        await writeFile(path, Buffer.from(bytes.toString("latin1").replace(/"format":\d+/, '"format":6'), "latin1"));
      }
    };
    const { cached, clean, reused } = await rebuildBoth("keys-format", universe, renamed(universe, 2500), previous);
    expect(reused).toBe(0);
    expect(cached).toEqual(clean);
  });
});
