/**
 * THE table of request cases: every rule and example of the HTTP contract (docs/http-contract.md), run against every host
 * (the edge handler in-process, the preview over HTTP, the edge function under real Deno, the
 * Cloudflare Worker under `wrangler dev`, and `netlify dev` with `npm run test:netlify`). Expected bodies are written independently of the
 * code under test: links as literal strings, records sliced from the fixture file by `page()`.
 */
import { readFileSync } from "node:fs";
import { BASE, CACHE_CONTROL, COLLECTION as C, COUNT, page } from "./fixture-site.ts";

export type HostName = "edge" | "preview" | "deno" | "netlify" | "nginx" | "wrangler";

export interface RequestCase {
  /** Input and expected result, in words. */
  readonly name: string;
  readonly method: string;
  /** Path and query as sent on the wire (raw UTF-8 allowed; see `encoding`). */
  readonly target: string;
  /** `latin1`: each character of `target` is one byte on the wire (raw bytes that are no UTF-8). Default `utf8`. */
  readonly encoding?: "utf8" | "latin1";
  readonly headers?: Readonly<Record<string, string>>;
  /** Sends `If-None-Match: conditional(etag)`, `etag` being the host's own ETag for a GET of `target`. */
  readonly conditional?: (etag: string) => string;
  readonly status: number;
  /** Header values expected (names lower-case); a RegExp must match; null means absent. */
  readonly expectHeaders: Readonly<Record<string, string | RegExp | null>>;
  /** The body's exact text ("" for none), or a pattern it must match (the static site's own 404 page; files whose bytes other tests check). */
  readonly body: string | RegExp;
  /** Content-Length when it is not the body's own (HEAD: the GET body's); undefined: the body's length; null: not checked. */
  readonly length?: number | null;
  /** Only these hosts can carry the request (a `Request` cannot carry TRACE or CONNECT). */
  readonly hosts?: readonly HostName[];
  /** Hosts that cannot give the contract's answer, what they answer instead, and why. */
  readonly exceptions?: Partial<Record<HostName, HostException>>;
}

/** A host whose runtime changes the request before our code sees it (or answers it itself). */
export type HostException = { readonly because: string } & Partial<Pick<RequestCase, "status" | "expectHeaders" | "body" | "length">>;

/** Other paths under /api/ and the redirect: what Django's middleware puts on any answer, plus CORS. */
const COMMON_HEADERS = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "same-origin",
  "access-control-allow-origin": "*",
  "access-control-expose-headers": "ETag, Allow",
  "cache-control": CACHE_CONTROL,
  "netlify-cache-tag": "subjekti",
  "cache-tag": "subjekti",
} as const;
/** Headers of every answer of /api/subjekti/, errors included (docs/http-contract.md, "Headers"). */
const API_HEADERS = {
  "content-type": "application/json",
  allow: "GET, HEAD, OPTIONS",
  vary: "Accept",
  ...COMMON_HEADERS,
} as const;
const ETAG = /^"[^"]+"$/;
/** Every fixture record is in chunk 0: a page showing records carries its tag, one past the end only the site's. */
const PAGE_TAGS = /^subjekti(,subjekti-chunk-0)?$/;
const PAGE_HEADERS = { ...API_HEADERS, etag: ETAG, "netlify-cache-tag": PAGE_TAGS, "cache-tag": PAGE_TAGS };
/** A preflight's answer (django-cors-headers in front of DRF): no body, no Allow, no caching by a CDN. */
const PREFLIGHT_HEADERS = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "same-origin",
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, HEAD, OPTIONS",
  "access-control-max-age": "86400",
  "cache-control": "no-store",
  allow: null,
  "content-type": null,
  etag: null,
} as const;
/** A browser's preflight before a GET with a custom header and If-None-Match. */
const PREFLIGHT_REQUEST = {
  Origin: "http://page.example",
  "Access-Control-Request-Method": "GET",
  "Access-Control-Request-Headers": "x-client, if-none-match",
} as const;
/** The published description's answers: tagged with the docs' own cache tag too. */
/** The Content-Security-Policy of every HTML answer (src/core/html/page-frame.ts), written out. */
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
/** Headers of every page for people. */
const HTML_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy": CSP,
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "same-origin",
  "cache-control": CACHE_CONTROL,
  "access-control-allow-origin": null,
} as const;
const HTML_PAGE_HEADERS = {
  ...HTML_HEADERS,
  etag: ETAG,
  "netlify-cache-tag": "subjekti,subjekti-chunk-0",
  "cache-tag": "subjekti,subjekti-chunk-0",
};
const DOCS_HEADERS = { ...COMMON_HEADERS, "netlify-cache-tag": "subjekti,subjekti-docs", "cache-tag": "subjekti,subjekti-docs" };
/** An origin other than the build's base URL: a deploy preview, the *.netlify.app name. */
const OTHER = "http://deploy-preview-7--subjekti.example/api/subjekti/";

const NOT_FOUND = `{"detail":"Not found."}`;
const NOT_ACCEPTABLE = `{"detail":"Could not satisfy the request Accept header."}`;
const OPTIONS_BODY =
  `{"name":"Subjekt List","description":"","renders":["application/json"],` +
  `"parses":["application/json","application/x-www-form-urlencoded","multipart/form-data"]}`;
const notAllowed = (method: string): string => `{"detail":"Method \\"${method}\\" not allowed."}`;

const P = "/api/subjekti/";
/** The first page of the default limit: what every bad limit or offset falls back to. */
const FIRST = page(0, 20, `${C}?limit=20&offset=20`, null);
const utf8Length = (text: string): number => Buffer.byteLength(text, "utf8");

function get(name: string, target: string, body: string, extra: Partial<RequestCase> = {}): RequestCase {
  return { name, method: "GET", target, status: 200, expectHeaders: PAGE_HEADERS, body, ...extra };
}
function head(name: string, target: string, getBody: string, extra: Partial<RequestCase> = {}): RequestCase {
  return { name, method: "HEAD", target, status: 200, expectHeaders: PAGE_HEADERS, body: "", length: utf8Length(getBody), ...extra };
}
function refuse(name: string, method: string, target: string, status: number, body: string, extra: Partial<RequestCase> = {}): RequestCase {
  return { name, method, target, status, expectHeaders: API_HEADERS, body, ...extra };
}
/** Every bad limit falls back to 20 and the links say `limit=20`. */
function badLimit(raw: string, why: string): RequestCase {
  return get(`limit=${raw} (${why}) -> default limit 20`, `${P}?limit=${raw}`, FIRST);
}

const BIG = "1000000000000000000000000000000"; // 10**30
const DIGITS_4000 = "1" + "0".repeat(3999);
const DIGITS_4300 = "1" + "0".repeat(4299);
/** The longest target answered (src/core/request/request-bounds.ts): 4 KB of path and query. */
const MAX_TARGET = 4 * 1024;
/** The longest value of a header the router reads. */
const MAX_HEADER = 8 * 1024;
/** A value that makes the collection's target exactly MAX_TARGET bytes long. */
const LONGEST_VALUE = "a".repeat(MAX_TARGET - "/api/subjekti/?x=".length);
const MANY_PARAMS = Array.from({ length: 1_000 }, () => "p=1").join("&");
const TOO_MANY_PARAMS = Array.from({ length: 10_000 }, () => "p=1").join("&");
/** The hostile requests first measured at the edge: what each cost grew with the request. */
const FF_16KB = "%FF".repeat(5_462);
const ACCEPT_120KB = `application/json; indent=4;${" x=1;".repeat(24_000)}`;
const URL_256KB = `x=${"a".repeat(256 * 1024)}`;
const TOO_LONG = `{"detail":"URI too long: the request target is over ${MAX_TARGET} bytes, the most a server in front of the API reads."}`;
const headerTooLarge = (name: string): string =>
  `{"detail":"Request header fields too large: the ${name} header is over ${MAX_HEADER} bytes."}`;
