/**
 * The local preview, and `subjekti serve` (src/cli/serve.ts: the same server for production, with
 * ALLOWED_HOSTS, a health check and a graceful drain): a Node adapter over the core's handler
 * (answer-http.ts). Links in its answers start with its own origin, so following `next` stays local
 * (the router then derives pages whose pre-rendered files carry the public origin). Here: the
 * server's life (start, listen, close, drain); each request's answer, the static files, the
 * refused requests, the bounds on a connection and the access log have files of their own.
 */
import type { AddressInfo, Socket } from "node:net";
import type { IncomingMessage, Server } from "node:http";
import { resolve } from "node:path";
import { describeError } from "../core/errors.ts";
import { type AccessLog, logWhenSent } from "./access-log.ts";
import { answerHttp } from "./answer-http.ts";
import { trackAnswer } from "./answers-in-flight.ts";
import { boundedServer, PREVIEW_LIMITS, type PreviewLimits } from "./connection-limits.ts";
import { nodeSite } from "./node-site.ts";
import { answerClientError, answerRaw, type ParserError } from "./refused-requests.ts";
import { readRequest } from "./read-request.ts";
import type { ServedSite } from "./served-site.ts";
import { ManifestWatcher } from "./site-manifest.ts";

export { PREVIEW_LIMITS, type PreviewLimits } from "./connection-limits.ts";

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
  readonly log?: AccessLog;
  /** Told of every request refused for its Host (ALLOWED_HOSTS), so a deployer sees why a 400 came. */
  readonly onRefusedHost?: (host: string | null, allowed: readonly string[]) => void;
  /** Answer GET and HEAD of HEALTH_PATH on any Host (`subjekti serve`: a load balancer's check). */
  readonly health?: boolean;
}

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
  const site = await servedSite(options);
  let draining = false;
  const server = boundedServer({ ...PREVIEW_LIMITS, ...options.limits }, (req, res) => {
    // Draining: this answer is the connection's last.
    if (draining) res.shouldKeepAlive = false;
    trackAnswer(req.socket, res);
    if (options.log !== undefined) logWhenSent(req, res, options.log);
    void answerHttp(site, req, res);
  });
  server.on("clientError", (error: ParserError, socket: Socket) => {
    void answerClientError(site, error, socket);
  });
  // CONNECT never reaches the request handler; Django would answer it like any unknown method.
  server.on("connect", (req: IncomingMessage, socket: Socket) => {
    void answerRaw(site, readRequest(req, site.forwardedProto), socket);
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
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
    drain: (graceMs) => {
      draining = true;
      return drain(server, graceMs);
    },
  };
}

/** The site `options` name, its manifest read (and followed unless told not to). */
async function servedSite(options: PreviewOptions): Promise<ServedSite> {
  const dir = resolve(options.dir);
  const watch = options.watch ?? true;
  const manifest = await ManifestWatcher.open(dir, watch);
  const allowedHosts = options.allowedHosts === "base-url" ? [await baseUrlHost(manifest)] : options.allowedHosts;
  return {
    dir,
    files: nodeSite(dir, manifest, { allowedHosts }),
    forwardedProto: options.forwardedProto ?? false,
    allowedHosts,
    onRefusedHost: options.onRefusedHost,
    health: options.health ?? false,
    watch,
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

/** Stops accepting, lets the answers in flight finish for at most `graceMs`, then cuts the rest. */
function drain(server: Server, graceMs: number): Promise<void> {
  return new Promise<void>((done) => {
    // A kept-alive connection goes idle once its answer is sent: close it then, not at its timeout.
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    const cut = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(cut);
      done();
    });
    server.closeIdleConnections();
  });
}
