/**
 * What the measures share: the report they hand the harness and its one table printer, the
 * seeded datasets cached in .bench/data/ (or $SUBJEKTI_BENCH_DATA), node processes measured to their end, servers started
 * as child processes and loaded with autocannon, and CPU read from /proc.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { join, relative } from "node:path";
import { performance } from "node:perf_hooks";
import type { MeasuredRow } from "../benchmarks-table.ts";
import { generateFile } from "../generate-subjects.ts";

export const ROOT = join(import.meta.dirname, "../..");
export const BENCH = join(ROOT, ".bench");
/**
 * Where the generated sets are kept, by size, seed and generator: .bench/data/, or
 * $SUBJEKTI_BENCH_DATA, so that several checkouts share one copy of the large sets (10M is ~3.3 GB
 * and minutes to generate).
 */
const DATA = process.env["SUBJEKTI_BENCH_DATA"] ?? join(BENCH, "data");
/** The CLI from its sources, as the measures that build or serve run it. */
export const CLI = ["--import", "tsx", "src/cli/main.ts"];

/** What a measure hands the harness: its printed markdown, the rows `--write` records, and what failed. */
export type Report = { text: string; rows: readonly MeasuredRow[]; failures?: readonly string[] };

/** The reports of a measure's parts as one. */
export const joinReports = (parts: readonly Report[]): Report => ({
  text: parts.map((part) => part.text).join("\n\n"),
  rows: parts.flatMap((part) => part.rows),
});

/** A markdown table: a header cell per column (ending in ":" to align it right), then the rows. */
export function table(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const head = header.map((h) => h.replace(/:$/, ""));
  const rule = header.map((h) => (h.endsWith(":") ? "--:" : "---"));
  return [head, rule, ...rows].map((cells) => `| ${cells.join(" | ")} |`).join("\n");
}

/** A figure with `digits` decimals, "–" where there is none. */
export const fmt = (n: number, digits = 1): string => (Number.isFinite(n) ? n.toFixed(digits) : "–");
export const log = (text: string): void => void process.stderr.write(`${text}\n`);

/** The order of round `round` (from 0): A B, then B A, and so on, so that load from other work falls on every side alike. */
export const inTurn = <T>(sides: readonly T[], round: number): readonly T[] => (round % 2 === 0 ? sides : [...sides].reverse());

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? NaN) : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}

/** Runs' medians, field by field (the fields that are numbers; any other is left out). */
export function medians<R extends object>(runs: readonly R[]): R {
  const numbers = Object.entries(runs[0] ?? {}).filter(([, value]) => typeof value === "number");
  return Object.fromEntries(numbers.map(([key]) => [key, median(runs.map((r) => r[key as keyof R] as number))])) as R;
}

/** 10000 -> "10k", 1000000 -> "1M": a set's size as the tables and keys name it. */
export const label = (n: number): string =>
  n >= 1e6 && n % 1e6 === 0 ? `${n / 1e6}M` : n >= 1e3 && n % 1e3 === 0 ? `${n / 1e3}k` : String(n);

/** The directory holding dataset `count` (one subjekti.json; shuffled: in a seeded random order), generated on first use. */
export async function dataset(count: number, seed: string, edit?: number, shuffle = false): Promise<string> {
  // The generator's source hash: a cached dataset is reused only while the generator is the same.
  const key = createHash("sha1")
    .update(readFileSync(join(ROOT, "scripts/generate-subjects.ts")))
    .digest("hex")
    .slice(0, 8);
  const name = `${label(count)}-seed${seed}-${key}${edit === undefined ? "" : `-edit${edit}`}${shuffle ? "-shuffled" : ""}`;
  const dir = join(DATA, name);
  const file = join(dir, "subjekti.json");
  if (existsSync(file)) return dir;
  // A dataset of another generator version is stale: drop it (1M is ~330 MB).
  const prefix = `${label(count)}-seed${seed}-`;
  await mkdir(DATA, { recursive: true });
  for (const old of await readdir(DATA)) {
    if (old.startsWith(prefix) && !old.startsWith(`${prefix}${key}`)) await rm(join(DATA, old), { recursive: true, force: true });
  }
  await mkdir(dir, { recursive: true });
  const started = performance.now();
  // Written under a temporary name so a killed run never leaves a truncated dataset in the cache.
  await generateFile({ count, seed, format: "json", shuffle, ...(edit === undefined ? {} : { edit }) }, `${file}.tmp`);
  await rename(`${file}.tmp`, file);
  log(`generated ${relative(ROOT, file)} in ${fmt((performance.now() - started) / 1000)} s`);
  return dir;
}

