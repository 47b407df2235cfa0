/**
 * `bench soak`: the preview under attack for a bounded time, on 127.0.0.1 only. It builds the
 * sample data (data/), starts `subjekti preview` in its own process, and runs at once: slowloris
 * (a request line, then a header line every 2 s, never finishing the head, reconnecting whenever
 * closed); large unfinished heads (~120 KB of headers, just under the limit, then a wait); a
 * random mixed load over raw sockets (pages, bad parameters, other methods, static files,
 * traversal attempts, pipelined pairs, refused request lines, resets); and one ordinary keep-alive
 * client whose latency is what the attack costs. It prints the statuses of each, the ordinary
 * client's p50/p99, and the preview's RSS before, at its peak and after each round; it fails on a
 * 5xx other than 505 or a preview that did not survive.
 */
import { rm } from "node:fs/promises";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { tempDir } from "./from-src.ts";
import { CLI, fmt, type Report, rssMb, startPreview, stopServer } from "./parts.ts";

export type SoakOptions = { duration: number; rounds: number };

const HOST = "127.0.0.1";
/** Each round: slowloris connections, connections holding an unfinished head of ~120 KB (the preview's limit is 128 KB), mixed-load clients; RSS read 5 s after it. */
const [SLOWLORIS, LARGE, MIXED_CLIENTS, SETTLE_S] = [300, 200, 8, 5];
const sleep = (ms: number): Promise<unknown> => new Promise((wake) => setTimeout(wake, ms));
/** The requests a client sent and the answers it had, by status (or what happened instead). */
type Tally = { requests: number; statuses: Map<string, number> };
const tally = (): Tally => ({ requests: 0, statuses: new Map<string, number>() });
const count = (tally: Tally, status: string): unknown => tally.statuses.set(status, (tally.statuses.get(status) ?? 0) + 1);

/** Keeps `n` connections that each feed the preview a head that never ends, reconnecting when closed. */
function holdHeads(port: number, n: number, tally: Tally, until: () => boolean, feed: (socket: Socket) => () => void): Set<Socket> {
  const open = new Set<Socket>();
  const one = (): void => {
    if (until()) return;
    const socket = connect({ host: HOST, port });
    let stop = (): void => {};
    let answered = false;
    open.add(socket);
    tally.requests += 1;
    socket.on("connect", () => (stop = feed(socket)));
    socket.on("data", (chunk: Buffer) => {
      if (!answered) count(tally, /^HTTP\/1\.1 (\d{3})/.exec(chunk.toString("latin1"))?.[1] ?? "other");
      answered = true;
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      stop();
      open.delete(socket);
      if (until()) return; // closed by the soak itself
      if (!answered) count(tally, "closed unanswered");
      // A short pause, so a refused connection does not turn into a busy loop.
      setTimeout(one, 200);
    });
  };
  for (let i = 0; i < n; i++) setTimeout(one, (i * 5) % 1_000);
  return open;
}

function slowloris(socket: Socket): () => void {
  socket.write(`GET /api/subjekti/?limit=20 HTTP/1.1\r\nHost: ${HOST}\r\n`);
  let line = 0;
  const timer = setInterval(() => socket.write(`X-Slow-${line++}: ${"a".repeat(8)}\r\n`), 2_000);
  return () => clearInterval(timer);
}

const LARGE_HEAD = `GET /api/subjekti/ HTTP/1.1\r\nHost: ${HOST}\r\n${Array.from({ length: 120 }, (_, i) => `X-Large-${i}: ${"b".repeat(985)}\r\n`).join("")}`;

