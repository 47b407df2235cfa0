/**
 * `bench request-cpu`: what the hostile requests within the bounds cost against a plain derived
 * page of the same limit, on three hosts: the handler alone in this process, `subjekti serve` over
 * HTTP and the edge function under real Deno (test/hosts/deno-host.ts, its CDN stand-in included),
 * each server's CPU from /proc. A row is the CPU a request and its ratio to the plain page of its
 * limit on the same host: the bound is about 2×. Builds `--data` (limit 20 pre-rendered).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import {
  answerRequest,
  buildSite,
  DEFAULT_OPTIONS,
  firstLine,
  ManifestWatcher,
  nodeSite,
  sendRaw,
  stopChild,
  tempDir,
} from "./from-src.ts";
import { CLI, cpuMs, fmt, type Report, ROOT, table } from "./parts.ts";

export interface RequestCpuOptions {
  readonly requests: number;
  readonly data: string;
}

const PLAIN_20 = "/api/subjekti/?limit=20&offset=3";
const PLAIN_1000 = "/api/subjekti/?limit=1000&offset=501";
const HOSTS = ["handler", "serve", "deno"] as const;

/** A request: its target and headers, the limit of the plain page it is compared with, and the hosts whose own server refuses it before our code runs. */
const PROBES: readonly [string, string, Record<string, string>, 20 | 1000, readonly string[]][] = [
  ["plain derived page, limit 20 (offset 3)", PLAIN_20, {}, 20, []],
  ["4 KB target: a value of `a`s", `${PLAIN_20}&x=${"a".repeat(4096 - PLAIN_20.length - 3)}`, {}, 20, []],
  ["4 KB target: a value of `%FF`s", `${PLAIN_20}&x=${"%FF".repeat(Math.floor((4096 - PLAIN_20.length - 3) / 3))}`, {}, 20, []],
  ["4 KB target: 1,000 parameters", `${PLAIN_20}${"&p=1".repeat(Math.floor((4096 - PLAIN_20.length) / 4))}`, {}, 20, []],
  ["8 KB Accept (406)", PLAIN_20, { Accept: `a/b${";q=1".repeat(2046)}` }, 20, []],
  ["16 KB query of `%FF` (414)", `${PLAIN_20}&x=${"%FF".repeat(5461)}`, {}, 20, []],
  // Deno refuses heads over 64 KB, and serve (Node's parser) a URL over its own limit, before our code.
  ["120 KB Accept (431)", PLAIN_20, { Accept: `application/json; indent=4;${" x=1;".repeat(24_000)}` }, 20, ["deno"]],
  ["256 KB URL (414)", `${PLAIN_20}&x=${"a".repeat(256 * 1024)}`, {}, 20, ["deno", "serve"]],
  ["plain derived page, limit 1000 (offset 501)", PLAIN_1000, {}, 1000, []],
  ["limit 1000, offset 501, `indent=8`", PLAIN_1000, { Accept: "application/json; indent=8" }, 1000, []],
];

/** Starts a child and waits for the port it prints. */
async function startChild(command: string, args: string[], port: (line: string) => number): Promise<{ child: ChildProcess; port: number }> {
  const env = { ...process.env, DENO_NO_UPDATE_CHECK: "1", DENO_NO_PACKAGE_JSON: "1" };
  const child = spawn(command, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], env });
  return { child, port: await firstLine(child, port, 60_000) };
}

