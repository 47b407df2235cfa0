/**
 * `npm run soak`: the preview under attack for a bounded time, on 127.0.0.1 only. It builds the
 * sample data (data/) into a temp directory, starts `subjekti preview` in its own process, and
 * runs at once:
 *
 * - slowloris: connections that send a request line and then one header line every 2 s, never
 *   finishing the head (reconnecting whenever the preview closes them);
 * - large unfinished heads: connections that send a request line and ~120 KB of headers, just
 *   under the head limit, then wait (reconnecting likewise);
 * - a random mixed load over raw sockets: pages, derived pages, bad parameters, other methods,
 *   static files, traversal attempts, pipelined pairs, refused request lines, resets;
 * - one ordinary client (keep-alive, one request at a time) whose latency is what the attack costs.
 *
 * It prints the requests and statuses of each, the ordinary client's p50/p99, and the preview's
 * RSS before, at its peak and after each round's connections closed.
 *
 *   npm run soak -- [--duration 20] [--rounds 2] [--slowloris 300] [--large 200] [--mixed 8] [--settle 5]
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { Agent, request as httpRequest } from "node:http";
import { connect, createServer, type Socket } from "node:net";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { Command, InvalidArgumentError } from "commander";

const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const HOST = "127.0.0.1";

interface SoakOptions {
  readonly duration: number;
  readonly slowloris: number;
  readonly large: number;
  readonly largeBytes: number;
  readonly mixed: number;
  readonly settle: number;
  readonly rounds: number;
}

function positive(text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new InvalidArgumentError("expected a number ≥ 0");
  return value;
}

function parseOptions(argv: readonly string[]): SoakOptions {
  return new Command("soak")
    .description("slowloris, large unfinished heads and a random mixed load against the preview on 127.0.0.1")
    .option("--duration <s>", "seconds of attack", positive, 20)
    .option("--slowloris <n>", "slowloris connections", positive, 300)
    .option("--large <n>", "connections holding an unfinished head of --large-bytes", positive, 200)
    .option("--large-bytes <n>", "bytes of each unfinished head (the preview's limit is 128 KB)", positive, 120_000)
    .option("--mixed <n>", "concurrent clients of the mixed load", positive, 8)
    .option("--settle <s>", "seconds after each round before its RSS reading", positive, 5)
    .option("--rounds <n>", "attacks one after another (RSS after each: freed memory is reused, not grown)", positive, 2)
    .showHelpAfterError()
    .parse(argv)
    .opts<SoakOptions>();
}

// ---------------------------------------------------------------------------------------------
// The preview in its own process

function run(args: readonly string[]): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ["--import", "tsx", ...args], { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("exit", (code) => (code === 0 ? done() : fail(new Error(`${args.join(" ")} exited with ${code}:\n${stderr}`))));
  });
}

function freePort(): Promise<number> {
  return new Promise((done) => {
    const server = createServer();
    server.listen(0, HOST, () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

function startPreview(dir: string, port: number): Promise<ChildProcess> {
  return new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "src/cli/main.ts", "preview", "--dir", dir, "--port", String(port), "--host", HOST],
      {
        cwd: ROOT,
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("subjekti preview:")) done(child);
    });
    child.once("exit", (code) => fail(new Error(`the preview exited with ${code}`)));
  });
}

/** Resident set size of a process, MB (Linux). */
function rssMb(pid: number): number {
  const match = /VmRSS:\s*(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(match?.[1] ?? 0) / 1024;
}

// ---------------------------------------------------------------------------------------------
// Attackers

interface Tally {
  requests: number;
  readonly statuses: Map<string, number>;
}

function count(tally: Tally, status: string): void {
  tally.statuses.set(status, (tally.statuses.get(status) ?? 0) + 1);
}

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
    socket.on("connect", () => {
      stop = feed(socket);
    });
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

function largeHead(bytes: number): (socket: Socket) => () => void {
  const lines = Math.max(1, Math.floor(bytes / 1_000));
  const head =
    `GET /api/subjekti/ HTTP/1.1\r\nHost: ${HOST}\r\n` +
    Array.from({ length: lines }, (_, i) => `X-Large-${i}: ${"b".repeat(985)}\r\n`).join("");
  return (socket) => {
    socket.write(head);
    return () => {};
  };
}

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
    const bytes = MIXED[Math.floor(Math.random() * MIXED.length)]!();
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
        if (reset) count(tally, "reset by the client");
        else {
          const statuses = [
            ...Buffer.concat(parts)
              .toString("latin1")
              .matchAll(/HTTP\/1\.1 (\d{3}) /g),
          ].map((m) => m[1] ?? "");
          if (statuses.length === 0) count(tally, "closed unanswered");
          for (const status of statuses) count(tally, status);
        }
        done();
      });
    });
  }
}

