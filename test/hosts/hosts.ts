/**
 * The hosts the request table runs against, each behind one `send()`: the edge function called
 * in-process, the preview over real HTTP, the edge function under real Deno, `netlify dev`.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve, sep } from "node:path";
import { createInterface } from "node:readline";
import subjekti, { type EdgeContext } from "../../src/edge/subjekti.ts";
import { startPreview } from "../../src/serve/preview-server.ts";
import { refuseConditional } from "./conditional-headers.ts";
import { BASE } from "./fixture-site.ts";
import { sendRaw } from "./raw-http.ts";
import type { HostName } from "./request-cases.ts";

export interface HostAnswer {
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

export interface Host {
  readonly name: HostName;
  /** `encoding` latin1: each character of `target` is one byte on the wire. */
  send(method: string, target: string, headers: Readonly<Record<string, string>>, encoding?: "utf8" | "latin1"): Promise<HostAnswer>;
  stop(): Promise<void>;
}

const REPO = resolve(import.meta.dirname, "../..");
const BIN = join(REPO, "node_modules/.bin");
const TYPES: Record<string, string> = { json: "application/json", ndjson: "application/x-ndjson" };

/** The CDN in front of a built site, as a fetch-style function: `/_subjekti/*` files or 404; `headers` are the request's. */
export function fixtureCdn(dir: string): (url: string, headers?: Headers) => Promise<Response> {
  return async (url, headers) => {
    const path = decodeURIComponent(new URL(url).pathname);
    const absolute = resolve(dir, `.${path}`);
    if (!path.startsWith("/_subjekti/") || !absolute.startsWith(dir + sep)) return new Response("Not Found", { status: 404 });
    const refused = refuseConditional(path, headers);
    if (refused !== null) return refused;
    try {
      // Read whole (fixture files are small): a FileHandle's web stream is never closed when a
      // body goes unread (HEAD), and Node then closes it on garbage collection, with a warning.
      const bytes = await readFile(absolute);
      const type = TYPES[path.slice(path.lastIndexOf(".") + 1)] ?? "application/octet-stream";
      // A byte range (only ever the edge's own, refuseConditional lets no other through), as a CDN serves it.
      const range = /^bytes=(\d+)-(\d+)$/.exec(headers?.get("range") ?? "");
      if (range !== null && Number(range[1]) < bytes.length) {
        const [start, end] = [Number(range[1]), Math.min(Number(range[2]), bytes.length - 1)];
        const part = bytes.subarray(start, end + 1);
        return new Response(part, {
          status: 206,
          headers: {
            "Content-Type": type,
            "Content-Length": String(part.length),
            "Content-Range": `bytes ${start}-${end}/${bytes.length}`,
          },
        });
      }
      return new Response(bytes, { headers: { "Content-Type": type, "Content-Length": String(bytes.length) } });
    } catch {
      return new Response("Not Found", { status: 404 });
    }
  };
}

/** A Netlify-like context over the fixture CDN; `onNext` sees every `next()` call. */
export function fixtureContext(dir: string, request: Request, onNext?: (url: string | null, response: Response) => void): EdgeContext {
  const cdn = fixtureCdn(dir);
  return {
    async next(rewritten?: Request) {
      if (rewritten !== undefined && new URL(rewritten.url).origin !== new URL(request.url).origin) {
        throw new Error("Edge functions can only rewrite requests to the same host");
      }
      // The request as the edge passed it on: a rewritten file read carries the headers the edge kept.
      const response = await cdn((rewritten ?? request).url, rewritten?.headers);
      onNext?.(rewritten === undefined ? null : rewritten.url, response);
      return response;
    },
  };
}

/** (a) The edge function's default export, called in-process with a `Request`. */
export function edgeHost(dir: string): Host {
  return {
    name: "edge",
    async send(method, target, headers, encoding) {
      // A URL holds text: raw bytes are read as UTF-8 (what the URL parser then percent-encodes).
      const text = encoding === "latin1" ? Buffer.from(target, "latin1").toString("utf8") : target;
      // The Host a case sends is the origin the platform reports (Request.url), as on Netlify.
      const { Host: host, ...rest } = headers;
      const request = new Request(`${host === undefined ? BASE : `http://${host}`}${text}`, { method, headers: rest });
      const response = await subjekti(request, fixtureContext(dir, request));
      const out: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        out[name] = value;
      });
      return { status: response.status, headers: out, body: Buffer.from(await response.arrayBuffer()) };
    },
    stop: async () => {},
  };
}

