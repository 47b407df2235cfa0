/**
 * The deploy preflight as a table: a site's options against a host's limits -> what it goes over
 * and the options named to fit. Sizes come from a fixed record length, so every count is plain
 * arithmetic on the layout (1,000 records a chunk, 1,000 pages and their tag list a shard, 8 docs
 * and their tag list, 1 manifest, the key indexes, the search files, sitemap.xml and its parts, robots.txt, 404.html).
 * The files besides the pages: 10,399 for 1M subjects (1 + 9 + 2 x 1,000 + 1,001 + 7,364 search + 3 + 21 sitemap parts),
 * 1,070 for 100k (1 + 9 + 2 x 100 + 101 + 753 search + 3 + 3) and 103,687 for 10M (1 + 9 + 2 x 10,000 + 10,001 + 73,472
 * search + 3 + 201); search files = 2 a bucket (1 a thousand subjects) + 16 order files + the suffix files and their
 * first keys (5,264 + 1 + 83 at 1M, 527 + 1 + 9 at 100k, 52,632 + 1 + 823 at 10M).
 */
import { describe, expect, it } from "vitest";
import { ENGLISH, translator } from "../../src/common/messages/translate.ts";
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
      "1M routed, plain+api at 20: 1,000 chunks and their offsets + 2 x (50,000 pages + 50 tag lists) + 9 docs + manifest + 1,001 key indexes + 7,364 search files + sitemap (21 parts), robots.txt, 404.html",
      1_000_000,
      routed([20]),
      110_499,
      "_subjekti/pages/plain/20/<shard>",
      1001,
    ],
    [
      "1M routed, no pages: chunks and their offsets, docs, manifest, key indexes, search files, the crawlers' files",
      1_000_000,
      routed([]),
      10_399,
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
  const fake = (limits: Omit<HostLimits, "name">): HostLimits => ({ name: HOST_LIMITS.none.name, ...limits });
  it.each([
    ["no particular host: anything fits", 1_000_000, HOST_LIMITS.none, routed([20, 50, 100], ["plain", "api", "json"]), [], []],
    [
      "1M at 20 on Cloudflare free: over 20,000 files; no subset fits, so every page derived, or one larger limit",
      1_000_000,
      HOST_LIMITS["cloudflare-free"],
      routed([20]),
      // 10,399 + 2 x (50,000 pages + 50 tag lists)
      ["110,499 files, over its 20,000 files a deployment"],
      // plain at 105: 10,399 + 9,524 pages + 10 tag lists = 19,933; at 104 it would be 20,025
      ["--limits none", "--forms plain --limits 105"],
    ],
    [
      "1M at 20 on Cloudflare paid: one form fits (60,449 files: 10,399 + 50,050)",
      1_000_000,
      HOST_LIMITS["cloudflare-paid"],
      routed([20]),
      ["110,499 files, over its 100,000 files a deployment"],
      ["--forms plain", "--limits none", "--forms plain --limits 21"],
    ],
    [
      "the subset kept is the one with the most files that fits (limits 10 and 50 of a 100k list, 20,000 allowed: plain alone, 13,082, beats both forms at 50, 5,074)",
      100_000,
      fake({ filesPerDeployment: 20_000 }),
      routed([10, 50]),
      // 1,070 + 2 x (10,010 + 2,002)
      ["25,094 files, over its 20,000 files a deployment"],
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
      // 103,687 + 2 x (500,000 pages + 500 tag lists)
      ["1,104,687 files, over its 5,000 files a deployment"],
      [],
    ],
  ])("%s", (_name, count, host, options, over, fits) => {
    const result = preflight(host, options, shapeOf(count));
    expect(result.overruns.map((o) => ENGLISH.say(o))).toEqual(over);
    expect(result.fits.map((f) => f.flags)).toEqual(fits);
  });

  it("bytes a file: a page of 1,000 large records is over 25 MiB; the smaller limit alone fits", () => {
    const big: FileSizes = { chunk: 30_000_000, page: (limit) => 30_000 * limit };
    const host = fake({ bytesPerFile: 25 * 1024 * 1024 });
    const result = preflight(host, files([100, 1000]), (o) => siteShape(10_000, o, big));
    expect(result.overruns.map((o) => ENGLISH.say(o))).toEqual([
      "a file of 30,000,000 bytes (api/subjekti/1000/<offset>.json), over its 26,214,400 bytes a file",
    ]);
    expect(result.fits.map((f) => f.flags)).toEqual(["--limits 100"]);
  });

  it("downloads over a host's bytes a file: every option that fits leaves them out (--downloads none); small ones are counted as files", () => {
    const sizes: FileSizes = { chunk: 300_000, page: (limit) => 300 * limit, whole: 280_000_000 };
    const host = HOST_LIMITS["cloudflare-paid"];
    const result = preflight(host, { ...routed([20]), downloads: 2 }, (o) => siteShape(10_000, o, sizes));
    expect(result.overruns.map((o) => ENGLISH.say(o))).toEqual([
      "a file of 280,000,000 bytes (downloads/subjekti.<format>), over its 26,214,400 bytes a file",
    ]);
    expect(result.fits.map((f) => f.flags)[0]).toBe("--downloads none");
    const small: FileSizes = { ...sizes, whole: 1_000_000 };
    expect(siteShape(10_000, { ...routed([20]), downloads: 2 }, small).files - siteShape(10_000, routed([20]), small).files).toBe(4);
  });

  it("the message names the host, the limit gone over, each option that fits with its file count, and where the limits are documented", () => {
    const result = preflight(HOST_LIMITS["cloudflare-free"], routed([20]), shapeOf(1_000_000));
    expect(ENGLISH.say(describePreflight(result))).toBe(
      "the site does not fit Cloudflare Workers (free plan): 110,499 files, over its 20,000 files a deployment; " +
        "fits with --limits none (10,399 files; no page pre-rendered: every request derived from the record chunks), " +
        "or --forms plain --limits 105 (19,933 files; requests of other limits are derived) " +
        "(limits: https://developers.cloudflare.com/workers/platform/limits/)",
    );
  });

  it("the message in Croatian: the host, each limit and each option said in Croatian, the flags and the address as written", () => {
    const result = preflight(HOST_LIMITS["cloudflare-free"], routed([20]), shapeOf(1_000_000));
    expect(translator("hr").say(describePreflight(result))).toBe(
      "mrežno sjedište ne stane na Cloudflare Workers (besplatni plan): 110.499 datoteka, a prima najviše 20.000 datoteka po objavi; " +
        "stane s --limits none (10.399 datoteka; nijedna stranica nije unaprijed izrađena: svaki se zahtjev izvodi iz dijelova sa zapisima) " +
        "ili s --forms plain --limits 105 (19.933 datoteke; zahtjevi s drugim veličinama stranice (limit) izvode se) " +
        "(ograničenja: https://developers.cloudflare.com/workers/platform/limits/)",
    );
    const static_ = preflight(HOST_LIMITS.static, routed([20]), shapeOf(5_758));
    expect(translator("hr").say(describePreflight(static_))).toMatch(
      /^mrežno sjedište ne stane na običan statički poslužitelj: njegove stranice povezuju se upitom .*; stane s --links files \([\d.]+ datotek[ae]?\)$/,
    );
  });
});
