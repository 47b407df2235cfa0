/**
 * `npm run bench:request-cpu`: what the hostile requests cost against a plain derived page of the
 * same limit, on three hosts: the handler alone in this process, `subjekti serve` over HTTP (its
 * process's CPU from /proc) and the edge function under real Deno (test/hosts/deno-host.ts, its
 * process's CPU from /proc, its CDN stand-in included). Each row is the CPU a request costs and
 * its ratio to the plain derived page of its limit on the same host: the bound is about 2×.
 *
 * Builds `data/` (limits 20 pre-rendered, --max-limit 1000) into a temp directory.
 *
 *   npm run bench:request-cpu -- [--requests 400] [--data data]
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { Command } from "commander";
import { answerRequest } from "../src/core/answer-request.ts";
import { DEFAULT_OPTIONS } from "../src/site/build-options.ts";
import { buildSite } from "../src/site/build-site.ts";
import { nodeSite } from "../src/common/node-site.ts";
import { ManifestWatcher } from "../src/serve/site-manifest.ts";
import { tempDir } from "../test/file-trees.ts";
import { firstLine, stopChild } from "../test/hosts/hosts.ts";
import { sendRaw } from "../test/hosts/raw-http.ts";
import { printedCells, printedColumn, printedSoFar, recordBenchmarks, writing } from "./benchmarks-table.ts";

const program = new Command("bench-request-cpu")
  .option("--requests <n>", "requests of each kind on each host, one after another", (t) => Number(t), 400)
  .option("--data <dir>", "the data to build", "data")
  .parse();
const { requests, data } = program.opts<{ requests: number; data: string }>();

const REPO = resolve(import.meta.dirname, "..");
/** Clock ticks a second (Linux's USER_HZ). */
const TICKS = 100;

interface Probe {
  readonly name: string;
  readonly target: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** The plain derived page this one is compared with (itself when absent). */
  readonly limit: 20 | 1000;
  /** Hosts whose own server refuses it before our code runs (Deno: heads over 64 KB). */
  readonly skip?: readonly string[];
}

const PLAIN_20 = "/api/subjekti/?limit=20&offset=3";
const PLAIN_1000 = "/api/subjekti/?limit=1000&offset=501";
const PROBES: readonly Probe[] = [
  { name: "plain derived page, limit 20 (offset 3)", target: PLAIN_20, limit: 20 },
  { name: "4 KB target: a value of `a`s", target: `${PLAIN_20}&x=${"a".repeat(4096 - PLAIN_20.length - 3)}`, limit: 20 },
  {
    name: "4 KB target: a value of `%FF`s",
    target: `${PLAIN_20}&x=${"%FF".repeat(Math.floor((4096 - PLAIN_20.length - 3) / 3))}`,
    limit: 20,
  },
  { name: "4 KB target: 1,000 parameters", target: `${PLAIN_20}${"&p=1".repeat(Math.floor((4096 - PLAIN_20.length) / 4))}`, limit: 20 },
  { name: "8 KB Accept (406)", target: PLAIN_20, headers: { Accept: `a/b${";q=1".repeat(2046)}` }, limit: 20 },
  { name: "16 KB query of `%FF` (414)", target: `${PLAIN_20}&x=${"%FF".repeat(5461)}`, limit: 20 },
  {
    name: "120 KB Accept (431)",
    target: PLAIN_20,
    headers: { Accept: `application/json; indent=4;${" x=1;".repeat(24_000)}` },
    limit: 20,
    skip: ["deno"],
  },
  { name: "256 KB URL (414)", target: `${PLAIN_20}&x=${"a".repeat(256 * 1024)}`, limit: 20, skip: ["deno", "serve"] },
  { name: "plain derived page, limit 1000 (offset 501)", target: PLAIN_1000, limit: 1000 },
  { name: "limit 1000, offset 501, `indent=8`", target: PLAIN_1000, headers: { Accept: "application/json; indent=8" }, limit: 1000 },
];

/** User + system CPU seconds of a process so far. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

/** CPU milliseconds per request of the handler alone in this process, over the site's files (cached as `subjekti serve` caches them). */
async function handlerCpu(site: ReturnType<typeof nodeSite>, probe: Probe): Promise<number> {
  const request = { method: "GET", target: probe.target, scheme: "http", host: "127.0.0.1", headers: new Headers(probe.headers ?? {}) };
  for (let i = 0; i < 30; i++) await answerRequest(request, site);
  const start = process.cpuUsage();
  for (let i = 0; i < requests; i++) await answerRequest(request, site);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / requests;
}