/** What a refusal before any work carries (src/core/refusals.ts): JSON, the security headers, CORS, no caching. */
const REFUSAL_HEADERS = {
  "content-type": "application/json",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "access-control-allow-origin": "*",
  "cache-control": "no-store",
  etag: null,
} as const;
/** nginx refuses a request line over its 128 KB header buffer itself, with its HTML page. */
const NGINX_REFUSES_LONG_LINE: HostException = {
  because: "nginx answers a request line over its large_client_header_buffers (128 KB) with its own 414 page before subjekti serve sees it",
  status: 414,
  expectHeaders: { "content-type": "text/html" },
  body: /414 Request-URI Too Large/,
  length: null,
};
/** Node's HTTP parser refuses a head over the preview's 128 KB itself, before the handler runs; it cannot tell a long target from a long header. */
const NODE_REFUSES_LONG_HEAD: HostException = {
  because:
    "Node's HTTP parser refuses a request head over the preview's maxHeaderSize (128 KB) before the handler runs, and cannot say which part was long",
  status: 431,
  expectHeaders: REFUSAL_HEADERS,
  body: `{"detail":"Request header fields too large: the request line and headers are over the preview's limit."}`,
};
/** `netlify dev`'s proxy (a Node HTTP server with Node's default 16 KB head) refuses a longer head itself, with an empty 431. */
const NETLIFY_PROXY_REFUSES_LONG_HEAD: HostException = {
  because:
    "`netlify dev`'s proxy refuses a request head over Node's default 16 KB itself, with an empty 431, before the edge function runs",
  status: 431,
  expectHeaders: {},
  body: "",
  length: null,
};
/** A page pretty-printed as DRF's JSONRenderer writes it (json.dumps keeps U+2028/9 escaped). */
const pretty = (json: string, indent: number): string =>
  JSON.stringify(JSON.parse(json), null, indent).replaceAll("\u2028", "\\u2028").replaceAll("\u2029", "\\u2029");

interface DrfAnswer {
  readonly name: string;
  readonly method: string;
  /** The raw target, one character per byte. */
  readonly target: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly status: number;
  readonly answerHeaders: Readonly<Record<string, string>>;
  readonly body: string;
  readonly length: number;
  /** The answer to the target as a URL parser re-encodes it (raw bytes percent-encoded, invalid UTF-8 as U+FFFD). */
  readonly reencoded?: DrfAnswer;
}

/** What real DRF answered (test/core/golden/drf-answers.json, made by test/oracle/drf-golden.py): the list, then the router's other routes. */
const DRF_GOLDEN = JSON.parse(readFileSync(new URL("../core/golden/drf-answers.json", import.meta.url), "utf8")) as {
  answers: readonly DrfAnswer[];
  routes: readonly DrfAnswer[];
};
const DRF_ANSWERS = [...DRF_GOLDEN.answers, ...DRF_GOLDEN.routes.map(noServerError)];

/**
 * An id past SQLite's 64-bit integers is a 500 in the recording (the driver overflows); the contract
 * never answers 500, and a database that takes any integer (PostgreSQL's numeric comparison) finds
 * no such subject: 404.
 */
function noServerError(drf: DrfAnswer): DrfAnswer {
  if (drf.status !== 500) return drf;
  const body = `{"detail":"Not found."}`;
  return {
    ...drf,
    name: `${drf.name} -> 404 (SQLite's recording: 500)`,
    status: 404,
    answerHeaders: { ...drf.answerHeaders, "content-type": "application/json" },
    body,
    length: body.length,
  };
}

/** The static site's own 404 (serve-handler's page, the CDN's): not the API's JSON. */
const STATIC_NOT_FOUND = /not (?:be )?found/i;

/** The request a parsed URL (`new URL`, WHATWG) makes of a target: dot segments resolved, `\` read as `/`. */
const RESOLVED_BY_URL =
  "the runtime hands over a parsed URL: `new Request(url)` resolves dot segments (`.`, `..`, `%2e`) and reads `\\` as `/`";
const REENCODED_BY_URL = "`new Request(url)` percent-encodes raw bytes as UTF-8 (invalid UTF-8 as U+FFFD) before the function runs";
const PROXY_RESOLVES = "`netlify dev`'s proxy resolves dot segments (`.`, `..`, `%2e`) and reads `\\` as `/` before the edge runs";
const DENO_REFUSES_LATIN1 = "Deno's HTTP server answers a target that is not valid UTF-8 with its own 400 before the function runs";
const HOST_LOWER_CASED = "`new Request(url)` lower-cases the host (the WHATWG URL parser): the links are on the origin the runtime reports";
const WORKERD_RESOLVES =
  "workerd hands the Worker a parsed URL (`request.url`): dot segments (`.`, `..`, `%2e`) resolved, `\\` read as `/`";
const WORKERD_REENCODES = "workerd's `request.url` percent-encodes raw bytes as UTF-8 (invalid UTF-8 as U+FFFD) before the Worker runs";
const WORKERD_LOWER_CASES = "workerd's `request.url` lower-cases the host: the links are on the origin the runtime reports";
const WORKERD_DECODES_HEADERS =
  "workerd decodes header values as UTF-8 (Django reads their bytes as Latin-1): `indent=٣` is an indent of 3 there";
/** workerd's HTTP server knows methods by their exact upper-case names: any other is its own 501, before the Worker runs. */
const WORKERD_UNKNOWN_METHOD: Partial<Record<HostName, HostException>> = {
  wrangler: {
    because: "workerd's HTTP server answers a method it does not know (`FOO`, lower-case `get`, `Delete`) with its own 501",
    status: 501,
    expectHeaders: { "content-type": "text/plain" },
    body: "ERROR: Unrecognized request method.",
  },
};

/** The contract's answer to a target whose path a URL parser resolved (the collection, its redirect, or another path). */
function resolvedAnswer(target: string, because: string): HostException {
  const url = new URL(`${BASE}${target}`);
  if (url.pathname === P && url.search === "") return { because, status: 200, expectHeaders: PAGE_HEADERS, body: FIRST };
  if (url.pathname === P.slice(0, -1))
    return { because, status: 301, expectHeaders: { ...COMMON_HEADERS, location: `${P}${url.search}` }, body: "" };
  return { because, status: 404, expectHeaders: { ...COMMON_HEADERS, "content-type": "application/json" }, body: NOT_FOUND };
}

/** A path a URL parser changes: a dot segment (`.`, `..`, `%2e`, in any mix) or a backslash. */
const DOT_SEGMENT = /\/(?:\.|%2e){1,2}(?:\/|$)|\\/i;

