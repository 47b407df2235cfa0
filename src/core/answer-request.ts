/**
 * The one request handler of every host: a request as it was sent in, a finished answer out, with
 * the site's files reached only through the host. It routes (route.ts), reads the files the
 * decision names and finishes the answer: HEAD without a body but with the GET body's length, 204
 * and 304 with neither, every other answer with its Content-Length, and a 503 when the site
 * cannot answer. Hosts only reach files and write what it returns.
 *
 * `answerFetch` is the handler as a fetch function (a web `Request` in, a `Response` out): the edge
 * is that. The preview writes the answer value to Node's response itself, as h3's Node adapter
 * does for its own fast responses: through a web `Response`, Node 20 served a pre-rendered page at
 * about half the rate.
 *
 * Web APIs only: it runs unchanged in Netlify's Deno, plain Deno and Node.
 */
import { isHostAllowed } from "./allowed-hosts.ts";
import { type HeaderList, SECURITY_HEADERS } from "./answer-headers.ts";
import { isPreflight, preflightHeaders } from "./cors.ts";
import { staticFileHeaders } from "./download-files.ts";
import { describeError } from "./errors.ts";
import { bytesEtag, etagAt, matchesIfNoneMatch } from "./etag.ts";
import { findSubjects } from "./find-subjects.ts";
import type { Manifest, SiteState } from "./manifest.ts";
import { type HeaderReader, linkOrigin, readUrlTarget, splitTarget, urlOrigin, utf8Bytes } from "./request/read-target.ts";
import { disallowedHost, refusal, staticMethodRefused } from "./refusals.ts";
import { assemblePageBytes } from "./page-bytes.ts";
import { type ByteReader, readRecordRun } from "./record-offsets.ts";
import { isTargetTooLong, oversizeRefusal } from "./request/request-bounds.ts";
import { type Decision, isApiPath, route, siteUnavailable } from "./route.ts";
import { answerHtml } from "./html/answer-html.ts";

/** A request as it reached the host, before any URL parser touched it. */
export interface SentRequest {
  readonly method: string;
  /**
   * The request target as sent, one character per byte (read-target.ts): origin-form
   * (`/path?query`) or absolute-form (`http://host/path?query`, whose origin is not read).
   */
  readonly target: string;
  /** The scheme the request came in on (`http`, `https`). */
  readonly scheme: string;
  /** The `Host` as sent, which the links start with; null: the host has none (links on its own origin). */
  readonly host: string | null;
  readonly headers: HeaderReader;
}

/** A body as a host reaches it: bytes, or a stream (the CDN's own, passed on untouched). */
export type Body = Uint8Array | ReadableStream<Uint8Array>;

/** A page file as the host reached it. */
export interface PageFile<B extends Body> {
  readonly body: B;
  /** Its length in bytes; null when the host does not know it. */
  readonly length: number | null;
}

/** How a host reaches the built site: `B` is the kind of body its page files come as. */
export interface SiteHost<B extends Body = Body> {
  /** The manifest as the host has it now, or why the site cannot answer. */
  manifest(): Promise<SiteState>;
  /** Looks for a newer manifest: a file the current one names was missing (a rebuild or deploy replaced the site). */
  refresh(): Promise<void>;
  /** A page file named by the manifest; null when it is missing; rejects when it cannot be read. */
  readPage(path: string): Promise<PageFile<B> | null>;
  /** A file's bytes whole (records chunks and their offsets); null when it is missing. Absent: the page reader's, collected. */
  readBytes?(path: string): Promise<Uint8Array | null>;
  /**
   * Bytes `start` to `end` (exclusive; fewer when the file ends before) of a file, for a host that
   * reads a range without the rest (a derived page reads only its records); null when it is
   * missing. Absent: the whole file is read and cut.
   */
  readRange?(path: string, start: number, end: number): Promise<Uint8Array | null>;
  /** A records chunk's or an index file's text; null when it is missing; rejects when it cannot be read. */
  readChunk(path: string): Promise<string | null>;
  /** The origin of links when the request has no usable Host (default: the manifest's base URL). */
  readonly origin?: string;
  /** What to do about a broken site, the end of a 503's detail (`Run \`npm run build\`.`). */
  readonly fix: string;
  /**
   * Django's ALLOWED_HOSTS (allowed-hosts.ts): a request whose `Host` they do not name is refused
   * with Django's 400; absent, every host is answered (links on a host Django could not read go to
   * `origin`).
   */
  readonly allowedHosts?: readonly string[];
}

