/**
 * The crawl files (sitemap.xml, its parts under sitemaps/, robots.txt, 404.html) switch with the
 * site: prepared while the build waits for its search, they stay out of sight until the manifest's
 * switch. A build that fails after they were prepared, before the switch, leaves the previous
 * site's files as they were and no temporary. The failure is reached by construction: the output's
 * failure point site-pages-written (SUBJEKTI_FAIL_AT), where every shard is written and the crawl
 * files prepared.
 */
import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { snapshotTree, tempDir } from "../file-trees.ts";
import { leftovers, writeDataset } from "./build-processes.ts";
import { build } from "./built-site.ts";

let work: string;
const POINT = "site-pages-written";

beforeAll(async () => {
  work = await tempDir("subjekti-crawl-switch-");
}, 60_000);
afterAll(() => rm(work, { recursive: true, force: true }));
afterEach(() => {
  delete process.env["SUBJEKTI_FAIL_AT"];
});

it("a build failing after its crawl files were prepared leaves the previous sitemap.xml and sitemaps/ as they were, and no temporary", async () => {
  const out = join(work, "site");
  // 50,100 subjects: an index of two parts (the second of 101 URLs).
  await writeDataset(join(work, "a"), 9, 0, 50_100);
  await build(join(work, "a"), out);
  expect(await readdir(join(out, "sitemaps"))).toHaveLength(2);
  const before = await snapshotTree(out);
  // 50,010: the second part changes, the index not; 1,200: a urlset replaces the index, the parts go.
  await writeDataset(join(work, "b"), 9, 0, 50_010);
  await writeDataset(join(work, "c"), 1, 0, 1_200);
  process.env["SUBJEKTI_FAIL_AT"] = POINT;
  for (const data of ["b", "c"]) {
    await expect(build(join(work, data), out)).rejects.toThrow(`a failure injected at ${POINT}`);
    expect(await snapshotTree(out), data).toEqual(before);
    expect(await leftovers(out, [`${out}.cache`]), data).toEqual([]);
  }
  delete process.env["SUBJEKTI_FAIL_AT"];
  // Then built: the index replaced by the urlset, the parts gone.
  await build(join(work, "c"), out);
  expect(await readFile(join(out, "sitemap.xml"), "utf8")).toMatch(/<urlset /);
  expect((await readdir(out)).filter((name) => name.startsWith("sitemap"))).toEqual(["sitemap.xml"]);
}, 180_000);
