/**
 * Requests to the deployment through node:http, not fetch: the check compares the bytes and header
 * values as they came over the wire, and fetch sends headers of its own (Accept-Encoding,
 * Sec-Fetch-Mode), decodes a compressed body and merges repeated headers. No Accept-Encoding is
 * sent here, so the body comes as the server has it.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { rootCertificates } from "node:tls";
import { type Message, msg } from "../common/messages/message.ts";

/** An answer as received: status, header values by lower-case name (repeats joined by ", "), body bytes. */
export interface ReceivedAnswer {
  readonly status: number;
  readonly headers: ReadonlyMap<string, string>;
  readonly body: Buffer;
}

/** Sends requests to one origin over kept-alive connections, at most `connections` at once. */
export interface Sender {
  /** Rejects with a RequestBound when the answer takes longer than the timeout or is longer than `maxBytes`. */
  send(method: string, target: string, headers: Readonly<Record<string, string>>, maxBytes: number): Promise<ReceivedAnswer>;
  /** Ends every request in flight (each rejects with `reason`) and every connection; every later request rejects with it, unsent. */
  abort(reason: RequestBound): void;
  close(): void;
}

/** Why a request was cut off: the answer was too slow or too long, or the check's deadline came. */
export class RequestBound extends Error {
  readonly kind: "timeout" | "size" | "deadline";
  constructor(kind: "timeout" | "size" | "deadline", message: string) {
    super(message);
    this.kind = kind;
  }
}

/** Where to connect instead of the URL's host (curl's `--connect-to`). */
export interface ConnectTo {
  readonly host: string;
  readonly port: number;
}

/** How an https deployment's certificate is checked. */
export interface TrustOptions {
  /** PEM certificates trusted beside the system's roots (`--ca`): a private CA, or a self-signed certificate. */
  readonly ca?: string | undefined;
  /** No certificate check at all (`--insecure`): the bytes are still compared. */
  readonly insecure?: boolean | undefined;
}

/**
 * A sender to `origin` (`http://host:port` or `https://…`), or to `connect` with the origin's Host
 * and TLS name. Each request must be answered whole within `timeoutMs` (a server that drips its
 * body is cut off like one that never answers), and no more than its `maxBytes` of body are held.
 */
export function sender(origin: URL, connections: number, timeoutMs: number, connect?: ConnectTo, trust: TrustOptions = {}): Sender {
  const https = origin.protocol === "https:";
  const tls = https
    ? { ...(trust.ca === undefined ? {} : { ca: [...rootCertificates, trust.ca] }), rejectUnauthorized: trust.insecure !== true }
    : {};
  const agent = new (https ? HttpsAgent : HttpAgent)({ keepAlive: true, maxSockets: connections, ...tls });
  const request = https ? httpsRequest : httpRequest;
  const inFlight = new Set<(reason: RequestBound) => void>();
  /** Why the sender was aborted (the check's deadline): what is asked after it, the downloads after the pages, is refused unsent, not waited for. */
  let aborted: RequestBound | undefined;
  return {
    send(method, target, headers, maxBytes) {
      if (aborted !== undefined) return Promise.reject(aborted);
      return new Promise((resolve, reject) => {
        let settled = false;
        const req = request(
          {
            agent,
            protocol: origin.protocol,
            hostname: connect?.host ?? origin.hostname.replace(/^\[|\]$/g, ""),
            port: connect?.port ?? origin.port,
            method,
            path: target,
            // The Host the links are written on: the URL's, as a browser sends it. Node's agent also
            // takes the TLS name from it, so a certificate is checked for the URL's name wherever
            // `connect` sends the connection.
            headers: { Host: origin.host, ...headers },
          },
          (res) => {
            const parts: Buffer[] = [];
            let bytes = 0;
            res.on("data", (part: Buffer) => {
              bytes += part.length;
              if (bytes > maxBytes) cut(new RequestBound("size", `an answer over ${maxBytes} bytes: stopped reading it`));
              else parts.push(part);
            });
            res.on("end", () => done(() => resolve({ status: res.statusCode ?? 0, headers: headerMap(res), body: Buffer.concat(parts) })));
            res.on("error", (error) => done(() => reject(error)));
          },
        );
        // The socket is destroyed with the request: a cut-off answer's connection is never reused.
        const cut = (reason: RequestBound): void => {
          done(() => reject(reason));
          req.destroy();
        };
        const timer = setTimeout(() => cut(new RequestBound("timeout", `no complete answer in ${timeoutMs} ms`)), timeoutMs);
        inFlight.add(cut);
        const done = (settle: () => void): void => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          inFlight.delete(cut);
          settle();
        };
        req.on("error", (error) => done(() => reject(error)));
        req.end();
      });
    },
    abort(reason) {
      aborted = reason;
      for (const cut of [...inFlight]) cut(reason);
    },
    close: () => agent.destroy(),
  };
}

/** The answer's headers from Node's raw list, so a repeated header keeps every value. */
function headerMap(res: IncomingMessage): Map<string, string> {
  const headers = new Map<string, string>();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
    const name = (res.rawHeaders[i] as string).toLowerCase();
    const value = res.rawHeaders[i + 1] as string;
    const before = headers.get(name);
    headers.set(name, before === undefined ? value : `${before}, ${value}`);
  }
  return headers;
}

/**
 * Errors that say the deployment cannot be reached at all (nothing listens, no such name, a TLS
 * handshake refused, a certificate not trusted): every other request would fail the same way, so
 * the check stops at the first with one line instead of listing each request.
 */
export function isConnectionError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (typeof code !== "string") return false;
  return CONNECTION_CODES.has(code) || /CERT|^ERR_TLS_|^ERR_SSL_|SELF_SIGNED|UNABLE_TO_(?:GET|VERIFY)/.test(code);
}

const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "EPROTO",
  "ECONNRESET",
]);

/** What to do about a connection error, for its one line. */
export function connectionHint(error: unknown): Message {
  const code = (error as NodeJS.ErrnoException | null)?.code ?? "";
  if (/CERT|SELF_SIGNED|UNABLE_TO_(?:GET|VERIFY)/.test(code)) return msg("hint.connect-certificate");
  if (code === "EPROTO" || code.startsWith("ERR_SSL_")) return msg("hint.connect-protocol");
  if (code === "ECONNREFUSED") return msg("hint.connect-refused");
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return msg("hint.connect-host");
  return msg("hint.connect-other");
}

/**
 * The most body bytes read of one answer: a few times what the built site answers, so a server
 * that streams without end (or a wrong, huge page) costs the check bounded memory; at least 64 KB,
 * room for a host's own error page where the contract's answer is short.
 */
export function maxAnswerBytes(expectedBytes: number): number {
  return Math.max(ANSWER_FACTOR * expectedBytes, MIN_ANSWER_BYTES);
}
const ANSWER_FACTOR = 4;
const MIN_ANSWER_BYTES = 64 * 1024;