/** A finished answer: status, every header (Content-Length included) and the body to send (null: none). */
export interface SendAnswer<B extends Body = Body> {
  readonly kind: "send";
  readonly status: number;
  readonly headers: HeaderList;
  readonly body: B | Uint8Array | null;
}

export type Answer<B extends Body = Body> =
  | SendAnswer<B>
  /** Not the API: the host's static site answers, asked for `url` (the target's path and query as a URL reads them; GET or HEAD). */
  | { readonly kind: "static"; readonly url: string };

/** A complete answer before it is finished: what the router and refusals give (a derived page as bytes). */
interface Complete {
  readonly status: number;
  readonly headers: HeaderList;
  readonly body: string | Uint8Array;
}

const UTF8 = new TextEncoder();

/** Decides and finishes the answer to one request; never rejects (a failing host is a 503). */
export async function answerRequest<B extends Body>(request: SentRequest, site: SiteHost<B>): Promise<Answer<B>> {
  try {
    return await answerFromSite(request, site);
  } catch (error) {
    // A failing host (a network error from the CDN, an unreadable file) is still an answer.
    return finish(siteUnavailable(`The site could not be read (${describeError(error)}).`), request.method);
  }
}

async function answerFromSite<B extends Body>(request: SentRequest, site: SiteHost<B>): Promise<Answer<B>> {
  // Before any work: what a request costs grows with its target and headers (request-bounds.ts).
  const oversize = oversizeRefusal(request.target, request.headers);
  if (oversize !== null) return finish(oversize, request.method);
  const url = readUrlTarget(request.target);
  if (url === null) return finish(refusal(400, `"${request.target.slice(0, 80)}" is not a request target`), request.method);
  // Django's CommonMiddleware reads get_host() on every request: a Host nobody named is refused first.
  if (site.allowedHosts !== undefined && request.host !== null && !isHostAllowed(request.host, site.allowedHosts))
    return finish(disallowedHost(), request.method);
  // The router reads the target as sent, and the links' origin from the Host as sent.
  const sent = splitTarget(request.target);
  const staticAnswer = (): Answer<B> => staticFile(url.path, url.query, request);
  for (let retried = false; ; retried = true) {
    const state = await site.manifest();
    if ("problem" in state) {
      // The static site stays served while the API's manifest is missing or foreign.
      if (!isApiPath(sent.path)) return staticAnswer();
      return finish(siteUnavailable(`The site is unusable: ${state.problem}. ${site.fix}`), request.method);
    }
    const { manifest } = state;
    const baseUrl = linkOrigin(request.scheme, request.host, site.origin ?? manifest.baseUrl);
    const decision = route(
      {
        method: request.method,
        path: sent.path,
        query: sent.query,
        accept: request.headers.get("accept"),
        ifNoneMatch: request.headers.get("if-none-match"),
        origin: request.headers.get("origin"),
        accessControlRequestMethod: request.headers.get("access-control-request-method"),
        accessControlRequestHeaders: request.headers.get("access-control-request-headers"),
        baseUrl,
      },
      manifest,
    );
    const answer = await answerDecision(decision, request, site, staticAnswer, manifest, baseUrl);
    if (answer !== null) return answer;
    // A file the manifest named is gone: a rebuild or deploy replaced the site since it was read.
    if (retried)
      return finish(siteUnavailable(`The site is incomplete: a file the manifest names is missing. ${site.fix}`), request.method);
    await site.refresh();
  }
}

