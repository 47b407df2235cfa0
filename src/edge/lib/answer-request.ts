/**
 * The host-neutral edge handler: one `Request` in, one `Response` out, with the site's files
 * reached only through the host's `fetchFile`. The Netlify edge function, the Deno test harness and
 * the in-process tests all run this same code; only the way a file is fetched differs.
 *
 * Web APIs only (no node:, no Deno.*, no npm): it runs unchanged in Netlify's Deno, plain Deno and
 * Node. Lives in a folder without an index so Netlify does not take it for an edge function.
 */
import type { HeaderList } from "../../core/answer-headers.ts";
import { MANIFEST_PATH } from "../../core/layout.ts";
import { type Manifest, manifestProblem } from "../../core/manifest.ts";
import { urlTarget } from "../../core/read-target.ts";
import { assemblePage, route, siteUnavailable } from "../../core/route.ts";
import { VERSION } from "../../core/version.ts";

/** How a host reaches the built site's files. */
export interface EdgeHost {
  /** The site file at `path` (no leading slash) exactly as the CDN serves it to a GET. */
  fetchFile(path: string): Promise<Response>;
  /** The host's own answer for a request that is not the API (the static site). */
  passThrough(): Promise<Response>;
}

/** Answers one request. */
export type AnswerRequest = (request: Request, host: EdgeHost) => Promise<Response>;

/** Why the site cannot answer: a value, so a broken deploy answers 503 instead of throwing. */
class SiteUnavailable {
  readonly detail: string;
  constructor(detail: string) {
    this.detail = detail;
  }
}

const UTF8 = new TextEncoder();

/**
 * A handler with its own manifest cache: the manifest is fetched once per instance (the promise is
 * shared by concurrent first requests) and fetched again after a failure, so a request that arrives
 * during a deploy does not leave the instance broken for good.
 */
export function createAnswerRequest(): AnswerRequest {
  let cached: Promise<Manifest | SiteUnavailable> | null = null;
  const manifestOf = (host: EdgeHost): Promise<Manifest | SiteUnavailable> => {
    if (cached === null) {
      const loading = loadManifest(host);
      cached = loading;
      void loading.then((result) => {
        if (result instanceof SiteUnavailable && cached === loading) cached = null;
      });
    }
    return cached;
  };
  return async (request, host) => {
    try {
      const manifest = await manifestOf(host);
      if (manifest instanceof SiteUnavailable) return unavailable(manifest.detail, request.method.toUpperCase() === "HEAD");
      return await answerWith(manifest, request, host);
    } catch (error) {
      // A failing host (a network error from the CDN, a cancelled stream) is still an answer.
      return unavailable(`The site could not be read (${describe(error)}).`, request.method.toUpperCase() === "HEAD");
    }
  };
}

async function loadManifest(host: EdgeHost): Promise<Manifest | SiteUnavailable> {
  let value: unknown;
  try {
    const response = await host.fetchFile(MANIFEST_PATH);
    if (response.status !== 200) {
      await response.body?.cancel();
      return new SiteUnavailable(`The site has no manifest (/${MANIFEST_PATH} answered ${response.status}): build and deploy it.`);
    }
    value = JSON.parse(await response.text());
  } catch (error) {
    return new SiteUnavailable(`The site's manifest could not be read (${describe(error)}).`);
  }
  const problem = manifestProblem(value, VERSION);
  if (problem !== null) return new SiteUnavailable(`The site's manifest is unusable: ${problem}. Rebuild and redeploy it.`);
  return value as Manifest;
}

async function answerWith(manifest: Manifest, request: Request, host: EdgeHost): Promise<Response> {
  // Request.url as the runtime wrote it, not `new URL()` of it, which would resolve dot segments.
  const target = urlTarget(request.url);
  const method = request.method;
  const decision = route(
    {
      method,
      path: target.path,
      query: target.query,
      accept: request.headers.get("accept"),
      ifNoneMatch: request.headers.get("if-none-match"),
      origin: request.headers.get("origin"),
      accessControlRequestMethod: request.headers.get("access-control-request-method"),
      accessControlRequestHeaders: request.headers.get("access-control-request-headers"),
      // Links on the origin the platform reports for this request (a deploy preview, the
      // *.netlify.app name), never X-Forwarded-Host; on the build's base URL the router picks the
      // pre-rendered file, on any other it derives the page from the records.
      baseUrl: requestOrigin(request.url),
    },
    manifest,
  );
  // Django upper-cases the method; a host may hand it over as the client wrote it.
  const isHead = method.toUpperCase() === "HEAD";
  switch (decision.kind) {
    case "static":
      return host.passThrough();
    case "file": {
      const file = await host.fetchFile(decision.path);
      if (file.status !== 200 || file.body === null) {
        await file.body?.cancel();
        return unavailable("The site is incomplete: a page file is missing. Rebuild and redeploy it.", isHead);
      }
      const headers = toHeaders(decision.headers);
      // The CDN's own length is the body's when it did not compress it; otherwise the platform sets it.
      const length = file.headers.get("content-encoding") === null ? file.headers.get("content-length") : null;
      if (isHead) {
        headers.set("Content-Length", length ?? String((await file.arrayBuffer()).byteLength));
        return new Response(null, { status: 200, headers });
      }
      if (length !== null) headers.set("Content-Length", length);
      // The page file's own stream: a pre-rendered page costs no body computation at the edge.
      return new Response(file.body, { status: 200, headers });
    }
    case "derive": {
      const texts = await Promise.all(decision.chunks.map((chunk) => readChunk(host, chunk.path)));
      if (texts.some((text) => text === null)) {
        return unavailable("The site is incomplete: a records file is missing. Rebuild and redeploy it.", isHead);
      }
      return bytesResponse(decision.status, decision.headers, assemblePage(decision.head, decision.chunks, texts as string[], decision.indent), isHead);
    }
    case "respond":
      return bytesResponse(decision.status, decision.headers, decision.body, isHead);
    default: {
      const unknownKind: never = decision;
      throw new Error(`unknown decision ${String(unknownKind)}`);
    }
  }
}

/** The scheme and host that start `Request.url`, as the runtime wrote them (the host's case kept). */
function requestOrigin(url: string): string {
  const path = url.indexOf("/", url.indexOf("//") + 2);
  return path < 0 ? url : url.slice(0, path);
}

async function readChunk(host: EdgeHost, path: string): Promise<string | null> {
  const response = await host.fetchFile(path);
  if (response.status !== 200) {
    await response.body?.cancel();
    return null;
  }
  return response.text();
}

/** A complete answer; HEAD gets the same headers (Content-Length of the GET body) and no body. */
function bytesResponse(status: number, headerList: HeaderList, body: string, isHead: boolean): Response {
  const headers = toHeaders(headerList);
  // 204 and 304 have no body and no length (RFC 9110 §8.6, §15.4.5); everything else says how long its body is.
  if (status === 204 || status === 304) return new Response(null, { status, headers });
  const bytes = UTF8.encode(body);
  headers.set("Content-Length", String(bytes.byteLength));
  return new Response(isHead ? null : bytes, { status, headers });
}

function unavailable(detail: string, isHead: boolean): Response {
  const answer = siteUnavailable(detail);
  return bytesResponse(answer.status, answer.headers, answer.body, isHead);
}

function toHeaders(list: HeaderList): Headers {
  const headers = new Headers();
  for (const [name, value] of list) headers.append(name, value);
  return headers;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
