/**
 * The local preview: Node's http server, the same routing core as the edge, serve-handler for
 * the static site's bytes. Links in its answers start with its own origin, so following `next`
 * stays local (the router then derives pages whose pre-rendered files carry the public origin).
 */
import { lstat } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { resolve, sep } from "node:path";
import serveHandler from "serve-handler";
import { commonHeaders, type HeaderList } from "../core/answer-headers.ts";
import { toJson } from "../core/render-page.ts";
import { assemblePage, route, siteUnavailable } from "../core/route.ts";
import { BYTES, FileCache, TEXT } from "./file-cache.ts";
import { readRawRequest, writeRawAnswer } from "./raw-request.ts";
import { linkOrigin, readTarget } from "./request-target.ts";
import { ManifestWatcher } from "./site-manifest.ts";

export interface PreviewOptions {
  /** The built site (default dist). */
  readonly dir: string;
  readonly port: number;
  readonly host: string;
}

export interface Preview {
  /** The collection's URL on this server, e.g. http://127.0.0.1:8080/api/subjekti/. */
  readonly url: string;
  close(): Promise<void>;
}

/** The request line and headers the preview answers from (whoever parsed them). */
interface PreviewRequest {
  readonly method: string;
  readonly target: string;
  readonly host: string | undefined;
  readonly accept: string | undefined;
  readonly ifNoneMatch: string | undefined;
}

type Answer =
  | { readonly kind: "bytes"; readonly status: number; readonly headers: HeaderList; readonly body: Buffer | null }
  /** Not the API: serve-handler serves `path` (the decoded, checked target) from the site. */
  | { readonly kind: "static"; readonly url: string };

interface Site {
  readonly dir: string;
  readonly manifest: ManifestWatcher;
  /** Pre-rendered pages, as bytes. */
  readonly pages: FileCache<Buffer>;
  /** Record chunks, as text. */
  readonly chunks: FileCache<string>;
  /** The listening address's origin, for requests without a usable Host header. */
  origin: string;
}

/** Long queries are answered, not refused: DRF copies every parameter into the links (Node's default is 16 KB). */
const MAX_HEADER_SIZE = 1024 * 1024;

/** Starts the preview; throws SubjektiError when the site is missing or was built by another version. */
export async function startPreview(options: PreviewOptions): Promise<Preview> {
  const dir = resolve(options.dir);
  const site: Site = { dir, manifest: await ManifestWatcher.open(dir), pages: new FileCache(BYTES), chunks: new FileCache(TEXT), origin: "" };
  const server = createServer({ maxHeaderSize: MAX_HEADER_SIZE }, (req, res) => {
    void answerHttp(site, req, res);
  });
  server.on("clientError", (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) => {
    void answerClientError(site, error, socket);
  });
  // CONNECT never reaches the request handler; Django would answer it like any unknown method.
  server.on("connect", (req: IncomingMessage, socket: Socket) => {
    void answerRaw(site, fromIncoming(req), socket);
  });
  await listen(server, options.port, options.host);
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  site.origin = `http://${host}:${address.port}`;
  return {
    url: `${site.origin}/api/subjekti/`,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((done, fail) => {
    server.once("error", fail);
    server.listen(port, host, () => {
      server.off("error", fail);
      done();
    });
  });
}

function fromIncoming(req: IncomingMessage): PreviewRequest {
  return {
    method: req.method ?? "GET",
    target: req.url ?? "/",
    host: req.headers.host,
    accept: req.headers.accept,
    ifNoneMatch: req.headers["if-none-match"],
  };
}

async function answerHttp(site: Site, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const request = fromIncoming(req);
  try {
    const answer = await decide(site, request, true);
    switch (answer.kind) {
      case "bytes":
        res.writeHead(answer.status, flatHeaders(answer.headers, answer.body));
        res.end(answer.body ?? undefined);
        return;
      case "static":
        req.url = answer.url;
        await serveHandler(req, res, { public: site.dir, directoryListing: false, symlinks: false, etag: false }, { lstat: lstatOrMissing as unknown as typeof import("node:fs").lstat });
        return;
      default:
        unreachable(answer);
    }
  } catch (error) {
    // Only a broken connection or a bug gets here; the client sees a 503 if nothing was sent yet.
    if (!res.headersSent) {
      const answer = unavailable(`The preview failed: ${describe(error)}`, "GET");
      if (answer.kind === "bytes") {
        res.writeHead(answer.status, flatHeaders(answer.headers, answer.body));
        res.end(answer.body);
      }
    } else {
      res.destroy();
    }
  }
}

/** The answer to a request, as a value; `retry` allows one more try after the site changed under it. */
async function decide(site: Site, request: PreviewRequest, retry: boolean): Promise<Answer> {
  const target = readTarget(request.target);
  if (target === null) return badRequest(`"${request.target.slice(0, 80)}" is not a request target`);
  const state = await site.manifest.current();
  if ("problem" in state) {
    if (!target.path.startsWith("/api/")) return staticAnswer(target.path, target.query);
    return unavailable(`The site is unusable: ${state.problem}. Run \`npm run build\`.`, request.method);
  }
  const { manifest } = state;
  const decision = route(
    {
      method: request.method,
      path: target.path,
      query: target.query,
      accept: request.accept,
      ifNoneMatch: request.ifNoneMatch,
      baseUrl: linkOrigin(request.host, site.origin),
    },
    manifest,
  );
  const isHead = request.method.toUpperCase() === "HEAD";
  switch (decision.kind) {
    case "static":
      return staticAnswer(target.path, target.query);
    case "file": {
      const page = await readInside(site.dir, site.pages, decision.path).catch(() => null);
      if (page !== null) return bytes(decision.status, decision.headers, page, isHead);
      break;
    }
    case "derive": {
      const texts = await Promise.all(decision.chunks.map((chunk) => readInside(site.dir, site.chunks, chunk.path))).catch(() => null);
      if (texts !== null) {
        return bytes(decision.status, decision.headers, assemblePage(decision.head, decision.chunks, texts), isHead);
      }
      break;
    }
    case "respond":
      return bytes(decision.status, decision.headers, decision.body, isHead);
    default:
      unreachable(decision);
  }
  // A file the manifest named is gone: a rebuild replaced the site since the manifest was read.
  if (retry) {
    await site.manifest.refresh();
    return decide(site, request, false);
  }
  return unavailable("The site is incomplete: a file the manifest names is missing. Run `npm run build`.", request.method);
}

/** A manifest-named file through its cache; rejects when it is missing or would leave the site. */
function readInside<T>(dir: string, cache: FileCache<T>, path: string): Promise<T> {
  const absolute = insideSite(dir, path);
  return absolute === null ? Promise.reject(new Error(`${path} is outside the site`)) : cache.read(absolute);
}

/** The absolute path of a manifest-named file, or null if the name would leave the site directory. */
function insideSite(dir: string, path: string): string | null {
  const absolute = resolve(dir, path);
  return absolute.startsWith(dir + sep) && !path.includes("\0") ? absolute : null;
}

function staticAnswer(path: string, query: string): Answer {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return badRequest("the path has a malformed percent-escape");
  }
  if (decoded.includes("\0")) return badRequest("the path holds a NUL byte");
  return { kind: "static", url: query === "" ? path : `${path}?${query}` };
}