/** The answer a decision makes, its files read through the host; null when one of them is missing. */
async function answerDecision<B extends Body>(
  decision: Decision,
  request: SentRequest,
  site: SiteHost<B>,
  staticAnswer: () => Answer<B>,
  manifest: Manifest,
  linkBase: string,
): Promise<Answer<B> | null> {
  const { method } = request;
  const ifNoneMatch = request.headers.get("if-none-match");
  switch (decision.kind) {
    case "static":
      return staticAnswer();
    case "file": {
      // The tag the build wrote for the file: a conditional request reads it alone, and is done on a match.
      const tags = site.readChunk(decision.etag.path);
      const page = ifNoneMatch === null ? site.readPage(decision.path) : null;
      page?.catch(() => undefined);
      const list = await tags;
      const etag = list === null ? null : etagAt(list, decision.etag.index);
      if (etag === null) {
        // A site without the tag is incomplete (the handler looks again); a page stream read meanwhile is let go.
        const body = (await page?.catch(() => null))?.body;
        if (body !== undefined && !(body instanceof Uint8Array)) await body.cancel();
        return null;
      }
      const headers: HeaderList = [...decision.headers, ["ETag", etag]];
      if (matchesIfNoneMatch(ifNoneMatch, etag)) return finish({ status: 304, headers, body: "" }, method);
      const file = await (page ?? site.readPage(decision.path));
      return file === null ? null : sendPage(decision.status, headers, file, method);
    }
    case "derive": {
      // Only the page's records, as bytes: never the whole chunk decoded (page-bytes.ts).
      const read = byteReader(site);
      const runs = await Promise.all(decision.chunks.map((slice) => readRecordRun(read, slice.path, slice.offsets, slice.from, slice.to)));
      if (runs.some((run) => run === null)) return null;
      const body = assemblePageBytes(decision.head, runs as NonNullable<(typeof runs)[number]>[], decision.indent);
      return finish(tagged({ ...decision, body }, ifNoneMatch), method);
    }
    case "find": {
      const found = await findSubjects(decision.find, manifest, { text: (path) => site.readChunk(path), ...byteReader(site) });
      return found === null ? null : finish(tagged(found, ifNoneMatch), method);
    }
    case "html": {
      // The results page asks the list exactly as a client would, so it finds what the API finds.
      const askList = async (query: string): Promise<{ status: number; body: Uint8Array } | null> => {
        const list: SentRequest = {
          method: "GET",
          target: `/api/subjekti/?${query}`,
          scheme: request.scheme,
          host: request.host,
          headers: NO_HEADERS,
        };
        const listed = route({ method: "GET", path: "/api/subjekti/", query, baseUrl: linkBase }, manifest);
        const answer = await answerDecision(listed, list, site, staticAnswer, manifest, linkBase);
        if (answer === null || answer.kind !== "send") return null;
        return { status: answer.status, body: answer.body === null ? new Uint8Array() : await bodyBytes(answer.body) };
      };
      // The page's record is found as its JSON detail is: the same chunk, the same cache tags.
      const read = { text: (path: string) => site.readChunk(path), ...byteReader(site) };
      const askSubject = (id: bigint): ReturnType<typeof findSubjects> =>
        findSubjects({ shape: { kind: "subject", id }, filters: {}, indent: 0, cacheControl: manifest.cacheControl }, manifest, read);
      const html = await answerHtml(decision, manifest, askSubject, askList);
      return html === null ? null : finish(tagged(html, ifNoneMatch), method);
    }
    case "respond":
      return finish(decision, method);
    default: {
      const unknownKind: never = decision;
      throw new Error(`unknown decision ${JSON.stringify(unknownKind)}`);
    }
  }
}

/**
 * A found or derived answer with the ETag of its bytes (a 200 only: errors carry none), or the 304
 * that `If-None-Match` asks for when it names that tag.
 */
function tagged(answer: Complete, ifNoneMatch: string | null): Complete {
  if (answer.status !== 200) return answer;
  const bytes = typeof answer.body === "string" ? UTF8.encode(answer.body) : answer.body;
  const etag = bytesEtag(bytes);
  const headers: HeaderList = [...answer.headers, ["ETag", etag]];
  return matchesIfNoneMatch(ifNoneMatch, etag) ? { status: 304, headers, body: "" } : { status: 200, headers, body: bytes };
}

const NO_HEADERS: HeaderReader = { get: () => null };

/** A body's bytes, a stream collected. */
async function bodyBytes(body: Body): Promise<Uint8Array> {
  return body instanceof Uint8Array ? body : new Uint8Array(await new Response(body).arrayBuffer());
}

/** A page file as it came: its own bytes or stream (a pre-rendered page costs no body computation). */
async function sendPage<B extends Body>(status: number, headers: HeaderList, page: PageFile<B>, method: string): Promise<SendAnswer<B>> {
  if (!isHead(method)) {
    const length: HeaderList = page.length === null ? [] : [["Content-Length", String(page.length)]];
    return { kind: "send", status, headers: [...headers, ...length], body: page.body };
  }
  const length = page.length ?? (await byteLength(page.body));
  if (page.length !== null && !(page.body instanceof Uint8Array)) await page.body.cancel();
  return { kind: "send", status, headers: [...headers, ["Content-Length", String(length)]], body: null };
}

/** The host's byte reads: its ranges where it reads them. */
function byteReader(site: SiteHost): ByteReader {
  const bytes = (path: string): Promise<Uint8Array | null> => readBytes(site, path);
  const { readRange } = site;
  return readRange === undefined ? { bytes } : { bytes, range: (path, start, end) => readRange.call(site, path, start, end) };
}

