/**
 * The one routing function every host calls: from a request and the manifest it decides what the
 * answer is, as a value. It never throws and never reads a file; hosts switch on `kind`.
 *
 * The order of checks is DRF's: Django's APPEND_SLASH redirect and URL resolution first, then in
 * `APIView.initial` content negotiation (an unknown `format` is 404, an Accept without JSON 406),
 * and only then the method (405).
 */
import { type HeaderList, collectionHeaders, commonHeaders, SECURITY_HEADERS } from "./answer-headers.ts";
import { API_PREFIX, apiTarget, escapeUriPath } from "./api-paths.ts";
import { buildLinks, COLLECTION_PATH, extraParams, quotePlus } from "./build-links.ts";
import { DOCS_TAG, pageTags, SITE_TAG } from "./cache-tags.ts";
import { ALLOWED_METHODS, isPreflight, type PreflightRequest, preflightHeaders } from "./cors.ts";
import { contentEtag, matchesIfNoneMatch } from "./etag.ts";
import type { Filters, Find } from "./find-subjects.ts";
import { isSearch } from "./search/match-record.ts";
import { readFilters } from "./search/read-filters.ts";
import { chunkPath, ETAGS_FILE, type EtagLine, type Form, offsetsPath, pageEtagLine, pagePath, shardFilePath } from "./layout.ts";
import type { Manifest } from "./manifest.ts";
import { negotiate } from "./request/negotiate.ts";
import { DOCS_SHARD_KEY, PUBLISHED_FILES, type PublishedFile, publishedFile } from "./published-files.ts";
import { parsePythonInt } from "./request/python-int.ts";
import { asByteString, decodeQueryBytes, percentDecodeBytes } from "./request/read-target.ts";
import { lastValue, type Paging, parseQuery, type QueryParam, readPaging } from "./request/read-query.ts";
import type { ApiTarget } from "./api-paths.ts";
import { indentJson, PAGE_TAIL, renderPageHead, toJson } from "./render-page.ts";
import { type HtmlDecision, isHtmlPath, routeHtml } from "./html/html-routes.ts";
import { CONTENT_SECURITY_POLICY } from "./html/page-frame.ts";

/** A request as the router reads it; `origin` and the `Access-Control-Request-*` headers make a CORS preflight. */
export interface RouteRequest extends PreflightRequest {
  readonly method: string;
  /**
   * The target's path as sent, percent-escapes and all, one character per byte (read-target.ts:
   * `splitTarget` of a raw target; a parsed URL's `pathname` where the host has no other).
   */
  readonly path: string;
  /** The target's query as sent without its `?`, one character per byte (or a parsed URL's `search`). */
  readonly query: string;
  readonly accept?: string | null | undefined;
  readonly ifNoneMatch?: string | null | undefined;
  /** The public origin the links of this answer start with. */
  readonly baseUrl: string;
}

/** A run of records inside one chunk file: lines `from` to `to` (exclusive). */
export interface ChunkSlice {
  readonly path: string;
  /** The chunk's offsets table (record-offsets.ts). */
  readonly offsets: string;
  readonly from: number;
  readonly to: number;
}

export type Decision =
  /** Not the API: the host serves its static files as they are. */
  | { readonly kind: "static" }
  /**
   * A pre-rendered file: send its bytes with these headers and the ETag the build wrote for it
   * (`etag`: read first, so a 304 reads no more), computing nothing.
   */
  | { readonly kind: "file"; readonly status: 200; readonly headers: HeaderList; readonly path: string; readonly etag: EtagLine }
  /**
   * A page no file holds: `head`, the sliced records joined by `,`, then `]}`, pretty-printed
   * when `indent` is not 0 (page-bytes.ts); its ETag is its bytes' (`bytesEtag`), added with them.
   */
  | {
      readonly kind: "derive";
      readonly status: 200;
      readonly headers: HeaderList;
      readonly head: string;
      readonly chunks: readonly ChunkSlice[];
      readonly indent: number;
    }
  /** One subject, or a page of the filtered list: found through the site's indexes (find-subjects.ts). */
  | { readonly kind: "find"; readonly find: Find }
  /** A page for people (html/html-routes.ts): an institution's page, the search's results, the branded 404. */
  | HtmlDecision
  /** An answer complete in itself. */
  | { readonly kind: "respond"; readonly status: number; readonly headers: HeaderList; readonly body: string };

/** DRF's `SimpleMetadata` of a view: its name and docstring, what it renders and parses. */
function optionsBody(name: string, description = ""): string {
  return toJson({
    name,
    description,
    renders: ["application/json"],
    parses: ["application/json", "application/x-www-form-urlencoded", "multipart/form-data"],
  });
}
const LIST_OPTIONS = optionsBody("Subjekt List");
const DETAIL_OPTIONS = optionsBody("Subjekt Instance");
// DefaultRouter's APIRootView, whose docstring is its description.
const ROOT_OPTIONS = optionsBody("Api Root", "The default basic root view for DefaultRouter");
const NOT_FOUND_BODY = toJson({ detail: "Not found." });
const NOT_ACCEPTABLE_BODY = toJson({ detail: "Could not satisfy the request Accept header." });
const VALID_FORMATS = new Set(["", "api", "json"]);

