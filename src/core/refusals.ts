/**
 * Answers to requests a host refuses before the router sees them: protocol errors (no or two
 * `Host`, an HTTP version it does not speak, a request head over its limit) and methods other
 * than GET and HEAD on a static file. Same shape as the API's errors: JSON `detail`, Django's
 * security headers and CORS, and `no-store` (a refusal is no page to keep).
 */
import { commonHeaders, type HeaderList, SECURITY_HEADERS } from "./answer-headers.ts";
import { toJson } from "./render-page.ts";

export interface Refusal {
  readonly status: number;
  readonly headers: HeaderList;
  readonly body: string;
}

/** A refusal with `detail` as its JSON body (`Bad request: detail.` for a 400). */
export function refusal(status: number, detail: string, extraHeaders: HeaderList = []): Refusal {
  return {
    status,
    headers: [["Content-Type", "application/json"], ...extraHeaders, ...commonHeaders("no-store")],
    body: toJson({ detail: status === 400 ? `Bad request: ${detail}.` : detail }),
  };
}

/** The methods a static file is served to. */
export const STATIC_METHODS = "GET, HEAD";

/** A method other than GET or HEAD on a static file: 405, as a static host answers it. */
export function staticMethodRefused(method: string): Refusal {
  return refusal(405, `Method "${method.toUpperCase()}" not allowed: static files are served to GET and HEAD only.`, [
    ["Allow", STATIC_METHODS],
  ]);
}

/** Django's body for a 400 without a `400.html` template (`django.views.defaults.ERROR_PAGE_TEMPLATE`). */
const BAD_REQUEST_PAGE =
  '\n<!doctype html>\n<html lang="en">\n<head>\n  <title>Bad Request (400)</title>\n</head>\n<body>\n  <h1>Bad Request (400)</h1><p></p>\n</body>\n</html>\n';

/**
 * The answer to a `Host` ALLOWED_HOSTS does not name: Django's bytes and `text/html`, with the
 * security headers its middleware adds, and `no-store` (it is no page to keep).
 */
export function disallowedHost(): Refusal {
  return {
    status: 400,
    headers: [["Content-Type", "text/html"], ...SECURITY_HEADERS, ["Cache-Control", "no-store"]],
    body: BAD_REQUEST_PAGE,
  };
}
