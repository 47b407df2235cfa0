/**
 * The headers every answer of the collection carries (docs/http-contract.md, "Headers"): DRF's own (`Allow`, `Vary`),
 * Django's security middleware's, and what a public open-data API on a CDN adds.
 */
import { cacheTagHeaders, SITE_TAG } from "./cache-tags.ts";
import { EXPOSED_HEADERS } from "./cors.ts";

/** A header list in the order hosts write it. */
export type HeaderList = readonly (readonly [name: string, value: string])[];

/** Headers Django's SecurityMiddleware and XFrameOptionsMiddleware put on every response. */
export const SECURITY_HEADERS: HeaderList = [
  ["X-Content-Type-Options", "nosniff"],
  ["X-Frame-Options", "DENY"],
  ["Referrer-Policy", "same-origin"],
];

/**
 * The security headers, CORS for a simple request (ETag and Allow readable by the page), the cache
 * policy and the cache tags (cache-tags.ts; the site's alone unless the answer shows records).
 */
export function commonHeaders(cacheControl: string, tags: readonly string[] = [SITE_TAG]): HeaderList {
  return [
    ...SECURITY_HEADERS,
    ["Access-Control-Allow-Origin", "*"],
    ["Access-Control-Expose-Headers", EXPOSED_HEADERS],
    ["Cache-Control", cacheControl],
    ...cacheTagHeaders(tags),
  ];
}

/** Headers of every answer DRF's view gives on `/api/subjekti/`, errors included. */
export function collectionHeaders(cacheControl: string, etag?: string, tags?: readonly string[]): HeaderList {
  const headers: (readonly [string, string])[] = [
    ["Content-Type", "application/json"],
    ["Vary", "Accept"],
    ["Allow", "GET, HEAD, OPTIONS"],
    ...commonHeaders(cacheControl, tags),
  ];
  if (etag !== undefined) headers.push(["ETag", etag]);
  return headers;
}
