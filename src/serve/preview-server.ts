/**
 * The local preview, and `subjekti serve` (src/cli/serve.ts: the same server for production, with
 * ALLOWED_HOSTS, a health check and a graceful drain): a Node adapter over the core's handler (src/core/answer-request.ts), which
 * decides and finishes every answer; the site's files come from the site directory (node-site.ts)
 * and the static site's bytes from serve-handler. Links in its answers start with its own origin,
 * so following `next` stays local (the router then derives pages whose pre-rendered files carry
 * the public origin). What is Node's alone stays here: the connection's bounds, protocol errors,
 * and the requests Node's parser refuses (answered from their raw bytes, raw-request.ts).
 */
import { createReadStream, type Stats } from "node:fs";
import { lstat, realpath } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { resolve, sep } from "node:path";
import serveHandler from "serve-handler";
import { downloadEtag, downloadMediaType, staticFileHeaders } from "../core/download-files.ts";
import { answerRequest, finish, type SendAnswer, type SentRequest } from "../core/answer-request.ts";
import type { HeaderReader } from "../core/request/read-target.ts";
import { isHostAllowed } from "../core/allowed-hosts.ts";
import { describeError } from "../core/errors.ts";
import { type Refusal, refusal } from "../core/refusals.ts";
import { siteUnavailable } from "../core/route.ts";
import { type LogFormat, logLine } from "./access-log.ts";
import { type NodeSite, nodeSite } from "./node-site.ts";
import { failedRequestStart, readRawRequest, requestVersion, writeRawAnswer } from "./raw-request.ts";
import { ManifestWatcher } from "./site-manifest.ts";

export interface PreviewOptions {
  /** The built site (default dist). */
  readonly dir: string;
  readonly port: number;
  readonly host: string;
  /** Bounds on what a client may hold (defaults: PREVIEW_LIMITS). */
  readonly limits?: Partial<PreviewLimits>;
  /**
   * Follow rebuilds (default): look for a newer manifest at most every 100 ms, and before every
   * conditional request, so a 304 never confirms bytes a rebuild replaced. Off: only when a file
   * it names is missing.
   */
  readonly watch?: boolean;
  /**
   * Django's ALLOWED_HOSTS (src/core/allowed-hosts.ts): any other Host is refused with a 400;
   * `base-url`: the host of the site's base URL alone. Absent: every Host is answered.
   */
  readonly allowedHosts?: readonly string[] | "base-url";
  /**
   * Read the scheme of the links from `X-Forwarded-Proto` (`http` or `https`), as Django's
   * SECURE_PROXY_SSL_HEADER does: only behind a proxy that sets that header on every request
   * (the nginx configuration does). The host is always the `Host` header's.
   */
  readonly forwardedProto?: boolean;
  /** An access log: one line per answered request, handed to `write` (`subjekti serve --log`). */
  readonly log?: { readonly format: LogFormat; readonly write: (line: string) => void };
  /** Told of every request refused for its Host (ALLOWED_HOSTS), so a deployer sees why a 400 came. */
  readonly onRefusedHost?: (host: string | null, allowed: readonly string[]) => void;
  /** Answer GET and HEAD of HEALTH_PATH on any Host (`subjekti serve`: a load balancer's check). */
  readonly health?: boolean;
}

/**
 * `subjekti serve`'s health check: answered on any Host (a load balancer cannot guess the public
 * one), 200 with the site's count and hash while the site can answer, 503 when it cannot. The API
 * lives under /api/subjekti/ and the published files at their own paths, so nothing else is here.
 */
export const HEALTH_PATH = "/healthz";

/** What one client can make the preview hold, and for how long. */
export interface PreviewLimits {
  /** Bytes of request line and headers (answered 431 beyond). */
  readonly maxHeaderBytes: number;
  /** Open connections at once; further ones are closed unanswered until one ends. */
  readonly maxConnections: number;
  /** Milliseconds to send the request line and headers (408 after). */
  readonly headersTimeoutMs: number;
  /** Milliseconds a kept-alive connection may wait for its next request (no byte moving at all: head + idle). */
  readonly idleTimeoutMs: number;
}

/**
 * Long queries are answered, not refused (DRF copies every parameter into the links), up to a
 * limit no real client reaches: twice the 64 KB that Deno and CDNs allow, yet small enough that
 * `maxConnections` unfinished heads hold at most 64 MB.
 */
