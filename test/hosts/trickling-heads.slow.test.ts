/**
 * The trickling slowloris against the preview and `subjekti serve` (the same server, started with
 * each one's options): hundreds of connections that each send one header line at a time and never
 * finish their head, nor close after their 408. The bounds are tested under a head's deadline no
 * test lives to see, the deadline itself under a short one (the limits are options); every
 * assertion is made on evidence (which sockets the server closed, and when an answer came), never
 * on a guessed delay. Loopback only: the clients bind 127.0.0.x addresses of
 * their own, so one address can be told from another.
 */
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PREVIEW_LIMITS, type PreviewOptions, startPreview } from "../../src/serve/preview-server.ts";
import { buildFixture } from "./fixture-site.ts";

/**
 * The head's deadline where a test watches it close connections: short, so the test waits little.
 * Nothing else is timed by it: the tests of the bounds run under NEVER_MS, so however slowly a
 * loaded machine opens their hundreds of connections, none is closed by the clock meanwhile.
 */
const HEAD_DEADLINE_MS = 3_000;
/** A head's deadline no test lives to see (each test's own timeout is 60 s). */
const NEVER_MS = 600_000;
const TRICKLE_EVERY_MS = 250;

let site: Awaited<ReturnType<typeof buildFixture>>;

beforeAll(async () => {
  site = await buildFixture();
});
afterAll(async () => {
  await site?.remove();
});

/** A client that sends a request line, then one header line every TRICKLE_EVERY_MS, for ever: it never closes its side. */
interface Trickler {
  readonly socket: Socket;
  /** When the connection was established (ms, performance.now()). */
  readonly connectedAt: number;
  /** When the server closed it (ms), or undefined while it is open. */
  closedAt: number | undefined;
  /** Everything the server sent. */
  received: string;
}

function trickle(port: number, localAddress: string): Promise<Trickler> {
  return new Promise((done, fail) => {
    // allowHalfOpen: the server's FIN (a 408 then end()) does not close the client's side.
    const socket = connect({ host: "127.0.0.1", port, localAddress, allowHalfOpen: true });
    socket.once("error", fail);
    socket.once("connect", () => {
      socket.off("error", fail);
      // A reset by the server (it closed with our bytes unread) closes the socket too.
      socket.on("error", () => {});
      const trickler: Trickler = { socket, connectedAt: performance.now(), closedAt: undefined, received: "" };
      socket.on("data", (chunk: Buffer) => (trickler.received += chunk.toString("latin1")));
      socket.write("GET /api/subjekti/ HTTP/1.1\r\nHost: testserver\r\n");
      let line = 0;
      const timer = setInterval(() => {
        if (socket.writable) socket.write(`X-Line-${(line += 1)}: a\r\n`);
      }, TRICKLE_EVERY_MS);
      socket.once("close", () => {
        clearInterval(timer);
        trickler.closedAt = performance.now();
      });
      done(trickler);
    });
  });
}

/** A normal request from `localAddress`: its status, or null when the connection was closed unanswered. */
function normalRequest(port: number, localAddress: string): Promise<number | null> {
  return new Promise((done) => {
    const socket = connect({ host: "127.0.0.1", port, localAddress });
    let received = "";
    socket.on("error", () => {});
    socket.on("connect", () => socket.write("GET /api/subjekti/?limit=1 HTTP/1.1\r\nHost: testserver\r\nConnection: close\r\n\r\n"));
    socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
    socket.on("close", () => done(received === "" ? null : Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1])));
  });
}

/**
 * A normal request from `localAddress` sent again while it is refused (the server lets a closed
 * connection go a moment after its client sees it closed): the status of the first one answered.
 */
async function answeredAgain(port: number, localAddress: string): Promise<number> {
  for (;;) {
    const status = await normalRequest(port, localAddress);
    if (status !== null) return status;
    await new Promise((wake) => setTimeout(wake, 20));
  }
}

