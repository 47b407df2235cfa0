/**
 * `npm run bench:worker-cpu`: the CPU time a request costs the Cloudflare Worker in workerd.
 *
 * Builds `data/` (the sample; limits 20 and 1000 pre-rendered, --max-limit 1000) into a temp
 * directory, serves it with `wrangler dev` (the repo's wrangler.jsonc, workerd on 127.0.0.1), and
 * sends each kind of request N times one after another. workerd's CPU time (user + system, from
 * /proc) is read before and after each run, so a figure is the CPU per request of the whole
 * runtime: the HTTP server, the assets router and asset reads, and the Worker. Cloudflare's limit
 * (10 ms a request on the free plan) counts the Worker's isolate alone, so each figure is an upper
 * bound; the preflight, which reads no file, shows the fixed part, and a records chunk fetched as
 * a plain asset (no Worker runs) what serving one file costs the runtime by itself. The assets
 * serve no ranges, so an instance keeps the chunks it read whole: each kind is sent 20 times before
 * it is measured, and the derived page's first request (its chunks read through the binding) is
 * printed apart. `wrangler dev` runs two workerd
 * processes: a proxy in front (counted apart) and the runtime of the Worker and its assets.
 * The last column is the handler's own work alone: the same code in this process (Node's V8),
 * over the same files held in memory, its CPU time from process.cpuUsage(). It overstates
 * workerd for derived pages: Node 20 decodes non-ASCII UTF-8 (the chunks' text) several times
 * slower than workerd does.
 *
 *   npm run bench:worker-cpu -- [--requests 200] [--data data]
 */
import { readFileSync, readdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import { loadavg } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Command } from "commander";
import { answerFetch } from "../src/core/answer-request.ts";
import { cdnSite, ManifestCache } from "../src/core/cdn-site.ts";
import { chunkPath, MANIFEST_PATH } from "../src/core/layout.ts";
import type { Manifest } from "../src/core/manifest.ts";
import { DEFAULT_OPTIONS } from "../src/site/build-options.ts";
import { buildSite } from "../src/site/build-site.ts";
import { tempDir } from "../test/file-trees.ts";
import { freePort } from "../test/hosts/hosts.ts";
import { sendRaw } from "../test/hosts/raw-http.ts";
import { startWranglerDev } from "../test/hosts/wrangler-dev.ts";
import { inMemorySite } from "./in-memory-site.ts";
import { printedColumn, printedSoFar, recordBenchmarks, writing } from "./benchmarks-table.ts";

const program = new Command("bench-worker-cpu")
  .option("--requests <n>", "requests of each kind, one after another", (t) => Number(t), 200)
  .option("--data <dir>", "the data to build", "data")
  .parse();
const { requests, data } = program.opts<{ requests: number; data: string }>();

/** Clock ticks a second (Linux's USER_HZ, 100 on every mainstream kernel). */
const TICKS = 100;

interface Probe {
  readonly name: string;
  readonly method: string;
  readonly target: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly status: number;
  /** A static asset the Worker does not run for: the assets' own cost of serving a file, measured alone. */
  readonly asset?: boolean;
}

const PROBES: readonly Probe[] = [
  {
    name: "preflight (no file read: the fixed part)",
    method: "OPTIONS",
    target: "/api/subjekti/",
    headers: { Origin: "http://page.example", "Access-Control-Request-Method": "GET" },
    status: 204,
  },
  { name: "pre-rendered page, limit 20 (one file, streamed)", method: "GET", target: "/api/subjekti/?limit=20&offset=40", status: 200 },
  {
    name: "pre-rendered page, limit 1000 (one file of the same size, streamed)",
    method: "GET",
    target: "/api/subjekti/?limit=1000&offset=1000",
    status: 200,
  },
  { name: "derived page, limit 1000, offset 500 (two chunks)", method: "GET", target: "/api/subjekti/?limit=1000&offset=500", status: 200 },
  {
    name: "derived page, limit 1000, offset 500, indent=2",
    method: "GET",
    target: "/api/subjekti/?limit=1000&offset=500",
    headers: { Accept: "application/json; indent=2" },
    status: 200,
  },
];

/** The pids of every process below `pid` whose command is workerd, each with its command line. */
function workerdBelow(pid: number): { pid: number; proxy: boolean }[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "latin1");
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // Gone between the listing and the read.
    }
  }
  const below = (p: number): boolean => p === pid || (parents.has(p) && p !== 1 && below(parents.get(p) as number));
  return [...parents.keys()]
    .filter((p) => p !== pid && below(p))
    .flatMap((p) => {
      const command = readFileSync(`/proc/${p}/cmdline`, "latin1").split("\0");
      if (!command[0]?.endsWith("/workerd")) return [];
      // The proxy wrangler puts in front listens on the port asked for; the runtime on a port of its own.
      return [{ pid: p, proxy: !command.some((arg) => arg.startsWith("--socket-addr=entry=127.0.0.1:0")) }];
    });
}