/** Decides the answer to one request. */
export function route(request: RouteRequest, manifest: Manifest): Decision {
  const path = decodedPath(request.path);
  if (isHtmlPath(path)) return routeHtml(request.method, path, asByteString(request.query), manifest);
  if (!isApi(path)) return { kind: "static" };
  const query = asByteString(request.query);
  const published = publishedFile(path);
  // django-cors-headers answers a preflight in front of everything else Django and DRF check.
  if (isPreflight(request)) return respond(204, preflightHeaders(request, SECURITY_HEADERS), "");
  if (published !== undefined) return routePublished(request, manifest, published);
  const target = apiTarget(path);
  switch (target.kind) {
    case "append-slash": {
      // Django's CommonMiddleware (APPEND_SLASH) answers every method with a relative 301.
      const location = `${escapeUriPath(path)}/${query === "" ? "" : `?${iriToUri(query)}`}`;
      return respond(301, [["Location", location], ...commonHeaders(manifest.cacheControl)], "");
    }
    case "none":
      return respond(404, [["Content-Type", "application/json"], ...commonHeaders(manifest.cacheControl)], NOT_FOUND_BODY);
    default:
      return routeView(request, query, manifest, target);
  }
}

/** Whether `route` answers a path (as sent) itself, rather than leaving it to the static site. */
export function isApiPath(path: string): boolean {
  const decoded = decodedPath(path);
  return isApi(decoded) || isHtmlPath(decoded);
}

/** Django matches the path percent-decoded and nothing else: `/api/subjekti/./` is another path. */
function decodedPath(path: string): string {
  return percentDecodeBytes(asByteString(path));
}

/** The API's paths, the published description's among them. */
function isApi(path: string): boolean {
  return path.startsWith(API_PREFIX) || path === API_PREFIX.slice(0, -1) || publishedFile(path) !== undefined;
}

/** The landing page, the OpenAPI document and the schemas: files of the docs shard, with the API's CORS and cache headers. */
function routePublished(request: RouteRequest, manifest: Manifest, file: PublishedFile): Decision {
  const hash = manifest.dirs[DOCS_SHARD_KEY];
  if (hash === undefined) return siteUnavailable("The site has no published description: rebuild it.");
  const headers: HeaderList = [
    ["Content-Type", file.contentType],
    // The landing page runs the search script file and no inline script.
    ...(file.contentType.startsWith("text/html") ? ([["Content-Security-Policy", CONTENT_SECURITY_POLICY]] as const) : []),
    ["Allow", ALLOWED_METHODS],
    ...commonHeaders(manifest.cacheControl, [SITE_TAG, DOCS_TAG]),
  ];
  const method = request.method.toUpperCase();
  if (method === "OPTIONS")
    return respond(
      204,
      headers.filter(([name]) => name !== "Content-Type"),
      "",
    );
  if (method !== "GET" && method !== "HEAD") {
    const refused = headers.filter(([name]) => name !== "Content-Type");
    return respond(405, [["Content-Type", "application/json"], ...refused], toJson({ detail: `Method "${method}" not allowed.` }));
  }
  // The docs shard's files are in the order PUBLISHED_FILES names them, as its tag list is.
  const etag = { path: shardFilePath(DOCS_SHARD_KEY, hash, ETAGS_FILE), index: Object.values(PUBLISHED_FILES).indexOf(file) };
  return { kind: "file", status: 200, headers, path: shardFilePath(DOCS_SHARD_KEY, hash, file.name), etag };
}

/** A view of the router's: DRF's `initial` (format, then Accept), then the method, then the view's own work. */
function routeView(
  request: RouteRequest,
  query: string,
  manifest: Manifest,
  target: Extract<ApiTarget, { suffix: string | null }>,
): Decision {
  // QueryDict reads the values from the raw bytes decoded as UTF-8 (Latin-1 if they are not);
  // the links are built from the raw bytes taken one by one as Latin-1 (PEP 3333's QUERY_STRING,
  // through build_absolute_uri), so the two differ only when the query holds raw non-ASCII bytes.
  const linkParams = parseQuery(query);
  const values = decodeQueryBytes(query);
  const params = values === query ? linkParams : parseQuery(values);
  const headers = collectionHeaders(manifest.cacheControl);
  // A format suffix wins over `?format=`, which is then not even read; an empty one is none.
  const format = target.suffix ?? lastValue(params, "format");
  if (format !== undefined && !VALID_FORMATS.has(format)) return respond(404, headers, NOT_FOUND_BODY);
  const indent = negotiate(request.accept);
  if (indent === null) return respond(406, headers, NOT_ACCEPTABLE_BODY);
  // Django upper-cases the method before dispatch.
  const method = request.method.toUpperCase();
  if (method === "OPTIONS")
    return respond(
      200,
      headers,
      indentJson(target.kind === "root" ? ROOT_OPTIONS : target.kind === "list" ? LIST_OPTIONS : DETAIL_OPTIONS, indent),
    );
  if (method !== "GET" && method !== "HEAD") {
    return respond(405, headers, toJson({ detail: `Method "${method}" not allowed.` }, indent));
  }
  if (target.kind === "root") return routeRoot(request, manifest, target.suffix, params, indent);
  // django-filter's FilterSet validates the filters before the list is paged or the subject looked up.
  const filters = readFilters((key) => lastValue(params, key));
  if ("errors" in filters) return respond(400, headers, toJson(filters.errors, indent));
  if (target.kind === "detail") return routeSubject(manifest, target, filters, indent);
  const extras = extraParams(linkParams);
  const paging = readPaging(params, manifest.maxLimit);
  if (filters.oib !== undefined || filters.code !== undefined || isSearch(filters)) {
    const find: Find = {
      shape: { kind: "page", baseUrl: request.baseUrl, path: escapeUriPath(target.path), extras, ...paging },
      filters,
      indent,
      cacheControl: manifest.cacheControl,
    };
    return { kind: "find", find };
  }
  return routePage(request, manifest, paging, extras, indent, target.path);
}

