/** Helpers for build tests: build a data dir into a temp site, read its pages back through the manifest. */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { type BuildOptions, DEFAULT_OPTIONS } from "../../src/site/build-options.ts";
import { buildSite, type BuildReport } from "../../src/site/build-site.ts";
import { type Form, MANIFEST_PATH, pagePath } from "../../src/core/layout.ts";
import type { Manifest } from "../../src/core/manifest.ts";

export const BASE_URL = "http://testserver";

/**
 * Builds `dataDir` into `outDir` quietly with the default options but the test origin, and the
 * build cache beside the site (`<outDir>.cache`), not in the repository's node_modules.
 */
export function build(dataDir: string, outDir: string, options: Partial<BuildOptions> = {}): Promise<BuildReport> {
  // A fixed data date: sites built from the same records in other files (other modification times) compare byte for byte.
  return buildSite({
    ...DEFAULT_OPTIONS,
    baseUrl: BASE_URL,
    quiet: true,
    cacheDir: `${outDir}.cache`,
    sourceDateEpoch: "1700000000",
    ...options,
    dataDir,
    outDir,
  });
}

export async function readManifest(outDir: string): Promise<Manifest> {
  return JSON.parse(await readFile(join(outDir, MANIFEST_PATH), "utf8")) as Manifest;
}

/** The bytes of every pre-rendered page of one form and limit, in page order, found through the manifest. */
export async function readPages(outDir: string, form: Form, limit: number): Promise<string[]> {
  const manifest = await readManifest(outDir);
  const pages: string[] = [];
  for (let page = 0; page * limit < manifest.count; page++) {
    const path = pagePath(manifest, form, limit, page);
    if (path === null) throw new Error(`the manifest names no page ${page} of ${form}/${limit}`);
    pages.push(await readFile(join(outDir, path), "utf8"));
  }
  return pages;
}
