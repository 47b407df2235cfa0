/**
 * The repo's wrangler.jsonc runs the Worker first on every path the router answers beyond static
 * files, and on no other: every other path is the static assets' own answer.
 */
import { describe, expect, it } from "vitest";
import { PUBLISHED_PATHS } from "../../src/core/published-files.ts";
import { HTML_ROUTE_PATTERNS } from "../../src/core/html/html-routes.ts";
import { readWranglerConfig } from "../hosts/wrangler-dev.ts";

const config = await readWranglerConfig();
const assets = config["assets"] as { run_worker_first: string[]; directory: string; binding: string; html_handling: string };
/** Cloudflare's route patterns: `*` matches the rest of the path. */
const covers = (path: string): boolean =>
  assets.run_worker_first.some((pattern) => (pattern.endsWith("*") ? path.startsWith(pattern.slice(0, -1)) : pattern === path));

describe("wrangler.jsonc", () => {
  it("publishes dist/ as assets bound to ASSETS, the Worker's entry src/cloudflare/worker.ts", () => {
    expect([assets.directory, assets.binding, config["main"]]).toEqual(["dist", "ASSETS", "src/cloudflare/worker.ts"]);
  });

  it.each([...HTML_ROUTE_PATTERNS.map((p) => p.replace("*", "51/")), "/trazi/?search=x"])(
    "runs the Worker first on the page for people %s",
    (path) => {
      expect(covers(path.split("?")[0] ?? "")).toBe(true);
    },
  );

  // `/api` too: a path no asset holds gets the 404 page (not_found_handling), so its 301 must be the Worker's.
  it.each([...PUBLISHED_PATHS, "/api", "/api/subjekti", "/api/subjekti/", "/api/other"])("runs the Worker first on %s", (path) => {
    expect(covers(path)).toBe(true);
  });

  it.each(["/changes/state.json", "/downloads/subjekti.csv"])("runs the Worker first on the static file %s, for its headers", (path) => {
    expect(covers(path)).toBe(true);
  });

  it.each(["/_subjekti/manifest.json", "/extra.txt", "/index.html"])("leaves %s to the assets", (path) => {
    expect(covers(path)).toBe(false);
  });

  it("serves each file at its own path (the docs shard's index.html is fetched by that name)", () => {
    expect(assets.html_handling).toBe("none");
  });
});
