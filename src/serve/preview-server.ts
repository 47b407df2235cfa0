/**
 * The local preview, and `subjekti serve` (src/cli/serve.ts: the same server for production, with
 * ALLOWED_HOSTS, a health check and a graceful drain): Node's server wired to the core's handler
 * (src/core/answer-request.ts), which decides and finishes every answer. Links in its answers
 * start with its own origin, so following `next` stays local (the router then derives pages whose
 * pre-rendered files carry the public origin). The server's bounds, the static files, the refused
 * requests and the access log are files of their own; this one alone calls the core's handler.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { resolve } from "node:path";
import { answerRequest, finish, type SendAnswer, type SentRequest } from "../core/answer-request.ts";
import { isHostAllowed } from "../core/allowed-hosts.ts";
import { describeError } from "../core/errors.ts";
import { refusal } from "../core/refusals.ts";
import { siteUnavailable } from "../core/route.ts";
import { logWhenSent } from "./access-log.ts";
import { trackAnswer } from "./answers-in-flight.ts";
import { boundedServer, closeNow, drain, listen, PREVIEW_LIMITS, type PreviewLimits, stallTimeoutMs } from "./bounded-server.ts";
import { healthAnswer, isHealthCheck } from "./health-check.ts";
import { writeRawAnswer } from "./raw-request.ts";
import { readRequest } from "./read-request.ts";
import { type ParserError, protocolProblem, refusedRequest } from "./refused-requests.ts";
import { type PreviewOptions, type ServedSite, servedSite } from "./served-site.ts";
import { ManifestWatcher } from "./site-manifest.ts";
import { serveStatic } from "./static-files.ts";
import { writeAnswer } from "./write-answer.ts";

export { PREVIEW_LIMITS, type PreviewLimits } from "./bounded-server.ts";
export type { PreviewOptions } from "./served-site.ts";

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

/** Starts the preview; throws SubjektiError when the site is missing or was built by another version. */
export async function startPreview(options: PreviewOptions): Promise<Preview> {
  const dir = resolve(options.dir);
  // Opened here rather than in servedSite: the manifest reader ends the preview's longest chain of imports (measure:imports).
  const site = await servedSite(dir, await ManifestWatcher.open(dir, options.watch ?? true), options);
  let draining = false;
  const limits = previewLimits(options);
  const stallMs = stallTimeoutMs(limits);
  const server = boundedServer(limits, (req, res) => {
    // Draining: this answer is the connection's last.
    if (draining) res.shouldKeepAlive = false;
    trackAnswer(req.socket, res);
    if (options.log !== undefined) logWhenSent(req, res, options.log);
    void answerHttp(site, req, res);
  });
  server.on("clientError", (error: ParserError, socket: Socket) => {
    void answerClientError(site, error, socket, stallMs);
  });
  // CONNECT never reaches the request handler; Django would answer it like any unknown method.
  server.on("connect", (req: IncomingMessage, socket: Socket) => {
    void answerRaw(site, readRequest(req, site.forwardedProto), socket, stallMs);
  });
  await listen(server, options.port, options.host);
  // An accept() that fails (EMFILE at the descriptor limit) must not end the process.
  server.on("error", (error) => process.stderr.write(`subjekti preview: ${describeError(error)}\n`));
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  site.files.origin = `http://${host}:${address.port}`;
  return {
    url: `${site.files.origin}/api/subjekti/`,
    allowedHosts: site.allowedHosts,
    close: () => closeNow(server),
    drain: (graceMs) => {
      draining = true;
      return drain(server, graceMs);
    },
  };
}

/**
 * The bounds of the preview, resolved once. Behind a proxy (`forwardedProto`) every connection
 * comes from the proxy's address, so there is no bound per address unless one is given: the proxy
 * bounds its own clients (nginx reads a whole head before it opens a connection upstream).
 */
function previewLimits(options: PreviewOptions): PreviewLimits {
  const behindProxy = options.forwardedProto === true ? { maxConnectionsPerAddress: Number.POSITIVE_INFINITY } : {};
  return { ...PREVIEW_LIMITS, ...behindProxy, ...options.limits };
}

/** Answers a request Node parsed; never rejects (a failure is a 503, or a cut connection once headers are sent). */
async function answerHttp(site: ServedSite, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const problem = protocolProblem(req);
    if (problem !== null) {
      res.shouldKeepAlive = false;
      writeAnswer(res, finish(problem, req.method ?? "GET"));
      return;
    }
    if (isHealthCheck(site, req)) {
      writeAnswer(res, await healthAnswer(site, req.method ?? "GET"));
      return;
    }
    tellRefusedHost(site, req.headers.host);
    // A 304 is decided from the files the manifest names (a tag list, or the answer's bytes): look at it first, so a tag of a replaced build is not confirmed.
    if (site.watch && req.headers["if-none-match"] !== undefined) await site.files.refresh();
    const answer = await answerRequest(readRequest(req, site.forwardedProto), site.files);
    if (answer.kind === "static") await serveStatic(site, answer.url, req, res);
    else writeAnswer(res, answer);
  } catch (error) {
    // Only a broken connection or a bug gets here; the client sees a 503 if nothing was sent yet.
    if (!res.headersSent) writeAnswer(res, finish(siteUnavailable(`The preview failed: ${describeError(error)}`), "GET"));
    else res.destroy();
  }
}

/** Tells the deployer of a Host that ALLOWED_HOSTS refuses (the core answers it Django's 400). */
function tellRefusedHost(site: ServedSite, host: string | undefined): void {
  if (site.allowedHosts === undefined || site.onRefusedHost === undefined || host === undefined) return;
  if (!isHostAllowed(host, site.allowedHosts)) site.onRefusedHost(host, site.allowedHosts);
}

/** Answers a request Node's parser refused on its bare socket, then closes the connection: nothing after it can be read. */
async function answerClientError(site: ServedSite, error: ParserError, socket: Socket, stallMs: number): Promise<void> {
  const refused = await refusedRequest(error, socket, site.forwardedProto);
  if (refused === null) return;
  if ("request" in refused) await answerRaw(site, refused.request, socket, stallMs);
  else writeRawAnswer(socket, finish(refused.refusal, "GET"), stallMs);
}

/** Answers on a bare socket (the request never became an IncomingMessage with a ServerResponse). */
async function answerRaw(site: ServedSite, request: SentRequest, socket: Socket, stallMs: number): Promise<void> {
  try {
    const answer = await answerRequest(request, site.files);
    // The static site is served with a ServerResponse, which a request Node refused has none of
    // (the handler refuses methods other than GET and HEAD on static files itself).
    const refusedStatic = (): SendAnswer<never> =>
      finish(refusal(400, "raw non-ASCII bytes in the path of a static file: send them percent-encoded"), request.method);
    writeRawAnswer(socket, answer.kind === "static" ? refusedStatic() : answer, stallMs);
  } catch {
    // Only a bug gets here (the handler answers every failure of the site): no half-written answer.
    socket.destroy();
  }
}
