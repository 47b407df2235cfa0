/**
 * `bench build`: the CLI's builds of seeded sets (10k, 100k, 1M by default) in a child process,
 * each beside the probe (probe.ts: the same input read and parsed, the same files written, as fast
 * as Node can); a rebuild after one record renamed and one of unchanged data; optionally sets
 * written in a shuffled order (the build's external sort); a 1M set exported to .xlsx and built
 * from that workbook alone; and the preview's requests a second (a pre-rendered page, a derived
 * page, a 304) beside a bare serve-handler serving the same file.
 */
import type { ChildProcess } from "node:child_process";
import { mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { MeasuredRow } from "../benchmarks-table.ts";
import { forEachBounded, MANIFEST_PATH, type Manifest, pagePath, route } from "./from-src.ts";
import type { WritePlan } from "./probe.ts";
import {
  BENCH,
  CLI,
  dataset,
  fmt,
  freePort,
  label,
  load,
  load1,
  type LoadOptions,
  log,
  type Measured,
  measureNode,
  type Report,
  startPreview,
  startServer,
  stopServer,
  table,
  writtenFiles,
} from "./parts.ts";

export interface BuildOptions extends LoadOptions {
  readonly sizes: readonly number[];
  /** Sizes also built from a shuffled set (full build, default options). */
  readonly unsorted: readonly number[];
  readonly seed: string;
  readonly skipBuild: boolean;
  readonly skipLimits: boolean;
  readonly skipIncremental: boolean;
  readonly skipServe: boolean;
  readonly serveSize?: number;
  readonly skipXlsx: boolean;
  readonly xlsxSize: number;
  readonly repeat: number;
}

// Per run, so two benches never delete each other's output (still: one at a time, or both lie).
const TMP = join(BENCH, `tmp-${process.pid}`);
const LIMITS_4 = "10,20,50,100";
const mb = (bytes: number): string => (Number.isFinite(bytes) ? `${fmt(bytes / 2 ** 20, 0)} MB` : "–");
const spent = (m: Measured): string => `**${fmt(m.seconds)} s, ${fmt(m.rssMb, 0)} MB**`;
const count = (n: number): string => n.toLocaleString("en");

/** Every measure of `bench build` the options ask for. */
export async function benchBuilds(options: BuildOptions): Promise<Report> {
  await rm(TMP, { recursive: true, force: true });
  await mkdir(TMP, { recursive: true });
  const parts: Report[] = [];
  try {
    if (!options.skipBuild) {
      for (const size of options.sizes) parts.push(await fullBuilds(size, options, false));
      for (const size of options.unsorted) parts.push(await fullBuilds(size, options, true));
    }
    if (!options.skipXlsx) parts.push(await spreadsheet(options.xlsxSize, options));
    if (!options.skipServe)
      parts.push(await preview(options.serveSize ?? (options.sizes.includes(1e5) ? 1e5 : Math.min(...options.sizes)), options));
  } finally {
    await rm(TMP, { recursive: true, force: true });
  }
  return { text: parts.map((part) => part.text).join("\n\n"), rows: parts.flatMap((part) => part.rows) };
}

/** `subjekti build` of `data` into `out` (the build cache as users have it, kept in the bench's scratch). */
function build(data: string, out: string, extra: readonly string[] = []): Promise<Measured> {
  return measureNode([...CLI, "build", "--data", data, "--out", out, "--cache-dir", join(TMP, "build-cache"), "--quiet", ...extra]);
}

/** The run of median wall time, with the highest peak RSS of all runs (a shared machine is noisy). */
function medianRun(runs: readonly Measured[]): Measured {
  const sorted = [...runs].sort((a, b) => a.seconds - b.seconds);
  return { ...(sorted[Math.floor((sorted.length - 1) / 2)] as Measured), rssMb: Math.max(...runs.map((r) => r.rssMb)) };
}

async function repeated(times: number, run: () => Promise<Measured>): Promise<Measured> {
  const runs: Measured[] = [];
  for (let i = 0; i < times; i++) runs.push(await run());
  return medianRun(runs);
}

/** Full builds of set `size` (sorted: also the --limits build and the rebuilds), each beside the probe. */
async function fullBuilds(size: number, options: BuildOptions, shuffled: boolean): Promise<Report> {
  const data = await dataset(size, options.seed, undefined, shuffled);
  const set = label(size);
  const key = set.toLowerCase();
  const median = options.repeat > 1 ? ` (median of ${options.repeat})` : "";
  const configs: [string, string, string[]][] = [
    shuffled
      ? [`build-${key}-unsorted`, `${set}, full build of **unsorted** input (the external merge sort)`, []]
      : [`build-${key}-full`, `${set}, full build, default options`, []],
  ];
  if (!options.skipLimits && !shuffled)
    configs.push([`build-${key}-limits`, `${set}, full build, \`--limits ${LIMITS_4}\``, ["--limits", LIMITS_4]]);
  const printed: string[][] = [];
  const rows: MeasuredRow[] = [];
  const out = join(TMP, `site-${set}`);
  for (const [rowKey, what, extra] of configs) {
    log(`${what}…`);
    const loadNow = load1();
    const full = await repeated(options.repeat, async () => {
      await rm(out, { recursive: true, force: true });
      return build(data, out, extra);
    });
    const { files } = writtenFiles(full.stdout);
    const { probe, bytes } = await probeOf(data, out, options.repeat);
    const ratio = full.seconds / probe.seconds;
    printed.push([
      what + median,
      `${fmt(full.seconds)} s`,
      `${fmt(full.rssMb, 0)} MB`,
      count(files),
      mb(bytes),
      `${fmt(probe.seconds)} s`,
      `${fmt(ratio, 2)}×`,
      fmt(loadNow, 2),
    ]);
    rows.push({
      key: rowKey,
      table: "Builds",
      what,
      figure: `${spent(full)}${median}; probe ${fmt(probe.seconds)} s: ${fmt(ratio, 2)}× the probe; ${count(files)} files, ${mb(bytes)}`,
    });
    if (extra.length > 0 || options.skipIncremental || shuffled) continue;
    const edited = await dataset(size, options.seed, Math.floor(size / 2));
    for (const [step, stepKey] of [
      ["one record renamed (cached rebuild)", `rebuild-${key}-one-renamed`],
      ["rebuild, nothing changed", `rebuild-${key}-unchanged`],
    ] as const) {
      log(`${set}, ${step}…`);
      const loadStep = load1();
      const again = await build(edited, out);
      const written = writtenFiles(again.stdout).written;
      const times = `${fmt(again.seconds / full.seconds, 2)}× the full build`;
      printed.push([
        `${set}, ${step}`,
        `${fmt(again.seconds)} s`,
        `${fmt(again.rssMb, 0)} MB`,
        `(${count(written)} written)`,
        "–",
        "–",
        times,
        fmt(loadStep, 2),
      ]);
      const figure = `${spent(again)}, ${count(written)} files written${stepKey.endsWith("renamed") ? `, ${times}` : ""}`;
      rows.push({ key: stepKey, table: "Builds", what: `${set}, ${step}`, figure });
    }
  }
  await rm(out, { recursive: true, force: true });
  const header = ["run", "wall:", "peak RSS:", "files:", "bytes:", "probe wall:", "ratio:", "load:"];
  const text =
    `### Builds of ${set}\n\n\`subjekti build --data <set> --out <tmp> --cache-dir <tmp> --quiet\` in a child process; the probe reads and parses ` +
    "the same input and writes the same files as fast as Node can; ratio = build / probe, or rebuild / full build.\n\n" +
    table(header, printed);
  return { text, rows };
}

/** Every file under `dir` with its size, grouped by directory, as the probe's plan. */
async function walkTree(dir: string): Promise<{ plan: WritePlan; bytes: number }> {
  const dirs: string[] = [];
  const files: [number, string, number][] = [];
  let bytes = 0;
  const visit = async (rel: string): Promise<void> => {
    const entries = await readdir(join(dir, rel), { withFileTypes: true });
    const names = entries.filter((e) => e.isFile()).map((e) => e.name);
    if (names.length > 0) {
      const index = dirs.push(rel) - 1;
      await forEachBounded(names, 64, async (name) => {
        const { size } = await stat(join(dir, rel, name));
        files.push([index, name, size]);
        bytes += size;
      });
    }
    for (const sub of entries.filter((e) => e.isDirectory())) await visit(rel === "" ? sub.name : `${rel}/${sub.name}`);
  };
  await visit("");
  return { plan: { dirs, files }, bytes };
}

/** Walks the built tree, then runs the probe `repeat` times on its plan. */
async function probeOf(data: string, out: string, repeat: number): Promise<{ probe: Measured; bytes: number }> {
  const tree = await walkTree(out);
  const planFile = join(TMP, "probe-plan.json");
  await writeFile(planFile, JSON.stringify(tree.plan));
  const probeOut = join(TMP, "probe-out");
  const probe = await repeated(repeat, async () => {
    await rm(probeOut, { recursive: true, force: true });
    return measureNode(["--import", "tsx", "scripts/bench.ts", "probe", join(data, "subjekti.json"), planFile, probeOut]);
  });
  await rm(probeOut, { recursive: true, force: true });
  return { probe, bytes: tree.bytes };
}

/** The set exported to an .xlsx by the CLI, then built from that workbook alone. */
async function spreadsheet(size: number, options: BuildOptions): Promise<Report> {
  const data = await dataset(size, options.seed);
  const set = label(size);
  const dir = join(TMP, `xlsx-${set}`);
  await mkdir(dir, { recursive: true });
  const file = join(dir, "subjekti.xlsx");
  log(`${set}: export to .xlsx, then a build from it…`);
  const exported = await measureNode([...CLI, "export", "--data", data, "--out", file, "--format", "xlsx"]);
  const bytes = (await stat(file)).size;
  const built = await build(dir, join(TMP, `site-xlsx-${set}`), ["--no-cache"]);
  const text =
    "### Spreadsheets\n\n`subjekti export --format xlsx` of the JSON set, then `subjekti build --no-cache` of a directory holding only that workbook.\n\n" +
    table(
      ["run", "wall:", "peak RSS:", ".xlsx size:"],
      [exported, built].map((m, i) => [
        i === 0 ? `${set}, export` : `${set}, build from the .xlsx`,
        `${fmt(m.seconds)} s`,
        `${fmt(m.rssMb, 0)} MB`,
        mb(bytes),
      ]),
    );
  const rows: MeasuredRow[] = [
    {
      key: `xlsx-${set.toLowerCase()}-export`,
      table: "Other commands",
      what: `${set}, \`export --format xlsx\` (exceljs's streaming writer)`,
      figure: `${spent(exported)}, ${mb(bytes)}`,
    },
    {
      key: `xlsx-${set.toLowerCase()}-build`,
      table: "Other commands",
      what: `full build from a ${set}-row \`.xlsx\` alone (yauzl + saxes)`,
      figure: `${spent(built)} (${mb(bytes)} workbook)`,
    },
  ];
  return { text, rows };
}

/** The preview against a bare serve-handler (`bench raw-server`) serving the same page file, each in its own process. */
async function preview(size: number, options: BuildOptions): Promise<Report> {
  const site = join(TMP, "serve-site");
  // The preview's links point at itself; a site built for that origin is served from its files.
  const { server, origin } = await startPreview(CLI, await dataset(size, options.seed), site);
  const servers = [server];
  try {
    const manifest = JSON.parse(await readFile(join(site, MANIFEST_PATH), "utf8")) as Manifest;
    const page = { query: "limit=20&offset=40", file: pagePath(manifest, "plain", 20, 2) };
    const derived = "limit=20&offset=7";
    const decide = (query: string): string => route({ method: "GET", path: "/api/subjekti/", query, baseUrl: origin }, manifest).kind;
    if (page.file === null || decide(page.query) !== "file" || decide(derived) !== "derive") {
      throw new Error(`the router does not see ?${page.query} as a file and ?${derived} as derived`);
    }
    const rawPort = await freePort();
    servers.push(await startServer(["--import", "tsx", "scripts/bench.ts", "raw-server", site, String(rawPort)], /raw serve-handler:/));
    const previewPage = `${origin}/api/subjekti/?${page.query}`;
    const rawPage = `http://127.0.0.1:${rawPort}/${page.file}`;
    // Same bytes from both, or the comparison means nothing.
    const [a, b] = await Promise.all([fetch(previewPage), fetch(rawPage)]);
    if (a.status !== 200 || b.status !== 200 || (await a.text()) !== (await b.text()))
      throw new Error(`${previewPage} and ${rawPage} differ`);
    const etag = a.headers.get("etag") ?? "";
    const printed: string[][] = [];
    const rows: MeasuredRow[] = [];
    // serve-handler 6.1.8 opens the file's read stream before its ETag check and never closes it on
    // a 304 (one leaked descriptor per answer; under load it runs out and errors), so the 304 row
    // is compared with serve-handler's 200 for the same file, a baseline that does the most work.
    for (const [key, what, url, headers, expect] of [
      ["page", "preview, pre-rendered page", previewPage, {}, 200],
      ["derived", "preview, derived page", `${origin}/api/subjekti/?${derived}`, {}, 200],
      ["304", "preview, 304 to `If-None-Match`", previewPage, { "if-none-match": etag }, 304],
    ] as const) {
      log(`${what}…`);
      const loadNow = load1();
      const ours = await load(url, headers, options, expect, server);
      const raw = await load(rawPage, {}, options, 200, servers[1] as ChildProcess);
      const ratio = `${fmt(ours.requests.average / raw.requests.average, 2)}× raw serve-handler${key === "304" ? "'s 200" : ""}`;
      const cells = (r: typeof ours) => [fmt(r.requests.average, 0), `${r.latency.p50} / ${r.latency.p99}`, fmt(r.cpuUs, 0)];
      printed.push([what, ...cells(ours), ...cells(raw), ratio, fmt(loadNow, 2)]);
      const figure = `**${count(Math.round(ours.requests.average))} req/s**, p50 / p99 ${ours.latency.p50} / ${ours.latency.p99} ms, ${fmt(ours.cpuUs, 0)} µs of CPU a request: ${ratio}`;
      rows.push({ key: `preview-${label(size).toLowerCase()}-${key}`, table: "Serving", what: `${what} (${label(size)} site)`, figure });
    }
    const header = [
      "request",
      "req/s:",
      "p50 / p99 ms:",
      "CPU µs a request:",
      "serve-handler req/s:",
      "p50 / p99 ms:",
      "CPU µs a request:",
      "ratio",
      "load:",
    ];
    const text =
      `### The preview (${label(size)} site)\n\nautocannon, ${options.connections} connections, ${options.duration} s after a 1 s warm-up, loopback; ` +
      "each server in its own process (`subjekti preview` against bare node:http + serve-handler with `etag: true`).\n\n" +
      table(header, printed);
    return { text, rows };
  } finally {
    await Promise.all(servers.map(stopServer));
  }
}