export const PREVIEW_LIMITS: PreviewLimits = {
  maxHeaderBytes: 128 * 1024,
  maxConnections: 512,
  headersTimeoutMs: 10_000,
  idleTimeoutMs: 5_000,
};

export interface Preview {
  /** The collection's URL on this server, e.g. http://127.0.0.1:8080/api/subjekti/. */
  readonly url: string;
  /** The hosts it answers (ALLOWED_HOSTS); undefined: every host. */
  readonly allowedHosts: readonly string[] | undefined;
  /** Stops at once: every connection is closed, answers in flight too. */
  close(): Promise<void>;
  /**
   * Stops gracefully: no new connection is accepted, idle ones are closed, answers in flight are
   * finished (their connections then closed) for at most `graceMs`, then whatever is left is cut.
   */
  drain(graceMs: number): Promise<void>;
}

interface Site {
  readonly dir: string;
  readonly files: NodeSite;
  /** The scheme of the links is X-Forwarded-Proto's. */
  readonly forwardedProto: boolean;
  readonly allowedHosts: readonly string[] | undefined;
  readonly onRefusedHost: ((host: string | null, allowed: readonly string[]) => void) | undefined;
  readonly health: boolean;
  /** The manifest is followed (PreviewOptions.watch). */
  readonly watch: boolean;
}

/** Answers still being written per connection, so an answer on the bare socket comes after them. */
const inFlight = new WeakMap<Socket, { count: number; idle: (() => void)[] }>();

/** Starts the preview; throws SubjektiError when the site is missing or was built by another version. */
export async function startPreview(options: PreviewOptions): Promise<Preview> {
  const dir = resolve(options.dir);
  const watch = options.watch ?? true;
  const manifest = await ManifestWatcher.open(dir, watch);
  const allowedHosts = options.allowedHosts === "base-url" ? [await baseUrlHost(manifest)] : options.allowedHosts;
  const site: Site = {
    dir,
    files: nodeSite(dir, manifest, { allowedHosts }),
    forwardedProto: options.forwardedProto ?? false,
    allowedHosts,
    onRefusedHost: options.onRefusedHost,
    health: options.health ?? false,
    watch,
  };
  const log = options.log;
  const limits = { ...PREVIEW_LIMITS, ...options.limits };
  let draining = false;
  const server = createServer(
    {
      maxHeaderSize: limits.maxHeaderBytes,
      // Checked here, so that the answer is the contract's JSON rather than Node's bare 400.
      requireHostHeader: false,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.headersTimeoutMs + limits.idleTimeoutMs,
      keepAliveTimeout: limits.idleTimeoutMs,
      // Node looks for expired heads every 30 s by default: a slowloris would outlive the timeout.
      connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs / 2),
    },
    (req, res) => {
      // Draining: this answer is the connection's last.
      if (draining) res.shouldKeepAlive = false;
      track(req.socket, res);
      if (log !== undefined) logWhenSent(req, res, log.format, log.write);
      void answerHttp(site, req, res);
    },
  );
  server.maxConnections = limits.maxConnections;
  // A connection where no byte moves either way (a client that stops reading its answer) is
  // closed; later than the head's timeout, so that a slow head is answered 408 first.
  server.setTimeout(limits.headersTimeoutMs + limits.idleTimeoutMs);
  server.on("clientError", (error: ParserError, socket: Socket) => {
    void answerClientError(site, error, socket);
  });
  // CONNECT never reaches the request handler; Django would answer it like any unknown method.
  server.on("connect", (req: IncomingMessage, socket: Socket) => {
    void answerRaw(site, sentRequest(req, site.forwardedProto), socket);
  });
  await listen(server, options.port, options.host);
  // An accept() that fails (EMFILE at the descriptor limit) must not end the process.
  server.on("error", (error) => process.stderr.write(`subjekti preview: ${describeError(error)}\n`));
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  site.files.origin = `http://${host}:${address.port}`;
  return {
    url: `${site.files.origin}/api/subjekti/`,
    allowedHosts,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
    drain: (graceMs) =>
      new Promise<void>((done) => {
        draining = true;
        // A kept-alive connection goes idle once its answer is sent: close it then, not at its timeout.
        const sweep = setInterval(() => server.closeIdleConnections(), 50);
        const cut = setTimeout(() => server.closeAllConnections(), graceMs);
        server.close(() => {
          clearInterval(sweep);
          clearTimeout(cut);
          done();
        });
        server.closeIdleConnections();
      }),
  };
}

