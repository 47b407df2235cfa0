/**
 * The deploy preflight in a real build: the sample aimed at Cloudflare's free plan with more
 * pre-rendered pages than its 20,000 files is refused (exit 1, the previous site untouched), and
 * builds with the option the refusal names; the shape the preflight checks is the site the build
 * writes (files counted, largest page measured).
 */
import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { forEachItem } from "../../src/common/stage-iterables.ts";
import { orderBlocks } from "../../src/data/order/order-blocks.ts";
import { readBlocks } from "../../src/data/read/read-blocks.ts";
import { resolveReadOptions } from "../../src/data/read-options.ts";
import { measureFiles, RecordLengths, type ShapeOptions, siteShape } from "../../src/site/site-shape.ts";
import { searchFileCount } from "../../src/core/search/search-layout.ts";
import { runCli } from "../run-cli.ts";
import { snapshotTree, useTempDir } from "../file-trees.ts";
import { BASE_URL, build } from "./built-site.ts";

const SAMPLE = "data";
const FIXTURE = "test/fixtures/small-site";

const dir = useTempDir();

const NO_SIZES = { chunk: 0, page: () => 0 };

describe("build --target cloudflare-free", () => {
  // 5,758 subjects at limits 1 and 2 in all three forms: 3 x (5,758 + 2,879 pages + 9 tag lists) + 6 chunks and their offsets + 10 docs + 11 key indexes + 6 downloads (three at two paths) + 3 crawlers' files
  // + 81 search files (search-layout.ts: 2 x 16 buckets + 16 order files + 31 suffix files + 1 + 1 first-key files) = 26,061 files.
  // At --limits 1: 3 x (5,758 + 6) + 123 = 17,415; --limits none: 123 (12 + 10 + 11 + 6 + 3 + 81).
  const TOO_MANY = ["--limits", "1,2", "--forms", "plain,api,json"];

  it("over 20,000 files: exit 1 naming the limit and the options that fit; the previous site is left byte for byte", async () => {
    const out = join(dir.path, "refused");
    await build(SAMPLE, out, { limits: [20], forms: ["plain"] });
    const before = await snapshotTree(out);
    const run = await runCli([
      "build",
      "--data",
      SAMPLE,
      "--out",
      out,
      "--target",
      "cloudflare-free",
      ...TOO_MANY,
      "--no-cache",
      "--quiet",
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "subjekti: the site does not fit Cloudflare Workers (free plan): 26,061 files, over its 20,000 files a deployment; fits with --limits 1 (17,415 files), or --limits none (123 files;",
    );
    expect(run.stderr).toContain("or pass --over-limits warn to build it anyway");
    expect(await snapshotTree(out)).toEqual(before);
  });

  it("with the option it names the build passes, and writes the number of files the preflight counted", async () => {
    const out = join(dir.path, "fits");
    const run = await runCli([
      "build",
      "--data",
      SAMPLE,
      "--out",
      out,
      "--target",
      "cloudflare-free",
      "--limits",
      "1",
      "--forms",
      "plain,api,json",
      "--no-cache",
      "--quiet",
      "--json",
    ]);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { files: number; overLimits: string[]; downloads: unknown[] };
    // The site's files and the three downloads at two paths each: the 17,415 the preflight counted.
    expect(report).toMatchObject({ files: 17_409, overLimits: [] });
    expect(report.files + 2 * report.downloads.length).toBe(17_415);
  });

  it("--over-limits warn builds anyway and says what it went over", async () => {
    const out = join(dir.path, "warned");
    const run = await runCli([
      "build",
      "--data",
      FIXTURE,
      "--out",
      out,
      "--target",
      "static",
      "--over-limits",
      "warn",
      "--no-cache",
      "--quiet",
    ]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("subjekti: warning: the site does not fit a plain static host: its pages link by query");
    expect((await lstat(join(out, "_subjekti/manifest.json"))).isFile()).toBe(true);
  });

  it("--lang hr: the warning in Croatian; --json keeps its English line", async () => {
    const args = ["build", "--data", FIXTURE, "--target", "static", "--over-limits", "warn", "--no-cache", "--quiet", "--lang", "hr"];
    const run = await runCli([...args, "--out", join(dir.path, "warned-hr")]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      "subjekti: upozorenje: mrežno sjedište ne stane na običan statički poslužitelj: njegove stranice povezuju se upitom (?limit=&offset=), na koji poslužitelj bez usmjeravanja ne može odgovoriti; stane s --links files (",
    );
    const json = await runCli([...args, "--out", join(dir.path, "warned-json"), "--json"]);
    const report = JSON.parse(json.stdout) as { overLimits: string[] };
    expect(report.overLimits).toEqual([expect.stringMatching(/^the site does not fit a plain static host: its pages link by query/)]);
  });

  it("--limits none: no page file, every request derived from the record chunks", async () => {
    const out = join(dir.path, "none");
    const report = await build(FIXTURE, out, { limits: [] });
    // The manifest, the 8 description files and their tag list, the one chunk and its offsets, the bounds and the one OIB file (a small list has one), sitemap.xml, robots.txt and 404.html,
    // and the search files (search-layout.ts): 2 x 16 buckets, 16 order files, 1 suffix file and its 2 first-key files.
    expect(report.files).toBe(1 + 9 + 2 + 1 + 1 + 3 + (2 * 16 + 16 + 1 + 2));
    expect(report.downloads).toHaveLength(3);
    // The search files the deploy preflight counts are the ones under search/.
    const search = (await readdir(join(out, "_subjekti"), { recursive: true, withFileTypes: true })).filter(
      (entry) => entry.isFile() && join(entry.parentPath, entry.name).includes("/_subjekti/search/"),
    );
    expect(search).toHaveLength(searchFileCount(report.count));
    expect(searchFileCount(report.count)).toBe(2 * 16 + 16 + 1 + 2);
    expect(await readdir(join(out, "_subjekti"))).not.toContain("pages");
  });
});

describe("the shape the preflight checks is the site the build writes", () => {
  it.each<[string, ShapeOptions]>([
    ["routed, plain+api at 20", { links: "query", limits: [20], forms: ["plain", "api"], downloads: 3 }],
    ["routed, three forms at 1, 7 and 1000", { links: "query", limits: [1, 7, 1000], forms: ["plain", "api", "json"], downloads: 3 }],
    ["routed, no pages", { links: "query", limits: [], forms: ["plain"], downloads: 3 }],
    ["plain files at 3 and 20", { links: "files", limits: [3, 20], forms: ["plain"] }],
  ])("%s: files counted = files written", async (name, options) => {
    const out = join(dir.path, `count-${name.replace(/\W+/g, "-")}`);
    const report = await build(FIXTURE, out, { limits: options.limits, forms: options.forms, links: options.links });
    // The site's files, and each download at two paths.
    expect(report.files + 2 * report.downloads.length).toBe(siteShape(report.count, options, NO_SIZES).files);
  });

  it("the largest page measured is the largest page written, to within its links' length", async () => {
    const lengths = new RecordLengths();
    await forEachItem(
      orderBlocks(() => readBlocks(resolveReadOptions({ dataDir: FIXTURE, strict: false, threads: 0 })), false),
      (item) => item.kind === "block" && lengths.add(item.block.ends),
    );
    const sizes = measureFiles(lengths, BASE_URL);
    for (const [limit, form] of [
      [7, "api"],
      [20, "plain"],
      [1, "json"],
      [5, "files"],
    ] as const) {
      const out = join(dir.path, `size-${form}-${limit}`);
      await build(FIXTURE, out, form === "files" ? { links: "files", limits: [limit] } : { limits: [limit], forms: [form] });
      const tree = await snapshotTree(out);
      const largest = Math.max(
        ...Object.entries(tree)
          // Pages only: not the docs, nor the search files (_subjekti/search/…, also named by number).
          .filter(([path]) => /\d+\.json$/.test(path) && !path.includes("docs") && !path.startsWith("_subjekti/search/"))
          .map(([, b64]) => Buffer.from(b64, "base64").length),
      );
      const measured = sizes.page(limit, form);
      expect(measured, `${form}/${limit}`).toBeGreaterThanOrEqual(largest);
      expect(measured - largest, `${form}/${limit}`).toBeLessThan(40);
    }
  });
});
