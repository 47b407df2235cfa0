/**
 * The build's output: golden pages from an independent oracle (Python + DRF's link functions,
 * test/oracle/golden-pages.py), the laws of paging, determinism, and incremental rebuilds.
 */
import fc from "fast-check";
import { cp, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FORMS } from "../../src/core/layout.ts";
import type { Subject } from "../../src/core/render-page.ts";
import { snapshotTree, tempDir } from "../file-trees.ts";
import { build, readManifest, readPages } from "./built-site.ts";

const FIXTURE = "test/fixtures/small-site";
const GOLDEN = "test/golden/small-site";

let work: string;
let subjects: Subject[];

beforeAll(async () => {
  work = await tempDir();
  // The oracle's first-page-per-form goldens list every subject once, in id order.
  const pages = await Promise.all([0, 1, 2].map((p) => readFile(join(GOLDEN, "plain/20", `${p}.json`), "utf8")));
  subjects = pages.flatMap((page) => (JSON.parse(page) as { results: Subject[] }).results);
});
afterAll(() => rm(work, { recursive: true, force: true }));

describe("golden pages (limit 20) equal DRF's bytes from the Python oracle", () => {
  // A form's three pages come from one build of it, made by whichever of its tests runs first.
  const built = new Map<string, Promise<string[]>>();
  const pagesOf = (form: "plain" | "api"): Promise<string[]> => {
    const out = join(work, `golden-${form}`);
    const pages = built.get(form) ?? build(FIXTURE, out, { limits: [20], forms: [form] }).then(() => readPages(out, form, 20));
    built.set(form, pages);
    return pages;
  };
  for (const form of ["plain", "api"] as const) {
    for (const [page, which] of [
      [0, "first"],
      [1, "middle"],
      [2, "last"],
    ] as const) {
      it(`${form} page ${page} (${which}) is byte-identical`, async () => {
        const pages = await pagesOf(form);
        expect(pages[page]).toBe(await readFile(join(GOLDEN, form, "20", `${page}.json`), "utf8"));
      });
    }
  }
});

describe("the laws of paging", () => {
  it("concatenating the pages of any limit and form gives the list back once, in order", async () => {
    // Every limit from 1 to 60 in every form, from one build: each limit's pages are its own files,
    // and one build of them all costs what one build of a limit does (25 builds of one each took seconds).
    const limits = Array.from({ length: 60 }, (_, i) => i + 1);
    const out = join(work, "concat");
    await build(FIXTURE, out, { limits, forms: [...FORMS] });
    for (const form of FORMS) {
      for (const limit of limits) {
        const pages = (await readPages(out, form, limit)).map((p) => JSON.parse(p) as { count: number; results: Subject[] });
        expect(
          pages.flatMap((p) => p.results),
          `${form}/${limit}`,
        ).toEqual(subjects);
        expect(pages.every((p) => p.count === subjects.length)).toBe(true);
        expect(pages.slice(0, -1).every((p) => p.results.length === limit)).toBe(true);
      }
    }
  });
});

describe("determinism", () => {
  it("building twice gives byte-identical trees", async () => {
    const [a, b] = [join(work, "twice-a"), join(work, "twice-b")];
    await build(FIXTURE, a, { limits: [7, 20] });
    await build(FIXTURE, b, { limits: [7, 20] });
    expect(await snapshotTree(b)).toEqual(await snapshotTree(a));
  });

  it("shuffling records across and inside input files changes nothing", async () => {
    const baseline = join(work, "shuffle-baseline");
    // The files are new each time: the data's date must not come from their modification times.
    const dated = { sourceDateEpoch: "1700000000" };
    await build(FIXTURE, baseline, dated);
    const expected = await snapshotTree(baseline);
    await fc.assert(
      fc.asyncProperty(
        fc.shuffledSubarray(subjects, { minLength: subjects.length }),
        fc.integer({ min: 0, max: subjects.length }),
        async (shuffled, cut) => {
          const data = join(work, "shuffle-data");
          const out = join(work, "shuffle-out");
          await rm(data, { recursive: true, force: true });
          await rm(out, { recursive: true, force: true });
          await cp(FIXTURE, data, { recursive: true });
          await rm(join(data, "a-first.json"));
          await rm(join(data, "b-middle.ndjson"));
          await rm(join(data, "c-last.csv"));
          await writeFile(join(data, "z.json"), JSON.stringify(shuffled.slice(0, cut)));
          await writeFile(
            join(data, "a.ndjson"),
            shuffled
              .slice(cut)
              .map((s) => JSON.stringify(s))
              .join("\n"),
          );
          await build(data, out, dated);
          expect(await snapshotTree(out)).toEqual(expected);
        },
      ),
      { numRuns: 10 },
    );
  });
});