/** The host of the site's base URL, as ALLOWED_HOSTS names it (no port). */
async function baseUrlHost(manifest: ManifestWatcher): Promise<string> {
  const state = await manifest.current();
  // open() refused a site without a usable manifest.
  if ("problem" in state) throw new Error(state.problem);
  return new URL(state.manifest.baseUrl).hostname;
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

/** A request as Node's parser read it: `req.url` is the target as sent, one character per byte. */
function sentRequest(req: IncomingMessage, forwardedProto: boolean): SentRequest {
  const scheme = forwardedProto ? schemeOf(req.headers["x-forwarded-proto"]) : "http";
  return {
    method: req.method ?? "GET",
    target: req.url ?? "/",
    scheme,
    host: req.headers.host ?? null,
    headers: headerReader(req.headers),
  };
}

/** The scheme a proxy reports in X-Forwarded-Proto; anything but `https` is plain http. */
function schemeOf(value: string | string[] | undefined): string {
  return value === "https" ? "https" : "http";
}

/** Headers by lower-case name (Node's parsed ones, or those read from raw bytes). */
function headerReader(headers: IncomingHttpHeaders | Readonly<Record<string, string>>): HeaderReader {
  return {
    get(name) {
      const value = headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
    },
  };
}

/** Counts an answer in flight on its connection until it is sent or the connection is gone. */
function track(socket: Socket, res: ServerResponse): void {
  let state = inFlight.get(socket);
  if (state === undefined) inFlight.set(socket, (state = { count: 0, idle: [] }));
  const entry = state;
  entry.count += 1;
  let done = false;
  const settle = (): void => {
    if (done) return;
    done = true;
    entry.count -= 1;
    if (entry.count === 0) for (const wake of entry.idle.splice(0)) wake();
  };
  res.once("finish", settle);
  res.once("close", settle);
}

/** Resolves once every answer in flight on `socket` has been handed to it. */
function answersSent(socket: Socket): Promise<void> {
  const state = inFlight.get(socket);
  if (state === undefined || state.count === 0) return Promise.resolve();
  return new Promise((wake) => state.idle.push(wake));
}

/** RFC 9112: HTTP/1.1 needs exactly one Host, HTTP/1.0 at most one; other versions are not spoken here. */
function protocolProblem(req: IncomingMessage): Refusal | null {
  if (req.httpVersionMajor !== 1) {
    // Node reads a request line without a version as HTTP/0.9.
    return req.httpVersionMajor === 0
      ? refusal(400, "the request line has no HTTP version")
      : refusal(505, `HTTP/${req.httpVersion} is not supported: send HTTP/1.1.`);
  }
  let hosts = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]?.toLowerCase() === "host") hosts += 1;
  if (hosts > 1) return refusal(400, "the request has more than one Host header");
  if (hosts === 0 && req.httpVersionMinor === 1) return refusal(400, "an HTTP/1.1 request needs a Host header");
  return null;
}

async function answerHttp(site: Site, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const problem = protocolProblem(req);
    if (problem !== null) {
      res.shouldKeepAlive = false;
      send(res, finish(problem, req.method ?? "GET"));
      return;
    }
    if (site.health && req.url === HEALTH_PATH && (req.method === "GET" || req.method === "HEAD")) {
      send(res, await healthAnswer(site, req.method));
      return;
    }
    if (
      site.allowedHosts !== undefined &&
      site.onRefusedHost !== undefined &&
      req.headers.host !== undefined &&
      !isHostAllowed(req.headers.host, site.allowedHosts)
    ) {
      site.onRefusedHost(req.headers.host, site.allowedHosts);
    }
    // A 304 is decided from the files the manifest names (a tag list, or the answer's bytes): look at it first, so a tag of a replaced build is not confirmed.
    if (site.watch && req.headers["if-none-match"] !== undefined) await site.files.refresh();
    const answer = await answerRequest(sentRequest(req, site.forwardedProto), site.files);
    if (answer.kind === "static") {
      req.url = answer.url;
      // The change feed's files and the downloads: readable from any origin, cached as their table says.
      const path = new URL(answer.url, "http://x").pathname;
      for (const [name, value] of staticFileHeaders(path) ?? []) res.setHeader(name, value);
      if (await answeredDownload(site, path, req, res)) return;
      await serveHandler(req, res, { public: site.dir, directoryListing: false, symlinks: false, etag: false }, staticFiles(site.dir, res));
    } else {
      send(res, answer);
    }
  } catch (error) {
    // Only a broken connection or a bug gets here; the client sees a 503 if nothing was sent yet.
    if (!res.headersSent) send(res, finish(siteUnavailable(`The preview failed: ${describeError(error)}`), "GET"));
    else res.destroy();
  }
}

