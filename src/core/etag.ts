/**
 * Entity tags for pages. A page's bytes are a pure function of the dataset (the manifest's hash),
 * the links' origin and the request's normalised query, so the tag is computed from those without
 * reading or rendering the body, and a 304 costs no file at all.
 */

/** A 53-bit string hash (cyrb53): two multiplicative 32-bit lanes, enough to tell pages apart. */
function hash53(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

/**
 * The strong ETag of the page a request names, from the site's hash and what shapes the bytes
 * (a pretty-printed page's `indent` too: its bytes differ from the compact page's).
 */
export function pageEtag(siteHash: string, baseUrl: string, linkQuery: string, indent = 0): string {
  const shape = indent === 0 ? `${baseUrl}\n${linkQuery}` : `${baseUrl}\n${linkQuery}\n${indent}`;
  return `"${siteHash.slice(0, 12)}-${hash53(shape)}"`;
}

/** The strong ETag of an answer whose bytes are `text`: it changes only when they do. */
export function contentEtag(text: string): string {
  return `"${hash53(text)}-${text.length.toString(36)}"`;
}

/** Does an `If-None-Match` header name `etag`? (RFC 9110 §13.1.2: weak comparison, `*` matches any.) */
export function matchesIfNoneMatch(header: string | null | undefined, etag: string): boolean {
  if (header === null || header === undefined) return false;
  const opaque = etag.replace(/^W\//, "");
  return header.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t.replace(/^W\//, "") === opaque;
  });
}