describe("incremental rebuilds", () => {
  it("rebuilding unchanged data writes 0 files", async () => {
    const out = join(work, "incremental-same");
    const first = await build(FIXTURE, out, { limits: [10, 20] });
    expect(first.written).toBe(first.files);
    const again = await build(FIXTURE, out, { limits: [10, 20] });
    expect(again).toMatchObject({ written: 0, removed: 0, unchanged: first.files, bytesWritten: 0 });
  });

  it("editing one record rewrites only the pages and the chunk that hold it, plus the manifest", async () => {
    const data = join(work, "edit-data");
    const out = join(work, "edit-out");
    await rm(data, { recursive: true, force: true });
    await cp(FIXTURE, data, { recursive: true });
    await build(data, out, { limits: [10, 20] });
    const before = await snapshotTree(out);

    // Record 25 (index 25 in id order) sits in page 1 of limit 20 and page 2 of limit 10.
    const ndjson = join(data, "b-middle.ndjson");
    const lines = (await readFile(ndjson, "utf8")).split("\n");
    const edited = JSON.parse(lines[5] ?? "") as Subject;
    expect(edited.id).toBe(subjects[25]?.id);
    lines[5] = JSON.stringify({ ...edited, naziv_subjekta: `${edited.naziv_subjekta} (preimenovano)` });
    await writeFile(ndjson, lines.join("\n"));

    const report = await build(data, out, { limits: [10, 20] });
    // 2 forms x (limit 20 page 1 + limit 10 page 2) and those four shards' tag lists (their ETags)
    // + the one chunk and its offsets + the manifest, and the four description files that name the
    // downloads' hashes (the landing page, the data package, the catalogue twice) and the docs' tag
    // list; the OpenAPI document and the schemas are linked, unchanged. The OIB index is not
    // written: its lines name places in the list, which a renamed record does not move.
    // Those 16, and the search files: the known exception, not yet edit-local (see below).
    expect(report).toMatchObject({ removed: 0 });

    const after = await snapshotTree(out);
    const changed = Object.keys(after).filter((path) => before[path] !== after[path]);
    const logical = (path: string): string => path.replace(/\.[0-9a-f]{16}\//, "/");
    const beforeByLogical = new Map(Object.entries(before).map(([p, b]) => [logical(p), b]));
    const rewritten = changed
      .filter((path) => beforeByLogical.get(logical(path)) !== after[path])
      .map(logical)
      .sort();
    // The search files (_subjekti/search/…) are not yet edit-local: a renamed record rewrites the key
    // buckets its old and new words hash to and the suffix file, each in a new content-named shard.
    // They are the only files written besides the 16 above; the order files are left as they were.
    const search = rewritten.filter((path) => path.startsWith("_subjekti/search/"));
    expect(
      search.every((path) => /^_subjekti\/search\/(keys\/0\/\d+\.(bin|idx)|suffixes\/0\/0\.json)$/.test(path)),
      search.join(),
    ).toBe(true);
    expect(report.written).toBe(16 + search.length);
    expect(rewritten.filter((path) => path.startsWith("_subjekti/docs/"))).toEqual([
      "_subjekti/docs/catalog.jsonld",
      "_subjekti/docs/catalog.ttl",
      "_subjekti/docs/datapackage.json",
      "_subjekti/docs/etags.txt",
      "_subjekti/docs/index.html",
    ]);
    expect(rewritten.filter((path) => path.startsWith("downloads/subjekti."))).toEqual([
      "downloads/subjekti.csv",
      "downloads/subjekti.ndjson",
      "downloads/subjekti.xlsx",
    ]);
    expect(
      rewritten.filter(
        (path) => path.startsWith("_subjekti/") && !path.startsWith("_subjekti/docs/") && !path.startsWith("_subjekti/search/"),
      ),
    ).toEqual([
      "_subjekti/manifest.json",
      "_subjekti/pages/api/10/0/2.json",
      "_subjekti/pages/api/10/0/etags.txt",
      "_subjekti/pages/api/20/0/1.json",
      "_subjekti/pages/api/20/0/etags.txt",
      "_subjekti/pages/plain/10/0/2.json",
      "_subjekti/pages/plain/10/0/etags.txt",
      "_subjekti/pages/plain/20/0/1.json",
      "_subjekti/pages/plain/20/0/etags.txt",
      "_subjekti/records/0/0.ndjson",
      "_subjekti/records/0/0.offsets",
    ]);
  });

  it("a shard whose new version holds fewer files: exactly the files gone are counted removed, with their bytes", async () => {
    const data = join(work, "shrink-data");
    const out = join(work, "shrink-out");
    await rm(data, { recursive: true, force: true });
    await cp(FIXTURE, data, { recursive: true });
    await build(data, out, { limits: [10] });
    const before = await snapshotTree(out);
    // The last source's records gone: limit 10's shard keeps its first pages and loses its last.
    const csv = join(data, "c-last.csv");
    await writeFile(csv, `${(await readFile(csv, "utf8")).split("\n")[0]}\n`);
    const report = await build(data, out, { limits: [10] });
    const after = await snapshotTree(out);
    // By name without the shard's hash: the data root's files the new site no longer has.
    const logical = (path: string): string => path.replace(/\.[0-9a-f]{16}\//, "/");
    const kept = new Set(Object.keys(after).map(logical));
    const gone = Object.entries(before).filter(([path]) => path.startsWith("_subjekti/") && !kept.has(logical(path)));
    expect(gone.map(([path]) => logical(path)).toSorted()).toEqual([
      "_subjekti/pages/api/10/0/4.json",
      "_subjekti/pages/plain/10/0/4.json",
    ]);
    expect(report).toMatchObject({
      removed: gone.length,
      bytesRemoved: gone.reduce((sum, [, base64]) => sum + Buffer.from(base64, "base64").length, 0),
    });
  });

  it("files no longer produced are removed and counted", async () => {
    const out = join(work, "incremental-shrink");
    await build(FIXTURE, out, { limits: [10, 20] });
    const report = await build(FIXTURE, out, { limits: [20] });
    // Limit 10's 5 pages in each of 2 forms are gone, with their shards' tag lists.
    expect(report).toMatchObject({ removed: 12, written: 1 });
    const manifest = await readManifest(out);
    expect(Object.keys(manifest.dirs).some((key) => key.includes("/10/"))).toBe(false);
    expect(Object.keys(await snapshotTree(out)).some((path) => path.includes("/10/"))).toBe(false);
  });
});