/** DRF's answer as a row: where the contract chose otherwise (other paths' JSON 404) it says so. */
function drfCase(drf: DrfAnswer): RequestCase {
  const { name, method, target, status } = drf;
  const sent = { name, method, target, ...(/[^\x00-\x7f]/.test(target) ? { encoding: "latin1" as const } : {}), headers: drf.headers };
  const exceptions: Partial<Record<HostName, HostException>> = {};
  const path = target.split("?")[0] ?? "";
  if (DOT_SEGMENT.test(path)) {
    exceptions.edge = resolvedAnswer(target, RESOLVED_BY_URL);
    exceptions.netlify = resolvedAnswer(target, PROXY_RESOLVES);
    exceptions.wrangler = resolvedAnswer(target, WORKERD_RESOLVES);
  }
  if (drf.reencoded !== undefined) {
    exceptions.edge = { because: REENCODED_BY_URL, ...drfCase(drf.reencoded) };
    exceptions.wrangler = { because: WORKERD_REENCODES, ...drfCase(drf.reencoded) };
    if (!isUtf8(target)) exceptions.deno = { because: DENO_REFUSES_LATIN1, status: 400, expectHeaders: {}, body: "", length: null };
  }
  const host = drf.headers["Host"] ?? "testserver";
  if (host !== "testserver") {
    // Deno's server writes Request.url with the Host as sent, as DRF reads it.
    const body = drf.body.replaceAll(`http://${host}/`, `http://${host.toLowerCase()}/`);
    Object.assign(exceptions, {
      edge: { because: HOST_LOWER_CASED, body },
      netlify: { because: HOST_LOWER_CASED, body },
      wrangler: { because: WORKERD_LOWER_CASES, body },
    });
  }
  if (drf.headers["Accept"] === "application/json; indent=\u0663") {
    // Django reads the header's bytes as Latin-1, so `٣` is no digit and the page is compact. What
    // workerd's indent of 3 gives is DRF's own indent=4 answer for the same target with every
    // level's four spaces made three (JSON text holds no raw newline inside a string), not the
    // JSON.stringify call the code itself makes.
    const pretty = DRF_ANSWERS.find((answer) => answer.target === drf.target && answer.headers["Accept"] === "application/json; indent=4");
    if (pretty === undefined) throw new Error(`drf-answers.json has no indent=4 answer for ${drf.target}`);
    exceptions.wrangler = {
      because: WORKERD_DECODES_HEADERS,
      body: pretty.body.replace(/^(?: {4})+/gm, (levels) => " ".repeat((levels.length / 4) * 3)),
    };
  }
  const extra = {
    ...(Object.keys(exceptions).length === 0 ? {} : { exceptions }),
    // A Headers object holds bytes: a value above U+00FF cannot even be set on a Request; on the wire it is UTF-8.
    ...(Object.values(drf.headers).some((value) => /[^\x00-\xff]/.test(value))
      ? { hosts: ["preview", "deno", "wrangler", "netlify", "nginx"] as const }
      : {}),
  };
  if (!path.startsWith("/api/") && path !== "/api") {
    return { ...sent, status, expectHeaders: {}, body: STATIC_NOT_FOUND, length: null, ...extra };
  }
  if (status === 404 && drf.answerHeaders["content-type"] !== "application/json") {
    // Django's own HTML 404; every other path under /api/ answers the API's JSON 404 here.
    return { ...sent, status, expectHeaders: { ...COMMON_HEADERS, "content-type": "application/json" }, body: NOT_FOUND, ...extra };
  }
  if (status === 301) {
    return { ...sent, status, expectHeaders: { ...COMMON_HEADERS, location: drf.answerHeaders["location"] ?? "" }, body: "", ...extra };
  }
  const isPage = status === 200 && method !== "OPTIONS";
  return {
    ...sent,
    status,
    expectHeaders: isPage ? PAGE_HEADERS : API_HEADERS,
    body: drf.body,
    ...(method === "HEAD" ? { length: drf.length } : {}),
    ...extra,
  };
}

function isUtf8(byteString: string): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(byteString, "latin1"));
    return true;
  } catch {
    return false;
  }
}

function drfCases(): RequestCase[] {
  return DRF_ANSWERS.map(drfCase);
}

/** What real DRF on PostgreSQL answers to searching, filtering and ordering the list (docs/http-contract.md). */
interface DrfSearchGolden {
  /** Over the fixture list (max_limit 25), as every host serves it. */
  readonly fixture: readonly DrfAnswer[];
  /** Over the 5,758-subject sample (data/, max_limit 1000): the contract's examples that need its names. */
  readonly sample: readonly DrfAnswer[];
}

/** test/core/golden/drf-search-answers.json, made by test/oracle/drf-search-golden.py. */
export const DRF_SEARCH_GOLDEN = JSON.parse(
  readFileSync(new URL("../core/golden/drf-search-answers.json", import.meta.url), "utf8"),
) as DrfSearchGolden;

/** A page found by a search or a filter: the site's cache tag, and whatever tags of its own the answer names. */
const SEARCH_TAGS = /^subjekti(?:,[\w.-]+)*$/;

/**
 * The search goldens over the fixture as rows of the table: a group of its own, run by the request
 * table on every host.
 */
export const DRF_SEARCH_CASES: readonly RequestCase[] = DRF_SEARCH_GOLDEN.fixture.map((drf) => {
  const row = drfCase(drf);
  if (row.expectHeaders["etag"] === undefined) return row;
  return { ...row, expectHeaders: { ...row.expectHeaders, "netlify-cache-tag": SEARCH_TAGS, "cache-tag": SEARCH_TAGS } };
});

