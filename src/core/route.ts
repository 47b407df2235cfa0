/**
 * The one routing function every host calls: from a request and the manifest it decides what the
 * answer is, as a value. It never throws and never reads a file; hosts switch on `kind`.
 *
 * The order of checks is DRF's: Django's APPEND_SLASH redirect and URL resolution first, then in
 * `APIView.initial` content negotiation (an unknown `format` is 404, an Accept without JSON 406),
 * and only then the method (405).
 */
import { type HeaderList, collectionHeaders, commonHeaders } from "./answer-headers.ts";
import { buildLinks, COLLECTION_PATH, encodeLinkQuery, extraParams } from "./build-links.ts";
import { matchesIfNoneMatch, pageEtag } from "./etag.ts";
import { chunkPath, type Form, pagePath } from "./layout.ts";
import type { Manifest } from "./manifest.ts";
import { lastValue, parseQuery, type QueryParam, readPaging } from "./read-query.ts";
import { PAGE_TAIL, renderPageHead, toJson } from "./render-page.ts";
import { isStrSpace, trimBy } from "./trim-spaces.ts";

export interface RouteRequest {
  readonly method: string;
  /** The URL's path as it came, percent-escapes and all (`URL.pathname`). */
  readonly path: string;
  /** The URL's query without its `?` (`URL.search.slice(1)`). */
  readonly query: string;
  readonly accept?: string | null | undefined;
  readonly ifNoneMatch?: string | null | undefined;
  /** The public origin the links of this answer start with. */
  readonly baseUrl: string;
}

/** A run of records inside one chunk file: lines `from` to `to` (exclusive). */
export interface ChunkSlice {
  readonly path: string;
  readonly from: number;
  readonly to: number;
}

export type Decision =
  /** Not the API: the host serves its static files as they are. */
  | { readonly kind: "static" }
  /** A pre-rendered page: send this file's bytes with these headers, computing nothing. */
  | { readonly kind: "file"; readonly status: 200; readonly headers: HeaderList; readonly path: string }
  /** A page no file holds: `head`, the sliced records joined by `,`, then `]}` (see `assemblePage`). */
  | {
      readonly kind: "derive";
      readonly status: 200;
      readonly headers: HeaderList;
      readonly head: string;
      readonly chunks: readonly ChunkSlice[];
    }
  /** An answer complete in itself. */
  | { readonly kind: "respond"; readonly status: number; readonly headers: HeaderList; readonly body: string };

const OPTIONS_BODY = toJson({
  name: "Subjekt List",
  description: "",
  renders: ["application/json"],
  parses: ["application/json", "application/x-www-form-urlencoded", "multipart/form-data"],
});
const NOT_FOUND_BODY = toJson({ detail: "Not found." });
const NOT_ACCEPTABLE_BODY = toJson({ detail: "Could not satisfy the request Accept header." });
const VALID_FORMATS = new Set(["", "api", "json"]);

/** Decides the answer to one request. */
export function route(request: RouteRequest, manifest: Manifest): Decision {
  const path = decodePath(request.path);
  if (path === COLLECTION_PATH.slice(0, -1)) {
    // Django's CommonMiddleware (APPEND_SLASH) answers every method with a relative 301.
    const location = request.query === "" ? COLLECTION_PATH : `${COLLECTION_PATH}?${iriToUri(request.query)}`;
    return respond(301, [["Location", location], ...commonHeaders(manifest.cacheControl)], "");
  }
  if (path === COLLECTION_PATH) return routeCollection(request, manifest);
  if (path.startsWith("/api/")) {
    return respond(404, [["Content-Type", "application/json"], ...commonHeaders(manifest.cacheControl)], NOT_FOUND_BODY);
  }
  return { kind: "static" };
}

function routeCollection(request: RouteRequest, manifest: Manifest): Decision {
  const params = parseQuery(request.query);
  const headers = collectionHeaders(manifest.cacheControl);
  const format = lastValue(params, "format");
  if (format !== undefined && !VALID_FORMATS.has(format)) return respond(404, headers, NOT_FOUND_BODY);
  if (!acceptsJson(request.accept)) return respond(406, headers, NOT_ACCEPTABLE_BODY);
  // Django upper-cases the method before dispatch.
  const method = request.method.toUpperCase();
  if (method === "OPTIONS") return respond(200, headers, OPTIONS_BODY);
  if (method !== "GET" && method !== "HEAD") {
    return respond(405, headers, toJson({ detail: `Method "${method}" not allowed.` }));
  }
  return routePage(request, manifest, params);
}

