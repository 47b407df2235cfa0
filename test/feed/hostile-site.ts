/**
 * A hostile (or broken) site for the change feed's readers, on loopback only: each path answered
 * by a handler the test writes, anything else 404; every connection destroyed on close, so a
 * handler that trickles or never ends cannot hold the test past it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";

export type Handler = (response: ServerResponse, request: IncomingMessage) => void;

export interface HostileSite {
  readonly origin: string;
  /** The paths asked, in order. */
  readonly asked: string[];
  close(): Promise<void>;
}

export async function startHostileSite(
  routes: Readonly<Record<string, Handler>> | ((path: string) => Handler | undefined),
): Promise<HostileSite> {
  const asked: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://x").pathname;
    asked.push(path);
    const handler = typeof routes === "function" ? routes(path) : routes[path];
    if (handler === undefined) response.writeHead(404).end();
    else handler(response, request);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    asked,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A handler answering `body` with 200 (and `headers`). */
export const answer =
  (body: string | Uint8Array, headers: Record<string, string> = {}): Handler =>
  (response) => {
    response.writeHead(200, headers).end(body);
  };

/** A handler that sends one byte of `body` every `everyMs` until the connection goes. */
export const trickle =
  (everyMs: number): Handler =>
  (response) => {
    response.writeHead(200, { "content-type": "application/json" });
    const timer = setInterval(() => response.write(" "), everyMs);
    response.on("close", () => clearInterval(timer));
  };

/** A handler streaming 80 MiB of spaces as fast as the client takes them; it stops once refused (the connection goes). */
export const flood: Handler = (response) => {
  response.writeHead(200);
  const block = Buffer.alloc(1 << 20, 0x20);
  let sent = 0;
  const more = (): void => {
    while (sent < 80 && response.write(block)) sent++;
    if (sent < 80) response.once("drain", more);
    else response.end();
  };
  more();
};
