/**
 * `subjekti check` against servers that would hold it without end: one that streams an endless
 * body, one that never answers, one that drips its answer a byte at a time. The check runs as a
 * child process (its peak memory read from /proc as it runs) and must end within its --deadline,
 * in bounded memory, saying in one line which bound each request met.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { maxAnswerBytes } from "../../src/check/send-request.ts";
import { buildFixture } from "../hosts/fixture-site.ts";
import { CLI_ENTRY } from "../cli-entry.ts";

const REPO = resolve(import.meta.dirname, "../..");
/** The check's whole run may take this much longer than its --deadline (start-up under tsx, the last lines). */
const START_UP_MS = 20_000;
/** Peak memory the check may reach: Node and tsx take about 150 MB; an endless body took gigabytes in seconds. */
const MAX_PEAK_MB = 400;

let site: Awaited<ReturnType<typeof buildFixture>>;
beforeAll(async () => {
  site = await buildFixture();
});
afterAll(async () => {
  await site?.remove();
});

/** A server whose every answer is `answer(res)`, with the paths it was asked (`asked`); its sockets are destroyed when it stops. */
async function hostileServer(
  answer: (res: ServerResponse) => void,
): Promise<{ url: string; asked: readonly string[]; stop: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const asked: string[] = [];
  const server: Server = createServer((req, res) => {
    asked.push(req.url ?? "");
    answer(res);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    asked,
    stop: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}

/** Writes 64 KB chunks as fast as the client reads them, until the connection is gone. */
function endlessBody(res: ServerResponse): void {
  const chunk = Buffer.alloc(64 * 1024, "[");
  res.writeHead(200, { "Content-Type": "application/json" });
  let closed = false;
  res.on("close", () => (closed = true));
  // One chunk a turn of the event loop: a write to a connection already gone can still return true.
  const pump = (): void => {
    if (closed) return;
    if (res.write(chunk)) setImmediate(pump);
    else res.once("drain", pump);
  };
  pump();
}

/** Sends the head, then one byte of body every 50 ms. */
function slowDrip(res: ServerResponse): void {
  res.writeHead(200, { "Content-Type": "application/json" });
  const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write("{")), 50);
  res.on("close", () => clearInterval(timer));
}

interface Run {
  readonly code: number | null;
  readonly output: string;
  readonly ms: number;
  readonly peakMb: number;
}

/**
 * The downloads' paths (both of each): the check asks them after the pages, so against a server
 * that holds each request its whole --timeout the deadline comes before them, and they must be
 * counted unchecked without being asked (each would wait out its --timeout past the deadline).
 */
function downloadPaths(): string[] {
  const paths = (site.manifest.downloads ?? []).flatMap((download) => [download.path, download.immutablePath]);
  expect(paths.length).toBeGreaterThan(0);
  return paths;
}

/** The downloads were counted in the check (as unchecked: none is listed as a difference) and never asked. */
function expectDownloadsUnasked(run: Run, asked: readonly string[]): void {
  const downloads = downloadPaths();
  expect(run.output).toMatch(new RegExp(`\\(.*\\b${downloads.length} download\\b.*\\) in [\\d.]+ s`));
  expect(run.output).not.toMatch(/\(download\):/);
  expect(asked.filter((path) => downloads.includes(path))).toEqual([]);
  // The deadline came during the pages (each held its whole --timeout): some of them are unchecked too.
  const unchecked = Number(/stopped at the deadline of \d+ s: (\d+) of \d+ requests were not checked/.exec(run.output)?.[1]);
  expect(unchecked).toBeGreaterThan(downloads.length);
  // Every request checked failed at its --timeout; the downloads, neither asked nor failed, are among the unchecked.
  const checked = Number(/\((\d+) checked before the deadline\)/.exec(run.output)?.[1]);
  expect(run.output).toMatch(new RegExp(`: ${checked} differ\n`));
}

/** `subjekti check <url> --dir <fixture> …args` as a child process: its exit code, output, wall time and peak resident memory. */
function runCheck(url: string, args: readonly string[]): Promise<Run> {
  const started = performance.now();
  const child = spawn(process.execPath, [...CLI_ENTRY, "check", url, "--dir", site.dir, "--quiet", ...args], {
    cwd: REPO,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  let peakKb = 0;
  const sample = setInterval(() => {
    try {
      const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1];
      if (hwm !== undefined) peakKb = Math.max(peakKb, Number(hwm));
    } catch {
      // Exited between two samples.
    }
  }, 25);
  return new Promise((done) => {
    child.on("exit", (code) => {
      clearInterval(sample);
      done({ code, output, ms: performance.now() - started, peakMb: peakKb / 1024 });
    });
  });
}

describe("check is bounded", () => {
  it("an endless body -> every answer cut at its size bound, one line each; the check ends in bounded memory", async () => {
    const server = await hostileServer(endlessBody);
    try {
      const run = await runCheck(server.url, ["--timeout", "5000", "--deadline", "60", "--concurrency", "4"]);
      expect(run.code, run.output).toBe(1);
      expect(run.output).toMatch(/answer: expected status 200, got an answer over \d+ bytes: stopped reading it \(\d+ expected\)/);
      expect(run.output).not.toMatch(/no complete answer|deadline/);
      expect(run.peakMb, run.output).toBeLessThan(MAX_PEAK_MB);
      expect(run.ms).toBeLessThan(60_000 + START_UP_MS);
    } finally {
      await server.stop();
    }
  });

  it("a server that never answers -> the requests in flight time out, and the check stops at its --deadline", async () => {
    const server = await hostileServer(() => {});
    try {
      const run = await runCheck(server.url, ["--timeout", "1500", "--deadline", "4", "--concurrency", "4"]);
      expect(run.code, run.output).toBe(1);
      expect(run.output).toMatch(/got no complete answer in 1500 ms/);
      expect(run.output).toMatch(/stopped at the deadline of 4 s: \d+ of \d+ requests were not checked/);
      expect(run.output).toMatch(/was not checked whole within --deadline 4 s/);
      expectDownloadsUnasked(run, server.asked);
      expect(run.ms).toBeLessThan(4_000 + START_UP_MS);
      expect(run.peakMb).toBeLessThan(MAX_PEAK_MB);
    } finally {
      await server.stop();
    }
  });

  it("a slow drip (a byte every 50 ms) -> each answer cut at --timeout though bytes keep coming; the deadline ends the check", async () => {
    const server = await hostileServer(slowDrip);
    try {
      const run = await runCheck(server.url, ["--timeout", "1000", "--deadline", "3", "--concurrency", "4"]);
      expect(run.code, run.output).toBe(1);
      expect(run.output).toMatch(/got no complete answer in 1000 ms/);
      expect(run.output).toMatch(/stopped at the deadline of 3 s/);
      expectDownloadsUnasked(run, server.asked);
      expect(run.ms).toBeLessThan(3_000 + START_UP_MS);
      expect(run.peakMb).toBeLessThan(MAX_PEAK_MB);
    } finally {
      await server.stop();
    }
  });

  it("the size bound: four times the expected answer, at least 64 KB", () => {
    expect(maxAnswerBytes(0)).toBe(64 * 1024);
    expect(maxAnswerBytes(276_000)).toBe(1_104_000);
  });
});