function routePage(request: RouteRequest, manifest: Manifest, params: readonly QueryParam[]): Decision {
  const { limit, offset } = readPaging(params, manifest.maxLimit);
  const extras = extraParams(params);
  const etag = pageEtag(manifest.hash, request.baseUrl, encodeLinkQuery(extras, limit, offset));
  const headers = collectionHeaders(manifest.cacheControl, etag);
  if (matchesIfNoneMatch(request.ifNoneMatch, etag)) return respond(304, headers, "");

  const { count } = manifest;
  const head = renderPageHead(count, buildLinks(request.baseUrl, extras, limit, offset, count));
  if (offset >= BigInt(count)) return respond(200, headers, head + PAGE_TAIL);

  const start = Number(offset);
  const form = preRenderedForm(extras, manifest);
  if (form !== null && start % limit === 0 && manifest.limits.includes(limit) && request.baseUrl === manifest.baseUrl) {
    const file = pagePath(manifest, form, limit, start / limit);
    if (file !== null) return { kind: "file", status: 200, headers, path: file };
  }
  const chunks = sliceChunks(manifest, start, Math.min(start + limit, count));
  if (chunks === null) return siteUnavailable("The site is incomplete: rebuild it.");
  return { kind: "derive", status: 200, headers, head, chunks };
}

/** The pre-rendered form whose links these extra parameters give, if the build wrote that form. */
function preRenderedForm(extras: readonly QueryParam[], manifest: Manifest): Form | null {
  let form: Form | null = null;
  if (extras.length === 0) form = "plain";
  else if (extras.length === 1 && extras[0]?.[0] === "format") {
    const value = extras[0][1];
    if (value === "api" || value === "json") form = value;
  }
  return form !== null && manifest.forms.includes(form) ? form : null;
}

/** The chunk slices that hold records `start` to `end` (exclusive); null if the manifest lacks one. */
function sliceChunks(manifest: Manifest, start: number, end: number): ChunkSlice[] | null {
  const size = manifest.chunkSize;
  const slices: ChunkSlice[] = [];
  for (let chunk = Math.floor(start / size); chunk * size < end; chunk++) {
    const path = chunkPath(manifest, chunk);
    if (path === null) return null;
    const first = chunk * size;
    slices.push({ path, from: Math.max(start, first) - first, to: Math.min(end, first + size) - first });
  }
  return slices;
}

/** A derived page's bytes from the texts of its chunk files, in the order `decision.chunks` names them. */
export function assemblePage(head: string, chunks: readonly ChunkSlice[], texts: readonly string[]): string {
  const records: string[] = [];
  chunks.forEach((slice, i) => {
    const lines = (texts[i] ?? "").split("\n", slice.to);
    for (let line = slice.from; line < slice.to; line++) records.push(lines[line] ?? "");
  });
  return head + records.join(",") + PAGE_TAIL;
}

/**
 * DRF's `DefaultContentNegotiation`: a media range admits JSON when its type is `*` or
 * `application` and its subtype `*` or `json`; Django lower-cases it, parameters and `q` are
 * ignored. A missing or blank header is `*`/`*`.
 */
export function acceptsJson(header: string | null | undefined): boolean {
  if (header === null || header === undefined || stripPython(header) === "") return true;
  return header.split(",").some((range) => {
    // get_accept_list strips each range and parse_header_parameters its type, with str.strip().
    const type = stripPython(range.split(";")[0] ?? "").toLowerCase();
    const slash = type.indexOf("/");
    const main = slash < 0 ? type : type.slice(0, slash);
    const sub = slash < 0 ? "" : type.slice(slash + 1);
    return (main === "*" || main === "application") && (sub === "*" || sub === "json");
  });
}

/** Python's `str.strip()`: unlike `String.prototype.trim` it strips \x1c-\x1f and \x85, and keeps U+FEFF. */
function stripPython(text: string): string {
  return trimBy(text, isStrSpace);
}

/** Characters Django's `iri_to_uri` keeps: `quote(iri, safe="/#%[]=:;$&()+,!?*@'~")`. */
const IRI_SAFE = /^[A-Za-z0-9_.~\-/#%[\]=:;$&()+,!?*@']*$/;
const UTF8 = new TextEncoder();

/** Django's `iri_to_uri`, which `get_full_path` applies to the query of an APPEND_SLASH redirect. */
function iriToUri(text: string): string {
  if (IRI_SAFE.test(text)) return text;
  let out = "";
  for (const char of text) {
    if (IRI_SAFE.test(char)) out += char;
    else for (const byte of UTF8.encode(char)) out += "%" + byte.toString(16).toUpperCase().padStart(2, "0");
  }
  return out;
}

/** Django resolves URLs on the percent-decoded path. */
function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    // A malformed escape cannot name the collection; compare the path as it came.
    return path;
  }
}

/**
 * The answer when the built site cannot serve a request (a file or manifest missing or foreign),
 * for the router and every host alike: 503, the collection's headers, and `no-store`, so no CDN or
 * browser keeps it past the deploy that fixes the site (and no ETag: it is no page).
 */
export function siteUnavailable(detail: string): Extract<Decision, { kind: "respond" }> {
  return { kind: "respond", status: 503, headers: collectionHeaders("no-store"), body: toJson({ detail }) };
}

function respond(status: number, headers: HeaderList, body: string): Decision {
  return { kind: "respond", status, headers, body };
}
