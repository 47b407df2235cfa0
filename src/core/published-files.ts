/**
 * The files the build publishes about the API, outside `/api/subjekti/`: the landing page, the
 * OpenAPI document, the JSON Schemas, and for open-data portals the Data Package descriptor and
 * the DCAT-AP catalogue (Turtle and JSON-LD). They live in one content-named shard of the data root
 * (`_subjekti/docs.<hash>/`), so the manifest's atomic replacement publishes them together with the
 * pages they describe; the router maps their stable public paths to that shard.
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
};

/** The public paths of the published files, as hosts declare them (netlify.toml, test hosts). */
export const PUBLISHED_PATHS = Object.keys(PUBLISHED_FILES);

/** The file published at `path` (percent-decoded), if any. */
export function publishedFile(path: string): PublishedFile | undefined {
  return Object.hasOwn(PUBLISHED_FILES, path) ? PUBLISHED_FILES[path] : undefined;
}