/** The files a build wrote, from its one-line summary (src/cli/build-report.ts `summarise`). */
export function writtenFiles(stdout: string): { files: number; written: number } {
  const match = /(?<!\d)(\d+) files, (\d+) written \(/.exec(stdout);
  if (match === null) throw new Error(`no summary line in the build's output:\n${stdout}`);
  return { files: Number(match[1]), written: Number(match[2]) };
}

/**
 * A node process run to its end: wall seconds, CPU seconds (user + system, its children's
 * included, and the two apart), its peak resident set size (MB), its minor page faults (each a
 * page of memory it touched for the first time: what it asked of the machine's memory, whatever
 * the machine charged for it), what it gave the file system to write (MB: GNU time's file system
 * outputs, each page it dirtied, so a small file counts whole pages; the page cache holds them
 * until the kernel writes them out) and what it printed.
 */
export type Measured = {
  seconds: number;
  cpuSeconds: number;
  userSeconds: number;
  systemSeconds: number;
  rssMb: number;
  minorFaults: number;
  writtenMb: number;
  stdout: string;
};

/** Runs `node <args>` to the end: wall time from here, peak RSS, CPU, minor faults and what it wrote from GNU time's %M %U %S %R %O (its file removed after). */
export async function measureNode(args: readonly string[], cwd = ROOT): Promise<Measured> {
  const timeFile = join(BENCH, `time-${process.pid}.txt`);
  await mkdir(BENCH, { recursive: true });
  const started = performance.now();
  const child = spawn("/usr/bin/time", ["-f", "%M %U %S %R %O", "-o", timeFile, process.execPath, ...args], { cwd });
  let [stdout, stderr] = ["", ""];
  child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`node ${args.join(" ")} exited with ${code}:\n${stderr.slice(-2000)}`);
  // The last line: GNU time writes a "Command exited…" line before it only on failure, handled above.
  const [kb, user, system, minor, outputs] = ((await readFile(timeFile, "utf8")).trim().split("\n").at(-1) ?? "").split(" ").map(Number);
  await rm(timeFile, { force: true });
  const [userSeconds, systemSeconds] = [user ?? NaN, system ?? NaN];
  return {
    seconds,
    cpuSeconds: userSeconds + systemSeconds,
    userSeconds,
    systemSeconds,
    rssMb: (kb ?? NaN) / 1024,
    minorFaults: minor ?? NaN,
    // GNU time's %O counts blocks of 512 bytes, whatever the file system's block.
    writtenMb: ((outputs ?? NaN) * 512) / 2 ** 20,
    stdout,
  };
}

/** A file of /proc/<pid>/ (`pid` may name a thread: "<pid>/task/<tid>"), or "" when it is gone (or not Linux). */
export function procFile(pid: number | string | undefined, name: string): string {
  try {
    return readFileSync(`/proc/${pid}/${name}`, "latin1");
  } catch {
    return "";
  }
}

/** Linux's USER_HZ: /proc counts CPU time in hundredths of a second on every architecture Node runs on. */
const CLOCK_TICKS = 100;

/** What a process (or a thread: "<pid>/task/<tid>") has used so far, from /proc: CPU seconds and minor page faults; NaN where it is gone. */
export function procUsage(pid: number | string | undefined): Omit<Measured, "seconds" | "rssMb" | "writtenMb" | "stdout"> {
  const stat = procFile(pid, "stat");
  // Fields after the command name's closing parenthesis: minflt, utime and stime are the 10th, 14th and 15th of the line.
  const fields = stat === "" ? [] : stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const [userSeconds, systemSeconds] = [Number(fields[11]) / CLOCK_TICKS, Number(fields[12]) / CLOCK_TICKS];
  return { cpuSeconds: userSeconds + systemSeconds, userSeconds, systemSeconds, minorFaults: Number(fields[7]) };
}

/** The CPU time (user + system, ms) a process (or a thread) has used, from /proc; NaN where there is none. */
export const cpuMs = (pid: number | string | undefined): number => procUsage(pid).cpuSeconds * 1000;

/** Resident set size of a process now (`VmRSS`), or its peak so far (`VmHWM`), MB. */
export const rssMb = (pid: number | undefined, field: "VmRSS" | "VmHWM" = "VmRSS"): number =>
  Number(new RegExp(`${field}:\\s*(\\d+) kB`).exec(procFile(pid, "status"))?.[1] ?? 0) / 1024;

/** Starts `command <args>` (node by default) and resolves once it prints a line matching `ready`, with the match. */
export async function startServer(args: readonly string[], ready: RegExp, cwd = ROOT, command = process.execPath) {
  const env = { ...process.env, DENO_NO_UPDATE_CHECK: "1", DENO_NO_PACKAGE_JSON: "1" };
  const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const failed = (why: string): Error => new Error(`${command} ${args.join(" ")} ${why}:\n${output}`);
  let timer: NodeJS.Timeout | undefined;
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    timer = setTimeout(() => reject(failed(`printed no "${ready.source}" within 60 s`)), 60_000);
    const onData = (text: string): void => {
      const found = ready.exec((output += text));
      if (found !== null) resolve(found);
    };
    child.stdout.setEncoding("utf8").on("data", onData);
    child.stderr.setEncoding("utf8").on("data", onData);
    child.once("exit", (code) => reject(failed(`exited with ${code}`)));
  }).finally(() => clearTimeout(timer));
  child.removeAllListeners("exit");
  return { child, match };
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