/** (b) The preview over real HTTP; `Host: testserver` makes its links the fixture's public origin. */
export async function previewHost(dir: string): Promise<Host & { readonly port: number; readonly url: string }> {
  const preview = await startPreview({ dir, port: 0, host: "127.0.0.1" });
  const port = Number(new URL(preview.url).port);
  return {
    name: "preview",
    port,
    url: preview.url,
    send: (method, target, headers, encoding) => sendRaw(port, method, target, { Host: "testserver", ...headers }, encoding),
    stop: () => preview.close(),
  };
}

/** (c) The edge function under real Deno (test/hosts/deno-host.ts), no network but loopback. */
export async function denoHost(dir: string): Promise<Host> {
  const denoDir = await mkdtemp(join(tmpdir(), "subjekti-deno-"));
  const child = spawn(
    denoExe(),
    [
      "run",
      `--allow-net=127.0.0.1`,
      `--allow-read=${dir}`,
      "--no-remote",
      "--no-npm",
      "--no-config",
      "--no-prompt",
      join(REPO, "test/hosts/deno-host.ts"),
      dir,
    ],
    {
      cwd: REPO,
      env: { ...process.env, DENO_DIR: denoDir, DENO_NO_PACKAGE_JSON: "1", DENO_NO_UPDATE_CHECK: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const port = await firstLine(child, (line) => (JSON.parse(line) as { port: number }).port, 60_000);
  return {
    name: "deno",
    send: (method, target, headers, encoding) => sendRaw(port, method, target, { Host: "testserver", ...headers }, encoding),
    stop: async () => {
      await stopChild(child);
      await rm(denoDir, { recursive: true, force: true });
    },
  };
}

/**
 * The Deno binary itself: the package's `bin` is a node script that spawns it and forwards no
 * signal, so a SIGTERM to that script left the server running after the test (an orphan of init).
 * The script stays the fallback where the binary is not in place yet (it installs it).
 */
function denoExe(): string {
  const exe = join(REPO, "node_modules/deno/deno");
  return existsSync(exe) ? exe : join(BIN, "deno");
}

/** Waits for the child's first stdout line that `read` accepts; rejects with its stderr if it exits first. */
export function firstLine<T>(child: ChildProcess, read: (line: string) => T, timeoutMs: number): Promise<T> {
  return new Promise((done, fail) => {
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => fail(new Error(`no ready line in ${timeoutMs} ms; stderr:\n${stderr}`)), timeoutMs);
    const lines = createInterface({ input: child.stdout! });
    lines.on("line", (line) => {
      try {
        const value = read(line);
        clearTimeout(timer);
        done(value);
      } catch {
        // Not the ready line yet.
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`exited with ${code} before it was ready; stderr:\n${stderr}`));
    });
  });
}

/**
 * The ports this test worker hands out: a thousand of its own (vitest's VITEST_POOL_ID numbers the
 * workers that run at once), below Linux's ephemeral range (32768-60999 by default), from which the
 * kernel takes a port for every port-0 bind and the local port of every outgoing connection. A port
 * handed out there and bound by its server a build later could be taken meanwhile by a connection,
 * or handed to the file in the other worker; here neither can take it.
 */
export function workerPorts(pool = Number(process.env["VITEST_POOL_ID"] ?? "1")): { readonly first: number; readonly count: number } {
  return { first: 10_000 + ((pool - 1) % 22) * 1_000, count: 1_000 };
}

/** How many ports this worker has handed out: each is handed out once, in turn, until the range wraps. */
let handedOut = 0;

/** Whether a server can listen on `port` of 127.0.0.1 right now. */
function listenable(port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.once("error", () => done(false));
    server.listen(port, "127.0.0.1", () => server.close(() => done(true)));
  });
}

/** A port free on 127.0.0.1, this worker's next (workerPorts), for a server that cannot be told to pick one itself. */
export async function freePort(): Promise<number> {
  const { first, count } = workerPorts();
  for (let tries = 0; tries < count; tries++) {
    const port = first + (handedOut++ % count);
    if (await listenable(port)) return port;
  }
  throw new Error(`no port free on 127.0.0.1 in ${first}-${first + count - 1}`);
}

/** Stops a child we spawned (by its own pid), SIGKILL if it lingers. */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.once("exit", () => {
      clearTimeout(kill);
      done();
    });
    child.kill("SIGTERM");
  });
}
