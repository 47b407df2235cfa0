/**
 * The files every host serves beside the API, outside `/api/subjekti/`:
 *
 * - What the build publishes about the API: the landing page, the OpenAPI document, the JSON
 *   Schemas, and for open-data portals the Data Package descriptor and the DCAT-AP catalogue
 *   (Turtle and JSON-LD). They live in one content-named shard of the data root
 *   (`_subjekti/docs.<hash>/`), so the manifest's atomic replacement publishes them together with
 *   the pages they describe; the router maps their stable public paths to that shard.
 * - The change feed's files (plain static files under `/changes/`, written by the build beside the
 *   site): readable from any origin, like the API; the state and the Atom feed cached briefly
 *   (they move with every build that changes the data), the diffs and snapshots forever (each is
 *   immutable: a diff's sequence and a snapshot's content name never change bytes). One table for
 *   the preview, netlify.toml and the nginx configuration (their tests hold them to it).
 */

/** The shard key of the published files. */
export const DOCS_SHARD_KEY = "docs";

export interface PublishedFile {
  /** The file's name inside the docs shard. */
  readonly name: string;
  readonly contentType: string;
}

/** Public path -> the file that answers it. */
export const PUBLISHED_FILES: Readonly<Record<string, PublishedFile>> = {
  "/": { name: "index.html", contentType: "text/html; charset=utf-8" },
  "/openapi.json": { name: "openapi.json", contentType: "application/json" },
  "/schema/subject.json": { name: "subject.schema.json", contentType: "application/schema+json" },
  "/schema/page.json": { name: "page.schema.json", contentType: "application/schema+json" },
  "/datapackage.json": { name: "datapackage.json", contentType: "application/json" },
  "/catalog.ttl": { name: "catalog.ttl", contentType: "text/turtle; charset=utf-8" },
  "/catalog.jsonld": { name: "catalog.jsonld", contentType: "application/ld+json" },
  // The search script of the pages for people (html/search-script.ts): a file, so no page needs inline script.
  "/pretraga.js": { name: "pretraga.js", contentType: "text/javascript; charset=utf-8" },
};

/** The public paths of the published files, as hosts declare them (netlify.toml, test hosts). */
export const PUBLISHED_PATHS = Object.keys(PUBLISHED_FILES);

/** The file published at `path` (percent-decoded), if any. */
export function publishedFile(path: string): PublishedFile | undefined {
  return Object.hasOwn(PUBLISHED_FILES, path) ? PUBLISHED_FILES[path] : undefined;
}

export interface FeedFileRule {
  /** The public path: exact, or a prefix ending in `/`. */
  readonly path: string;
  readonly cacheControl: string;
}

/** The change feed's cache rules; first match wins. */
export const FEED_FILE_RULES: readonly FeedFileRule[] = [
  { path: "/changes/state.json", cacheControl: "public, max-age=60" },
  { path: "/changes/feed.atom", cacheControl: "public, max-age=60" },
  { path: "/changes/", cacheControl: "public, max-age=31536000, immutable" },
];

/** The cache rule of a feed file's public path, if it is one. */
export function feedFileRule(path: string): FeedFileRule | undefined {
  return FEED_FILE_RULES.find((rule) => (rule.path.endsWith("/") ? path.startsWith(rule.path) : path === rule.path));
}
