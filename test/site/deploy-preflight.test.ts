/**
 * The deploy preflight as a table: a site's options against a host's limits -> what it goes over
 * and the options named to fit. Sizes come from a fixed record length, so every count is plain
 * arithmetic on the layout (1,000 records a chunk, 1,000 pages and their tag list a shard, 7 docs
 * and their tag list, 1 manifest).
 */
import { describe, expect, it } from "vitest";
import { describePreflight, HOST_LIMITS, type HostLimits, preflight, type PreflightOptions } from "../../src/site/deploy-preflight.ts";
import { type FileSizes, siteShape } from "../../src/site/site-shape.ts";

/** Every record 300 bytes, every head 100. */
const SIZES: FileSizes = { chunk: 300_000, page: (limit) => 100 + 300 * limit + 2 };
const shapeOf = (count: number) => (options: Parameters<typeof siteShape>[1]) => siteShape(count, options, SIZES);

const routed = (limits: number[], forms: PreflightOptions["forms"] = ["plain", "api"]): PreflightOptions => ({
  links: "query",
  limits,
  forms,
  maxLimit: 1000,
});
const files = (limits: number[]): PreflightOptions => ({ links: "files", limits, forms: ["plain"], maxLimit: 1000 });

describe("siteShape", () => {
  it.each([
    // name, count, options, files, fullest directory, its entries
    [
      "1M routed, plain+api at 20: 1,000 chunks and their offsets + 2 x (50,000 pages + 50 tag lists) + 9 docs + manifest + 1,001 key indexes + 7,362 search files + sitemap (21 parts), robots.txt, 404.html",
      1_000_000,
      routed([20]),
      110_497,
      "_subjekti/pages/plain/20/<shard>",
      1001,
    ],
    [
      "1M routed, no pages: chunks and their offsets, docs, manifest, key indexes, search files, the crawlers' files",
      1_000_000,
      routed([]),
      10_397,
      "_subjekti/search/suffixes/<shard>",
      1000,
    ],
    ["empty list routed: docs, manifest, sitemap, robots.txt and 404.html", 0, routed([20]), 13, "_subjekti/docs", 9],
    [
      "1M plain files at 20: 50,000 pages in one directory + the entry + a file and a page for people per subject",
      1_000_000,
      files([20]),
      2_050_001,
      "api/subjekti/20",
      50_000,
    ],
    ["empty list as plain files: page 0 and the entry", 0, files([20]), 2, "api/subjekti", 2],
  ])("%s", (_name, count, options, expectedFiles, dir, entries) => {
    const shape = siteShape(count, options, SIZES);
    expect(shape.files).toBe(expectedFiles);
    expect(shape.fullestDirectory).toEqual({ path: dir, entries });
  });
});

