/**
 * Cache tags: which build inputs an answer's bytes depend on, so a CDN purge by tag
 * (`Netlify-Cache-Tag`, and `Cache-Tag` for CDNs that read that name) reaches exactly the answers a
 * rebuild changed. A page depends on the count, the options and the records it shows; the records
 * come from fixed chunks of CHUNK_SIZE, so each chunk is one tag. Everything else (the count, an
 * option, the description files) is covered by the site tag that every answer carries.
 */

/** The tag on every answer: purging it empties the whole API from the cache. */
export const SITE_TAG = "subjekti";

/** The tag of the published description (the landing page, the OpenAPI document, the schemas). */
export const DOCS_TAG = `${SITE_TAG}-docs`;

/** The tag of the answers that show a record of records chunk `chunk`. */
export function chunkTag(chunk: number): string {
  return `${SITE_TAG}-chunk-${chunk}`;
}

/** The tags of an answer showing records `start` to `end` (exclusive): the site's and each chunk's. */
export function pageTags(chunkSize: number, start: number, end: number): string[] {
  const tags = [SITE_TAG];
  if (start >= end) return tags;
  for (let chunk = Math.floor(start / chunkSize); chunk * chunkSize < end; chunk++) tags.push(chunkTag(chunk));
  return tags;
}

/** The two header names CDNs read tags from, with the tags comma-separated. */
export function cacheTagHeaders(tags: readonly string[]): [string, string][] {
  const value = tags.join(",");
  return [
    ["Netlify-Cache-Tag", value],
    ["Cache-Tag", value],
  ];
}
