/**
 * The crawlers' files the build writes at the site's root: sitemap.xml validated against the
 * sitemap protocol's schema (test/fixtures/sitemap-protocol, written out from the protocol's
 * published XSDs) with xmllint, one urlset up to 50,000 URLs and an index of parts past them;
 * robots.txt naming it; the branded 404.html; parts a smaller list no longer needs removed.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CRAWL_TEMP, SITEMAP_URLS, urlSet, urlSetOnBase, UrlSetBytes } from "../../../src/site/docs/sitemap.ts";
import { chunkIds, crawlFiles } from "../../../src/site/docs/write-crawl-files.ts";
import { writeCrawlFiles } from "./crawl-files-in-a-row.ts";
import { contentHash } from "../../../src/common/content-hash.ts";
import { recordTable } from "../../../src/core/chunk-keys.ts";
import { tempDir } from "../../file-trees.ts";

const XMLLINT = "/usr/bin/xmllint";
const SCHEMAS = join(import.meta.dirname, "../../fixtures/sitemap-protocol");
const REQUIRED = process.env["SUBJEKTI_REQUIRE_BROWSER"] === "1";
if (!existsSync(XMLLINT) && !REQUIRED) console.warn(`sitemap schema checks skipped: no ${XMLLINT} (apt-get install libxml2-utils)`);

const root = await tempDir("subjekti-crawl-");
afterAll(() => rm(root, { recursive: true, force: true }));

/** Chunk files of `count` records, ids 1, 3, 5, … (gaps, as real ids have), 1,000 a chunk. */
async function chunks(count: number): Promise<{ chunks: number; chunkPath: (chunk: number) => string }> {
  const dir = join(root, `chunks-${count}`);
  await mkdir(dir, { recursive: true });
  const n = Math.ceil(count / 1000);
  for (let c = 0; c < n; c++) {
    const lines: string[] = [];
    for (let i = c * 1000; i < Math.min(count, (c + 1) * 1000); i++) lines.push(`{"id":${2 * i + 1},"naziv_subjekta":"x"}\n`);
    await writeFile(join(dir, `${c}.ndjson`), lines.join(""));
  }
  return { chunks: n, chunkPath: (chunk) => join(dir, `${chunk}.ndjson`) };
}

/** xmllint's verdict on a file against one of the protocol's schemas. */
function validate(file: string, schema: "sitemap.xsd" | "siteindex.xsd"): void {
  execFileSync(XMLLINT, ["--noout", "--schema", join(SCHEMAS, schema), file], { stdio: "pipe" });
}

const BASE = "https://subjekti.example";

describe.skipIf(!existsSync(XMLLINT) && !REQUIRED)("sitemap.xml against the sitemap protocol's schema", () => {
  it("50,000 URLs (49,999 subjects and /): one urlset that validates, every page's URL once", async () => {
    const out = join(root, "one");
    await mkdir(out);
    await writeCrawlFiles(out, { baseUrl: BASE, ...(await chunks(SITEMAP_URLS - 1)) });
    validate(join(out, "sitemap.xml"), "sitemap.xsd");
    const xml = await readFile(join(out, "sitemap.xml"), "utf8");
    expect(xml.match(/<url>/g)).toHaveLength(SITEMAP_URLS);
    expect(xml).toContain(`<url><loc>${BASE}/</loc></url>`);
    expect(xml).toContain(`<url><loc>${BASE}/subjekti/99997/</loc></url>`);
    expect(existsSync(join(out, "sitemaps"))).toBe(false);
  });

  it("50,001 URLs: an index of two parts, each validating, together every URL; a smaller list then removes the parts", async () => {
    const out = join(root, "two");
    await mkdir(out);
    await writeCrawlFiles(out, { baseUrl: BASE, ...(await chunks(SITEMAP_URLS)) });
    validate(join(out, "sitemap.xml"), "siteindex.xsd");
    const index = await readFile(join(out, "sitemap.xml"), "utf8");
    expect([...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])).toEqual([
      `${BASE}/sitemaps/subjekti-1.xml`,
      `${BASE}/sitemaps/subjekti-2.xml`,
    ]);
    let urls = 0;
    for (const part of ["subjekti-1.xml", "subjekti-2.xml"]) {
      validate(join(out, "sitemaps", part), "sitemap.xsd");
      urls += (await readFile(join(out, "sitemaps", part), "utf8")).match(/<url>/g)?.length ?? 0;
    }
    expect(urls).toBe(SITEMAP_URLS + 1);
    // The second part, written into the buffer that held the first: its one URL and nothing of the first's.
    expect(await readFile(join(out, "sitemaps", "subjekti-2.xml"), "utf8")).toBe(urlSet([{ loc: `${BASE}/subjekti/99999/` }]));
    await writeCrawlFiles(out, { baseUrl: BASE, ...(await chunks(10)) });
    validate(join(out, "sitemap.xml"), "sitemap.xsd");
    expect(existsSync(join(out, "sitemaps"))).toBe(false);
    expect((await readdir(out)).toSorted()).toEqual(["404.html", "robots.txt", "sitemap.xml"]);
  });

  it("a URL holding XML's special characters is written as text and still validates", async () => {
    const file = join(root, "special.xml");
    await writeFile(file, urlSet([{ loc: `${BASE}/a?b=1&c=<"'>`, lastmod: "2026-11-20" }]));
    validate(file, "sitemap.xsd");
    expect(await readFile(file, "utf8")).toContain(`<loc>${BASE}/a?b=1&amp;c=&lt;&quot;&#39;&gt;</loc>`);
  });

  it("a part's URL set on a base escaped once is the set urlSet writes for the whole URLs, a base of special characters too", () => {
    for (const base of [BASE, `${BASE}/x?a=1&b=<"'>\u0001`]) {
      const paths = ["/subjekti/1/", "/subjekti/20/"];
      for (const root of [true, false]) {
        const urls = [...(root ? [{ loc: `${base}/` }] : []), ...paths.map((path) => ({ loc: `${base}${path}` }))];
        expect(urlSetOnBase(base, root, paths)).toBe(urlSet(urls));
      }
    }
  });
});

