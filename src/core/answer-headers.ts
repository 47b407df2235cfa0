/**
 * The headers every answer of the collection carries (CONTRACT §5): DRF's own (`Allow`, `Vary`),
 * Django's security middleware's, and what a public open-data API on a CDN adds.
 */

/** A header list in the order hosts write it. */
export type HeaderList = readonly (readonly [name: string, value: string])[];

/** Headers Django's SecurityMiddleware and XFrameOptionsMiddleware put on every response, plus CORS. */
export function commonHeaders(cacheControl: string): HeaderList {
  return [
    ["X-Content-Type-Options", "nosniff"],
    ["X-Frame-Options", "DENY"],
    ["Referrer-Policy", "same-origin"],
    ["Access-Control-Allow-Origin", "*"],
    ["Cache-Control", cacheControl],
  ];
}

/** Headers of every answer DRF's view gives on `/api/subjekti/`, errors included. */
export function collectionHeaders(cacheControl: string, etag?: string): HeaderList {
  const headers: (readonly [string, string])[] = [
    ["Content-Type", "application/json"],
    ["Vary", "Accept"],
    ["Allow", "GET, HEAD, OPTIONS"],
    ...commonHeaders(cacheControl),
  ];
  if (etag !== undefined) headers.push(["ETag", etag]);
  return headers;
}
