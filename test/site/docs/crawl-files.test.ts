/**
 * The crawlers' files the build writes at the site's root: sitemap.xml validated against the
 * sitemap protocol's schema (test/fixtures/sitemap-protocol, written out from the protocol's
 * published XSDs) with xmllint, one urlset up to 50,000 URLs and an index of parts past them;
 * robots.txt naming it; the branded 404.html; parts a smaller list no longer needs removed.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SITEMAP_URLS, urlSet } from "../../../src/site/docs/sitemap.ts";
import { chunkIds, writeCrawlFiles } from "../../../src/site/docs/write-crawl-files.ts";
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

  it("reads the ids at each line's start, and nothing else", () => {
    expect([...chunkIds(Buffer.from('{"id":5,"a":1}\n{"id":17,"naziv_subjekta":"{\\"id\\":9"}\n'))]).toEqual([5, 17]);
  });
});