describe("the parts' bytes, one buffer kept for them all", () => {
  it("each set is its own URLs alone: a short set after a long one holds no byte of it, a longer one after grows the buffer", () => {
    const base = `${BASE}/č?a=1&b=<>`;
    const set = new UrlSetBytes(base);
    const paths = (n: number, step: number): string[] => Array.from({ length: n }, (_, k) => `/subjekti/${k * step + 1}/`);
    for (const [root, n] of [
      [true, 3000],
      [false, 1],
      [true, 0],
      [false, 20_000],
      [false, 2],
    ] as const) {
      set.open(root);
      for (const path of paths(n, n + 1)) set.add(path);
      const urls = [...(root ? [`${base}/`] : []), ...paths(n, n + 1).map((path) => `${base}${path}`)];
      expect(set.close().toString("utf8")).toBe(urlSet(urls.map((loc) => ({ loc }))));
    }
  });
});

describe("robots.txt and 404.html", () => {
  it("robots.txt names the sitemap and keeps crawlers out of the internal files and the results pages; the same facts write nothing again", async () => {
    const out = join(root, "robots");
    await mkdir(out);
    const facts = { baseUrl: BASE, ...(await chunks(3)) };
    expect(await writeCrawlFiles(out, facts)).toMatchObject({ files: 3, written: 3, unchanged: 0 });
    // Rebuilt from the same records: nothing written again.
    expect(await writeCrawlFiles(out, facts)).toMatchObject({ files: 3, written: 0, unchanged: 3, bytesWritten: 0 });
    expect(await readFile(join(out, "robots.txt"), "utf8")).toBe(
      `User-agent: *\nDisallow: /_subjekti/\nDisallow: /trazi/\nAllow: /\n\nSitemap: ${BASE}/sitemap.xml\n`,
    );
    expect(await readFile(join(out, "404.html"), "utf8")).toContain("Stranica nije pronađena");
  });

  it("reads the ids from the chunks' tables where the site has them (the records not read again): the same files", async () => {
    const dir = join(root, "tables");
    await mkdir(dir);
    const sizes = [1000, 1000, 500];
    let id = 7;
    for (const [c, size] of sizes.entries()) {
      const lines = Array.from(
        { length: size },
        () => `{"id":${(id += 3)},"jedinstvena_oznaka":"${String(id).padStart(4, "0")}","naziv_subjekta":"x"}\n`,
      );
      const bytes = Buffer.from(lines.join(""));
      await writeFile(join(dir, `${c}.ndjson`), bytes);
      await writeFile(join(dir, `${c}.offsets`), recordTable(bytes));
    }
    const facts = { baseUrl: BASE, chunks: sizes.length, chunkPath: (c: number) => join(dir, `${c}.ndjson`) };
    const [plain, tabled] = [join(root, "tables-plain"), join(root, "tables-read")];
    await mkdir(plain);
    await mkdir(tabled);
    await writeCrawlFiles(plain, facts);
    // The records blanked, their lengths kept: only the tables still hold the ids.
    for (const [c] of sizes.entries()) {
      const path = join(dir, `${c}.ndjson`);
      await writeFile(path, Buffer.alloc((await readFile(path)).length, 0x20));
    }
    await writeCrawlFiles(tabled, { ...facts, tablePath: (c: number) => join(dir, `${c}.offsets`) });
    expect(await readFile(join(tabled, "sitemap.xml"), "utf8")).toBe(await readFile(join(plain, "sitemap.xml"), "utf8"));
    expect(await readFile(join(tabled, "sitemap.xml"), "utf8")).toContain(`<url><loc>${BASE}/subjekti/${id}/</loc></url>`);
  });

  it("reads the ids at each line's start, and nothing else", () => {
    expect([...chunkIds(Buffer.from('{"id":5,"a":1}\n{"id":17,"naziv_subjekta":"{\\"id\\":9"}\n'))]).toEqual([5, 17]);
  });
});