/** CPU milliseconds per request of a server process at `port`. */
async function serverCpu(pid: number, port: number, probe: Probe): Promise<number> {
  const send = () => sendRaw(port, "GET", probe.target, { Host: `127.0.0.1:${port}`, ...probe.headers });
  for (let i = 0; i < 30; i++) await send();
  const before = cpuSeconds(pid);
  for (let i = 0; i < requests; i++) await send();
  return ((cpuSeconds(pid) - before) * 1000) / requests;
}

/** Starts a child and waits for the port it prints. */
async function startChild(command: string, args: string[], port: (line: string) => number): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(command, args, {
    cwd: REPO,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, DENO_NO_UPDATE_CHECK: "1", DENO_NO_PACKAGE_JSON: "1" },
  });
  return { child, port: await firstLine(child, port, 60_000) };
}

const root = await tempDir("subjekti-bench-request-");
const dir = join(root, "site");
const report = await buildSite({
  ...DEFAULT_OPTIONS,
  dataDir: data,
  outDir: dir,
  baseUrl: "http://127.0.0.1",
  cacheDir: null,
  quiet: true,
});
const serve = await startChild(
  process.execPath,
  ["--import", "tsx", "src/cli/main.ts", "serve", "--dir", dir, "--port", "0", "--allowed-hosts", "*"],
  (line) => {
    const port = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(line)?.[1];
    if (port === undefined) throw new Error(line);
    return Number(port);
  },
);
const deno = await startChild(
  join(REPO, "node_modules/.bin/deno"),
  [
    "run",
    "--allow-net=127.0.0.1",
    `--allow-read=${dir}`,
    "--no-remote",
    "--no-npm",
    "--no-config",
    "--no-prompt",
    "test/hosts/deno-host.ts",
    dir,
  ],
  (line) => (JSON.parse(line) as { port: number }).port,
);
try {
  const site = nodeSite(dir, await ManifestWatcher.open(dir, false));
  console.log(
    `${report.count} subjects, ${requests} requests of each kind on each host, Node ${process.version}, load ${loadavg()[0]?.toFixed(1)}\n`,
  );
  console.log("| request | handler alone (Node) | × | `subjekti serve` | × | edge under Deno | × |");
  console.log("|---|--:|--:|--:|--:|--:|--:|");
  const plain: Record<string, Partial<Record<number, number>>> = { handler: {}, serve: {}, deno: {} };
  for (const probe of PROBES) {
    const cells: string[] = [];
    for (const [host, measure] of [
      ["handler", () => handlerCpu(site, probe)],
      ["serve", () => serverCpu(serve.child.pid as number, serve.port, probe)],
      ["deno", () => serverCpu(deno.child.pid as number, deno.port, probe)],
    ] as const) {
      if (probe.skip?.includes(host) === true) {
        cells.push("refused by the runtime", "");
        continue;
      }
      const ms = await measure();
      const byHost = plain[host] as Partial<Record<number, number>>;
      if (probe.target === PLAIN_20 && probe.headers === undefined) byHost[20] = ms;
      if (probe.target === PLAIN_1000 && probe.headers === undefined) byHost[1000] = ms;
      cells.push(`${ms.toFixed(3)} ms`, `${(ms / (byHost[probe.limit] ?? ms)).toFixed(2)}`);
    }
    console.log(`| ${probe.name} | ${cells.join(" | ")} |`);
  }
} finally {
  await Promise.all([stopChild(serve.child), stopChild(deno.child)]);
  await rm(root, { recursive: true, force: true });
}

// `--write`: the headline rows into BENCHMARKS.md, read back from the table printed above.
if (writing) {
  const printed = printedSoFar();
  const ratios = (name: string): number[] => [1, 3, 5].map((i) => Number(printedCells(printed, name)[i]));
  const [, parametersServe, parametersDeno] = ratios("4 KB target: 1,000 parameters");
  await recordBenchmarks([
    {
      key: "request-cpu-plain-20",
      table: "Serving",
      what: "CPU a request, plain derived page, limit 20: handler alone / `subjekti serve` / the edge in Deno",
      figure: `**${[0, 2, 4].map((i) => printedColumn(printed, ["plain derived page, limit 20 (offset 3)"], i)).join(" / ")} ms**`,
    },
    {
      key: "request-cpu-worst",
      table: "Serving",
      what: "CPU of the worst requests within the bounds, against that page",
      figure:
        `1,000 parameters **${parametersServe?.toFixed(2)}×** (\`serve\`), **${parametersDeno?.toFixed(2)}×** (Deno); ` +
        `\`indent=8\` at limit 1000 up to **${Math.max(...ratios("limit 1000, offset 501, `indent=8`")).toFixed(2)}×**`,
    },
  ]);
}
