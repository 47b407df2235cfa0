/**
 * What a build changed, for machines (`subjekti build --json`): the public URLs of the
 * pre-rendered answers whose bytes changed, and the cache tags (cache-tags.ts) whose answers a
 * CDN must drop — one per records chunk whose bytes changed, the docs' tag when the description
 * changed, and the site's tag when something every answer depends on changed (the count, an
 * option, the origin), or when there was no previous site.
 *
 * The URLs are listed up to LISTED_URLS, the first in sorted order, and the rest counted: a full
 * build of ten million subjects changes 1.1 million URLs, and listing them all held some 600 MB
 * (the files' paths, the URLs, their sort and the report's text: a peak of 1.6 GB against 1.0 GB
 * without `--json`). Past a few thousand URLs nobody purges by URL; the tags reach every answer.
 */
import { COLLECTION_PATH, encodeLinkQuery } from "../core/build-links.ts";
import { chunkTag, DOCS_TAG, SITE_TAG } from "../core/cache-tags.ts";
import { ETAGS_FILE } from "../core/layout.ts";
import { isForm } from "../core/layout.ts";
import type { Manifest } from "../core/manifest.ts";
import { DOCS_SHARD_KEY, PUBLISHED_FILES } from "../core/published-files.ts";
import { DEFAULT_LIMIT } from "../core/request/read-query.ts";
import { readManifestFile } from "../common/read-site-manifest.ts";

/** The manifest fields every answer depends on: when one differs, every cached answer is stale. */
const SITE_WIDE = ["layout", "version", "count", "maxLimit", "limits", "forms", "chunkSize", "baseUrl", "cacheControl"] as const;

/** URLs of changed answers the report lists at most (the first, sorted); the rest are counted in `urlsLeftOut`. */
export const LISTED_URLS = 10_000;

export interface SiteChanges {
  /** Public URLs (on the build's base URL) of the pre-rendered answers whose bytes changed, sorted: the first LISTED_URLS. */
  readonly urls: readonly string[];
  /** How many more URLs changed than `urls` lists (0 when it lists them all). */
  readonly urlsLeftOut: number;
  /** Cache tags to purge, sorted; purging them reaches every cached answer that changed, on any origin. */
  readonly tags: readonly string[];
}

/** The previous site's site-wide facts, or null when there is no readable previous manifest. */
export async function readSiteFacts(outDir: string): Promise<string | null> {
  // No previous site, or one whose manifest is not JSON: everything is new. An older layout's facts still compare.
  const { json } = await readManifestFile(outDir);
  return typeof json === "object" && json !== null ? siteWideFacts(json as Partial<Manifest>) : null;
}

function siteWideFacts(manifest: Partial<Manifest>): string {
  return JSON.stringify(SITE_WIDE.map((key) => manifest[key] ?? null));
}

/** The changes of a build, from the previous site's facts, the new manifest and the files written (`<shard key>/<name>`), taken one at a time. */
export function siteChanges(before: string | null, manifest: Manifest, written: Iterable<string>, listed = LISTED_URLS): SiteChanges {
  const urls = new FirstUrls(listed);
  const tags = new Set<string>();
  if (before !== siteWideFacts(manifest)) tags.add(SITE_TAG);
  for (const path of written) {
    const parts = path.split("/");
    const name = parts[parts.length - 1] ?? "";
    // A shard's tag list changes with its files, which name the URLs and tags themselves.
    if (name === ETAGS_FILE) continue;
    if (parts[0] === "records") {
      tags.add(chunkTag(Number.parseInt(name, 10)));
    } else if (parts[0] === DOCS_SHARD_KEY) {
      tags.add(DOCS_TAG);
      for (const [publicPath, file] of Object.entries(PUBLISHED_FILES))
        if (file.name === name) urls.add(`${manifest.baseUrl}${publicPath}`);
    } else if (parts[0] === "pages") {
      const [, form, limitText] = parts;
      if (form === undefined || !isForm(form)) continue;
      for (const url of pageUrls(manifest.baseUrl, form, Number(limitText), Number.parseInt(name, 10))) urls.add(url);
    }
  }
  return { ...urls.done(), tags: [...tags].sort() };
}

/**
 * The first `limit` of the URLs added, in sorted order, and how many others there were, in memory
 * for twice `limit` whatever the count: the URLs are gathered, and each time `limit` more have come
 * the lot is sorted and cut back to the first `limit`; a URL past the last kept is only counted.
 * Each changed file names URLs no other file names (its form, limit and page, or its description),
 * so the URLs counted are distinct, as the list's are.
 */
export class FirstUrls {
  readonly #limit: number;
  #kept: string[] = [];
  #full = false;
  #added = 0;

  constructor(limit: number) {
    this.#limit = limit;
  }

  add(url: string): void {
    this.#added++;
    // Once `limit` are kept, a URL after the last of them cannot be among the first.
    if (this.#full && url >= (this.#kept[this.#limit - 1] as string)) return;
    this.#kept.push(url);
    if (this.#kept.length >= 2 * this.#limit) this.#cut();
  }

  /** The URLs kept, sorted, and how many were left out. */
  done(): { urls: string[]; urlsLeftOut: number } {
    this.#cut();
    return { urls: this.#kept, urlsLeftOut: this.#added - this.#kept.length };
  }

  #cut(): void {
    const sorted = [...new Set(this.#kept)].sort();
    this.#added -= this.#kept.length - sorted.length;
    this.#kept = sorted.slice(0, this.#limit);
    this.#full = this.#kept.length === this.#limit;
  }
}

/**
 * The URLs a pre-rendered page answers as the links name it: `?limit=L&offset=O` (with `format`
 * first for the api and json forms), page 0 without `offset` (as `previous` names it) and, for
 * the default limit, also without `limit` (`/api/subjekti/` itself).
 */
function pageUrls(baseUrl: string, form: "plain" | "api" | "json", limit: number, page: number): string[] {
  const extras: [string, string][] = form === "plain" ? [] : [["format", form]];
  const url = (query: string): string => `${baseUrl}${COLLECTION_PATH}${query === "" ? "" : `?${query}`}`;
  if (page > 0) return [url(encodeLinkQuery(extras, limit, BigInt(page * limit)))];
  const first = [url(encodeLinkQuery(extras, limit, null))];
  if (limit === DEFAULT_LIMIT) first.push(url(extras.map(([key, value]) => `${key}=${value}`).join("&")));
  return first;
}