describe("the sitemap's parts made again only where their chunks changed (notes beside the build cache)", () => {
  /** Chunk files of these ids (each record named `name`), 1,000 a chunk unless `sizes` says otherwise; with each chunk's hash and the paths asked for. */
  async function list(name: string, ids: readonly number[], sizes?: readonly number[], named = (_: number) => "x") {
    const dir = join(root, name);
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    const hashes: string[] = [];
    for (let c = 0, at = 0; at < ids.length; c++) {
      const size = sizes?.[c] ?? 1000;
      const bytes = Buffer.from(
        ids
          .slice(at, at + size)
          .map((id) => `{"id":${id},"naziv_subjekta":"${named(id)}"}\n`)
          .join(""),
      );
      await writeFile(join(dir, `${c}.ndjson`), bytes);
      hashes.push(contentHash(bytes));
      at += size;
    }
    const asked: number[] = [];
    return {
      asked,
      facts: (stateFile?: string) => ({
        baseUrl: BASE,
        chunks: hashes.length,
        chunkPath: (chunk: number) => (asked.push(chunk), join(dir, `${chunk}.ndjson`)),
        ...(stateFile === undefined ? {} : { previous: { hashes, stateFile } }),
      }),
    };
  }
  const ids = (n: number, step = 2): number[] => Array.from({ length: n }, (_, i) => step * i + 1);
  /** Every file of a site's crawl files, by path. */
  async function files(out: string): Promise<Record<string, string>> {
    const all: Record<string, string> = {};
    for (const name of await readdir(out, { recursive: true })) {
      const path = join(out, name);
      if (name.endsWith(".xml") || name.endsWith(".txt") || name.endsWith(".html")) all[name] = await readFile(path, "utf8");
    }
    return all;
  }
  /** The crawl files of `facts` written into an empty directory without notes: what every incremental run must equal. */
  async function clean(name: string, facts: Parameters<typeof writeCrawlFiles>[1]): Promise<Record<string, string>> {
    const out = join(root, `${name}-clean`);
    await rm(out, { recursive: true, force: true });
    await mkdir(out);
    const { previous: _, ...plain } = facts;
    await writeCrawlFiles(out, plain);
    return files(out);
  }
  const N = 2 * SITEMAP_URLS + 5000;
  /** A site's crawl files of N ids written with notes: its directory, the notes' file and the list. */
  async function built(name: string) {
    const [out, state] = [join(root, name), join(root, `${name}.json`)];
    await mkdir(out);
    const first = await list(`${name}-a`, ids(N));
    await writeCrawlFiles(out, first.facts(state));
    return { out, state, first };
  }

  it("one record's id changed: its part alone is made again, the others not even read; the files equal a clean run's", async () => {
    const out = join(root, "notes-one");
    const state = join(root, "notes-one.json");
    await mkdir(out);
    const first = await list("notes-one-a", ids(N));
    expect(await writeCrawlFiles(out, first.facts(state))).toMatchObject({ files: 6, written: 6 });
    // The same list again: no part made, no chunk read.
    first.asked.length = 0;
    expect(await writeCrawlFiles(out, first.facts(state))).toMatchObject({ files: 6, written: 0, unchanged: 6 });
    expect(first.asked).toEqual([]);
    // Record 70,000 (chunk 70, part 2) gets another id.
    const edited = ids(N);
    edited[70_000] = 140_002;
    const second = await list("notes-one-b", edited);
    const report = await writeCrawlFiles(out, second.facts(state));
    expect(report).toMatchObject({ files: 6, written: 1, unchanged: 5 });
    expect(new Set(second.asked)).toEqual(new Set(Array.from({ length: 51 }, (_, i) => 49 + i)));
    expect(await files(out)).toEqual(await clean("notes-one", second.facts()));
    expect(await readFile(join(out, "sitemaps/subjekti-2.xml"), "utf8")).toContain(`${BASE}/subjekti/140002/`);
  });

  it("a renamed record: its chunk alone is read, no part made", async () => {
    const { out, state } = await built("notes-renamed");
    const renamed = await list("notes-renamed-b", ids(N), undefined, (id) => (id === 140_001 ? "y" : "x"));
    expect(await writeCrawlFiles(out, renamed.facts(state))).toMatchObject({ files: 6, written: 0, unchanged: 6 });
    expect(renamed.asked).toEqual([70]);
  });

  it("a chunk of fewer records: every later part is made again, as a clean run makes it", async () => {
    const { out, state } = await built("notes-shift");
    const shorter = ids(N).filter((_, i) => i !== 30_000);
    const sizes = Array.from({ length: 106 }, (_, c) => (c === 30 ? 999 : 1000));
    const second = await list("notes-shift-b", shorter, sizes);
    expect(await writeCrawlFiles(out, second.facts(state))).toMatchObject({ files: 6, written: 3, unchanged: 3 });
    expect(await files(out)).toEqual(await clean("notes-shift", second.facts()));
  });

  it("a part replaced behind the stage's back, or another base URL, is made again", async () => {
    const { out, state, first } = await built("notes-behind");
    await writeFile(join(out, "sitemaps/subjekti-3.xml"), "damaged");
    expect(await writeCrawlFiles(out, first.facts(state))).toMatchObject({ written: 1, unchanged: 5 });
    expect(await files(out)).toEqual(await clean("notes-behind", first.facts()));
    const moved = { ...first.facts(state), baseUrl: "https://elsewhere.example" };
    expect(await writeCrawlFiles(out, moved)).toMatchObject({ written: 5, unchanged: 1 });
    expect(await files(out)).toEqual(await clean("notes-behind-moved", moved));
  });

  it("a run that fails midway leaves the files as they were, no temporary, and no notes: the next makes every part again, each the same", async () => {
    const { out, state, first } = await built("notes-failed");
    const before = await files(out);
    const edited = ids(N);
    // Part 2 made, then part 3's changed chunk cannot be read.
    edited[70_000] = 140_002;
    edited[104_500] = 209_002;
    const second = (await list("notes-failed-b", edited)).facts(state);
    const failing = { ...second, chunkPath: (chunk: number) => (chunk === 104 ? join(root, "no-such-chunk") : second.chunkPath(chunk)) };
    await expect(writeCrawlFiles(out, failing)).rejects.toThrow(/ENOENT/);
    expect(existsSync(state)).toBe(false);
    expect(await files(out)).toEqual(before);
    expect((await readdir(out)).toSorted()).toEqual(["404.html", "robots.txt", "sitemap.xml", "sitemaps"]);
    expect(await writeCrawlFiles(out, first.facts(state))).toMatchObject({ written: 0, unchanged: 6 });
    expect(await files(out)).toEqual(await clean("notes-failed", first.facts()));
  });
});