/** CPU milliseconds a request costs the handler itself, over `site`'s files in memory (Node's V8). */
async function handlerCpu(site: string, origin: string, probe: Probe): Promise<number> {
  const { fetchFile } = inMemorySite(site);
  const manifests = new ManifestCache();
  const send = async (): Promise<void> => {
    const request = new Request(`${origin}${probe.target}`, { method: probe.method, headers: probe.headers ?? {} });
    const response = await answerFetch(
      request,
      cdnSite(fetchFile, () => fetchFile(probe.target.slice(1)), manifests),
    );
    if (response.status !== probe.status) throw new Error(`${probe.name} in process: ${response.status}`);
    await response.arrayBuffer();
  };
  for (let i = 0; i < 50; i++) await send();
  const start = process.cpuUsage();
  for (let i = 0; i < requests; i++) await send();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / requests;
}

/** User + system CPU seconds of a process so far. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

const root = await tempDir("subjekti-bench-worker-");
const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const site = join(root, "site");
// Limit 1000 pre-rendered too, so a page of 1,000 streamed from its file shows what the derived one adds.
const report = await buildSite({
  ...DEFAULT_OPTIONS,
  limits: [20, 1000],
  dataDir: data,
  outDir: site,
  baseUrl: origin,
  cacheDir: null,
  quiet: true,
});
// A records chunk fetched as a plain asset: what serving one file costs the runtime with no Worker.
const chunk = chunkPath(JSON.parse(readFileSync(join(site, MANIFEST_PATH), "utf8")) as Manifest, 0) as string;
const probes: readonly Probe[] = [
  ...PROBES,
  { name: "a records chunk as a static asset (no Worker runs)", method: "GET", target: `/${chunk}`, status: 200, asset: true },
];
const dev = await startWranglerDev(site, port);
try {
  const workerd = workerdBelow(dev.pid);
  const runtime = workerd.filter((p) => !p.proxy);
  const proxy = workerd.filter((p) => p.proxy);
  if (runtime.length === 0) throw new Error(`no workerd runtime below pid ${dev.pid}`);
  console.log(`${report.count} subjects, wrangler dev on ${origin}, ${requests} requests of each kind, load ${loadavg()[0]?.toFixed(1)}\n`);
  console.log("| request | bytes | workerd runtime CPU / request | proxy CPU / request | wall median | the handler alone (Node) |");
  console.log("|---|---:|---:|---:|---:|---:|");
  const firstRequest = new Map<string, number>();
  const sum = (pids: { pid: number }[]): number => pids.reduce((total, p) => total + cpuSeconds(p.pid), 0);
  for (const probe of probes) {
    const send = () => sendRaw(port, probe.method, probe.target, { Host: `127.0.0.1:${port}`, ...probe.headers });
    let bytes = 0;
    for (let i = 0; i < 20; i++) {
      const cpuBefore = i === 0 ? sum(runtime) : 0;
      const answer = await send();
      if (i === 0 && probe.name.startsWith("derived page, limit 1000, offset 500 ("))
        firstRequest.set(probe.name, (sum(runtime) - cpuBefore) * 1000);
      if (answer.status !== probe.status)
        throw new Error(`${probe.name}: ${answer.status}, expected ${probe.status}: ${answer.body.toString().slice(0, 200)}`);
      bytes = answer.body.length;
    }
    const [runtimeBefore, proxyBefore] = [sum(runtime), sum(proxy)];
    const walls: number[] = [];
    for (let i = 0; i < requests; i++) {
      const start = performance.now();
      await send();
      walls.push(performance.now() - start);
    }
    const perRequest = (seconds: number): string => `${((seconds * 1000) / requests).toFixed(2)} ms`;
    walls.sort((a, b) => a - b);
    const runtimeMs = ((sum(runtime) - runtimeBefore) * 1000) / requests;
    const alone = probe.asset === true ? "" : `${(await handlerCpu(site, origin, probe)).toFixed(2)} ms`;
    console.log(
      `| ${probe.name} | ${bytes.toLocaleString("en")} | ${runtimeMs.toFixed(2)} ms | ${perRequest(sum(proxy) - proxyBefore)} | ${walls[walls.length >> 1]?.toFixed(1)} ms | ${alone} |`,
    );
  }
  // The assets answer a Range with the whole file, in wrangler dev as in the asset worker's source
  // (packages/workers-shared/asset-worker/src/handler.ts in cloudflare/workers-sdk): a derived page
  // reads its chunks whole, and the instance keeps them (cdn-site.ts), so the rows above are a warm
  // instance's. The first request of a page reads its two chunks through the binding: one sample.
  for (const [name, ms] of firstRequest)
    console.log(`\n${name}, its first request (its two chunks not yet kept by the instance; one sample): ${ms.toFixed(2)} ms`);
} finally {
  await dev.stop();
  await rm(root, { recursive: true, force: true });
}

// `--write`: the headline row into BENCHMARKS.md, read back from the table printed above.
if (writing) {
  const printed = printedSoFar();
  await recordBenchmarks([
    {
      key: "worker-cpu-derived-1000",
      table: "Serving",
      what: "Cloudflare Worker, derived page of 1,000 (two chunks) / with `indent=2`",
      figure:
        `**${printedColumn(printed, ["derived page, limit 1000, offset 500 (two chunks)", "derived page, limit 1000, offset 500, indent=2"], 1)} ms** CPU in workerd, the whole runtime; ` +
        `a pre-rendered page of 1,000: ${printedColumn(printed, ["pre-rendered page, limit 1000 (one file of the same size, streamed)"], 1)} ms`,
    },
  ]);
}