/** `<cli> build` of `data` into `site` for a preview on a free port, then `<cli> preview` of it (`cli`: the CLI's node arguments). */
export async function startPreview(cli: readonly string[], data: string, site: string, cwd = ROOT) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  log(`building ${data} for a preview on ${origin}…`);
  await measureNode([...cli, "build", "--data", data, "--out", site, "--base-url", origin, "--no-cache", "--quiet"], cwd);
  const { child } = await startServer([...cli, "preview", "--dir", site, "--port", String(port)], /subjekti preview:/, cwd);
  return { server: child, origin, port };
}

/** How long and how wide one autocannon run is. */
export type LoadOptions = { duration: number; connections: number };

/** An autocannon run (the fields read here), and the server's CPU per request over it (µs; NaN where /proc is not there). */
export type Loaded = { requests: { average: number; total: number }; latency: { p50: number; p99: number }; cpuUs: number } & {
  [count in "errors" | "timeouts" | "2xx" | "3xx" | "non2xx"]: number;
};

// autocannon ships no types; its result is narrowed to the fields read here.
const autocannon = createRequire(import.meta.url)("autocannon") as (options: Record<string, unknown>) => Promise<Loaded>;

/** `url` under load for `options.duration` after a 1 s warm-up, every answer `expect`ed. */
export async function load(url: string, headers: Record<string, string>, options: LoadOptions, expect: number, server: ChildProcess) {
  // A short warm-up first, so every server is measured with its code optimised.
  await autocannon({ url, headers, connections: options.connections, duration: 1 });
  const cpuBefore = cpuMs(server.pid);
  const result = await autocannon({ url, headers, connections: options.connections, duration: options.duration });
  const cpuUs = ((cpuMs(server.pid) - cpuBefore) * 1000) / result.requests.total;
  const good = expect === 304 ? result["3xx"] : result["2xx"];
  if (result.errors > 0 || result.timeouts > 0 || good === 0 || result.non2xx - (expect === 304 ? result["3xx"] : 0) > 0) {
    throw new Error(
      `${url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result["2xx"]} 2xx, ${result["3xx"]} 3xx of ${JSON.stringify(result.requests)}`,
    );
  }
  return { ...result, cpuUs };
}

/** A built site's files held in memory as a CDN-backed host reaches them: each read from disk once, a Range answered with its bytes alone (unless `ranges` is false); `bytesRead` counts what was sent, the manifest aside. */
export function memoryFiles(
  site: string,
  ranges = true,
): { fetchFile(path: string, range?: { start: number; end: number }): Promise<Response>; bytesRead: number } {
  const files = new Map<string, Uint8Array>();
  const memory = {
    bytesRead: 0,
    async fetchFile(path: string, range?: { start: number; end: number }): Promise<Response> {
      if (!files.has(path) && !existsSync(join(site, path))) return new Response("Not Found", { status: 404 });
      const bytes = files.get(path) ?? readFileSync(join(site, path));
      files.set(path, bytes);
      if (ranges && range !== undefined && range.start < bytes.byteLength) {
        const end = Math.min(range.end, bytes.byteLength);
        memory.bytesRead += end - range.start;
        const headers = { "Content-Range": `bytes ${range.start}-${end - 1}/${bytes.byteLength}` };
        return new Response(bytes.subarray(range.start, end) as Uint8Array<ArrayBuffer>, { status: 206, headers });
      }
      if (!path.endsWith("manifest.json")) memory.bytesRead += bytes.byteLength;
      return new Response(bytes as Uint8Array<ArrayBuffer>);
    },
  };
  return memory;
}

/**
 * What each measured build starts from: `sync` (no build pays for another's dirty pages) and, asked
 * for (`--drop-caches`), the clean page cache dropped, so that each starts from the same state of
 * the machine's memory whatever earlier runs left cached. On the 2-core machine the kernel's time for
 * the same writes moved several-fold with it (3 GB written: 5.4, 2.2 and 1.0 s of system time in
 * three runs one after another), and six 1M full builds of two checkouts in turn that only synced
 * took 35, 47, 57, 78, 84 and 49 s of CPU (33 to 43 s each, the cache dropped). It does not make
 * the machine's price the same for every build: on a virtual machine whose balloon gives free
 * memory back to the host, memory freed seconds before a build is cheap to touch and memory free
 * for longer is not (docs/search.md, "What the machine charges a build"), so `bench peaks` prints
 * each build's system time a GB written beside its CPU. Whether it was dropped: false where the
 * machine does not let it (not root, not Linux), which the run then says. It slows whatever else
 * the machine runs until its files are read again.
 */
export function startFresh(dropCaches: boolean): boolean {
  execFileSync("sync");
  if (!dropCaches) return false;
  try {
    writeFileSync("/proc/sys/vm/drop_caches", "1");
    return true;
  } catch {
    return false;
  }
}

/**
 * What a measure's text says of `--drop-caches` (`asked`): each of its runs (`before`: "each", or
 * the kind of run that drops it) began with the page cache dropped (`dropped`: every startFresh
 * said so), or it could not be.
 */
export const dropNote = (asked: boolean, dropped: boolean, before = "each"): string =>
  dropped ? `, the page cache dropped before ${before}` : asked ? " (the page cache could not be dropped: that needs root on Linux)" : "";