export const REQUEST_CASES: readonly RequestCase[] = [
  // pages and links, pre-rendered and derived
  get("no query -> first page of 20, next offset=20, previous null", P, FIRST),
  get(
    "offset=20 -> middle page, previous drops offset (20-20=0)",
    `${P}?offset=20`,
    page(20, 20, `${C}?limit=20&offset=40`, `${C}?limit=20`),
  ),
  get("offset=40 -> last page of 13, next null", `${P}?offset=40`, page(40, 20, null, `${C}?limit=20&offset=20`)),
  get("limit=20&offset=40 -> same last page", `${P}?limit=20&offset=40`, page(40, 20, null, `${C}?limit=20&offset=20`)),
  get(
    "offset=20&offset=20 (repeated, same value) -> page at 20",
    `${P}?offset=20&offset=20`,
    page(20, 20, `${C}?limit=20&offset=40`, `${C}?limit=20`),
  ),
  get("limit=7 -> first page of 7", `${P}?limit=7`, page(0, 7, `${C}?limit=7&offset=7`, null)),
  get("limit=7&offset=7 -> previous without offset", `${P}?limit=7&offset=7`, page(7, 7, `${C}?limit=7&offset=14`, `${C}?limit=7`)),
  get("limit=7&offset=49 -> last page of 4", `${P}?limit=7&offset=49`, page(49, 7, null, `${C}?limit=7&offset=42`)),
  get(
    "limit=7&offset=3 (unaligned) -> derived, previous without offset",
    `${P}?limit=7&offset=3`,
    page(3, 7, `${C}?limit=7&offset=10`, `${C}?limit=7`),
  ),
  get(
    "offset=20&limit=7 (unaligned) -> previous offset=13",
    `${P}?offset=20&limit=7`,
    page(20, 7, `${C}?limit=7&offset=27`, `${C}?limit=7&offset=13`),
  ),
  get(
    "limit=5&offset=10 (no pre-rendered limit 5) -> derived",
    `${P}?limit=5&offset=10`,
    page(10, 5, `${C}?limit=5&offset=15`, `${C}?limit=5&offset=5`),
  ),
  get("limit=25 (the maximum) -> 25 records", `${P}?limit=25`, page(0, 25, `${C}?limit=25&offset=25`, null)),
  get("limit=25&offset=50 -> last 3 records", `${P}?limit=25&offset=50`, page(50, 25, null, `${C}?limit=25&offset=25`)),
  get("limit=100 (over the maximum) -> clamped to 25", `${P}?limit=100`, page(0, 25, `${C}?limit=25&offset=25`, null)),
  get("limit=26 -> clamped to 25", `${P}?limit=26&offset=25`, page(25, 25, `${C}?limit=25&offset=50`, `${C}?limit=25`)),
  get("limit=1&offset=52 -> the very last record", `${P}?limit=1&offset=52`, page(52, 1, null, `${C}?limit=1&offset=51`)),
  get(
    "limit=1&offset=10 -> the record with U+2028, escaped",
    `${P}?limit=1&offset=10`,
    page(10, 1, `${C}?limit=1&offset=11`, `${C}?limit=1&offset=9`),
  ),
  get(
    "limit=1&offset=27 -> U+2029 escaped, astral character raw",
    `${P}?limit=1&offset=27`,
    page(27, 1, `${C}?limit=1&offset=28`, `${C}?limit=1&offset=26`),
  ),
  get(
    "limit=2&offset=40 -> markup and diacritics untouched",
    `${P}?limit=2&offset=40`,
    page(40, 2, `${C}?limit=2&offset=42`, `${C}?limit=2&offset=38`),
  ),

  // limit: Python int() rules; bad values -> 20
  badLimit("0", "zero"),
  badLimit("-5", "negative"),
  badLimit("-0", "minus zero"),
  badLimit("", "empty"),
  badLimit("abc", "not a number"),
  badLimit("2.5", "a decimal"),
  badLimit("1e1", "exponent"),
  badLimit("0x10", "hex"),
  badLimit("1__0", "double underscore"),
  badLimit("_10", "leading underscore"),
  badLimit("10_", "trailing underscore"),
  badLimit("%ZZ", "malformed escape"),
  badLimit("5;offset=3", "; is no separator"),
  badLimit("%E2%88%9E", "infinity sign"),
  get("limit=5&limit=abc -> the last value wins even when bad -> 20", `${P}?limit=5&limit=abc`, FIRST),
  get("limit=%201%20 (spaces around) -> 1", `${P}?limit=%201%20`, page(0, 1, `${C}?limit=1&offset=1`, null)),
  get("limit=+3 (+ is a space) -> 3", `${P}?limit=+3`, page(0, 3, `${C}?limit=3&offset=3`, null)),
  get("limit=%2B3 (a plus sign) -> 3", `${P}?limit=%2B3`, page(0, 3, `${C}?limit=3&offset=3`, null)),
  get("limit=%09%0A5%0D (tab, newline, CR) -> 5", `${P}?limit=%09%0A5%0D`, page(0, 5, `${C}?limit=5&offset=5`, null)),
  get("limit=%E2%80%836 (em space) -> 6", `${P}?limit=%E2%80%836`, page(0, 6, `${C}?limit=6&offset=6`, null)),
  get("limit=1_0 -> 10", `${P}?limit=1_0`, page(0, 10, `${C}?limit=10&offset=10`, null)),
  get("limit=%D9%A3 (Arabic-Indic three) -> 3", `${P}?limit=%D9%A3`, page(0, 3, `${C}?limit=3&offset=3`, null)),
  get("limit=%EF%BC%94 (fullwidth four) -> 4", `${P}?limit=%EF%BC%94`, page(0, 4, `${C}?limit=4&offset=4`, null)),
  get("limit=007 (leading zeros) -> 7", `${P}?limit=007`, page(0, 7, `${C}?limit=7&offset=7`, null)),
  get("limit=3&limit=5 (repeated) -> the last, 5", `${P}?limit=3&limit=5`, page(0, 5, `${C}?limit=5&offset=5`, null)),

  // offset
  get("offset=-1 -> 0", `${P}?offset=-1`, FIRST),
  get("offset=abc -> 0", `${P}?offset=abc`, FIRST),
  get("offset= (empty) -> 0", `${P}?offset=`, FIRST),
  get("offset=2.5 -> 0", `${P}?offset=2.5`, FIRST),
  get("offset=%2B5 -> 5, previous without offset", `${P}?offset=%2B5`, page(5, 20, `${C}?limit=20&offset=25`, `${C}?limit=20`)),
  get("offset=%0A10%09 (whitespace) -> 10", `${P}?offset=%0A10%09`, page(10, 20, `${C}?limit=20&offset=30`, `${C}?limit=20`)),
  get("offset=1&offset=2 (repeated) -> 2", `${P}?offset=1&offset=2`, page(2, 20, `${C}?limit=20&offset=22`, `${C}?limit=20`)),
  get("offset=1_000 -> 1000: past the end, previous 980", `${P}?offset=1_000`, page(1000, 20, null, `${C}?limit=20&offset=980`)),
  get("offset=53 (= count) -> empty results, previous 33", `${P}?offset=53`, page(53, 20, null, `${C}?limit=20&offset=33`)),
  get("offset=2005 -> empty results, previous offset=1985", `${P}?offset=2005`, page(2005, 20, null, `${C}?limit=20&offset=1985`)),
  get(
    "offset=10**30 -> previous is exactly 10**30-20",
    `${P}?offset=${BIG}`,
    page(53, 20, null, `${C}?limit=20&offset=999999999999999999999999999980`),
  ),
  get(
    "offset of 4000 digits -> still an integer, previous 10**3999-20",
    `${P}?offset=${DIGITS_4000}`,
    page(53, 20, null, `${C}?limit=20&offset=${(10n ** 3999n - 20n).toString()}`),
  ),
  // Python's 4300-digit limit lies past the 4 KB target (python-int.test.ts holds it): a gunicorn in front of DRF refuses the target too.
  {
    name: "offset of 4300 digits -> a target over 4 KB: 414",
    method: "GET",
    target: `${P}?offset=${DIGITS_4300}`,
    status: 414,
    expectHeaders: REFUSAL_HEADERS,
    body: TOO_LONG,
  },

  // format
  get(
    "format=api -> pre-rendered api form, format kept in links",
    `${P}?format=api`,
    page(0, 20, `${C}?format=api&limit=20&offset=20`, null),
  ),
  get("format=json -> JSON, format kept in links", `${P}?format=json`, page(0, 20, `${C}?format=json&limit=20&offset=20`, null)),
  get("format= (empty) -> JSON, kept as format=", `${P}?format=`, page(0, 20, `${C}?format=&limit=20&offset=20`, null)),
  get(
    "format=api&limit=7&offset=14 -> api page, both links",
    `${P}?format=api&limit=7&offset=14`,
    page(14, 7, `${C}?format=api&limit=7&offset=21`, `${C}?format=api&limit=7&offset=7`),
  ),
  get("format=api&offset=40 -> last api page", `${P}?format=api&offset=40`, page(40, 20, null, `${C}?format=api&limit=20&offset=20`)),
  get(
    "format=json&format=api -> last wins, both kept",
    `${P}?format=json&format=api`,
    page(0, 20, `${C}?format=json&format=api&limit=20&offset=20`, null),
  ),
  get(
    "format=xml&format=json -> last (json) wins: 200",
    `${P}?format=xml&format=json`,
    page(0, 20, `${C}?format=xml&format=json&limit=20&offset=20`, null),
  ),
  refuse("format=json&format=xml -> last (xml) wins: 404", "GET", `${P}?format=json&format=xml`, 404, NOT_FOUND),
  refuse("format=API (case-sensitive) -> 404", "GET", `${P}?format=API`, 404, NOT_FOUND),
  refuse("format=xml -> 404", "GET", `${P}?format=xml`, 404, NOT_FOUND),
  refuse("format=api%20 (trailing space) -> 404", "GET", `${P}?format=api%20`, 404, NOT_FOUND),
  refuse("POST format=xml -> 404 before 405", "POST", `${P}?format=xml`, 404, NOT_FOUND),
  refuse("OPTIONS format=xml -> 404", "OPTIONS", `${P}?format=xml`, 404, NOT_FOUND),
  refuse("DELETE format=API -> 404", "DELETE", `${P}?format=API`, 404, NOT_FOUND),
  refuse("HEAD format=xml -> 404, no body, length of the GET body", "HEAD", `${P}?format=xml`, 404, "", { length: utf8Length(NOT_FOUND) }),
  refuse("format=xml with Accept text/html -> 404 before 406", "GET", `${P}?format=xml`, 404, NOT_FOUND, {
    headers: { Accept: "text/html" },
  }),

  // keys are case-sensitive; unknown parameters are carried into links
  get("LIMIT=5 -> unknown parameter, default limit, kept in links", `${P}?LIMIT=5`, page(0, 20, `${C}?LIMIT=5&limit=20&offset=20`, null)),
  get("Offset=5 -> unknown parameter, kept", `${P}?Offset=5`, page(0, 20, `${C}?Offset=5&limit=20&offset=20`, null)),
  get("FORMAT=xml -> unknown parameter, not a format: 200", `${P}?FORMAT=xml`, page(0, 20, `${C}?FORMAT=xml&limit=20&offset=20`, null)),
  get(
    "the contract's example -> sorted, Python urlencode",
    `${P}?limit=5&format=api&zeta=1&Alpha=x%20y&e=%C4%8D&s=a/b&flag`,
    page(0, 5, `${C}?Alpha=x+y&e=%C4%8D&flag=&format=api&limit=5&offset=5&s=a%2Fb&zeta=1`, null),
  ),
  get("q=a+b -> space, re-encoded as +", `${P}?q=a+b`, page(0, 20, `${C}?limit=20&offset=20&q=a+b`, null)),
  get("q=a%2Bb -> a literal plus, %2B", `${P}?q=a%2Bb`, page(0, 20, `${C}?limit=20&offset=20&q=a%2Bb`, null)),
  get("q=%7E%2D%2E%5F -> ~-._ kept plain", `${P}?q=%7E%2D%2E%5F`, page(0, 20, `${C}?limit=20&offset=20&q=~-._`, null)),
  get(
    "a=1&b=2&a=3 -> repeated keys grouped in request order",
    `${P}?a=1&b=2&a=3`,
    page(0, 20, `${C}?a=1&a=3&b=2&limit=20&offset=20`, null),
  ),
  get(
    "é, z, Z -> code-point order Z < limit < offset < z < é",
    `${P}?%C3%A9=1&z=2&Z=3`,
    page(0, 20, `${C}?Z=3&limit=20&offset=20&z=2&%C3%A9=1`, null),
  ),
  get("=v (empty key) -> kept as =v", `${P}?=v`, page(0, 20, `${C}?=v&limit=20&offset=20`, null)),
  get("&&limit=5&& -> empty pairs ignored", `${P}?&&limit=5&&`, page(0, 5, `${C}?limit=5&offset=5`, null)),
  get("x=%ZZ (malformed escape) -> kept, % re-encoded", `${P}?x=%ZZ`, page(0, 20, `${C}?limit=20&offset=20&x=%25ZZ`, null)),
  get("x=%C4 (invalid UTF-8) -> U+FFFD", `${P}?x=%C4`, page(0, 20, `${C}?limit=20&offset=20&x=%EF%BF%BD`, null)),
  get("%00=1 (NUL key) -> %00 in links", `${P}?%00=1`, page(0, 20, `${C}?%00=1&limit=20&offset=20`, null)),
  get(
    "emoji value -> four UTF-8 bytes escaped",
    `${P}?emoji=%F0%9F%8C%8A`,
    page(0, 20, `${C}?emoji=%F0%9F%8C%8A&limit=20&offset=20`, null),
  ),
  get(
    "offset=5&x=1 -> previous keeps x, drops offset",
    `${P}?offset=5&x=1`,
    page(5, 20, `${C}?limit=20&offset=25&x=1`, `${C}?limit=20&x=1`),
  ),
  get(
    "limit=7&offset=7&x=1 -> extra parameter: derived page",
    `${P}?limit=7&offset=7&x=1`,
    page(7, 7, `${C}?limit=7&offset=14&x=1`, `${C}?limit=7&x=1`),
  ),
  get(
    "a target of exactly 4 KB -> answered, its value carried into next",
    `${P}?x=${LONGEST_VALUE}`,
    page(0, 20, `${C}?limit=20&offset=20&x=${LONGEST_VALUE}`, null),
  ),
  get(
    "1,000 parameters -> answered, all carried into next",
    `${P}?${MANY_PARAMS}`,
    page(0, 20, `${C}?limit=20&offset=20&${MANY_PARAMS}`, null),
  ),

  // bounded work: a target or a read header over 8 KB is refused before any work (src/core/request/request-bounds.ts)
  {
    name: "a target of 4 KB + 1 byte -> 414",
    method: "GET",
    target: `${P}?x=${LONGEST_VALUE}b`,
    status: 414,
    expectHeaders: REFUSAL_HEADERS,
    body: TOO_LONG,
  },
  {
    name: "10,000 parameters (40 KB) -> 414",
    method: "GET",
    target: `${P}?${TOO_MANY_PARAMS}`,
    status: 414,
    expectHeaders: REFUSAL_HEADERS,
    body: TOO_LONG,
  },
  {
    name: "a 16 KB query of %FF -> 414 before it is decoded",
    method: "GET",
    target: `${P}?limit=20&offset=3&x=${FF_16KB}`,
    status: 414,
    expectHeaders: REFUSAL_HEADERS,
    body: TOO_LONG,
    exceptions: { netlify: NETLIFY_PROXY_REFUSES_LONG_HEAD },
  },
  {
    name: "HEAD with a 16 KB query -> 414, no body",
    method: "HEAD",
    target: `${P}?x=${FF_16KB}`,
    status: 414,
    expectHeaders: REFUSAL_HEADERS,
    body: "",
    length: utf8Length(TOO_LONG),
    exceptions: { netlify: NETLIFY_PROXY_REFUSES_LONG_HEAD },
  },
  {
    name: "a 256 KB URL -> 414",
    method: "GET",
    target: `${P}?${URL_256KB}`,
    status: 414,
    expectHeaders: REFUSAL_HEADERS,
    body: TOO_LONG,
    // Deno's and workerd's servers refuse a head this long themselves, before any code runs.
    hosts: ["edge", "preview", "nginx"],
    exceptions: { nginx: NGINX_REFUSES_LONG_LINE, preview: NODE_REFUSES_LONG_HEAD },
  },
  {
    name: "a 9 KB static path -> 414, not a static 404",
    method: "GET",
    target: `/${"a".repeat(9 * 1024)}`,
    status: 414,
    expectHeaders: REFUSAL_HEADERS,
    body: TOO_LONG,
    hosts: ["preview", "nginx"],
  },
  {
    name: "an Accept of 8 KB + 1 byte -> 431",
    method: "GET",
    target: P,
    headers: { Accept: `application/json;${"x".repeat(MAX_HEADER - "application/json;".length + 1)}` },
    status: 431,
    expectHeaders: REFUSAL_HEADERS,
    body: headerTooLarge("accept"),
  },
  {
    name: "a 120 KB Accept -> 431 before it is split",
    method: "GET",
    target: `${P}?limit=20&offset=3`,
    headers: { Accept: ACCEPT_120KB },
    status: 431,
    expectHeaders: REFUSAL_HEADERS,
    body: headerTooLarge("accept"),
    // Deno's server refuses a head over 64 KB itself, workerd's one near 100 KB.
    hosts: ["edge", "preview", "nginx"],
  },
  {
    name: "an If-None-Match of 9 KB -> 431",
    method: "GET",
    target: P,
    headers: { "If-None-Match": `"${"e".repeat(9 * 1024)}"` },
    status: 431,
    expectHeaders: REFUSAL_HEADERS,
    body: headerTooLarge("if-none-match"),
  },
  get(
    "limit=1000 at an odd offset, indent=8 -> clamped to 25, pretty-printed on its bytes",
    `${P}?limit=1000&offset=3`,
    pretty(page(3, 25, `${C}?limit=25&offset=28`, `${C}?limit=25`), 8),
    {
      headers: { Accept: "application/json; indent=8" },
    },
  ),

  // methods
  refuse("OPTIONS -> 200 with the view's description", "OPTIONS", P, 200, OPTIONS_BODY),
  refuse("OPTIONS with a bad limit -> same description", "OPTIONS", `${P}?limit=abc`, 200, OPTIONS_BODY),
  refuse("POST -> 405 naming POST", "POST", P, 405, notAllowed("POST")),
  refuse("PUT -> 405 naming PUT", "PUT", P, 405, notAllowed("PUT")),
  refuse("PATCH -> 405 naming PATCH", "PATCH", `${P}?limit=5`, 405, notAllowed("PATCH")),
  refuse("DELETE -> 405 naming DELETE", "DELETE", P, 405, notAllowed("DELETE")),
  refuse("FOO (unknown to Node's parser) -> 405 naming FOO", "FOO", P, 405, notAllowed("FOO"), { exceptions: WORKERD_UNKNOWN_METHOD }),
  refuse("TRACE -> 405 naming TRACE", "TRACE", P, 405, notAllowed("TRACE"), { hosts: ["preview", "deno", "nginx", "wrangler"] }),
  refuse("CONNECT -> 405 naming CONNECT", "CONNECT", P, 405, notAllowed("CONNECT"), {
    hosts: ["preview", "nginx", "wrangler"],
    exceptions: {
      wrangler: {
        because: "workerd cannot make a `Request` of CONNECT (a forbidden method): its own 500, before the Worker runs",
        status: 500,
        expectHeaders: {},
        body: "Internal Server Error",
      },
    },
  }),
  get("lower-case get -> upper-cased as Django does: the page", `${P}?limit=7`, page(0, 7, `${C}?limit=7&offset=7`, null), {
    method: "get",
    exceptions: WORKERD_UNKNOWN_METHOD,
  }),
  refuse("Delete (mixed case) -> 405 naming DELETE", "Delete", P, 405, notAllowed("DELETE"), { exceptions: WORKERD_UNKNOWN_METHOD }),
  head("HEAD first page -> no body, Content-Length of the GET body", P, FIRST),
  head("HEAD pre-rendered last page of 7", `${P}?limit=7&offset=49`, page(49, 7, null, `${C}?limit=7&offset=42`)),
  head("HEAD derived page limit=5&offset=3", `${P}?limit=5&offset=3`, page(3, 5, `${C}?limit=5&offset=8`, `${C}?limit=5`)),
  head("HEAD past the end -> empty page's length", `${P}?offset=2005`, page(2005, 20, null, `${C}?limit=20&offset=1985`)),
  // Node's parser refuses a lower-case method, so the preview answers it on the bare socket: no
  // ServerResponse there drops a body the handler gave a HEAD.
  head(
    "lower-case head -> upper-cased as Django does: no body, the GET's length",
    `${P}?limit=7`,
    page(0, 7, `${C}?limit=7&offset=7`, null),
    {
      method: "head",
      exceptions: {
        // workerd's own 501 has its own body's length, not the GET's.
        wrangler: {
          ...WORKERD_UNKNOWN_METHOD.wrangler,
          because: WORKERD_UNKNOWN_METHOD.wrangler?.because ?? "",
          length: utf8Length("ERROR: Unrecognized request method."),
        },
        deno: {
          because: "Deno's server takes `head` for a method of its own, not HEAD, and writes Content-Length: 0 for the body-less answer",
          length: 0,
        },
        netlify: {
          because:
            "`netlify dev`'s proxy (Node's HTTP parser) refuses a method it does not know, lower-case `head` among them, with an empty 400",
          status: 400,
          expectHeaders: {},
          body: "",
          length: null,
        },
      },
    },
  ),
  refuse("HEAD with Accept text/html -> 406, no body", "HEAD", P, 406, "", {
    headers: { Accept: "text/html" },
    length: utf8Length(NOT_ACCEPTABLE),
  }),

  // Accept
  refuse("Accept text/html -> 406", "GET", P, 406, NOT_ACCEPTABLE, { headers: { Accept: "text/html" } }),
  refuse("POST with Accept text/html -> 406 before 405", "POST", P, 406, NOT_ACCEPTABLE, { headers: { Accept: "text/html" } }),
  refuse("Accept application/xml -> 406", "GET", P, 406, NOT_ACCEPTABLE, { headers: { Accept: "application/xml" } }),
  refuse("Accept text/* -> 406", "GET", P, 406, NOT_ACCEPTABLE, { headers: { Accept: "text/*" } }),
  refuse("Accept application/json-seq -> 406", "GET", P, 406, NOT_ACCEPTABLE, { headers: { Accept: "application/json-seq" } }),
  get("Accept */* -> 200", P, FIRST, { headers: { Accept: "*/*" } }),
  get("Accept application/* -> 200", P, FIRST, { headers: { Accept: "application/*" } }),
  get("Accept text/html, application/json;q=0.1 -> 200 (q ignored)", P, FIRST, {
    headers: { Accept: "text/html, application/json;q=0.1" },
  }),
  get("Accept application/json; charset=utf-8 -> 200", P, FIRST, { headers: { Accept: "application/json; charset=utf-8" } }),
  get("Accept APPLICATION/JSON -> 200 (case-insensitive)", P, FIRST, { headers: { Accept: "APPLICATION/JSON" } }),
  get("Accept text/html;q=0.9, */*;q=0.8 (a browser) -> 200", P, FIRST, { headers: { Accept: "text/html;q=0.9, */*;q=0.8" } }),
  refuse("OPTIONS with Accept text/html -> 406", "OPTIONS", P, 406, NOT_ACCEPTABLE, { headers: { Accept: "text/html" } }),

  // the redirect and other paths
  {
    name: "/api/subjekti -> 301 to /api/subjekti/",
    method: "GET",
    target: "/api/subjekti",
    status: 301,
    expectHeaders: { ...COMMON_HEADERS, location: "/api/subjekti/" },
    body: "",
  },
  {
    name: "/api/subjekti?limit=5&x=%C4%8D -> 301 keeping the query",
    method: "GET",
    target: "/api/subjekti?limit=5&x=%C4%8D",
    status: 301,
    expectHeaders: { ...COMMON_HEADERS, location: "/api/subjekti/?limit=5&x=%C4%8D" },
    body: "",
  },
  // APPEND_SLASH redirects to a path Django escapes (escape_uri_path): its `%` too.
  {
    name: "/api/subjekti/%ZZ -> 301 to the detail route, escaped",
    method: "GET",
    target: "/api/subjekti/%ZZ",
    status: 301,
    expectHeaders: { ...COMMON_HEADERS, location: "/api/subjekti/%25ZZ/" },
    body: "",
  },
  {
    name: "POST /api/subjekti -> 301 too",
    method: "POST",
    target: "/api/subjekti",
    status: 301,
    expectHeaders: { ...COMMON_HEADERS, location: "/api/subjekti/" },
    body: "",
  },
  {
    name: "HEAD /api/subjekti?format=xml -> 301 (redirect first)",
    method: "HEAD",
    target: "/api/subjekti?format=xml",
    status: 301,
    expectHeaders: { ...COMMON_HEADERS, location: "/api/subjekti/?format=xml" },
    body: "",
  },
  ...[
    "/api/other/",
    "/api/subjekti/1/",
    "/api/SUBJEKTI/",
    "/api/subjekti//",
    "/api/subjekti/%2e%2e/x" /* a dot segment: /api/x */,
    "/api/subjekti/..%2F..%2F_subjekti%2Fmanifest.json",
    "/api/%00",
  ].map(
    (target): RequestCase => ({
      name: `${target} -> JSON 404`,
      method: "GET",
      target,
      status: 404,
      expectHeaders: { ...COMMON_HEADERS, "content-type": "application/json" },
      body: NOT_FOUND,
    }),
  ),
  {
    name: "POST /api/other -> JSON 404",
    method: "POST",
    target: "/api/other",
    status: 404,
    expectHeaders: { ...COMMON_HEADERS, "content-type": "application/json" },
    body: NOT_FOUND,
  },

  // ETag and If-None-Match
  { ...get("If-None-Match: own ETag -> 304, no body", P, ""), status: 304, conditional: (etag) => etag },
  {
    ...get("If-None-Match: W/ own ETag -> 304 (weak comparison)", `${P}?limit=5&offset=3`, ""),
    status: 304,
    conditional: (etag) => `W/${etag}`,
  },
  { ...get("If-None-Match: a list holding own ETag -> 304", `${P}?format=api`, ""), status: 304, conditional: (etag) => `"nope", ${etag}` },
  { ...get("If-None-Match: * -> 304", P, ""), status: 304, headers: { "If-None-Match": "*" } },
  { ...head("HEAD with own ETag -> 304", `${P}?limit=7`, ""), status: 304, conditional: (etag) => etag },
  get('If-None-Match: "nope" -> 200', P, FIRST, { headers: { "If-None-Match": '"nope"' } }),
  get("If-None-Match: the ETag of another page -> 200", `${P}?offset=20`, page(20, 20, `${C}?limit=20&offset=40`, `${C}?limit=20`), {
    conditional: () => '"0000-other"',
  }),
  refuse("If-None-Match: * on format=xml -> still 404", "GET", `${P}?format=xml`, 404, NOT_FOUND, { headers: { "If-None-Match": "*" } }),

  // Conditional and Range headers Django ignores: the whole page, 200. The edge reads the page file
  // and the chunks without them (a CDN would answer 304 or 206); the stand-in CDNs refuse them.
  get("Range: bytes=0-9 on a pre-rendered page -> 200, the whole page (DRF ignores Range)", P, FIRST, { headers: { Range: "bytes=0-9" } }),
  get("Range on a derived page -> 200, the whole page", `${P}?limit=5&offset=3`, page(3, 5, `${C}?limit=5&offset=8`, `${C}?limit=5`), {
    headers: { Range: "bytes=0-9", "If-Range": '"x"' },
  }),
  get("If-Modified-Since in the future on a pre-rendered page -> 200 (DRF sends no Last-Modified)", P, FIRST, {
    headers: { "If-Modified-Since": "Fri, 01 Jan 2100 00:00:00 GMT" },
  }),
  get("If-Match and If-Unmodified-Since that fail -> 200 (DRF ignores them)", `${P}?limit=7`, page(0, 7, `${C}?limit=7&offset=7`, null), {
    headers: { "If-Match": '"nope"', "If-Unmodified-Since": "Thu, 01 Jan 1970 00:00:00 GMT" },
  }),

  // raw bytes, the Host as sent, indent, paths as sent: answers computed by real DRF
  ...drfCases(),
  {
    ...get("indent=4 page, If-None-Match: its own ETag -> 304", `${P}?limit=3`, ""),
    status: 304,
    headers: { Accept: "application/json; indent=4" },
    conditional: (etag) => etag,
  },

  // links on the request's own origin; X-Forwarded-Host is never read
  get("Host: another origin -> links on that origin (derived)", P, page(0, 20, `${OTHER}?limit=20&offset=20`, null), {
    headers: { Host: "deploy-preview-7--subjekti.example" },
  }),
  get(
    "another origin, limit=7&offset=14 (a pre-rendered position) -> derived on its own origin",
    `${P}?limit=7&offset=14`,
    page(14, 7, `${OTHER}?limit=7&offset=21`, `${OTHER}?limit=7&offset=7`),
    {
      headers: { Host: "deploy-preview-7--subjekti.example" },
    },
  ),
  get(
    "another origin, format=api&offset=40 -> last api page on that origin",
    `${P}?format=api&offset=40`,
    page(40, 20, null, `${OTHER}?format=api&limit=20&offset=20`),
    {
      headers: { Host: "deploy-preview-7--subjekti.example" },
    },
  ),
  get(
    "X-Forwarded-Host: evil.example -> ignored, links on the request's origin",
    `${P}?offset=20`,
    page(20, 20, `${C}?limit=20&offset=40`, `${C}?limit=20`),
    {
      headers: { "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https" },
    },
  ),
  {
    ...get("another origin: If-None-Match with that origin's ETag -> 304", P, ""),
    status: 304,
    headers: { Host: "deploy-preview-7--subjekti.example" },
    conditional: (etag) => etag,
  },

  // CORS: preflights (answered before the redirect, format, Accept and method checks) and exposed headers
  {
    name: "preflight GET with x-client, if-none-match -> 204, those headers allowed, Max-Age a day",
    method: "OPTIONS",
    target: P,
    headers: PREFLIGHT_REQUEST,
    status: 204,
    expectHeaders: { ...PREFLIGHT_HEADERS, "access-control-allow-headers": "x-client, if-none-match" },
    body: "",
  },
  {
    name: "preflight without Access-Control-Request-Headers -> 204, no Allow-Headers",
    method: "OPTIONS",
    target: `${P}?limit=7`,
    headers: { Origin: "http://page.example", "Access-Control-Request-Method": "GET" },
    status: 204,
    expectHeaders: { ...PREFLIGHT_HEADERS, "access-control-allow-headers": null },
    body: "",
  },
  {
    name: "preflight with odd spacing and case -> names lower-cased, each once",
    method: "OPTIONS",
    target: P,
    headers: {
      Origin: "null",
      "Access-Control-Request-Method": "HEAD",
      "Access-Control-Request-Headers": " X-Client ,x-client,  Authorization",
    },
    status: 204,
    expectHeaders: { ...PREFLIGHT_HEADERS, "access-control-allow-headers": "x-client, authorization" },
    body: "",
  },
  ...[
    ["/api/subjekti (no slash) -> 204, not the 301", "/api/subjekti"],
    ["format=xml -> 204, not the 404", `${P}?format=xml`],
    ["/api/other -> 204 (the middleware covers every path)", "/api/other"],
    ["/openapi.json -> 204", "/openapi.json"],
    ["/ (the landing page) -> 204", "/"],
  ].map(
    ([what, target]): RequestCase => ({
      name: `preflight on ${what}`,
      method: "OPTIONS",
      target: target ?? P,
      headers: PREFLIGHT_REQUEST,
      status: 204,
      expectHeaders: { ...PREFLIGHT_HEADERS, "access-control-allow-headers": "x-client, if-none-match" },
      body: "",
    }),
  ),
  {
    name: "preflight with Accept text/html -> 204, not the 406",
    method: "OPTIONS",
    target: P,
    headers: { ...PREFLIGHT_REQUEST, Accept: "text/html" },
    status: 204,
    expectHeaders: { ...PREFLIGHT_HEADERS, "access-control-allow-headers": "x-client, if-none-match" },
    body: "",
  },
  refuse("OPTIONS with Origin but no Access-Control-Request-Method -> DRF's metadata", "OPTIONS", P, 200, OPTIONS_BODY, {
    headers: { Origin: "http://page.example" },
  }),
  refuse("OPTIONS with Access-Control-Request-Method but no Origin -> DRF's metadata", "OPTIONS", P, 200, OPTIONS_BODY, {
    headers: { "Access-Control-Request-Method": "GET" },
  }),
  get(
    "GET with Origin -> the page, Allow-Origin * and ETag, Allow exposed",
    `${P}?offset=20`,
    page(20, 20, `${C}?limit=20&offset=40`, `${C}?limit=20`),
    {
      headers: { Origin: "http://page.example" },
      expectHeaders: { ...PAGE_HEADERS, "netlify-cache-tag": "subjekti,subjekti-chunk-0", "cache-tag": "subjekti,subjekti-chunk-0" },
    },
  ),
  get("past the end -> only the site's cache tag", `${P}?offset=60`, page(60, 20, null, `${C}?limit=20&offset=40`), {
    expectHeaders: { ...PAGE_HEADERS, "netlify-cache-tag": "subjekti", "cache-tag": "subjekti" },
  }),

  // The published description: the landing page, the OpenAPI document and the schemas (their bytes are checked in test/site/docs)
  ...[
    ["/", "text/html; charset=utf-8", /^<!doctype html>[\s\S]*53 subjects[\s\S]*<\/html>\n$/],
    ["/openapi.json", "application/json", /^\{"openapi":"3\.1\.0",/],
    ["/schema/subject.json", "application/schema+json", /^\{"\$schema":"https:\/\/json-schema\.org\/draft\/2020-12\/schema",/],
    ["/schema/page.json", "application/schema+json", /^\{"\$schema":"https:\/\/json-schema\.org\/draft\/2020-12\/schema",/],
  ].map(
    ([target, type, body]): RequestCase => ({
      name: `GET ${String(target)} -> 200 ${String(type)}, the API's CORS and cache headers`,
      method: "GET",
      target: String(target),
      status: 200,
      expectHeaders: { ...DOCS_HEADERS, "content-type": String(type), allow: "GET, HEAD, OPTIONS", etag: ETAG },
      body: body as RegExp,
      ...(target === "/"
        ? {
            exceptions: {
              wrangler: {
                because: "the assets binding streams an HTML file without a length, so workerd sends the landing page chunked",
                length: null,
              },
            },
          }
        : {}),
    }),
  ),
  {
    name: "HEAD /openapi.json -> 200, no body",
    method: "HEAD",
    target: "/openapi.json",
    status: 200,
    expectHeaders: { ...DOCS_HEADERS, "content-type": "application/json", etag: ETAG },
    body: "",
    length: null,
  },
  {
    name: "GET /schema/page.json with its own ETag -> 304",
    method: "GET",
    target: "/schema/page.json",
    status: 304,
    expectHeaders: { ...DOCS_HEADERS, etag: ETAG },
    body: "",
    conditional: (etag) => etag,
  },
  refuse("POST /openapi.json -> 405", "POST", "/openapi.json", 405, notAllowed("POST"), {
    expectHeaders: { ...DOCS_HEADERS, "content-type": "application/json", allow: "GET, HEAD, OPTIONS" },
  }),
  // The pages for people (src/core/html/): derived from the records chunks on every routed host.
  {
    name: "GET /subjekti/4/ -> the institution's page: HTML, its CSP, ETag and chunk tag, its name, canonical and JSON links",
    method: "GET",
    target: "/subjekti/4/",
    status: 200,
    expectHeaders: HTML_PAGE_HEADERS,
    body: /<link rel="canonical" href="http:\/\/testserver\/subjekti\/4\/">[\s\S]*<h1 id="naziv"><bdi>Grad Zagreb<\/bdi><\/h1>[\s\S]*<a id="json" href="\/api\/subjekti\/4\/">/,
    length: null,
  },
  {
    name: "HEAD /subjekti/4/ -> 200, no body",
    method: "HEAD",
    target: "/subjekti/4/",
    status: 200,
    expectHeaders: HTML_PAGE_HEADERS,
    body: "",
    length: null,
  },
  {
    name: "GET /subjekti/4/ with its own ETag -> 304",
    method: "GET",
    target: "/subjekti/4/",
    status: 304,
    expectHeaders: { ...HTML_HEADERS, etag: ETAG, "netlify-cache-tag": PAGE_TAGS, "cache-tag": PAGE_TAGS },
    body: "",
    conditional: (etag) => etag,
  },
  {
    name: "GET /subjekti/999999/ (no such id) -> the branded 404 page, in both languages",
    method: "GET",
    target: "/subjekti/999999/",
    status: 404,
    expectHeaders: { ...HTML_HEADERS, etag: null },
    body: /Stranica nije pronađena[\s\S]*Page not found/,
    length: null,
  },
  {
    name: "GET /subjekti/abc/ (not an id) -> the branded 404 page",
    method: "GET",
    target: "/subjekti/abc/",
    status: 404,
    expectHeaders: HTML_HEADERS,
    body: /Stranica nije pronađena/,
    length: null,
  },
  {
    name: "GET /subjekti/4 -> 301 to /subjekti/4/",
    method: "GET",
    target: "/subjekti/4",
    status: 301,
    expectHeaders: { location: "/subjekti/4/", "content-security-policy": CSP },
    body: "",
  },
  {
    name: "POST /subjekti/4/ -> 405, Allow: GET, HEAD",
    method: "POST",
    target: "/subjekti/4/",
    status: 405,
    expectHeaders: { allow: "GET, HEAD", "content-security-policy": CSP },
    body: "",
  },
  {
    name: "GET /trazi/?limit=2 -> the results page from the list's answer: the count, two results linking to their pages, the next page as its own",
    method: "GET",
    target: "/trazi/?limit=2",
    status: 200,
    expectHeaders: { ...HTML_HEADERS, etag: ETAG },
    body: new RegExp(
      `Pronađeno subjekata: ${COUNT}\\.[\\s\\S]*<a href="/subjekti/4/"><bdi>Grad Zagreb</bdi></a>[\\s\\S]*<a rel="next" href="/trazi/\\?limit=2&amp;offset=2">`,
    ),
    length: null,
  },
  {
    name: "GET /trazi/?search=%00 -> the results page still answers, with the form (whatever the list answers a NUL)",
    method: "GET",
    target: "/trazi/?search=%00",
    status: 200,
    expectHeaders: HTML_HEADERS,
    body: /<form id="trazi"/,
    length: null,
  },
  {
    name: "GET /pretraga.js -> the search script, a file of the description",
    method: "GET",
    target: "/pretraga.js",
    status: 200,
    expectHeaders: { ...DOCS_HEADERS, "content-type": "text/javascript; charset=utf-8", etag: ETAG },
    body: /document\.getElementById\("trazi"\)/,
    length: null,
  },
  {
    name: "GET / -> the landing page with its Content-Security-Policy (script-src 'self': no inline script)",
    method: "GET",
    target: "/",
    status: 200,
    expectHeaders: { "content-type": "text/html; charset=utf-8", "content-security-policy": CSP },
    body: /<script src="\/pretraga.js" defer><\/script>/,
    length: null,
  },
  ...["/sitemap.xml", "/robots.txt"].map(
    (target): RequestCase => ({
      name: `GET ${target} -> the build's file, served as it is by the static site`,
      method: "GET",
      target,
      status: 200,
      expectHeaders: {},
      body: target === "/robots.txt" ? /Sitemap: http:\/\/testserver\/sitemap\.xml/ : /<loc>http:\/\/testserver\/subjekti\/4\/<\/loc>/,
      length: null,
      // The stand-in CDNs of the edge in-process and under Deno hold the site's data files only (hosts.ts, deno-host.ts).
      hosts: ["preview", "netlify", "nginx", "wrangler"],
    }),
  ),
];
