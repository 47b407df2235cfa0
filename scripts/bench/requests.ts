/**
 * `bench requests`: what a request no pre-rendered file answers costs, on every host in one table.
 * The requests: derived pages (20 and 1,000 subjects, compact and with `indent`), one subject by
 * its key (by id, by code and by OIB), a key no subject has, a pre-rendered page for scale, and the
 * hostile requests within the bounds (4 KB targets, long heads, `indent=8`), each compared with the
 * plain derived page of its limit: the bound is about 2×. The hosts: the handler alone in this
 * process (`answerFetch` over `cdnSite`, the site's files in memory as a CDN-backed host reaches
 * them; its own CPU and the bytes each request read), `subjekti serve` over HTTP and the edge
 * function under real Deno (test/hosts/deno-host.ts, its CDN stand-in included), their CPU from
 * /proc; `--before <checkout>` adds that checkout's handler over a site its own build wrote, and
 * `--workerd` the Worker under `wrangler dev` (its CPU the whole workerd runtime's, the HTTP server
 * and the assets router included: an upper bound of what Cloudflare counts; opt-in, for a site
 * the Worker's assets can hold, `--data data`). Keys
 * and offsets are drawn at random, every target is sent once to every host before it is measured,
 * and the measured requests go in blocks, the hosts alternating. A figure is the median of the
 * blocks' CPU a request, printed with the lowest and highest block: one block that met a collection
 * or another process's burst does not move it, where a mean over the whole run moved with each.
 * `--hosts handler` measures the handler alone (no servers started): the derived pages' figures in
 * seconds. The site is generated (`--count`) or built from `--data`.
 */
