/**
 * Real nginx (Debian's nginx-light) in front of a real `subjekti serve` process, both on loopback:
 * nginx runs with a temp prefix, pid file, error log and temp paths, with the configuration
 * `subjekti nginx` prints included at its http level, exactly as a deployer includes it.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { userInfo } from "node:os";
import { join, resolve } from "node:path";
import { connect } from "node:net";
import { runCli } from "../run-cli.ts";
import { firstLine, freePort, type Host, stopChild } from "./hosts.ts";
import { sendRaw } from "./raw-http.ts";
import { CLI_ENTRY } from "../cli-entry.ts";
import { portListeners } from "./port-owner.ts";

const REPO = resolve(import.meta.dirname, "../..");

/** The nginx binary: on PATH, or where Debian puts it (/usr/sbin is not on every user's PATH). */
export const NGINX: string | null = (() => {
  for (const dir of [...(process.env["PATH"] ?? "").split(":"), "/usr/sbin", "/usr/local/sbin"]) {
    if (dir !== "" && existsSync(join(dir, "nginx"))) return join(dir, "nginx");
  }
  return null;
})();

/** Is nginx's absence a failure (CI) rather than a reason to skip? */
export const REQUIRE_NGINX = process.env["SUBJEKTI_REQUIRE_NGINX"] === "1";

/** The nginx version line (`nginx/1.22.1`), for test names. */
export function nginxVersion(): string {
  if (NGINX === null) return "nginx missing";
  // nginx -v prints to stderr.
  return spawnSync(NGINX, ["-v"], { encoding: "utf8" })
    .stderr.trim()
    .replace(/^nginx version: /, "");
}

/**
 * `subjekti serve` as a child process, stopped and started again by the tests: the sources through
 * tsx, as every test runs them (bin/subjekti.js runs the compiled lib/, which may be older than
 * src/; test/cli/compiled-cli.slow.test.ts covers that path).
 */
export interface ServeProcess {
  readonly port: number;
  readonly child: ChildProcess;
}

/** Starts `subjekti serve --dir <dir> --port <port>` with `args`; resolves once it listens. */
export async function startServe(dir: string, port: number, args: readonly string[] = []): Promise<ServeProcess> {
  const child = spawn(process.execPath, [...CLI_ENTRY, "serve", "--dir", dir, "--port", String(port), ...args], {
    cwd: REPO,
    stdio: ["ignore", "pipe", "pipe"],
  });
  await firstLine(
    child,
    (line) => {
      if (!line.startsWith("subjekti serve: http://")) throw new Error("not yet");
    },
    60_000,
  );
  return { port, child };
}

/** nginx and `subjekti serve` for the site in `dir`, as the request table's `nginx` host. */
export interface NginxHost extends Host {
  readonly port: number;
  readonly prefix: string;
  serve: ServeProcess | null;
  /** Stops `subjekti serve` (SIGTERM) and waits for its exit code. */
  stopServe(): Promise<number | null>;
  /** Starts `subjekti serve` again on the upstream's port (with other arguments when given). */
  startServe(args?: readonly string[]): Promise<void>;
}

/**
 * Starts `subjekti serve` and nginx in front of it (on `nginxPort`, else a free port) for the site
 * in `dir`; `prefix` is nginx's own temp directory (created here). The Host `testserver` makes links the fixture's public origin.
 */
export async function nginxHost(
  dir: string,
  prefix: string,
  serveArgs: readonly string[] = [],
  nginxPort?: number,
  /** nginx over TLS with this certificate (for the Host `testserver`), trusted by `send`. */
  tls?: { readonly cert: string; readonly key: string },
): Promise<NginxHost> {
  if (NGINX === null) throw new Error("nginx is not installed (apt-get install nginx-light)");
  const [port, upstream] = [nginxPort ?? (await freePort()), await freePort()];
  await mkdir(join(prefix, "temp"), { recursive: true });
  const listen =
    tls === undefined
      ? ["--listen", `127.0.0.1:${port}`]
      : ["--listen", `127.0.0.1:${port} ssl`, "--ssl-certificate", tls.cert, "--ssl-certificate-key", tls.key];
  const generated = await runCli(["nginx", "--dir", dir, ...listen, "--upstream", `127.0.0.1:${upstream}`]);
  const trust = tls === undefined ? undefined : { ca: await readFile(tls.cert, "utf8"), servername: "testserver" };
  if (generated.code !== 0) throw new Error(`subjekti nginx failed: ${generated.stderr}`);
  await writeFile(join(prefix, "subjekti.conf"), generated.stdout);
  await writeNginxConf(prefix, [generated.stdout]);
  const serve = await startServe(dir, upstream, serveArgs);
  const nginx = await runNginx(prefix, [port]).catch(async (error: unknown) => {
    await stopChild(serve.child);
    throw error;
  });
  const host: NginxHost = {
    name: "nginx",
    port,
    prefix,
    serve,
    send: (method, target, headers, encoding) =>
      sendRaw(port, method, target, { Host: "testserver", ...headers }, encoding, undefined, trust),
    async stopServe() {
      const child = host.serve?.child;
      host.serve = null;
      if (child === undefined) return null;
      const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
      await stopChild(child);
      return exited;
    },
    async startServe(args = serveArgs) {
      host.serve = await startServe(dir, upstream, args);
    },
    async stop() {
      await host.stopServe();
      await stopChild(nginx);
    },
  };
  return host;
}

