/**
 * The pages for people that routed hosts answer (beside the API): an institution's page at
 * `/subjekti/<id>/`, the search form's results at `/trazi/`, and the branded 404 page for any other
 * path under `/subjekti/`. The router (route.ts) asks `htmlTarget` first and hands these on as
 * their own kind, `html`, which the handler answers with answer-html.ts.
 */
import { type HeaderList, SECURITY_HEADERS } from "../answer-headers.ts";
import { cacheTagHeaders, SITE_TAG } from "../cache-tags.ts";
import type { Manifest } from "../manifest.ts";
import { CONTENT_SECURITY_POLICY } from "./page-frame.ts";
import { RESULTS_PATH } from "./search-form.ts";

/** The prefix of the institutions' pages. */
export const SUBJECT_PAGES_PREFIX = "/subjekti/";

/** The paths a host must hand to the router for these pages (netlify.toml, wrangler.jsonc: `*` a prefix). */
export const HTML_ROUTE_PATTERNS: readonly string[] = ["/subjekti", "/subjekti/*", "/trazi", "/trazi/*"];

/** What a path of these pages names. */
export type HtmlPage =
  | { readonly kind: "subject"; readonly id: bigint }
  | { readonly kind: "results"; readonly query: string }
  | { readonly kind: "not-found" };

/** The router's decision for a page for people. */
export interface HtmlDecision {
  readonly kind: "html";
  readonly page: HtmlPage;
  /** Every header but the ETag and the length (the cache tags of the records it shows are added when found). */
  readonly headers: HeaderList;
}

/** A complete answer of these routes that needs no file (a redirect, a refused method). */
export interface HtmlRespond {
  readonly kind: "respond";
  readonly status: number;
  readonly headers: HeaderList;
  readonly body: string;
}

// An id as a page's URL writes it: digits, no leading zero, at most 16 (past any id a safe integer holds).
const SUBJECT_PAGE = /^\/subjekti\/([1-9][0-9]{0,15})\/$/;

/** Whether a percent-decoded path is one of these pages' (or their redirects'). */
export function isHtmlPath(path: string): boolean {
  return path === "/subjekti" || path.startsWith(SUBJECT_PAGES_PREFIX) || path === "/trazi" || path.startsWith(RESULTS_PATH);
}

/** The headers of every HTML answer. */
export function htmlHeaders(cacheControl: string, tags: readonly string[] = [SITE_TAG]): HeaderList {
  return [
    ["Content-Type", "text/html; charset=utf-8"],
    ["Content-Security-Policy", CONTENT_SECURITY_POLICY],
    ...SECURITY_HEADERS,
    ["Cache-Control", cacheControl],
    ...cacheTagHeaders(tags),
  ];
}

/** The decision for a path `isHtmlPath` takes: the page, a redirect to its slash, or 405 for a method other than GET and HEAD. */
export function routeHtml(method: string, path: string, query: string, manifest: Manifest): HtmlDecision | HtmlRespond {
  const headers = htmlHeaders(manifest.cacheControl);
  if (path === "/subjekti" || path === "/trazi" || (!path.endsWith("/") && SUBJECT_PAGE.test(`${path}/`))) {
    // The query kept when it is plain printable ASCII (a header carries nothing else as it is).
    const location = `${path}/${query === "" || !/^[\x21-\x7e]*$/.test(query) ? "" : `?${query}`}`;
    return { kind: "respond", status: 301, headers: [["Location", location], ...headers.slice(1)], body: "" };
  }
  const upper = method.toUpperCase();
  if (upper !== "GET" && upper !== "HEAD")
    return { kind: "respond", status: 405, headers: [["Allow", "GET, HEAD"], ...headers.slice(1)], body: "" };
  if (path === RESULTS_PATH) return { kind: "html", page: { kind: "results", query }, headers };
  const match = SUBJECT_PAGE.exec(path);
  if (match?.[1] !== undefined) return { kind: "html", page: { kind: "subject", id: BigInt(match[1]) }, headers };
  return { kind: "html", page: { kind: "not-found" }, headers };
}