/** Each probe on each host, 30 requests to warm up, then `requests` measured. */
export async function benchRequestCpu(options: RequestCpuOptions): Promise<Report> {
  const root = await tempDir("subjekti-bench-request-");
  const dir = join(root, "site");
  const report = await buildSite({
    ...DEFAULT_OPTIONS,
    dataDir: options.data,
    outDir: dir,
    baseUrl: "http://127.0.0.1",
    cacheDir: null,
    quiet: true,
  });
  const serve = await startChild(process.execPath, [...CLI, "serve", "--dir", dir, "--port", "0", "--allowed-hosts", "*"], (line) =>
    Number(/http:\/\/127\.0\.0\.1:(\d+)\//.exec(line)?.[1] ?? NaN),
  );
  const denoArgs = ["run", "--allow-net=127.0.0.1", `--allow-read=${dir}`, "--no-remote", "--no-npm", "--no-config", "--no-prompt"];
  const deno = await startChild(
    join(ROOT, "node_modules/.bin/deno"),
    [...denoArgs, "test/hosts/deno-host.ts", dir],
    (line) => (JSON.parse(line) as { port: number }).port,
  );
  try {
    const site = nodeSite(dir, await ManifestWatcher.open(dir, false));
    const times = async (send: () => Promise<unknown>, cpu: () => number): Promise<number> => {
      for (let i = 0; i < 30; i++) await send();
      const before = cpu();
      for (let i = 0; i < options.requests; i++) await send();
      return (cpu() - before) / options.requests;
    };
    const ownCpu = (): number => {
      const used = process.cpuUsage();
      return (used.user + used.system) / 1000;
    };
    const measure = (host: (typeof HOSTS)[number], target: string, headers: Record<string, string>): Promise<number> => {
      if (host === "handler") {
        const request = { method: "GET", target, scheme: "http", host: "127.0.0.1", headers: new Headers(headers) };
        return times(() => answerRequest(request, site), ownCpu);
      }
      const server = host === "serve" ? serve : deno;
      return times(
        () => sendRaw(server.port, "GET", target, { Host: `127.0.0.1:${server.port}`, ...headers }),
        () => cpuMs(server.child.pid),
      );
    };
    const plain = new Map<string, number>();
    const ms = new Map<string, number[]>();
    const printed: string[][] = [];
    for (const [name, target, headers, limit, skip] of PROBES) {
      const cells: string[] = [];
      for (const host of HOSTS) {
        if (skip.includes(host)) {
          cells.push("refused by the runtime", "");
          continue;
        }
        const cpu = await measure(host, target, headers);
        if ((target === PLAIN_20 || target === PLAIN_1000) && Object.keys(headers).length === 0) plain.set(`${host} ${limit}`, cpu);
        ms.set(name, [...(ms.get(name) ?? []), cpu / (plain.get(`${host} ${limit}`) ?? cpu)]);
        cells.push(`${fmt(cpu, 3)} ms`, fmt(cpu / (plain.get(`${host} ${limit}`) ?? cpu), 2));
      }
      printed.push([name, ...cells]);
    }
    const ratios = (name: string): number[] => ms.get(name) ?? [];
    const [, parametersServe = NaN, parametersDeno = NaN] = ratios("4 KB target: 1,000 parameters");
    return {
      text: `${report.count} subjects, ${options.requests} requests of each kind on each host\n\n${table(["request", "handler alone (Node):", "×:", "`subjekti serve`:", "×:", "edge under Deno:", "×:"], printed)}`,
      rows: [
        {
          key: "request-cpu-plain-20",
          table: "Serving",
          what: "CPU a request, plain derived page, limit 20: handler alone / `subjekti serve` / the edge in Deno",
          figure: `**${HOSTS.map((host) => fmt(plain.get(`${host} 20`) ?? NaN, 3)).join(" / ")} ms**`,
        },
        {
          key: "request-cpu-worst",
          table: "Serving",
          what: "CPU of the worst requests within the bounds, against that page",
          figure:
            `1,000 parameters **${fmt(parametersServe, 2)}×** (\`serve\`), **${fmt(parametersDeno, 2)}×** (Deno); ` +
            `\`indent=8\` at limit 1000 up to **${fmt(Math.max(...ratios("limit 1000, offset 501, `indent=8`")), 2)}×**`,
        },
      ],
    };
  } finally {
    await Promise.all([stopChild(serve.child), stopChild(deno.child)]);
    await rm(root, { recursive: true, force: true });
  }
}
