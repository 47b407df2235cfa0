/**
 * The preview's HTTP server and its bounds: what one client can make it hold (heads, connections,
 * time), set where the server is created so every bound on a connection is in one place; and its
 * life, listening, closed at once or drained.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** What one client can make the preview hold, and for how long. */
export interface PreviewLimits {
  /** Bytes of request line and headers (answered 431 beyond). */
  readonly maxHeaderBytes: number;
  /** Open connections at once; further ones are closed unanswered until one ends. */
  readonly maxConnections: number;
  /**
   * Open connections at once from one address; further ones from it are closed unanswered until
   * one of its own ends, so one client cannot take all of `maxConnections`.
   */
  readonly maxConnectionsPerAddress: number;
  /**
   * Milliseconds to send the whole request line and headers, counted from the connection's start
   * (on a kept-alive one, from the next request's first byte), however steadily bytes trickle in:
   * then 408, and the connection is closed.
   */
  readonly headersTimeoutMs: number;
  /** Milliseconds a kept-alive connection may wait for its next request (no byte moving at all: head + idle). */
  readonly idleTimeoutMs: number;
}

/**
 * Long queries are answered, not refused (DRF copies every parameter into the links), up to a
 * limit no real client reaches: twice the 64 KB that Deno and CDNs allow, yet small enough that
 * `maxConnections` unfinished heads hold at most 64 MB. One address holds at most an eighth of the
 * connections (a browser opens 6 to a host; an office behind one NAT address gets 64), so a
 * slowloris needs eight addresses to fill the server, and then holds it for one head's timeout.
 */
export const PREVIEW_LIMITS: PreviewLimits = {
  maxHeaderBytes: 128 * 1024,
  maxConnections: 512,
  maxConnectionsPerAddress: 64,
  headersTimeoutMs: 10_000,
  idleTimeoutMs: 5_000,
};

/** An HTTP server (not yet listening) that hands each request within `limits` to `onRequest`. */
export function boundedServer(limits: PreviewLimits, onRequest: (req: IncomingMessage, res: ServerResponse) => void): Server {
  const server = createServer(
    {
      maxHeaderSize: limits.maxHeaderBytes,
      // Checked by the handler, so that the answer is the contract's JSON rather than Node's bare 400.
      requireHostHeader: false,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.headersTimeoutMs + limits.idleTimeoutMs,
      keepAliveTimeout: limits.idleTimeoutMs,
      // Node looks for expired heads every 30 s by default: a slowloris would outlive the timeout.
      connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs / 2),
    },
    onRequest,
  );
  server.maxConnections = limits.maxConnections;
  boundConnectionsPerAddress(server, limits.maxConnectionsPerAddress);
  // A connection where no byte moves either way (a client that stops reading its answer) is
  // closed; later than the head's timeout, so that a slow head is answered 408 first.
  server.setTimeout(stallTimeoutMs(limits));
  return server;
}

/** Milliseconds a connection may go with no byte moving, and an answer written on a bare socket may take. */
export function stallTimeoutMs(limits: PreviewLimits): number {
  return limits.headersTimeoutMs + limits.idleTimeoutMs;
}

/** Closes, unanswered, every connection from an address that already holds `max` of them. */
function boundConnectionsPerAddress(server: Server, max: number): void {
  const open = new Map<string, number>();
  server.on("connection", (socket: Socket) => {
    // A socket whose peer is already gone has no address: it closes by itself.
    const address = socket.remoteAddress;
    if (address === undefined) return;
    const count = open.get(address) ?? 0;
    if (count >= max) {
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
}

/**
 * Sends `bytes` on a connection Node's server handed over (a request its parser refused or timed
 * out, a CONNECT) and closes it. Node took the connection's timeout off when it handed it over,
 * and a socket only ended stays open, counted against `maxConnections`, for as long as its client
 * keeps sending: so it is destroyed once the bytes are handed to the system, or after `stallMs`
 * if the client does not read them.
 */
export function endConnection(socket: Socket, bytes: string | Buffer, stallMs: number): void {
  const cut = setTimeout(() => socket.destroy(), stallMs);
  socket.once("close", () => clearTimeout(cut));
  socket.end(bytes, () => socket.destroy());
}

/** Listens on `host`:`port`; rejects when it cannot (the port taken, the address unknown). */
export function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((done, fail) => {
    server.once("error", fail);
    server.listen(port, host, () => {
      server.off("error", fail);
      done();
    });
  });
}

/** Stops at once: every connection is closed, answers in flight too. */
export function closeNow(server: Server): Promise<void> {
  return new Promise<void>((done) => {
    server.close(() => done());
    server.closeAllConnections();
  });
}

/** Stops accepting, lets the answers in flight finish for at most `graceMs`, then cuts the rest. */
export function drain(server: Server, graceMs: number): Promise<void> {
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