/** serve-handler answers 500 on any lstat error but ENOENT (ENAMETOOLONG, EACCES, ELOOP…): they are all "not found" here. */
async function lstatOrMissing(path: string): Promise<import("node:fs").Stats> {
  try {
    return await lstat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") throw error;
    throw Object.assign(new Error(`not found: ${describe(error)}`), { code: "ENOENT" });
  }
}

function bytes(status: number, headers: HeaderList, body: string | Buffer, isHead: boolean): Answer {
  // 304 carries neither body nor length; HEAD gets the GET body's length and no body.
  if (status === 304) return { kind: "bytes", status, headers, body: null };
  const buffer = typeof body === "string" ? Buffer.from(body, "utf8") : body;
  return { kind: "bytes", status, headers: [...headers, ["Content-Length", String(buffer.length)]], body: isHead ? null : buffer };
}

function unavailable(detail: string, method: string): Answer {
  const answer = siteUnavailable(detail);
  return bytes(answer.status, answer.headers, answer.body, method.toUpperCase() === "HEAD");
}

function badRequest(detail: string, status = 400): Answer {
  return bytes(status, [["Content-Type", "application/json"], ...commonHeaders("no-store")], toJson({ detail: `Bad request: ${detail}.` }), false);
}

/** Headers as Node's raw array; a body-less answer that is no 304 keeps the length `bytes()` put in. */
function flatHeaders(headers: HeaderList, body: Buffer | null): string[] {
  const flat = headers.flat();
  if (body !== null && !headers.some(([name]) => name === "Content-Length")) flat.push("Content-Length", String(body.length));
  return flat;
}

/** Requests Node's parser refused: what can be read from the raw bytes gets the contract's answer, the rest a 400 that says why. */
async function answerClientError(site: Site, error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket): Promise<void> {
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  // llhttp refuses method names it does not know and raw non-ASCII bytes in the target; Django
  // would have answered both, so they are answered from the raw bytes when those are well-formed.
  if (error.code === "HPE_INVALID_METHOD" || error.code === "HPE_INVALID_URL") {
    const raw = readRawRequest(error.rawPacket);
    if (raw !== null) {
      const { host, accept } = raw.headers;
      await answerRaw(site, { method: raw.method, target: raw.target, host, accept, ifNoneMatch: raw.headers["if-none-match"] }, socket);
      return;
    }
  }
  const status = error.code === "HPE_HEADER_OVERFLOW" ? 431 : error.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400;
  const answer = badRequest(`Node's HTTP parser refused it (${error.code ?? error.message})`, status);
  if (answer.kind === "bytes") writeRawAnswer(socket, answer.status, answer.headers, answer.body);
}

/** Answers on a bare socket (the request never became an IncomingMessage with a ServerResponse). */
async function answerRaw(site: Site, request: PreviewRequest, socket: Socket): Promise<void> {
  try {
    const answer = await decide(site, request, true);
    switch (answer.kind) {
      case "bytes":
        writeRawAnswer(socket, answer.status, answer.headers, answer.body);
        return;
      case "static": {
        const refused = badRequest(`the preview serves static files to GET and HEAD only, not to ${request.method}`);
        if (refused.kind === "bytes") writeRawAnswer(socket, refused.status, refused.headers, refused.body);
        return;
      }
      default:
        unreachable(answer);
    }
  } catch {
    socket.destroy();
  }
}

function unreachable(value: never): never {
  throw new Error(`unhandled case ${JSON.stringify(value)}`);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
