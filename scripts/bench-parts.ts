/**
 * What the bench scripts share: the seeded datasets cached in .bench/data/, the CLI's build
 * summary, servers started and stopped as child processes, and autocannon runs measured with the
 * server's CPU per request.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { relative, join } from "node:path";
import { performance } from "node:perf_hooks";
import { InvalidArgumentError } from "commander";
import { generateFile } from "./generate-subjects.ts";

export const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
export const BENCH = join(ROOT, ".bench");

/** A set's size as the options give it: 10000, 10k, 1m. */
export function parseCount(text: string): number {
  const match = /^(\d+)([km]?)$/i.exec(text.trim());
  if (match === null) throw new InvalidArgumentError(`expected a size such as 10k or 1m, got "${text}"`);
  return Number(match[1]) * { "": 1, k: 1e3, m: 1e6 }[(match[2] ?? "").toLowerCase() as "" | "k" | "m"];
}

export function positive(text: string): number {
  const n = Number(text);
  if (!(n > 0)) throw new InvalidArgumentError(`expected a positive number, got "${text}"`);
  return n;
}

/** A figure with `digits` decimals, "–" where there is none. */
export const fmt = (n: number, digits = 1): string => (Number.isFinite(n) ? n.toFixed(digits) : "–");

/** How long and how wide one autocannon run is. */
export interface LoadOptions {
  readonly duration: number;
  readonly connections: number;
}

/** Starts a server process and resolves once it prints a line matching `ready`. */
export async function startServer(args: readonly string[], ready: RegExp, cwd = ROOT): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "${ready.source}" within 30 s from node ${args.join(" ")}:\n${output}`)), 30_000);
    const onData = (text: string): void => {
      output += text;
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.setEncoding("utf8").on("data", onData);
    child.stderr?.setEncoding("utf8").on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`node ${args.join(" ")} exited with ${code}:\n${output}`));
    });
  });
  child.removeAllListeners("exit");
  return child;
}

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

/** A port nobody listens on right now (the OS picks it). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** The generator's source hash: a cached dataset is reused only while the generator is the same. */
export async function generatorKey(): Promise<string> {
  const source = await readFile(join(ROOT, "scripts/generate-subjects.ts"));
  return createHash("sha1").update(source).digest("hex").slice(0, 8);
}

/** The directory holding dataset `count` (one subjekti.json; shuffled: in a seeded random order), generated on first use. */
export async function dataset(count: number, seed: string, key: string, edit?: number, shuffle = false): Promise<string> {
  const name = `${label(count)}-seed${seed}-${key}${edit === undefined ? "" : `-edit${edit}`}${shuffle ? "-shuffled" : ""}`;
  const dir = join(BENCH, "data", name);
  const file = join(dir, "subjekti.json");
  if (existsSync(file)) return dir;
  // A dataset of another generator version is stale: drop it (1M is ~330 MB).
  const prefix = `${label(count)}-seed${seed}-`;
  await mkdir(join(BENCH, "data"), { recursive: true });
  for (const old of await readdir(join(BENCH, "data"))) {
    if (old.startsWith(prefix) && !old.startsWith(`${prefix}${key}`)) await rm(join(BENCH, "data", old), { recursive: true, force: true });
  }
  await mkdir(dir, { recursive: true });
  const started = performance.now();
  // Written under a temporary name so a killed run never leaves a truncated dataset in the cache.
  await generateFile({ count, seed, format: "json", shuffle, ...(edit === undefined ? {} : { edit }) }, `${file}.tmp`);
  await rename(`${file}.tmp`, file);
  log(`generated ${relative(ROOT, file)} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return dir;
}

export interface Summary {
  readonly files: number;
  readonly written: number;
  readonly unchanged: number;
  readonly removed: number;
  readonly seconds: number;
}

/** The build's one-line summary (src/cli/build-report.ts `summarise`). */
export function parseSummary(stdout: string): Summary {
  const match = /(?<!\d)(\d+) files, (\d+) written \([^)]*\), (\d+) unchanged, (\d+) removed \([^)]*\) in ([\d.]+)s/.exec(stdout);
  if (match === null) throw new Error(`no summary line in the build's output:\n${stdout}`);
  const [, files, written, unchanged, removed, seconds] = match.map(Number) as number[];
  return { files: files ?? 0, written: written ?? 0, unchanged: unchanged ?? 0, removed: removed ?? 0, seconds: seconds ?? 0 };
}

/** 10000 -> "10k", 1000000 -> "1M". */
export function label(count: number): string {
  if (count >= 1e6 && count % 1e6 === 0) return `${count / 1e6}M`;
  if (count >= 1e3 && count % 1e3 === 0) return `${count / 1e3}k`;
  return String(count);
}

export function log(text: string): void {
  process.stderr.write(`${text}\n`);
}

export interface AutocannonResult {
  readonly requests: { readonly average: number; readonly total: number };
  readonly latency: { readonly p50: number; readonly p99: number };
  readonly errors: number;
  readonly timeouts: number;
  readonly "2xx": number;
  readonly "3xx": number;
  readonly non2xx: number;
}

type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
// autocannon ships no types; its result is narrowed to the fields read here.
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

export async function load(
  url: string,
  headers: Record<string, string>,
  options: LoadOptions,
  expect: number,
  server: ChildProcess,
): Promise<Loaded> {
  // A short warm-up first, so both servers are measured with their code optimised.
  await autocannon({ url, headers, connections: options.connections, duration: 1 });
  const cpuBefore = await processCpuMs(server);
  const result = await autocannon({ url, headers, connections: options.connections, duration: options.duration });
  const cpuAfter = await processCpuMs(server);
  const good = expect === 304 ? result["3xx"] : result["2xx"];
  if (result.errors > 0 || result.timeouts > 0 || good === 0 || result.non2xx - (expect === 304 ? result["3xx"] : 0) > 0) {
    throw new Error(
      `${url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result["2xx"]} 2xx, ${result["3xx"]} 3xx of ${JSON.stringify(result.requests)}`,
    );
  }
  const cpuUs = cpuBefore === null || cpuAfter === null ? null : ((cpuAfter - cpuBefore) * 1000) / result.requests.total;
  return { ...result, cpuUs };
}

/**
 * The CPU time (user + system, ms) a server process has used, from /proc (Linux); null elsewhere.
 * Per request it holds still on a loaded machine, where requests a second follow the load.
 */
export async function processCpuMs(child: ChildProcess): Promise<number | null> {
  try {
    const stat = await readFile(`/proc/${child.pid}/stat`, "utf8");
    // Fields after the command name's closing parenthesis; utime and stime are the 14th and 15th of the line.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/** Linux's USER_HZ: /proc counts CPU time in hundredths of a second on every architecture Node runs on. */
const CLOCK_TICKS = 100;

/** A measured run, and the server's CPU per request over it (µs; null where /proc is not there). */
export type Loaded = AutocannonResult & { readonly cpuUs: number | null };