/** Resolves once `test` holds, looking every 20 ms (the test's own timeout bounds it). */
async function until(test: () => boolean): Promise<void> {
  while (!test()) await new Promise((wake) => setTimeout(wake, 20));
}

const open = (tricklers: readonly Trickler[]): Trickler[] => tricklers.filter((t) => t.closedAt === undefined);

/** The preview's options, and those `subjekti serve` starts the same server with (src/cli/serve.ts). */
const SERVERS: [string, Omit<PreviewOptions, "dir" | "port" | "host">][] = [
  ["the preview", {}],
  ["subjekti serve", { allowedHosts: ["testserver"], health: true }],
];

describe.each(SERVERS)("%s against a trickling slowloris", (_name, serverOptions) => {
  const start = (headersTimeoutMs: number) =>
    startPreview({ dir: site.dir, port: 0, host: "127.0.0.1", ...serverOptions, limits: { headersTimeoutMs } });

  it("520 trickling connections from one address: it keeps its own bound of them, closes the rest unanswered, and answers another address at once", async () => {
    const preview = await start(NEVER_MS);
    const port = Number(new URL(preview.url).port);
    const tricklers: Trickler[] = [];
    try {
      for (let i = 0; i < 520; i++) tricklers.push(await trickle(port, "127.0.0.1"));
      const perAddress = PREVIEW_LIMITS.maxConnectionsPerAddress;
      // Those over the address's bound are closed at once, unanswered.
      await until(() => open(tricklers).length <= perAddress);
      expect(tricklers.filter((t) => t.closedAt !== undefined).every((t) => t.received === "")).toBe(true);

      expect(await normalRequest(port, "127.0.0.2")).toBe(200);
      // Answered while every connection the server kept was still held: it did not wait them out.
      expect(open(tricklers)).toHaveLength(perAddress);
      expect(open(tricklers).every((t) => t.received === "")).toBe(true);
    } finally {
      for (const trickler of tricklers) trickler.socket.destroy();
      await preview.close();
    }
  }, 60_000);

  it("at the head's deadline: each kept connection answered 408 and closed, never before it, though its client keeps sending; the address is answered again", async () => {
    const preview = await start(HEAD_DEADLINE_MS);
    const port = Number(new URL(preview.url).port);
    const tricklers: Trickler[] = [];
    try {
      // As many as the address may hold: none is refused, whenever each is opened.
      for (let i = 0; i < PREVIEW_LIMITS.maxConnectionsPerAddress; i++) tricklers.push(await trickle(port, "127.0.0.1"));
      await until(() => open(tricklers).length === 0);
      for (const kept of tricklers) {
        expect(kept.received).toMatch(/^HTTP\/1\.1 408 /);
        expect((kept.closedAt ?? 0) - kept.connectedAt).toBeGreaterThanOrEqual(HEAD_DEADLINE_MS - 50);
      }
      expect(await answeredAgain(port, "127.0.0.1")).toBe(200);
    } finally {
      for (const trickler of tricklers) trickler.socket.destroy();
      await preview.close();
    }
  }, 60_000);

  it("trickling connections from nine addresses that fill the server: another address refused meanwhile, answered again once they are gone", async () => {
    const preview = await start(NEVER_MS);
    const port = Number(new URL(preview.url).port);
    const tricklers: Trickler[] = [];
    try {
      for (let address = 10; address < 19; address++)
        for (let i = 0; i < 58; i++) tricklers.push(await trickle(port, `127.0.0.${address}`));
      const total = PREVIEW_LIMITS.maxConnections;
      await until(() => open(tricklers).length <= total);
      expect(open(tricklers)).toHaveLength(total);
      expect(await normalRequest(port, "127.0.0.2")).toBeNull();
      // The clients go (the deadline's own closing is the test above): the server takes new ones again.
      for (const trickler of tricklers) trickler.socket.destroy();
      expect(await answeredAgain(port, "127.0.0.2")).toBe(200);
    } finally {
      for (const trickler of tricklers) trickler.socket.destroy();
      await preview.close();
    }
  }, 60_000);
});
