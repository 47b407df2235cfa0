/**
 * `bench worker-cpu`: the CPU a request costs the Cloudflare Worker in workerd (`wrangler dev`,
 * the repo's wrangler.jsonc), by kind of request. workerd's CPU (user + system, from /proc) is
 * read around `--requests` requests, so a figure is the whole runtime's (HTTP server, assets
 * router, asset reads and the Worker): an upper bound of what Cloudflare counts (the isolate
 * alone). The preflight reads no file (the fixed part); a records chunk fetched as a plain asset
 * is what one file costs the runtime with no Worker. The assets answer a Range with the whole file
 * and a warm instance keeps its chunks, so each kind is sent 20 times first; the derived page's
 * first request is printed apart. `wrangler dev` runs a proxy workerd in front (counted apart).
 * The handler alone, in Node, is `bench requests`' measure. Builds `--data`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { buildSite, chunkPath, DEFAULT_OPTIONS, MANIFEST_PATH, type Manifest, sendRaw, startWranglerDev, tempDir } from "./from-src.ts";
import { cpuMs, fmt, freePort, median, procFile, type Report, table } from "./parts.ts";

export type WorkerCpuOptions = { requests: number; data: string };

/** A request: its name, target, headers, the status expected and its method (GET). */
type Probe = readonly [string, string, Record<string, string>?, number?, string?];

const DERIVED = "derived page, limit 1000, offset 500 (two chunks)";
const PAGE_1000 = "pre-rendered page, limit 1000 (one file of the same size, streamed)";
const INDENT = "derived page, limit 1000, offset 500, indent=2";
const PROBES: readonly Probe[] = [
  [
    "preflight (no file read: the fixed part)",
    "/api/subjekti/",
    { Origin: "http://page.example", "Access-Control-Request-Method": "GET" },
    204,
    "OPTIONS",
  ],
  ["pre-rendered page, limit 20 (one file, streamed)", "/api/subjekti/?limit=20&offset=40"],
  [PAGE_1000, "/api/subjekti/?limit=1000&offset=1000"],
  [DERIVED, "/api/subjekti/?limit=1000&offset=500"],
  [INDENT, "/api/subjekti/?limit=1000&offset=500", { Accept: "application/json; indent=2" }],
];

/** The workerd processes below `pid`: the proxy wrangler puts in front listens on the port asked for, the runtime on one of its own. */
function workerdBelow(pid: number): { pid: number; proxy: boolean }[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    const stat = procFile(Number(name), "stat"); // "" when gone between the listing and the read
    if (stat !== "") parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
  }
  const below = (p: number): boolean => p === pid || (parents.has(p) && p !== 1 && below(parents.get(p) as number));
  return [...parents.keys()]
    .filter((p) => p !== pid && below(p))
    .flatMap((p) => {
      const command = procFile(p, "cmdline").split("\0");
      return command[0]?.endsWith("/workerd") === true
        ? [{ pid: p, proxy: !command.some((arg) => arg.startsWith("--socket-addr=entry=127.0.0.1:0")) }]
        : [];
    });
}

/** Each kind of request under wrangler dev. */
export async function run(options: WorkerCpuOptions): Promise<Report> {
  const root = await tempDir("subjekti-bench-worker-");
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const site = join(root, "site");
  // Limit 1000 pre-rendered too, so a page of 1,000 streamed from its file shows what the derived one adds.
  const report = await buildSite({
    ...DEFAULT_OPTIONS,
    limits: [20, 1000],
    dataDir: options.data,
    outDir: site,
    baseUrl: origin,
    cacheDir: null,
    quiet: true,
  });
  const chunk = chunkPath(JSON.parse(readFileSync(join(site, MANIFEST_PATH), "utf8")) as Manifest, 0) as string;
  const probes: Probe[] = [...PROBES, ["a records chunk as a static asset (no Worker runs)", `/${chunk}`]];
  const dev = await startWranglerDev(site, port);
  try {
    const workerd = workerdBelow(dev.pid);
    if (!workerd.some((p) => !p.proxy)) throw new Error(`no workerd runtime below pid ${dev.pid}`);
    const cpu = (proxy: boolean): number => workerd.filter((p) => p.proxy === proxy).reduce((sum, p) => sum + cpuMs(p.pid), 0);
    const printed: string[][] = [];
    const runtimeMs = new Map<string, number>();
    let first = NaN;
    for (const [name, target, headers = {}, status = 200, method = "GET"] of probes) {
      const send = () => sendRaw(port, method, target, { Host: `127.0.0.1:${port}`, ...headers });
      let bytes = 0;
      for (let i = 0; i < 20; i++) {
        const before = cpu(false);
        const answer = await send();
        if (i === 0 && name === DERIVED) first = cpu(false) - before;
        if (answer.status !== status)
          throw new Error(`${name}: ${answer.status}, expected ${status}: ${answer.body.toString().slice(0, 200)}`);
        bytes = answer.body.length;
      }
      const [runtimeBefore, proxyBefore] = [cpu(false), cpu(true)];
      const walls: number[] = [];
      for (let i = 0; i < options.requests; i++) {
        const start = performance.now();
        await send();
        walls.push(performance.now() - start);
      }
      runtimeMs.set(name, (cpu(false) - runtimeBefore) / options.requests);
      const perRequest = (ms: number): string => `${fmt(ms / options.requests, 2)} ms`;
      printed.push([
        name,
        bytes.toLocaleString("en"),
        perRequest(cpu(false) - runtimeBefore),
        perRequest(cpu(true) - proxyBefore),
        `${fmt(median(walls))} ms`,
      ]);
    }
    const column = (names: readonly string[]): string => names.map((name) => fmt(runtimeMs.get(name) ?? NaN, 2)).join(" / ");
    const header = ["request", "bytes:", "workerd runtime CPU a request:", "proxy CPU a request:", "wall median:"];
    return {
      text:
        `${report.count} subjects, wrangler dev on ${origin}, ${options.requests} requests of each kind\n\n${table(header, printed)}\n\n` +
        `${DERIVED}, its first request (its two chunks not yet kept by the instance; one sample): ${fmt(first, 2)} ms`,
      rows: [
        {
          key: "worker-cpu-derived-1000",
          table: "Serving",
          what: "Cloudflare Worker, derived page of 1,000 (two chunks) / with `indent=2`",
          figure:
            `**${column([DERIVED, INDENT])} ms** CPU in workerd, the whole runtime; ` +
            `a pre-rendered page of 1,000: ${column([PAGE_1000])} ms`,
        },
      ],
    };
  } finally {
    await dev.stop();
    await rm(root, { recursive: true, force: true });
  }
}