/**
 * The API root: DefaultRouter's link to the list, with the format suffix it was asked with and
 * `?format=` kept as DRF's `reverse` keeps it (`preserve_builtin_query_params`).
 */
function routeRoot(
  request: RouteRequest,
  manifest: Manifest,
  suffix: string | null,
  params: readonly QueryParam[],
  indent: number,
): Decision {
  const format = lastValue(params, "format");
  const link = `${request.baseUrl}${suffix === null ? COLLECTION_PATH : `${COLLECTION_PATH.slice(0, -1)}.${suffix}`}${format === undefined ? "" : `?format=${quotePlus(format)}`}`;
  const body = toJson({ subjekti: link }, indent);
  const etag = contentEtag(body);
  const headers = collectionHeaders(manifest.cacheControl, etag);
  return matchesIfNoneMatch(request.ifNoneMatch, etag) ? respond(304, headers, "") : respond(200, headers, body);
}

/** One subject by its primary key, read as Django's integer field reads it (Python's `int()`). */
function routeSubject(manifest: Manifest, target: Extract<ApiTarget, { kind: "detail" }>, filters: Filters, indent: number): Decision {
  const id = subjectId(target.pk);
  // get_object's Http404 comes after the negotiation, so JSONRenderer indents it (a bad format's 404 comes before: compact).
  if (id === null) return respond(404, collectionHeaders(manifest.cacheControl), toJson({ detail: "Not found." }, indent));
  return { kind: "find", find: { shape: { kind: "subject", id }, filters, indent, cacheControl: manifest.cacheControl } };
}

/** The id a path's `<pk>` names (bytes read as UTF-8, then `int()`), or null when it names none. */
function subjectId(pk: string): bigint | null {
  let text: string;
  try {
    text = STRICT_UTF8.decode(Uint8Array.from(pk, (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
  const id = parsePythonInt(text);
  return id === null || id < 1n ? null : id;
}

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

function routePage(
  request: RouteRequest,
  manifest: Manifest,
  paging: Paging,
  extras: readonly QueryParam[],
  indent: number,
  path: string,
): Decision {
  const { limit, offset } = paging;
  const { count } = manifest;
  const pastTheEnd = offset >= BigInt(count);
  const start = pastTheEnd ? count : Number(offset);
  const headers = collectionHeaders(manifest.cacheControl, undefined, pageTags(manifest.chunkSize, start, Math.min(start + limit, count)));
  // The head (count and links) is written only for an answer that is not a pre-rendered file.
  const head = (): string => renderPageHead(count, buildLinks(request.baseUrl, extras, limit, offset, count, escapeUriPath(path)));
  if (pastTheEnd) {
    const body = indentJson(head() + PAGE_TAIL, indent);
    const etag = contentEtag(body);
    return matchesIfNoneMatch(request.ifNoneMatch, etag)
      ? respond(304, [...headers, ["ETag", etag]], "")
      : respond(200, [...headers, ["ETag", etag]], body);
  }

  const form = path === COLLECTION_PATH ? preRenderedForm(extras, manifest) : null;
  // The files are compact pages: a pretty-printed one is derived.
  if (indent === 0 && form !== null && start % limit === 0 && manifest.limits.includes(limit) && request.baseUrl === manifest.baseUrl) {
    const file = pagePath(manifest, form, limit, start / limit);
    const etag = pageEtagLine(manifest, form, limit, start / limit);
    if (file !== null && etag !== null) return { kind: "file", status: 200, headers, path: file, etag };
  }
  const chunks = sliceChunks(manifest, start, Math.min(start + limit, count));
  if (chunks === null) return siteUnavailable("The site is incomplete: rebuild it.");
  return { kind: "derive", status: 200, headers, head: head(), chunks, indent };
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
    const offsets = offsetsPath(manifest, chunk);
    if (path === null || offsets === null) return null;
    const first = chunk * size;
    slices.push({ path, offsets, from: Math.max(start, first) - first, to: Math.min(end, first + size) - first });
  }
  return slices;
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
