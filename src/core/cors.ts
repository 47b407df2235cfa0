/**
 * CORS for every answer the core gives, as django-cors-headers (`CORS_ALLOW_ALL_ORIGINS`) answers
 * in front of DRF: its middleware sits before Django's CommonMiddleware and URL resolution, so a
 * preflight is answered on any path it covers, before the APPEND_SLASH redirect, the `format`
 * check and the method check.
 */
import type { HeaderList } from "./answer-headers.ts";

/** What a preflight allows: the methods the API answers. */
export const ALLOWED_METHODS = "GET, HEAD, OPTIONS";
/** django-cors-headers' default `CORS_PREFLIGHT_MAX_AGE` (a day; Chromium caps it at two hours). */
export const PREFLIGHT_MAX_AGE = "86400";
/** The request headers a preflight is read from (null or undefined: absent). */
export interface PreflightRequest {
  readonly method: string;
  readonly origin?: string | null | undefined;
  readonly accessControlRequestMethod?: string | null | undefined;
  readonly accessControlRequestHeaders?: string | null | undefined;
}

/** Is this a CORS preflight: `OPTIONS` carrying both `Origin` and `Access-Control-Request-Method` (Fetch standard)? */
export function isPreflight(request: PreflightRequest): boolean {
  return (
    request.method.toUpperCase() === "OPTIONS" &&
    request.origin !== null &&
    request.origin !== undefined &&
    request.accessControlRequestMethod !== null &&
    request.accessControlRequestMethod !== undefined
  );
}

/** An HTTP token (RFC 9110 §5.6.2): the only thing a header name can be. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The names of `Access-Control-Request-Headers`, lower-cased, each once, in the order asked; what
 * is no header name is dropped, so nothing but names is ever echoed into an answer.
 */
export function requestedHeaders(header: string | null | undefined): string[] {
  if (header === null || header === undefined) return [];
  const names = new Set<string>();
  for (const part of header.split(",")) {
    const name = part.trim().toLowerCase();
    if (TOKEN.test(name)) names.add(name);
  }
  return [...names];
}

/**
 * The headers of the 204 that answers a preflight. Every header the page asks for is allowed (the
 * data is public and no credentials are involved). The answer depends on the request's headers, so
 * shared caches must not keep it (`no-store`); browsers still cache it for `Max-Age`, which is
 * separate from `Cache-Control`.
 */
export function preflightHeaders(request: PreflightRequest, security: HeaderList): HeaderList {
  const allowHeaders = requestedHeaders(request.accessControlRequestHeaders);
  return [
    ...security,
    ["Access-Control-Allow-Origin", "*"],
    ["Access-Control-Allow-Methods", ALLOWED_METHODS],
    ...(allowHeaders.length > 0 ? [["Access-Control-Allow-Headers", allowHeaders.join(", ")] as const] : []),
    ["Access-Control-Max-Age", PREFLIGHT_MAX_AGE],
    ["Vary", "Origin, Access-Control-Request-Method, Access-Control-Request-Headers"],
    ["Cache-Control", "no-store"],
  ];
}