/**
 * A download's strong ETag (its SHA-256, from the manifest) and media type; a 304 when the client
 * holds those bytes (true: answered). serve-handler then sends the file, honouring Range.
 */
async function answeredDownload(site: Site, path: string, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const state = await site.files.manifest();
  const downloads = "manifest" in state ? (state.manifest.downloads ?? []) : [];
  const etag = downloadEtag(path, downloads);
  if (etag === undefined) return false;
  res.setHeader("ETag", etag);
  res.setHeader("Content-Type", downloadMediaType(path, downloads) ?? "application/octet-stream");
  const ifNoneMatch = req.headers["if-none-match"];
  if (
    (req.method === "GET" || req.method === "HEAD") &&
    ifNoneMatch !== undefined &&
    ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag || tag.trim() === "*")
  ) {
    res.writeHead(304).end();
    return true;
  }
  return false;
}

/** The health check's answer: the site's count and hash, or 503 with why it cannot answer. */
async function healthAnswer(site: Site, method: string): Promise<SendAnswer<Buffer>> {
  const state = await site.files.manifest();
  const ok = !("problem" in state);
  const body = Buffer.from(
    `${JSON.stringify(ok ? { status: "ok", subjects: state.manifest.count, site: state.manifest.hash.slice(0, 12) } : { status: "unavailable", problem: state.problem })}\n`,
  );
  const headers: [string, string][] = [
    ["Content-Type", "application/json"],
    ["Cache-Control", "no-store"],
    ["Content-Length", String(body.length)],
  ];
  return { kind: "send", status: ok ? 200 : 503, headers, body: method === "HEAD" ? null : body };
}

/** Writes the access log's line for `req` once its answer is sent (or its connection gone). */
function logWhenSent(req: IncomingMessage, res: ServerResponse, format: LogFormat, write: (line: string) => void): void {
  const started = performance.now();
  const time = new Date();
  // The body's bytes as handed to the answer (headers are written with writeHead, out of getHeader's reach).
  let bytes = 0;
  const count = (chunk: unknown): void => {
    if (typeof chunk === "string") bytes += Buffer.byteLength(chunk);
    else if (chunk instanceof Uint8Array) bytes += chunk.length;
  };
  const [write0, end0] = [res.write, res.end];
  res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    count(chunk);
    return (write0 as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof res.write;
  res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    if (typeof chunk !== "function") count(chunk);
    return (end0 as (...args: unknown[]) => ServerResponse).call(this, chunk, ...rest);
  } as typeof res.end;
  let written = false;
  const done = (): void => {
    if (written) return;
    written = true;
    write(
      logLine(format, {
        remote: req.socket.remoteAddress ?? "-",
        time,
        method: req.method ?? "-",
        target: req.url ?? "-",
        version: req.httpVersion,
        status: res.statusCode,
        bytes: res.writableFinished ? bytes : null,
        host: req.headers.host ?? null,
        milliseconds: performance.now() - started,
      }),
    );
  };
  res.once("finish", done);
  res.once("close", done);
}

/** Writes a finished answer: its headers in order, then its body (none for HEAD, 204 and 304). */
function send(res: ServerResponse, answer: SendAnswer<Buffer>): void {
  res.writeHead(answer.status, answer.headers.flat());
  res.end(answer.body ?? undefined);
}

/**
 * The file system as serve-handler sees it for one request. Its `symlinks: false` looks at the
 * last path component only, so every path it looks at is resolved whole and must stay inside the
 * site; and it pipes a read stream into the answer without closing it when the client goes away
 * (one descriptor leaked per reset request) nor handling its errors (an EMFILE ended the process).
 */