const MIXED: readonly (() => string | Buffer)[] = [
  () => get(`/api/subjekti/?limit=20&offset=${20 * Math.floor(Math.random() * 20)}`),
  () => get(`/api/subjekti/?limit=${1 + Math.floor(Math.random() * 100)}&offset=${Math.floor(Math.random() * 500)}`),
  () => get(`/api/subjekti/?limit=1&offset=1${"+".repeat(50_000)}1`),
  () => get("/api/subjekti/?limit=abc&format=json"),
  () => get("/api/subjekti/?format=xml"),
  () => get("/api/subjekti", "Accept: text/html\r\n"),
  () => `POST /api/subjekti/ HTTP/1.1\r\nHost: ${HOST}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
  () => `FOO /api/subjekti/ HTTP/1.1\r\nHost: ${HOST}\r\nConnection: close\r\n\r\n`,
  () => get("/_subjekti/manifest.json"),
  () => get("/_subjekti/manifest.json", "Range: bytes=0-10\r\n"),
  () => get("/..%2f..%2fetc/passwd"),
  () => get("/_subjekti/%2e%2e/%2e%2e/etc/passwd"),
  () => `DELETE /_subjekti/manifest.json HTTP/1.1\r\nHost: ${HOST}\r\nConnection: close\r\n\r\n`,
  () => get("/api/subjekti/?limit=5", "", false) + `get /api/subjekti/?limit=3 HTTP/1.1\r\nHost: ${HOST}\r\nConnection: close\r\n\r\n`,
  () => `GET /api/subjekti/ HTTP/2.0\r\nHost: ${HOST}\r\n\r\n`,
  () => `GET /api/subjekti/ HTTP/1.1\r\nConnection: close\r\n\r\n`,
  () => Buffer.from(get("/api/subjekti/?q=čć"), "utf8"),
  () => "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 not http at all\r\n\r\n",
];

function get(target: string, headers = "", close = true): string {
  return `GET ${target} HTTP/1.1\r\nHost: ${HOST}\r\n${headers}${close ? "Connection: close\r\n" : ""}\r\n`;
}

/** One mixed-load client: a random request per connection, the status of every answer counted; one in ten is reset at once. */
async function mixedClient(port: number, tally: Tally, until: () => boolean): Promise<void> {
  while (!until()) {
    const bytes = (MIXED[Math.floor(Math.random() * MIXED.length)] as () => string | Buffer)();
    const reset = Math.random() < 0.1;
    tally.requests += 1;
    await new Promise<void>((done) => {
      const socket = connect({ host: HOST, port });
      const parts: Buffer[] = [];
      socket.setTimeout(15_000, () => socket.destroy());
      socket.on("connect", () => socket.write(bytes, () => (reset ? socket.resetAndDestroy() : undefined)));
      socket.on("data", (chunk: Buffer) => parts.push(chunk));
      socket.on("error", () => {});
      socket.on("close", () => {
        const statuses = [
          ...Buffer.concat(parts)
            .toString("latin1")
            .matchAll(/HTTP\/1\.1 (\d{3}) /g),
        ].map((m) => m[1] ?? "");
        if (reset || statuses.length === 0) count(tally, reset ? "reset by the client" : "closed unanswered");
        for (const status of reset ? [] : statuses) count(tally, status);
        done();
      });
    });
  }
}

/** The ordinary client: GETs one after another (fetch keeps its connection alive); every latency in ms. */
async function ordinaryClient(port: number, tally: Tally, until: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  for (let page = 0; !until(); page++) {
    const start = performance.now();
    const url = `http://${HOST}:${port}/api/subjekti/?limit=20&offset=${20 * (page % 10)}`;
    const status = await fetch(url, { signal: AbortSignal.timeout(15_000) }).then(
      async (answer) => (await answer.arrayBuffer(), String(answer.status)),
      (error: Error) => `error ${(error.cause as { code?: string } | undefined)?.code ?? error.name}`,
    );
    latencies.push(performance.now() - start);
    tally.requests += 1;
    count(tally, status);
    await sleep(10);
  }
  return latencies;
}

const describe = (name: string, { requests, statuses }: Tally): string =>
  `${name}: ${requests} requests (${[...statuses].sort().map(([status, n]) => `${status}: ${n}`).join(", ")})`; // prettier-ignore

/** Rounds of every attack at once, then one more ordinary client to see the preview alive. */
export async function run(options: SoakOptions): Promise<Report> {
  const tmp = await tempDir("subjekti-soak-");
  const { server: preview, port } = await startPreview(CLI, "data", join(tmp, "site"));
  try {
    const after = (ms: number): (() => boolean) => {
      const end = performance.now() + ms;
      return () => performance.now() > end;
    };
    await ordinaryClient(port, tally(), after(1_000));
    const before = rssMb(preview.pid);
    const tallies = { slowloris: tally(), large: tally(), mixed: tally(), ordinary: tally() };
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(preview.pid))), 200);
    const latencies: number[] = [];
    const afterRounds: number[] = [];
    for (let round = 1; round <= options.rounds; round++) {
      const over = after(options.duration * 1_000);
      const slow = holdHeads(port, SLOWLORIS, tallies.slowloris, over, slowloris);
      const large = holdHeads(port, LARGE, tallies.large, over, (socket) => (socket.write(LARGE_HEAD), () => {}));
      const [ordinary] = await Promise.all([
        ordinaryClient(port, tallies.ordinary, over),
        ...Array.from({ length: MIXED_CLIENTS }, () => mixedClient(port, tallies.mixed, over)),
      ]);
      latencies.push(...ordinary);
      for (const socket of [...slow, ...large]) socket.destroy();
      await sleep(SETTLE_S * 1_000);
      afterRounds.push(rssMb(preview.pid));
    }
    clearInterval(sampler);
    const alive = tally();
    await ordinaryClient(port, alive, after(500));
    const sorted = latencies.toSorted((a, b) => a - b);
    const at = (p: number): string => fmt(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0);
    const lines = [
      describe("slowloris connections", tallies.slowloris),
      describe("large unfinished heads", tallies.large),
      describe("mixed load", tallies.mixed),
      describe("ordinary client", tallies.ordinary),
      `ordinary client latency: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${fmt(sorted.at(-1) ?? 0)} ms`,
      `preview RSS: before ${fmt(before, 0)} MB, peak ${fmt(peak, 0)} MB, after each round ${afterRounds.map((mb) => `${fmt(mb, 0)} MB`).join(", ")} (${SETTLE_S} s after it)`,
      describe("after the attack", alive),
    ];
    const fiveXx = [...Object.values(tallies), alive].some((t) => [...t.statuses.keys()].some((s) => /^5(?!05)/.test(s)));
    const failed = fiveXx || preview.exitCode !== null || alive.statuses.get("200") === undefined;
    return { text: lines.join("\n"), rows: [], failures: failed ? ["a 5xx other than 505, or the preview did not survive"] : [] };
  } finally {
    await stopServer(preview);
    await rm(tmp, { recursive: true, force: true });
  }
}
