/** The repo's netlify.toml gives the edge function every path the router answers beyond static files. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DOWNLOAD_FILE_RULES, downloadFileRule, STATIC_EXPOSE_HEADERS } from "../../src/core/download-files.ts";
import { feedFileRule, FEED_FILE_RULES, PUBLISHED_PATHS } from "../../src/core/published-files.ts";
import { HTML_ROUTE_PATTERNS } from "../../src/core/html/html-routes.ts";

const TOML = readFileSync(join(import.meta.dirname, "../../netlify.toml"), "utf8");
/** Netlify's path patterns: `*` matches the rest of the path. */
const declared = [...TOML.matchAll(/^\s*path\s*=\s*"([^"]+)"/gm)].map((m) => m[1] ?? "");
const covers = (path: string): boolean =>
  declared.some((pattern) => (pattern.endsWith("*") ? path.startsWith(pattern.slice(0, -1)) : pattern === path));

describe("netlify.toml", () => {
  it.each(HTML_ROUTE_PATTERNS.map((p) => p.replace("*", "51/")))("sends the page for people %s to the edge function", (path) => {
    expect(covers(path)).toBe(true);
  });

  it.each([...PUBLISHED_PATHS, "/api/subjekti", "/api/other"])("sends %s to the edge function", (path) => {
    expect(covers(path)).toBe(true);
  });
});

describe("netlify.toml's headers for the change feed", () => {
  /** The [[headers]] blocks: `for` and the Cache-Control they set. */
  const blocks = [...TOML.matchAll(/\[\[headers\]\]\s*for = "([^"]+)"\s*\[headers\.values\]([^[]*)/g)].map((m) => ({
    for: m[1] ?? "",
    values: m[2] ?? "",
  }));
  // Netlify applies every matching block, the later ones over the earlier: the last match decides.
  const cacheOf = (path: string): string | undefined => {
    const matching = blocks.filter((b) => (b.for.endsWith("*") ? path.startsWith(b.for.slice(0, -1)) : b.for === path));
    return /Cache-Control = "([^"]+)"/.exec(matching.at(-1)?.values ?? "")?.[1];
  };
  it.each(["/changes/state.json", "/changes/feed.atom", "/changes/12.json", "/changes/snapshots/ab.ndjson"])(
    "%s: the feed table's Cache-Control, and CORS",
    (path) => {
      expect(cacheOf(path)).toBe(feedFileRule(path)?.cacheControl);
      expect(
        blocks
          .filter((b) => path.startsWith(b.for.replace(/\*$/, "")))
          .every((b) => b.values.includes('Access-Control-Allow-Origin = "*"')),
      ).toBe(true);
    },
  );
  it("covers every rule of the table", () => {
    for (const rule of FEED_FILE_RULES)
      expect(blocks.some((b) => b.for === (rule.path.endsWith("/") ? `${rule.path}*` : rule.path))).toBe(true);
  });
  it.each([
    "/downloads/subjekti.csv",
    "/downloads/subjekti.ndjson",
    "/downloads/subjekti.xlsx",
    `/downloads/subjekti-${"a".repeat(64)}.csv`,
  ])("%s: the downloads table's Cache-Control, CORS and exposed headers", (path) => {
    expect(cacheOf(path)).toBe(downloadFileRule(path)?.cacheControl);
    const matching = blocks.filter((b) => (b.for.endsWith("*") ? path.startsWith(b.for.slice(0, -1)) : b.for === path));
    expect(matching.length).toBeGreaterThan(0);
    for (const b of matching) expect(b.values).toContain('Access-Control-Allow-Origin = "*"');
    for (const b of matching) expect(b.values).toContain(`Access-Control-Expose-Headers = "${STATIC_EXPOSE_HEADERS}"`);
  });
  it("covers every rule of the downloads table", () => {
    for (const rule of DOWNLOAD_FILE_RULES)
      expect(blocks.some((b) => b.for === (rule.path.endsWith("/") ? `${rule.path}*` : rule.path))).toBe(true);
  });
});