describe("the files prepared beside the site, put in place with the switch", () => {
  /** Chunk files of ids 1, 3, 5, … in a directory of their own, 1,000 a chunk. */
  const facts = async (count: number) => ({ baseUrl: BASE, ...(await chunks(count)) });
  /** The site's entries, and every file's bytes, the temporaries' too. */
  async function tree(out: string): Promise<Record<string, string>> {
    const all: Record<string, string> = {};
    for (const name of await readdir(out, { recursive: true })) {
      const path = join(out, name);
      all[name] = (await stat(path)).isDirectory() ? "(directory)" : await readFile(path, "utf8");
    }
    return all;
  }

  it("prepared, the site's files are as they were; switched in, they are the new ones, no temporary left; the report counts each once", async () => {
    const out = join(root, "prepared");
    await mkdir(out);
    await writeCrawlFiles(out, await facts(SITEMAP_URLS + 5));
    const before = await tree(out);
    const smaller = await facts(3);
    const files = crawlFiles(out, smaller);
    await files.prepare();
    const waiting = await tree(out);
    expect(Object.fromEntries(Object.entries(waiting).filter(([name]) => !name.startsWith(CRAWL_TEMP)))).toEqual(before);
    // Only what changes waits there: the urlset that replaces the index.
    const temp = `${CRAWL_TEMP}${process.pid}`;
    expect(Object.keys(waiting).filter((name) => name.startsWith(CRAWL_TEMP))).toEqual([temp, join(temp, "sitemap.xml")]);
    files.switchIn();
    expect(await files.finish()).toMatchObject({ files: 3, written: 1, unchanged: 2 });
    const clean = join(root, "prepared-clean");
    await mkdir(clean);
    await writeCrawlFiles(clean, smaller);
    expect(await tree(out)).toEqual(await tree(clean));
  });

  it("prepared, then discarded (a build failing before its switch): the previous sitemap.xml and sitemaps/ as they were, no temporary left", async () => {
    const out = join(root, "discarded");
    await mkdir(out);
    await writeCrawlFiles(out, await facts(SITEMAP_URLS + 5));
    const before = await tree(out);
    for (const count of [3, 2 * SITEMAP_URLS]) {
      const files = crawlFiles(out, await facts(count));
      await files.prepare();
      await files.discard();
      expect(await tree(out)).toEqual(before);
    }
  });
});