describe("preflight", () => {
  const fake = (limits: Omit<HostLimits, "name">): HostLimits => ({ name: "a test host", ...limits });
  it.each([
    ["no particular host: anything fits", 1_000_000, HOST_LIMITS.none, routed([20, 50, 100], ["plain", "api", "json"]), [], []],
    [
      "1M at 20 on Cloudflare free: over 20,000 files; no subset fits, so every page derived, or one larger limit",
      1_000_000,
      HOST_LIMITS["cloudflare-free"],
      routed([20]),
      ["103,135 files, over its 20,000 files a deployment"],
      ["--limits none", "--forms plain --limits 60"],
    ],
    [
      "1M at 20 on Cloudflare paid: one form fits (53,060 files)",
      1_000_000,
      HOST_LIMITS["cloudflare-paid"],
      routed([20]),
      ["103,135 files, over its 100,000 files a deployment"],
      ["--forms plain", "--limits none", "--forms plain --limits 21"],
    ],
    [
      "the subset kept is the one with the most files that fits (limits 10 and 50 of a 100k list, 20,000 allowed: plain alone, 12,322, beats both forms at 50, 4,314)",
      100_000,
      fake({ filesPerDeployment: 20_000 }),
      routed([10, 50]),
      ["24,341 files, over its 20,000 files a deployment"],
      ["--forms plain", "--limits none", "--forms plain --limits 51"],
    ],
    [
      "Netlify's 54,000 files a directory: 1.2M plain files at 20 need a larger limit",
      1_200_000,
      HOST_LIMITS.netlify,
      files([20]),
      ["60,000 files in api/subjekti/20/, over its 54,000 files a directory"],
      ["--limits 23"],
    ],
    ["Netlify takes 1M routed pages at 20 (1,000 files a shard)", 1_000_000, HOST_LIMITS.netlify, routed([20]), [], []],
    [
      "a plain static host cannot route: query links are refused, --links files fits",
      5_758,
      HOST_LIMITS.static,
      routed([20]),
      ["its pages link by query (?limit=&offset=), which a host without routing cannot answer"],
      ["--links files"],
    ],
    [
      "a plain static host, asked for no page file: --links files at DRF's default limit",
      5_758,
      HOST_LIMITS.static,
      routed([]),
      ["its pages link by query (?limit=&offset=), which a host without routing cannot answer"],
      ["--links files --limits 20"],
    ],
    [
      "nothing fits when the chunks alone are too many (10M subjects, 5,000 files allowed)",
      10_000_000,
      fake({ filesPerDeployment: 5_000 }),
      routed([20]),
      ["1,031,215 files, over its 5,000 files a deployment"],
      [],
    ],
  ])("%s", (_name, count, host, options, over, fits) => {
    const result = preflight(host, options, shapeOf(count));
    expect(result.overruns).toEqual(over);
    expect(result.fits.map((f) => f.flags)).toEqual(fits);
  });

  it("bytes a file: a page of 1,000 large records is over 25 MiB; the smaller limit alone fits", () => {
    const big: FileSizes = { chunk: 30_000_000, page: (limit) => 30_000 * limit };
    const host = fake({ bytesPerFile: 25 * 1024 * 1024 });
    const result = preflight(host, files([100, 1000]), (o) => siteShape(10_000, o, big));
    expect(result.overruns).toEqual(["a file of 30,000,000 bytes (api/subjekti/1000/<offset>.json), over its 26,214,400 bytes a file"]);
    expect(result.fits.map((f) => f.flags)).toEqual(["--limits 100"]);
  });

  it("downloads over a host's bytes a file: every option that fits leaves them out (--downloads none); small ones are counted as files", () => {
    const sizes: FileSizes = { chunk: 300_000, page: (limit) => 300 * limit, whole: 280_000_000 };
    const host = HOST_LIMITS["cloudflare-paid"];
    const result = preflight(host, { ...routed([20]), downloads: 2 }, (o) => siteShape(10_000, o, sizes));
    expect(result.overruns).toEqual(["a file of 280,000,000 bytes (downloads/subjekti.<format>), over its 26,214,400 bytes a file"]);
    expect(result.fits.map((f) => f.flags)[0]).toBe("--downloads none");
    const small: FileSizes = { ...sizes, whole: 1_000_000 };
    expect(siteShape(10_000, { ...routed([20]), downloads: 2 }, small).files - siteShape(10_000, routed([20]), small).files).toBe(4);
  });

  it("the message names the host, the limit gone over, each option that fits with its file count, and where the limits are documented", () => {
    const result = preflight(HOST_LIMITS["cloudflare-free"], routed([20]), shapeOf(1_000_000));
    expect(describePreflight(result)).toBe(
      "the site does not fit Cloudflare Workers (free plan): 103,135 files, over its 20,000 files a deployment; " +
        "fits with --limits none (3,035 files; no page pre-rendered: every request derived from the record chunks), " +
        "or --forms plain --limits 60 (19,719 files; requests of other limits are derived) " +
        "(limits: https://developers.cloudflare.com/workers/platform/limits/)",
    );
  });
});