function staticFiles(
  dir: string,
  res: ServerResponse,
): { lstat: typeof import("node:fs").lstat; createReadStream: typeof createReadStream } {
  const root = realpath(dir);
  return {
    lstat: ((path: string) => lstatInside(root, path)) as unknown as typeof import("node:fs").lstat,
    createReadStream: ((path: string, options?: Parameters<typeof createReadStream>[1]) => {
      const stream = createReadStream(path, options);
      stream.on("error", () => res.destroy());
      // The connection, not the answer: a pipelined answer has no socket yet, and the client
      // may have gone while serve-handler looked the file up (then "close" is past).
      const socket = res.req.socket;
      if (socket.destroyed) {
        stream.destroy();
      } else {
        const stop = (): void => void stream.destroy();
        socket.once("close", stop);
        stream.once("close", () => socket.off("close", stop));
      }
      return stream;
    }) as typeof createReadStream,
  };
}

/**
 * `lstat` of a path whose real path (every symlink on the way resolved) lies inside the site.
 * serve-handler answers 500 on any error but ENOENT (ENAMETOOLONG, EACCES, ELOOP…): they are all
 * "not found" here, as is a path that leads out of the site.
 */
async function lstatInside(root: Promise<string>, path: string): Promise<Stats> {
  try {
    const [site, real] = await Promise.all([root, realpath(path)]);
    if (real !== site && !real.startsWith(site + sep)) throw new Error(`${path} leads out of the site`);
    return await lstat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") throw error;
    throw Object.assign(new Error(`not found: ${describeError(error)}`), { code: "ENOENT" });
  }
}

/** What Node's parser adds to the error of a request it refused. */
type ParserError = NodeJS.ErrnoException & { rawPacket?: Buffer; bytesParsed?: number };

/** Connections whose refused request is being answered: Node reports every later packet's error too. */
const refusedSockets = new WeakSet<Socket>();

/**
 * Requests Node's parser refused: what can be read from the raw bytes gets the contract's answer,
 * the rest a refusal that says why. The answer goes after the answers to the earlier requests of
 * the connection (a pipelined packet), then the connection closes: nothing after it can be read.
 */
async function answerClientError(site: Site, error: ParserError, socket: Socket): Promise<void> {
  if (refusedSockets.has(socket)) return;
  refusedSockets.add(socket);
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  await answersSent(socket);
  // llhttp refuses method names it does not know and raw non-ASCII bytes in the target; Django
  // would have answered both, so they are answered from the raw bytes when those are well-formed.
  if ((error.code === "HPE_INVALID_METHOD" || error.code === "HPE_INVALID_URL") && error.rawPacket !== undefined) {
    const raw = readRawRequest(error.rawPacket, failedRequestStart(error.rawPacket, error.bytesParsed));
    if (raw !== null) {
      const scheme = site.forwardedProto ? schemeOf(raw.headers["x-forwarded-proto"]) : "http";
      await answerRaw(
        site,
        { method: raw.method, target: raw.target, scheme, host: raw.headers["host"] ?? null, headers: headerReader(raw.headers) },
        socket,
      );
      return;
    }
  }
  writeRawAnswer(socket, finish(parserRefusal(error), "GET"));
}

function parserRefusal(error: ParserError): Refusal {
  switch (error.code) {
    case "HPE_HEADER_OVERFLOW":
      return refusal(431, "Request header fields too large: the request line and headers are over the preview's limit.");
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return refusal(408, "Request timeout: the request line and headers did not arrive in time.");
    case "HPE_INVALID_VERSION":
      // A well-formed version Node does not speak (HTTP/1.2, HTTP/3.0) is 505; "HTTP/9" is no version (400).
      if (
        error.rawPacket !== undefined &&
        requestVersion(error.rawPacket, failedRequestStart(error.rawPacket, error.bytesParsed)) !== null
      ) {
        return refusal(505, "HTTP version not supported: send HTTP/1.1.");
      }
      break;
    default:
      break;
  }
  return refusal(400, `Node's HTTP parser refused it (${error.code ?? error.message})`);
}

/** Answers on a bare socket (the request never became an IncomingMessage with a ServerResponse). */
async function answerRaw(site: Site, request: SentRequest, socket: Socket): Promise<void> {
  try {
    const answer = await answerRequest(request, site.files);
    // The static site is served with a ServerResponse, which a request Node refused has none of
    // (the handler refuses methods other than GET and HEAD on static files itself).
    const refusedStatic = (): SendAnswer<never> =>
      finish(refusal(400, "raw non-ASCII bytes in the path of a static file: send them percent-encoded"), request.method);
    writeRawAnswer(socket, answer.kind === "static" ? refusedStatic() : answer);
  } catch {
    // Only a bug gets here (the handler answers every failure of the site): no half-written answer.
    socket.destroy();
  }
}