/**
 * nginx.conf in `prefix` including each generated configuration (written beside it as site-N.conf),
 * with the map sizes each one's comment asks for set once at the http level (the largest), as a
 * deployer sets them; every path nginx writes is under `prefix`.
 */
export async function writeNginxConf(prefix: string, configs: readonly string[]): Promise<string> {
  await mkdir(join(prefix, "temp"), { recursive: true });
  const temp = (name: string): string => `${name}_temp_path ${join(prefix, "temp", name)};`;
  const largest = (setting: string): number =>
    Math.max(...configs.map((text) => Number(new RegExp(`^#\\s+${setting} (\\d+);$`, "m").exec(text)?.[1] ?? 0)));
  const includes: string[] = [];
  for (const [i, text] of configs.entries()) {
    await writeFile(join(prefix, `site-${i}.conf`), text);
    includes.push(`    include ${join(prefix, `site-${i}.conf`)};`);
  }
  const conf = join(prefix, "nginx.conf");
  await writeFile(
    conf,
    [
      // As root, nginx's workers would drop to `nobody`, who cannot read a private temp directory.
      ...(process.getuid?.() === 0 ? [`user ${userInfo().username};`] : []),
      "worker_processes 1;",
      `pid ${join(prefix, "nginx.pid")};`,
      `error_log ${join(prefix, "error.log")} warn;`,
      "events { worker_connections 512; }",
      "http {",
      "    access_log off;",
      `    map_hash_max_size ${largest("map_hash_max_size")};`,
      `    map_hash_bucket_size ${largest("map_hash_bucket_size")};`,
      `    ${temp("client_body")} ${temp("proxy")} ${temp("fastcgi")} ${temp("uwsgi")} ${temp("scgi")}`,
      ...includes,
      "}",
      "",
    ].join("\n"),
  );
  return conf;
}

/** nginx run in the foreground on `prefix`'s nginx.conf; resolves once every port accepts connections. */
export async function runNginx(prefix: string, ports: readonly number[]): Promise<ChildProcess> {
  if (NGINX === null) throw new Error("nginx is not installed (apt-get install nginx-light)");
  const nginx = spawn(NGINX, ["-p", prefix, "-c", join(prefix, "nginx.conf"), "-e", join(prefix, "error.log"), "-g", "daemon off;"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  nginx.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    for (const port of ports) await listening(port, nginx, () => stderr);
  } catch (error) {
    // Not left behind: an nginx still retrying its bind would take the port once its holder goes.
    await stopChild(nginx);
    throw error;
  }
  return nginx;
}

/**
 * Resolves once `port` accepts connections on nginx's own socket; rejects with nginx's stderr if it
 * exits first. A connect alone would also succeed on a process that took the port between its pick
 * and nginx's bind (nginx then retries its bind and exits), and every request would go there: so
 * the listener must be nginx, and a failure names the process that holds the port instead.
 */
async function listening(port: number, nginx: ChildProcess, stderr: () => string): Promise<void> {
  let holders = "";
  const exited = new Promise<never>((_done, fail) =>
    nginx.once("exit", (code) => fail(new Error(`nginx exited with ${code}: ${stderr()}${holders}`))),
  );
  for (let tries = 0; tries < 200; tries++) {
    if (await Promise.race([exited, canConnect(port)])) {
      const listeners = await portListeners(port);
      if (listeners.some((listener) => listener.pid === nginx.pid)) return;
      holders = listeners.map((listener) => `\nport ${port} is held by pid ${listener.pid}: ${listener.command}`).join("");
    }
    await new Promise((wait) => setTimeout(wait, 50));
  }
  throw new Error(`nginx did not listen on ${port}: ${stderr()}${holders}`);
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      done(true);
    });
    socket.once("error", () => done(false));
  });
}