/** A file's bytes through the host's page reader (a stream collected); null when it is missing. */
async function readBytes(site: SiteHost, path: string): Promise<Uint8Array | null> {
  if (site.readBytes !== undefined) return site.readBytes(path);
  const file = await site.readPage(path);
  if (file === null) return null;
  return file.body instanceof Uint8Array ? file.body : new Uint8Array(await new Response(file.body).arrayBuffer());
}

async function byteLength(body: Body): Promise<number> {
  if (body instanceof Uint8Array) return body.byteLength;
  let length = 0;
  const reader = body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) length += read.value.byteLength;
  return length;
}

/**
 * A complete answer, finished: 204 and 304 carry neither body nor length (RFC 9110 §8.6,
 * §15.4.5); HEAD gets the GET body's length and no body; everything else its body and length.
 */
export function finish(answer: Complete, method: string): SendAnswer<never> {
  if (answer.status === 204 || answer.status === 304) return { kind: "send", status: answer.status, headers: answer.headers, body: null };
  const bytes = typeof answer.body === "string" ? UTF8.encode(answer.body) : answer.body;
  const headers: HeaderList = [...answer.headers, ["Content-Length", String(bytes.byteLength)]];
  return { kind: "send", status: answer.status, headers, body: isHead(method) ? null : bytes };
}

/**
 * What is not the API, for the host's static site: GET and HEAD of a path a file system can look
 * up; a CORS preflight of a file any origin may read (the change feed's, the downloads) is
 * answered as the API answers one.
 */
function staticFile(path: string, query: string, request: SentRequest): Answer<never> {
  const { method } = request;
  const preflight = {
    method,
    origin: request.headers.get("origin"),
    accessControlRequestMethod: request.headers.get("access-control-request-method"),
    accessControlRequestHeaders: request.headers.get("access-control-request-headers"),
  };
  if (isPreflight(preflight) && staticFileHeaders(path) !== undefined)
    return finish({ status: 204, headers: preflightHeaders(preflight, SECURITY_HEADERS), body: "" }, method);
  if (method.toUpperCase() !== "GET" && !isHead(method)) return finish(staticMethodRefused(method), method);
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return finish(refusal(400, "the path has a malformed percent-escape"), method);
  }
  if (decoded.includes("\0")) return finish(refusal(400, "the path holds a NUL byte"), method);
  return { kind: "static", url: query === "" ? path : `${path}?${query}` };
}

/** Django upper-cases the method; a host may hand it over as the client wrote it. */
function isHead(method: string): boolean {
  return method.toUpperCase() === "HEAD";
}

/** A host that answers fetch requests: its static site is its own answer to the request. */
export interface FetchSite extends SiteHost {
  /** The host's own answer to this request (the static site). */
  passThrough(): Promise<Response>;
}

/**
 * The handler as a fetch function: a web `Request` in, a `Response` out. Request.url is read as the
 * runtime wrote it, not `new URL()` of it (which would resolve dot segments): Deno's server puts
 * the target there as sent, decoded as UTF-8, and it goes back to its bytes. Its links are on the
 * origin the platform reports for the request (Request.url's: a deploy preview, the *.netlify.app
 * name, the Host's case kept), never X-Forwarded-Host; on the build's base URL the router picks the
 * pre-rendered file, on any other it derives the page from the records.
 */
export async function answerFetch(request: Request, site: FetchSite): Promise<Response> {
  const target = utf8Bytes(request.url);
  const { scheme, host } = urlOrigin(target);
  const sent: SentRequest = { method: request.method, target, scheme, host, headers: request.headers };
  const answer = await answerRequest(sent, site);
  if (answer.kind === "static") {
    try {
      return await site.passThrough();
    } catch (error) {
      return toResponse(finish(siteUnavailable(`The site could not be read (${describeError(error)}).`), request.method));
    }
  }
  return toResponse(answer);
}

/**
 * Whether the handler answers this request's path itself (the API and the published description)
 * rather than leaving it to the static site: for a host that runs it on more paths than those.
 */
export function answersPath(request: Request): boolean {
  const target = utf8Bytes(request.url);
  // A target over the bound is refused by the handler (414) before its path is decoded at all.
  return isTargetTooLong(target) || isApiPath(splitTarget(target).path);
}

function toResponse(answer: SendAnswer): Response {
  const headers = new Headers();
  for (const [name, value] of answer.headers) headers.append(name, value);
  // Bytes of any buffer are a body (TypeScript's BodyInit wants them on an ArrayBuffer).
  return new Response(answer.body as BodyInit | null, { status: answer.status, headers });
}