/** The ordinary client: keep-alive GETs one after another; every latency in ms. */
async function ordinaryClient(port: number, tally: Tally, until: () => boolean): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  let page = 0;
  while (!until()) {
    const start = performance.now();
    const status = await new Promise<string>((done) => {
      const req = httpRequest(
        { host: HOST, port, agent, path: `/api/subjekti/?limit=20&offset=${20 * (page++ % 10)}`, timeout: 15_000 },
        (res) => {
          res.resume();
          res.on("end", () => done(String(res.statusCode)));
        },
      );
      req.on("timeout", () => req.destroy());
      req.on("error", (error) => done(`error ${(error as NodeJS.ErrnoException).code ?? error.message}`));
      req.end();
    });
    latencies.push(performance.now() - start);
    tally.requests += 1;
    count(tally, status);
    await new Promise((wake) => setTimeout(wake, 10));
  }
  agent.destroy();
  return latencies;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

function describeTally(name: string, tally: Tally): string {
  const statuses = [...tally.statuses]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, n]) => `${status}: ${n}`)
    .join(", ");
  return `${name}: ${tally.requests} requests (${statuses})`;
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const options = parseOptions(process.argv);
  const tmp = await mkdtemp(join(tmpdir(), "subjekti-soak-"));
  const port = await freePort();
  const site = join(tmp, "site");
  process.stderr.write(`soak: building data/ into ${site}…\n`);
  await run(["src/cli/main.ts", "build", "--data", "data", "--out", site, "--base-url", `http://${HOST}:${port}`, "--no-cache", "--quiet"]);
  const preview = await startPreview(site, port);
  const pid = preview.pid!;
  try {
    const warm = { requests: 0, statuses: new Map<string, number>() };
    let warmUntil = performance.now() + 1_000;
    await ordinaryClient(port, warm, () => performance.now() > warmUntil);
    const before = rssMb(pid);

    const tallies = {
      slowloris: { requests: 0, statuses: new Map<string, number>() },
      large: { requests: 0, statuses: new Map<string, number>() },
      mixed: { requests: 0, statuses: new Map<string, number>() },
      ordinary: { requests: 0, statuses: new Map<string, number>() },
    };
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(pid));
    }, 200);
    const latencies: number[] = [];
    const afterRounds: number[] = [];
    for (let round = 1; round <= options.rounds; round++) {
      const end = performance.now() + options.duration * 1_000;
      const over = (): boolean => performance.now() > end;
      process.stderr.write(
        `soak: round ${round}: ${options.duration} s of ${options.slowloris} slowloris, ${options.large} × ${options.largeBytes} B unfinished heads, ${options.mixed} mixed clients…\n`,
      );
      const slow = holdHeads(port, options.slowloris, tallies.slowloris, over, slowloris);
      const large = holdHeads(port, options.large, tallies.large, over, largeHead(options.largeBytes));
      const [ordinary] = await Promise.all([
        ordinaryClient(port, tallies.ordinary, over),
        ...Array.from({ length: options.mixed }, () => mixedClient(port, tallies.mixed, over)),
      ]);
      latencies.push(...ordinary);
      for (const socket of [...slow, ...large]) socket.destroy();
      await new Promise((wake) => setTimeout(wake, options.settle * 1_000));
      afterRounds.push(rssMb(pid));
    }
    clearInterval(sampler);
    warmUntil = performance.now() + 500;
    const alive = { requests: 0, statuses: new Map<string, number>() };
    await ordinaryClient(port, alive, () => performance.now() > warmUntil);

    const sorted = latencies.toSorted((a, b) => a - b);
    const lines = [
      `machine: ${cpus().length} cores, load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}; Node ${process.version}`,
      describeTally("slowloris connections", tallies.slowloris),
      describeTally("large unfinished heads", tallies.large),
      describeTally("mixed load", tallies.mixed),
      describeTally("ordinary client", tallies.ordinary),
      `ordinary client latency: p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${(sorted.at(-1) ?? 0).toFixed(1)} ms`,
      `preview RSS: before ${before.toFixed(0)} MB, peak ${peak.toFixed(0)} MB, after each round ${afterRounds.map((mb) => `${mb.toFixed(0)} MB`).join(", ")} (${options.settle} s after it)`,
      describeTally("after the attack", alive),
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
    const fiveXx = [...Object.values(tallies), alive].some((tally) =>
      [...tally.statuses.keys()].some((status) => status.startsWith("5") && status !== "505"),
    );
    if (fiveXx || preview.exitCode !== null || alive.statuses.get("200") === undefined) {
      process.stderr.write("soak: FAILED (a 5xx other than 505, or the preview did not survive)\n");
      process.exitCode = 1;
    }
  } finally {
    preview.kill("SIGTERM");
    await rm(tmp, { recursive: true, force: true });
  }
}

await main();