import { existsSync, readdirSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { MeasuredRow } from "../benchmarks-table.ts";
import { makeSubject } from "../generate-subjects.ts";
import { mulberry32, sendRaw, startWranglerDev, tempDir } from "./from-src.ts";
import { CLI, cpuMs, fmt, label, median, memoryFiles, procFile, type Report, ROOT, startServer, stopServer, table } from "./parts.ts";

export type RequestsOptions = {
  count: number;
  data?: string;
  requests: number;
  warm: number;
  blocks: number;
  before?: string;
  workerd: boolean;
  hosts: readonly string[];
};

const ORIGIN = "http://127.0.0.1:8080";

/** A host measured: its answer to a target, the CPU (ms) it has used so far, the bytes it read (in memory only). */
interface Host {
  readonly name: string;
  send(path: string, headers: Record<string, string>): Promise<{ status: number; body: Buffer }>;
  cpu(): number;
  readonly memory?: { bytesRead: number };
  stop?(): Promise<void>;
}

type Keys = { id: number; jedinstvena_oznaka: string; oib: string };

/** A checkout's handler over the site its own build wrote into `out`, the files held in memory. */
async function handler(name: string, checkout: string, data: string, out: string): Promise<Host> {
  // Each checkout's own modules: its build and its handler (paths as of this checkout's layout).
  const src = (path: string): Promise<unknown> => import(join(checkout, "src", path));
  const { buildSite } = (await src("site/build-site.ts")) as typeof import("../../src/site/build-site.ts");
  const { DEFAULT_OPTIONS } = (await src("site/build-options.ts")) as typeof import("../../src/site/build-options.ts");
  const { answerFetch } = (await src("core/answer-request.ts")) as typeof import("../../src/core/answer-request.ts");
  const { cdnSite, ManifestCache } = (await src("core/cdn-site.ts")) as typeof import("../../src/core/cdn-site.ts");
  const options = { ...DEFAULT_OPTIONS, limits: [20], forms: ["plain" as const], maxLimit: 1000, dataDir: data, outDir: out };
  await buildSite({ ...options, baseUrl: ORIGIN, cacheDir: null, quiet: true, feed: false });
  const memory = memoryFiles(out);
  const fetchFile = memory.fetchFile;
  const manifests = new ManifestCache();
  return {
    name,
    memory,
    cpu: () => {
      const used = process.cpuUsage();
      return (used.user + used.system) / 1000;
    },
    send: async (path, headers) => {
      const site = cdnSite(fetchFile, () => fetchFile(path.slice(1)), manifests);
      const response = await answerFetch(new Request(`${ORIGIN}${path}`, { headers }), site);
      return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
    },
  };
}

/** A server child printing its port, sent raw HTTP requests. */
async function server(name: string, command: string, args: readonly string[], ready: RegExp): Promise<Host> {
  const { child, match } = await startServer(args, ready, ROOT, command);
  return { name, send: rawTo(Number(match[1])), cpu: () => cpuMs(child.pid), stop: () => stopServer(child) };
}

const rawTo = (port: number) => (path: string, headers: Record<string, string>) =>
  sendRaw(port, "GET", path, { Host: `127.0.0.1:${port}`, ...headers });

/** The Worker under `wrangler dev`, its CPU the workerd runtime's (not the proxy workerd wrangler puts in front, on the port asked for). */
async function workerd(site: string): Promise<Host> {
  const dev = await startWranglerDev(site);
  const parents = new Map<number, number>();
  for (const name of readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    const stat = procFile(Number(name), "stat"); // "" when gone between the listing and the read
    if (stat !== "") parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
  }
  const below = (p: number): boolean => p === dev.pid || (parents.has(p) && p !== 1 && below(parents.get(p) as number));
  const runtime = [...parents.keys()].filter((p) => {
    const command = procFile(p, "cmdline").split("\0");
    const entry = command.some((arg) => arg.startsWith("--socket-addr=entry=127.0.0.1:0"));
    return p !== dev.pid && below(p) && entry && command[0]?.endsWith("/workerd") === true;
  });
  if (runtime.length === 0) throw new Error(`no workerd runtime below pid ${dev.pid}`);
  return { name: "workerd", send: rawTo(dev.port), cpu: () => runtime.reduce((sum, p) => sum + cpuMs(p), 0), stop: () => dev.stop() };
}

const PLAIN_20 = "derived, `limit=20&offset=7` (20 subjects)";
const PLAIN_1000 = "derived, `limit=1000&offset=500`";
const RANDOM_1000 = "derived, limit 1000 at a random offset";
const INDENT_2 = "derived, `limit=1000&offset=500`, `indent=2`";
const INDENT_8 = "limit 1000, offset 500, `indent=8`";
const [BY_ID, BY_CODE, BY_OIB] = ["one subject by id: /api/subjekti/<id>/", "by code: ?jedinstvena_oznaka=<code>", "by OIB: ?oib=<oib>"];
const PARAMETERS = "4 KB target: 1,000 parameters";
const PAGE_20 = "pre-rendered page, limit 20 (for scale)";

/**
 * A request measured: a target drawn anew each time, its headers, the status expected (0: not
 * checked), the plain page it is compared with, and the hosts whose own server refuses it before
 * our code runs (Deno refuses heads over 64 KB, and serve, Node's parser, a URL over its own limit).
 */
type Kind = { name: string; target: () => string; headers: Record<string, string>; status: number; plain: string; refusedBy: string[] };

function kinds(subjects: readonly Keys[]): Kind[] {
  const [count, random, list] = [subjects.length, mulberry32(7), "/api/subjekti/"];
  const pick = (): Keys => subjects[Math.floor(random() * count)] as Keys;
  const at = (limit: number, offset: number): number => Math.max(0, Math.min(offset, count - limit));
  const [p20, p1000] = [`${list}?limit=20&offset=${at(20, 7)}`, `${list}?limit=1000&offset=${at(1000, 500)}`];
  const past = 10 * ((subjects.at(-1)?.id ?? 0) + 1);
  const k = (name: string, target: () => string, more: Partial<Kind> = {}): Kind =>
    Object.assign({ name, target, headers: {}, status: 200, plain: "", refusedBy: [] }, more);
  const hostile = (name: string, target: () => string, more: Partial<Kind> = {}): Kind =>
    k(name, target, { status: 0, plain: PLAIN_20, ...more });
  return [
    k(PAGE_20, () => `${list}?limit=20&offset=${20 * Math.floor(random() * Math.floor(count / 20))}`),
    k(PLAIN_20, () => p20, { plain: PLAIN_20 }),
    k(PLAIN_1000, () => p1000, { plain: PLAIN_1000 }),
    k(INDENT_2, () => p1000, { plain: PLAIN_1000, headers: { Accept: "application/json; indent=2" } }),
    k(INDENT_8, () => p1000, { plain: PLAIN_1000, headers: { Accept: "application/json; indent=8" } }),
    k("derived, limit 20 at a random offset", () => `${list}?limit=20&offset=${Math.floor(random() * (count - 20)) | 1}`),
    k(RANDOM_1000, () => `${list}?limit=1000&offset=${Math.floor(random() * (count - 1000)) | 1}`),
    k(BY_ID, () => `${list}${pick().id}/`),
    k(BY_CODE, () => `${list}?jedinstvena_oznaka=${pick().jedinstvena_oznaka}`),
    k(BY_OIB, () => `${list}?oib=${pick().oib}`),
    k("an id no subject has (past the last)", () => `${list}${past + Math.floor(random() * 1000)}/`, { status: 404 }),
    hostile("4 KB target: a value of `a`s", () => `${p20}&x=${"a".repeat(4096 - p20.length - 3)}`),
    hostile("4 KB target: a value of `%FF`s", () => `${p20}&x=${"%FF".repeat(Math.floor((4096 - p20.length - 3) / 3))}`),
    hostile(PARAMETERS, () => `${p20}${"&p=1".repeat(Math.floor((4096 - p20.length) / 4))}`),
    hostile("8 KB Accept (406)", () => p20, { headers: { Accept: `a/b${";q=1".repeat(2046)}` } }),
    hostile("16 KB query of `%FF` (414)", () => `${p20}&x=${"%FF".repeat(5461)}`),
    hostile("120 KB Accept (431)", () => p20, {
      headers: { Accept: `application/json; indent=4;${" x=1;".repeat(24e3)}` },
      refusedBy: ["deno"],
    }),
    hostile("256 KB URL (414)", () => `${p20}&x=${"a".repeat(256 * 1024)}`, { refusedBy: ["deno", "serve"] }),
  ];
}

/** The hosts, the site's keys, every kind measured; the rows of the derived pages, the keys and the bounds. */
export async function run(options: RequestsOptions): Promise<Report> {
  const root = await tempDir("subjekti-bench-requests-");
  const hosts: Host[] = [];
  try {
    const data = resolve(options.data ?? join(root, "data"));
    const subjects: Keys[] = [];
    if (options.data === undefined) {
      await mkdir(data);
      const lines: string[] = [];
      for (let i = 0; i < options.count; i++) {
        const subject = makeSubject(5, i);
        subjects.push({ id: subject.id, jedinstvena_oznaka: subject.jedinstvena_oznaka, oib: subject.oib });
        lines.push(JSON.stringify(subject));
      }
      await writeFile(join(data, "subjekti.ndjson"), `${lines.join("\n")}\n`);
    }
    const site = join(root, "this");
    hosts.push(await handler("handler", ROOT, data, site));
    if (options.before !== undefined) hosts.push(await handler("before", resolve(options.before), data, join(root, "before")));
    if (options.hosts.includes("serve")) {
      const serveArgs = [...CLI, "serve", "--dir", site, "--port", "0", "--allowed-hosts", "*"];
      hosts.push(await server("serve", process.execPath, serveArgs, /http:\/\/127\.0\.0\.1:(\d+)\//));
    }
    if (options.hosts.includes("deno")) {
      const denoArgs = ["run", "--allow-net=127.0.0.1", `--allow-read=${site}`, "--no-remote", "--no-npm", "--no-config", "--no-prompt"];
      hosts.push(await server("deno", denoExe(), [...denoArgs, "test/hosts/deno-host.ts", site], /"port":(\d+)/));
    }
    if (options.workerd) hosts.push(await workerd(site));
    // A data directory's keys: the list as the site holds it, through pages of 1,000.
    for (let offset = 0; subjects.length === offset && options.data !== undefined; offset += 1000) {
      const page = await (hosts[0] as Host).send(`/api/subjekti/?limit=1000&offset=${offset}`, {});
      subjects.push(...(JSON.parse(page.body.toString()) as { results: Keys[] }).results);
    }
    const ms = new Map<string, number[]>();
    const spread = new Map<string, [number, number][]>();
    const bytes = new Map<string, number[]>();
    // Every kind's targets drawn and sent once unmeasured before any is measured: the files they
    // read are then in memory on every host, and the code they share is compiled, so a kind's
    // figure does not depend on the kinds measured before it (the first 1,000-subject page ran
    // 1.5× the later ones when each kind was warmed alone).
    const planned = kinds(subjects).map((kind) => {
      const on = [...hosts.keys()].filter((h) => !kind.refusedBy.includes((hosts[h] as Host).name));
      const send = async (host: Host, path: string): Promise<void> => {
        const answered = (await host.send(path, kind.headers)).status;
        if (kind.status !== 0 && answered !== kind.status)
          throw new Error(`${host.name}, ${kind.name}: ${path.slice(0, 100)} answered ${answered}`);
      };
      return { name: kind.name, on, send, targets: Array.from({ length: options.requests }, kind.target) };
    });
    for (const { on, send, targets } of planned)
      for (const host of on.map((h) => hosts[h] as Host)) {
        for (let i = 0; i < options.warm; i++) await send(host, targets[i % targets.length] as string);
        for (const path of targets) await send(host, path);
      }
    for (const { name, on, send, targets } of planned) {
      for (const host of hosts) if (host.memory !== undefined) host.memory.bytesRead = 0;
      // Each host's CPU a request in each block.
      const blocks = hosts.map((): number[] => []);
      const perBlock = Math.ceil(options.requests / options.blocks);
      for (let sent = 0; sent < options.requests; sent += perBlock) {
        // Alternating blocks, each host first in turn.
        for (const h of (sent / perBlock) % 2 === 0 ? on : on.toReversed()) {
          const host = hosts[h] as Host;
          const block = targets.slice(sent, sent + perBlock);
          const start = host.cpu();
          for (const path of block) await send(host, path);
          blocks[h]?.push((host.cpu() - start) / block.length);
        }
      }
      ms.set(
        name,
        blocks.map((b) => (b.length === 0 ? NaN : median(b))),
      );
      spread.set(
        name,
        blocks.map((b) => [Math.min(...b), Math.max(...b)]),
      );
      bytes.set(
        name,
        hosts.map((h) => (h.memory?.bytesRead ?? NaN) / options.requests),
      );
    }
    const ratio = (name: string, plain: string): number[] => (ms.get(name) ?? []).map((v, h) => v / (ms.get(plain)?.[h] ?? NaN));
    const inMemory = hosts.filter((h) => h.memory !== undefined);
    const text =
      `${subjects.length.toLocaleString("en")} subjects, ${options.requests} requests of each kind after ${options.warm} to warm up, ` +
      `in ${options.blocks} blocks; CPU a request, the median of the blocks (× the plain derived page of its limit on the same host; ` +
      "the lowest–highest block), bytes read a request\n\n" +
      table(
        ["request", ...hosts.map((h) => `${h.name}:`), ...inMemory.map((h) => `${h.name}: bytes:`)],
        kinds(subjects).map(({ name, plain }) => [
          name,
          ...hosts.map((_, h) => {
            const [cpu, times, [low, high] = [NaN, NaN]] = [ms.get(name)?.[h] ?? NaN, ratio(name, plain)[h] ?? NaN, spread.get(name)?.[h]];
            if (Number.isNaN(cpu)) return "refused by the runtime";
            return `${fmt(cpu, 3)} ms${plain === "" ? "" : ` (${fmt(times, 2)}×)`} ${fmt(low, 3)}–${fmt(high, 3)}`;
          }),
          ...inMemory.map((h) => Math.round(bytes.get(name)?.[hosts.indexOf(h)] ?? NaN).toLocaleString("en")),
        ]),
      );
    return {
      text,
      rows: rows(
        label(subjects.length),
        hosts,
        { ms, spread, bytes, blocks: Math.ceil(options.requests / Math.ceil(options.requests / options.blocks)) },
        ratio,
      ),
    };
  } finally {
    await Promise.all(hosts.map((h) => h.stop?.()));
    await rm(root, { recursive: true, force: true });
  }
}

/** Each kind's figures by host: the median CPU a request, the lowest and highest block's, the bytes read. */
type Figures = { ms: Map<string, number[]>; spread: Map<string, [number, number][]>; bytes: Map<string, number[]>; blocks: number };

function rows(
  set: string,
  hosts: Host[],
  { ms, spread, bytes, blocks }: Figures,
  ratio: (name: string, plain: string) => number[],
): MeasuredRow[] {
  const [before, at] = [hosts.findIndex((h) => h.name === "before"), (name: string) => hosts.findIndex((h) => h.name === name)];
  const column = (names: readonly string[], host: number, of: "ms" | "bytes"): string =>
    names
      .map((name) => (of === "ms" ? fmt(ms.get(name)?.[host] ?? NaN, 3) : Math.round(bytes.get(name)?.[host] ?? NaN).toLocaleString("en")))
      .join(" / ");
  const spreads = (names: readonly string[], host: number): string =>
    names.map((name) => (spread.get(name)?.[host] ?? [NaN, NaN]).map((v) => fmt(v, 3)).join("–")).join(" / ");
  const figure = (names: readonly string[], withBytes = false): string =>
    `**${column(names, 0, "ms")} ms** handler CPU, medians of ${blocks} blocks` +
    ` (${spreads(names, 0)})` +
    (withBytes ? `, **${column(names, 0, "bytes")} bytes** read` : "") +
    (before < 0
      ? ""
      : ` (before, same run: ${column(names, before, "ms")} ms${withBytes ? `, ${column(names, before, "bytes")} bytes` : ""})`);
  const [workerd, servers] = [at("workerd"), at("serve") >= 0 && at("deno") >= 0];
  const worker: MeasuredRow = {
    key: "worker-cpu-derived-1000",
    table: "Serving",
    what: "Cloudflare Worker, derived page of 1,000 (two chunks) / with `indent=2`",
    figure: `**${[PLAIN_1000, INDENT_2].map((n) => fmt(ms.get(n)?.[workerd] ?? NaN, 2)).join(" / ")} ms** CPU in workerd, the whole runtime; a pre-rendered page of 20: ${fmt(ms.get(PAGE_20)?.[workerd] ?? NaN, 2)} ms`,
  };
  const handlerRows: MeasuredRow[] = [
    ...(workerd < 0 ? [] : [worker]),
    {
      key: `lookup-${set.toLowerCase()}-derived`,
      table: "Serving",
      what: `derived page (handler alone, \`answerFetch\` over \`cdnSite\`, ${set}): 20 subjects / 1,000 at offset 500 / 1,000 at a random offset / 1,000 with \`indent=2\``,
      figure: figure([PLAIN_20, PLAIN_1000, RANDOM_1000, INDENT_2]),
    },
    {
      key: `lookup-${set.toLowerCase()}-by-key`,
      table: "Serving",
      what: `one subject by its key, ${set}: by id / code / OIB`,
      figure: figure([BY_ID, BY_CODE, BY_OIB], true),
    },
  ];
  const onServers: MeasuredRow[] = [
    {
      key: "request-cpu-plain-20",
      table: "Serving",
      what: "CPU a request, plain derived page, limit 20: handler alone / `subjekti serve` / the edge in Deno",
      figure: `**${["handler", "serve", "deno"].map((name) => fmt(ms.get(PLAIN_20)?.[at(name)] ?? NaN, 3)).join(" / ")} ms**`,
    },
    {
      key: "request-cpu-worst",
      table: "Serving",
      what: "CPU of the worst requests within the bounds, against that page",
      figure:
        `1,000 parameters **${fmt(ratio(PARAMETERS, PLAIN_20)[at("serve")] ?? NaN, 2)}×** (\`serve\`), **${fmt(ratio(PARAMETERS, PLAIN_20)[at("deno")] ?? NaN, 2)}×** (Deno); ` +
        `\`indent=8\` at limit 1000 up to **${fmt(Math.max(...ratio(INDENT_8, PLAIN_1000).filter(Number.isFinite)), 2)}×**`,
    },
  ];
  // The servers' rows only from a run that started them.
  return servers ? [...handlerRows, ...onServers] : handlerRows;
}

/** The Deno binary itself, not the package's node script, which forwards no signal to it (a stopped host would stay running). */
function denoExe(): string {
  const exe = join(ROOT, "node_modules/deno/deno");
  return existsSync(exe) ? exe : join(ROOT, "node_modules/.bin/deno");
}
