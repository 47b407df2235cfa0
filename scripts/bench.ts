/**
 * `npm run bench`: the project's speed and memory figures, printed as a markdown table.
 *
 * - Datasets of 10k, 100k and 1M seeded subjects (scripts/generate-subjects.ts), cached in
 *   .bench/data/ (gitignored), keyed by the generator's source so a changed generator regenerates.
 * - Full builds (default options, and --limits 10,20,50,100) of the real CLI in a child process:
 *   wall time, peak RSS, files and bytes; beside a probe (scripts/bench-probe.ts) that reads and
 *   parses the same input and writes the same files with the same sizes as fast as Node can.
 * - An incremental rebuild after renaming one record in the middle (the count stays).
 * - Optionally (--unsorted 3m) a full build of a set written in a shuffled order, which the build
 *   must sort by id: the same records, the same site, beside the same probe.
 * - The preview's throughput (autocannon on loopback) for a pre-rendered page, a derived page and
 *   a 304, beside a bare serve-handler server (scripts/bench-raw-server.ts) serving the same file.
 * - Spreadsheets: the 1M set exported as an .xlsx (`subjekti export`), and a full build from that
 *   workbook alone (read as a stream): wall time and peak RSS.
 *
 *   npm run bench -- [--sizes 10k,100k,1m] [--skip-serve] [--skip-build] [--skip-limits]
 *                    [--skip-incremental] [--unsorted 3m] [--xlsx-size 1m] [--skip-xlsx] [--repeat 3]
 *                    [--duration 5] [--report file.md] [--write]
 *
 * `--write` puts the measured rows into BENCHMARKS.md and the report into its history
 * (scripts/benchmarks-table.ts).
 */
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { MANIFEST_PATH, pagePath } from "../src/core/layout.ts";
import type { Manifest } from "../src/core/manifest.ts";
import { route } from "../src/core/route.ts";
import { forEachBounded } from "../src/common/for-each-bounded.ts";
import type { WritePlan } from "./bench-probe.ts";
import { type MeasuredRow, recordBenchmarks } from "./benchmarks-table.ts";
import {
  BENCH,
  dataset,
  fmt,
  freePort,
  generatorKey,
  label,
  load,
  type Loaded,
  log,
  parseCount,
  parseSummary,
  positive,
  ROOT,
  startServer,
  stopServer,
  type Summary,
} from "./bench-parts.ts";
import { type Measured, measureCommand } from "./measure-command.ts";

// Per run, so two benches never delete each other's output (still: one at a time, or both lie).
const TMP = join(BENCH, `tmp-${process.pid}`);
const TIME = "/usr/bin/time";
const NODE_TSX = ["--import", "tsx"];
const LIMITS_4 = "10,20,50,100";
const MB = 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// Options

interface BenchOptions {
  readonly sizes: readonly number[];
  /** Sizes also built from a shuffled set (full build, default options). */
  readonly unsorted: readonly number[];
  readonly seed: string;
  readonly skipBuild: boolean;
  readonly skipLimits: boolean;
  readonly skipIncremental: boolean;
  readonly skipServe: boolean;
  readonly serveSize: number | undefined;
  readonly skipXlsx: boolean;
  readonly xlsxSize: number;
  readonly duration: number;
  readonly connections: number;
  readonly report: string | undefined;
  readonly repeat: number;
}

function sizeList(text: string): number[] {
  return text.split(",").map(parseCount);
}

function parseOptions(argv: readonly string[]): BenchOptions {
  const flags = new Command("bench")
    .description("speed and memory: builds against a probe of the machine's limit, incremental rebuild, preview throughput")
    .option("--sizes <list>", "dataset sizes", sizeList, sizeList("10k,100k,1m"))
    .option("--unsorted <list>", "dataset sizes also built from the same records in a shuffled order (e.g. 3m)", sizeList, [])
    .option("--seed <text>", "the generator's seed", "1")
    .option("--skip-build", "no build measurements", false)
    .option("--skip-limits", "no --limits 10,20,50,100 builds", false)
    .option("--skip-incremental", "no one-record-edit rebuilds", false)
    .option("--skip-serve", "no preview throughput", false)
    .option("--serve-size <n>", "the dataset the preview serves (default 100k if listed, else the smallest)", parseCount)
    .option("--skip-xlsx", "no .xlsx export and build", false)
    .option("--xlsx-size <n>", "the dataset exported to .xlsx and built from it", parseCount, 1e6)
    .option("--duration <s>", "seconds of load per autocannon run", positive, 5)
    .option("--connections <n>", "autocannon connections", positive, 10)
    .option(
      "--repeat <n>",
      "full builds and probes per measurement; the median is reported",
      (text) => Math.max(1, Math.floor(positive(text))),
      1,
    )
    .option("--report <file>", "also write the markdown report to this file")
    .showHelpAfterError()
    .parse(argv)
    .opts<BenchOptions>();
  return flags;
}

// ---------------------------------------------------------------------------------------------
// Processes

/** Runs `node <args>` in the repository to the end: its time and peak memory (measure-command.ts). */
const measure = (args: readonly string[]): Promise<Measured> => measureCommand(args, ROOT, TMP);

// ---------------------------------------------------------------------------------------------
// Data and trees

interface Tree {
  readonly plan: WritePlan;
  readonly bytes: number;
}

/** Every file under `dir` with its size, grouped by directory, as the probe's plan. */
async function walkTree(dir: string): Promise<Tree> {
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

// ---------------------------------------------------------------------------------------------
// Measurements

interface BuildRow {
  readonly size: number;
  readonly run: string;
  readonly load: number;
  readonly build: Measured;
  readonly summary: Summary;
  readonly bytes: number;
  readonly probe?: Measured;
  /** For an incremental run: the full build it is compared with. */
  readonly full?: Measured;
}

async function build(dataDir: string, outDir: string, extra: readonly string[] = []): Promise<{ build: Measured; summary: Summary }> {
  // The build cache as users have it (a full build writes it, a rebuild reads it), kept in the bench's scratch.
  const cacheDir = join(TMP, "build-cache");
  const result = await measure([
    ...NODE_TSX,
    "src/cli/main.ts",
    "build",
    "--data",
    dataDir,
    "--out",
    outDir,
    "--cache-dir",
    cacheDir,
    "--quiet",
    ...extra,
  ]);
  return { build: result, summary: parseSummary(result.stdout) };
}

/** Walks the built tree, then runs the probe `repeat` times on its plan. */
async function probe(dataDir: string, outDir: string, repeat: number): Promise<{ probes: Measured[]; bytes: number }> {
  const tree = await walkTree(outDir);
  const planFile = join(TMP, "probe-plan.json");
  await writeFile(planFile, JSON.stringify(tree.plan));
  const probeOut = join(TMP, "probe-out");
  const probes: Measured[] = [];
  for (let i = 0; i < repeat; i++) {
    await rm(probeOut, { recursive: true, force: true });
    probes.push(
      await measure([
        ...NODE_TSX,
        "scripts/bench-probe.ts",
        "--input",
        join(dataDir, "subjekti.json"),
        "--plan",
        planFile,
        "--out",
        probeOut,
      ]),
    );
  }
  await rm(probeOut, { recursive: true, force: true });
  await rm(planFile, { force: true });
  return { probes, bytes: tree.bytes };
}

/** The run of median wall time, with the highest peak RSS of all runs (a shared machine is noisy). */
function median(runs: readonly Measured[]): Measured {
  const sorted = [...runs].sort((a, b) => a.seconds - b.seconds);
  const middle = sorted[Math.floor((sorted.length - 1) / 2)] as Measured;
  return { ...middle, rssMb: Math.max(...runs.map((r) => r.rssMb)) };
}

/** Full builds of set `size` (and, sorted, the --limits build and the rebuilds), each beside the probe. */
async function benchBuilds(size: number, options: BenchOptions, key: string, rows: BuildRow[], shuffled = false): Promise<void> {
  const data = await dataset(size, options.seed, key, undefined, shuffled);
  const configs: [string, string[]][] = [
    [shuffled ? "full build, default options, **unsorted** input" : "full build, default options", []],
  ];
  if (!options.skipLimits && !shuffled) configs.push([`full build, --limits ${LIMITS_4}`, ["--limits", LIMITS_4]]);
  for (const [run, extra] of configs) {
    const out = join(TMP, `site-${label(size)}`);
    await rm(out, { recursive: true, force: true });
    log(`${label(size)}: ${run}…`);
    const load = loadavg()[0] ?? 0;
    const builds: Measured[] = [];
    let full = await build(data, out, extra);
    builds.push(full.build);
    for (let i = 1; i < options.repeat; i++) {
      await rm(out, { recursive: true, force: true });
      builds.push((await build(data, out, extra)).build);
    }
    full = { ...full, build: median(builds) };
    const { probes, bytes } = await probe(data, out, options.repeat);
    const probed = median(probes);
    rows.push({ size, run: options.repeat > 1 ? `${run} (median of ${options.repeat})` : run, load, ...full, bytes, probe: probed });
    log(`  build ${full.build.seconds.toFixed(1)} s, ${full.build.rssMb.toFixed(0)} MB; probe ${probed.seconds.toFixed(1)} s`);
    if (extra.length === 0 && !options.skipIncremental && !shuffled) {
      const middle = Math.floor(size / 2);
      const edited = await dataset(size, options.seed, key, middle);
      log(`${label(size)}: rebuild after renaming record ${middle}…`);
      const loadEdit = loadavg()[0] ?? 0;
      const again = await build(edited, out, extra);
      rows.push({
        size,
        run: `one record renamed (index ${middle}), default options`,
        load: loadEdit,
        ...again,
        bytes: NaN,
        full: full.build,
      });
      const loadSame = loadavg()[0] ?? 0;
      const same = await build(edited, out, extra);
      rows.push({ size, run: "rebuild, nothing changed", load: loadSame, ...same, bytes: NaN, full: full.build });
    }
    await rm(out, { recursive: true, force: true });
  }
}

interface SheetRow {
  readonly size: number;
  readonly run: string;
  readonly measured: Measured;
  readonly bytes: number;
  readonly load: number;
}

/** The set exported to an .xlsx by the real CLI, then built from that workbook alone. */
async function benchXlsx(size: number, options: BenchOptions, key: string): Promise<SheetRow[]> {
  const data = await dataset(size, options.seed, key);
  const dir = join(TMP, `xlsx-${label(size)}`);
  await mkdir(dir, { recursive: true });
  const file = join(dir, "subjekti.xlsx");
  log(`${label(size)}: export to .xlsx…`);
  const exportLoad = loadavg()[0] ?? 0;
  const exported = await measure([...NODE_TSX, "src/cli/main.ts", "export", "--data", data, "--out", file, "--format", "xlsx"]);
  const bytes = (await stat(file)).size;
  log(`  export ${exported.seconds.toFixed(1)} s, ${exported.rssMb.toFixed(0)} MB, ${mb(bytes)}`);
  log(`${label(size)}: full build from the .xlsx…`);
  const out = join(TMP, `site-xlsx-${label(size)}`);
  const buildLoad = loadavg()[0] ?? 0;
  const built = await build(dir, out, ["--no-cache"]);
  log(`  build ${built.build.seconds.toFixed(1)} s, ${built.build.rssMb.toFixed(0)} MB`);
  await rm(dir, { recursive: true, force: true });
  await rm(out, { recursive: true, force: true });
  return [
    { size, run: "`subjekti export --format xlsx` of the JSON set", measured: exported, bytes, load: exportLoad },
    { size, run: "full build from that .xlsx alone, default options", measured: built.build, bytes, load: buildLoad },
  ];
}

function sheetTable(rows: readonly SheetRow[]): string {
  const lines = ["| set | run | wall | peak RSS | .xlsx size | load |", "|---|---|--:|--:|--:|--:|"];
  for (const row of rows) {
    lines.push(
      `| ${label(row.size)} | ${row.run} | ${fmt(row.measured.seconds)} s | ${fmt(row.measured.rssMb, 0)} MB | ${mb(row.bytes)} | ${fmt(row.load, 2)} |`,
    );
  }
  return lines.join("\n");
}

interface ServeRow {
  readonly request: string;
  readonly preview: Loaded;
  readonly raw: Loaded;
  readonly target?: number;
  readonly load: number;
}

async function fetchChecked(url: string, headers: Record<string, string> = {}): Promise<Response> {
  const response = await fetch(url, { headers });
  await response.arrayBuffer().catch(() => undefined);
  return response;
}

async function benchServe(size: number, options: BenchOptions, key: string): Promise<ServeRow[]> {
  const data = await dataset(size, options.seed, key);
  const site = join(TMP, "serve-site");
  await rm(site, { recursive: true, force: true });
  const previewPort = await freePort();
  const origin = `http://127.0.0.1:${previewPort}`;
  // The preview's links point at itself; a site built for that origin is served from its files.
  log(`serve: building ${label(size)} for ${origin}…`);
  await build(data, site, ["--base-url", origin]);
  const manifest = JSON.parse(await readFile(join(site, MANIFEST_PATH), "utf8")) as Manifest;

  const page = { query: "limit=20&offset=40", file: pagePath(manifest, "plain", 20, 2) };
  const derived = "limit=20&offset=7";
  const decide = (query: string): string => route({ method: "GET", path: "/api/subjekti/", query, baseUrl: origin }, manifest).kind;
  if (page.file === null || decide(page.query) !== "file" || decide(derived) !== "derive") {
    throw new Error(`the routing core does not see ?${page.query} as a file and ?${derived} as derived`);
  }

  const rawPort = await freePort();
  const preview = await startServer(
    [...NODE_TSX, "src/cli/main.ts", "preview", "--dir", site, "--port", String(previewPort)],
    /subjekti preview:/,
  );
  const raw = await startServer(
    [...NODE_TSX, "scripts/bench-raw-server.ts", "--dir", site, "--port", String(rawPort)],
    /raw serve-handler:/,
  );
  try {
    const previewPage = `${origin}/api/subjekti/?${page.query}`;
    const rawPage = `http://127.0.0.1:${rawPort}/${page.file}`;
    // Same bytes from both, or the comparison means nothing.
    const [a, b] = await Promise.all([fetch(previewPage), fetch(rawPage)]);
    const [bodyA, bodyB] = await Promise.all([a.text(), b.text()]);
    if (a.status !== 200 || b.status !== 200 || bodyA !== bodyB)
      throw new Error(`${previewPage} and ${rawPage} differ (${a.status}, ${b.status})`);
    const previewTag = a.headers.get("etag");
    const rawTag = b.headers.get("etag");
    if (previewTag === null || rawTag === null) throw new Error("no ETag from the preview or serve-handler");
    for (const [url, tag] of [
      [previewPage, previewTag],
      [rawPage, rawTag],
    ] as const) {
      const status = (await fetchChecked(url, { "if-none-match": tag })).status;
      if (status !== 304) throw new Error(`${url} with If-None-Match: ${tag} answered ${status}, not 304`);
    }

    const rows: ServeRow[] = [];
    const run = async (
      request: string,
      url: string,
      headers: Record<string, string>,
      rawHeaders: Record<string, string>,
      expect: number,
      target?: number,
    ): Promise<void> => {
      log(`serve: ${request}…`);
      const loadNow = loadavg()[0] ?? 0;
      const previewResult = await load(url, headers, options, expect, preview);
      const rawResult = await load(rawPage, rawHeaders, options, "if-none-match" in rawHeaders ? expect : 200, raw);
      rows.push({ request, preview: previewResult, raw: rawResult, load: loadNow, ...(target === undefined ? {} : { target }) });
    };
    await run(`pre-rendered page \`?${page.query}\``, previewPage, {}, {}, 200, 0.9);
    await run(`derived page \`?${derived}\``, `${origin}/api/subjekti/?${derived}`, {}, {}, 200, 0.5);
    // serve-handler 6.1.8 opens the file's read stream before its ETag check and never closes it on
    // a 304 (one leaked descriptor per answer; under load it runs out and errors), so the 304 row
    // is compared with serve-handler's 200 for the same file, a baseline that does the most work.
    await run(
      "304 (`If-None-Match` of the pre-rendered page; baseline: serve-handler's 200)",
      previewPage,
      { "if-none-match": previewTag },
      {},
      304,
    );
    return rows;
  } finally {
    await Promise.all([stopServer(preview), stopServer(raw)]);
    await rm(site, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// The report

const mb = (bytes: number): string => (Number.isFinite(bytes) ? `${(bytes / MB).toFixed(0)} MB` : "–");

function verdict(ok: boolean): string {
  return ok ? "**met**" : "**missed**";
}

/** The issue's targets, which apply at 1M; smaller sets show the same ratios for reference. */
function buildTarget(row: BuildRow): string {
  if (row.size !== 1e6) return "–";
  const ratio = row.probe === undefined ? NaN : row.build.seconds / row.probe.seconds;
  const check = (wall: number, rssMb: number): string =>
    `≤ 1.5× probe: ${verdict(ratio <= 1.5)}; ≤ ${rssMb / 1024} GB: ${verdict(row.build.rssMb <= rssMb)}`.replace("1.5×", `${wall}×`);
  if (row.run.startsWith("full build, default")) return check(1.5, 1024);
  if (row.run.startsWith("full build, --limits")) return check(1.5, 1536);
  if (row.run.startsWith("one record") && row.full !== undefined) {
    return `≤ 0.5× full build: ${verdict(row.build.seconds <= 0.5 * row.full.seconds)}`;
  }
  return "–";
}

/**
 * Flat memory and linear time: each size's full build (default options, sorted input) against
 * 1M's in the same run: peak RSS at most 1 GiB at every size and within 1.2x of 1M's, wall time
 * within the size ratio x 1.1 of 1M's (10M within 11x).
 */
function scalingTable(rows: readonly BuildRow[]): string | undefined {
  const full = rows.filter((row) => row.run.startsWith("full build, default options") && !row.run.includes("unsorted"));
  const base = full.find((row) => row.size === 1e6);
  if (base === undefined || full.length < 2) return undefined;
  const lines = ["| set | wall | × 1M's wall | peak RSS | × 1M's peak | target | load |", "|---|--:|--:|--:|--:|---|--:|"];
  for (const row of full) {
    const times = row.build.seconds / base.build.seconds;
    const peak = row.build.rssMb / base.build.rssMb;
    const factor = row.size / base.size;
    const target =
      row.size <= base.size
        ? `≤ 1 GiB: ${verdict(row.build.rssMb <= 1024)}`
        : `≤ 1 GiB: ${verdict(row.build.rssMb <= 1024)}; ≤ 1.2× 1M's peak: ${verdict(peak <= 1.2)}; ≤ ${fmt(1.1 * factor, 1)}× 1M's wall: ${verdict(times <= 1.1 * factor)}`;
    lines.push(
      `| ${label(row.size)} | ${fmt(row.build.seconds)} s | ${fmt(times, 2)}× | ${fmt(row.build.rssMb, 0)} MB | ${fmt(peak, 2)}× | ${target} | ${fmt(row.load, 2)} |`,
    );
  }
  return lines.join("\n");
}

function buildTable(rows: readonly BuildRow[]): string {
  const lines = [
    "| set | run | wall | peak RSS | files (written) | bytes | probe wall | probe RSS | ratio | target (1M) | load |",
    "|---|---|--:|--:|--:|--:|--:|--:|--:|---|--:|",
  ];
  for (const row of rows) {
    const ratio =
      row.probe !== undefined
        ? `${fmt(row.build.seconds / row.probe.seconds, 2)}× probe`
        : row.full !== undefined
          ? `${fmt(row.build.seconds / row.full.seconds, 2)}× full`
          : "–";
    lines.push(
      `| ${label(row.size)} | ${row.run} | ${fmt(row.build.seconds)} s | ${fmt(row.build.rssMb, 0)} MB | ` +
        `${row.summary.files} (${row.summary.written}) | ${mb(row.bytes)} | ` +
        `${row.probe === undefined ? "–" : `${fmt(row.probe.seconds)} s`} | ${row.probe === undefined ? "–" : `${fmt(row.probe.rssMb, 0)} MB`} | ` +
        `${ratio} | ${buildTarget(row)} | ${fmt(row.load, 2)} |`,
    );
  }
  return lines.join("\n");
}

function cpu(result: Loaded): string {
  return result.cpuUs === null ? "–" : fmt(result.cpuUs, 0);
}

function serveTable(rows: readonly ServeRow[], size: number): string {
  const lines = [
    `| request (${label(size)} site) | preview req/s | p50 / p99 ms | CPU µs / request | serve-handler req/s | p50 / p99 ms | CPU µs / request | ratio | target | load |`,
    "|---|--:|--:|--:|--:|--:|--:|--:|---|--:|",
  ];
  for (const row of rows) {
    const ratio = row.preview.requests.average / row.raw.requests.average;
    const target = row.target === undefined ? "–" : `≥ ${row.target}×: ${verdict(ratio >= row.target)}`;
    lines.push(
      `| ${row.request} | ${fmt(row.preview.requests.average, 0)} | ${row.preview.latency.p50} / ${row.preview.latency.p99} | ${cpu(row.preview)} | ` +
        `${fmt(row.raw.requests.average, 0)} | ${row.raw.latency.p50} / ${row.raw.latency.p99} | ${cpu(row.raw)} | ${fmt(ratio, 2)}× | ${target} | ${fmt(row.load, 2)} |`,
    );
  }
  return lines.join("\n");
}

function machine(): string {
  const cpu = cpus();
  return (
    `${cpu[0]?.model.trim() ?? "unknown CPU"}, ${cpu.length} cores, ${(totalmem() / 1024 ** 3).toFixed(0)} GB RAM, ` +
    `Node ${process.version}, ${process.platform}`
  );
}

// ---------------------------------------------------------------------------------------------
// The rows of BENCHMARKS.md (`--write`)

const count = (n: number): string => n.toLocaleString("en");

function buildRowOf(row: BuildRow): MeasuredRow {
  const set = label(row.size);
  const key = set.toLowerCase();
  const spent = `**${fmt(row.build.seconds)} s, ${fmt(row.build.rssMb, 0)} MB**`;
  const probe =
    row.probe === undefined ? "" : `; probe ${fmt(row.probe.seconds)} s: ${fmt(row.build.seconds / row.probe.seconds, 2)}× the probe`;
  const files = `${count(row.summary.files)} files, ${mb(row.bytes)}`;
  if (row.run.startsWith("one record renamed")) {
    const ratio = row.full === undefined ? "" : `, ${fmt(row.build.seconds / row.full.seconds, 2)}× the full build`;
    return {
      key: `rebuild-${key}-one-renamed`,
      table: "Builds",
      what: `${set}, one record renamed (cached rebuild)`,
      figure: `${spent}, ${count(row.summary.written)} files written${ratio}`,
    };
  }
  if (row.run.startsWith("rebuild, nothing changed")) {
    return {
      key: `rebuild-${key}-unchanged`,
      table: "Builds",
      what: `${set}, rebuild, nothing changed`,
      figure: `${spent}, ${count(row.summary.written)} files written`,
    };
  }
  const median = /\(median of \d+\)/.exec(row.run)?.[0];
  const figure = `${spent}${median === undefined ? "" : ` ${median}`}${probe}; ${files}`;
  if (row.run.includes("unsorted")) {
    return {
      key: `build-${key}-unsorted`,
      table: "Builds",
      what: `${set}, full build of **unsorted** input (the external merge sort)`,
      figure,
    };
  }
  if (row.run.includes("--limits")) {
    return { key: `build-${key}-limits`, table: "Builds", what: `${set}, full build, \`--limits ${LIMITS_4}\``, figure };
  }
  return { key: `build-${key}-full`, table: "Builds", what: `${set}, full build, default options`, figure };
}

function sheetRowOf(row: SheetRow): MeasuredRow {
  const set = label(row.size);
  const spent = `**${fmt(row.measured.seconds)} s, ${fmt(row.measured.rssMb, 0)} MB**`;
  return row.run.startsWith("full build")
    ? {
        key: `xlsx-${set.toLowerCase()}-build`,
        table: "Other commands",
        what: `full build from a ${set}-row \`.xlsx\` alone (yauzl + saxes)`,
        figure: `${spent} (${mb(row.bytes)} workbook)`,
      }
    : {
        key: `xlsx-${set.toLowerCase()}-export`,
        table: "Other commands",
        what: `${set}, \`export --format xlsx\` (exceljs's streaming writer)`,
        figure: `${spent}, ${mb(row.bytes)}`,
      };
}

const SERVE_ROWS = [
  ["page", "preview, pre-rendered page"],
  ["derived", "preview, derived page"],
  ["304", "preview, 304 to `If-None-Match`"],
] as const;

function serveRowsOf(rows: readonly ServeRow[], size: number): MeasuredRow[] {
  const set = label(size);
  return rows.map((row, i) => {
    const [key, what] = SERVE_ROWS[i] ?? ["other", row.request];
    const ratio = row.preview.requests.average / row.raw.requests.average;
    return {
      key: `preview-${set.toLowerCase()}-${key}`,
      table: "Serving",
      what: `${what} (${set} site)`,
      figure:
        `**${count(Math.round(row.preview.requests.average))} req/s**, p50 / p99 ${row.preview.latency.p50} / ${row.preview.latency.p99} ms` +
        `${row.preview.cpuUs === null ? "" : `, ${fmt(row.preview.cpuUs, 0)} µs of CPU a request`}: ` +
        `${fmt(ratio, 2)}× raw serve-handler${key === "304" ? "'s 200" : ""}`,
    };
  });
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv);
  await rm(TMP, { recursive: true, force: true });
  await mkdir(TMP, { recursive: true });
  const key = await generatorKey();
  const started = new Date();
  const sections: string[] = [];
  const measured: MeasuredRow[] = [];
  const command = `npm run bench -- ${process.argv.slice(2).join(" ")}`.trim();
  sections.push(
    `## Benchmark ${started.toISOString().slice(0, 16).replace("T", " ")} UTC\n\n` +
      `- command: \`${command}\`\n- machine: ${machine()}\n` +
      `- data: scripts/generate-subjects.ts, seed ${options.seed}, JSON arrays (generator ${key})` +
      `${options.unsorted.length > 0 ? "; the unsorted rows' sets are the same records written with --shuffle" : ""}\n` +
      `- load: 1-minute load average before each measurement (the "load" column); the machine has ${cpus().length} cores`,
  );
  try {
    if (!options.skipBuild) {
      const rows: BuildRow[] = [];
      for (const size of options.sizes) await benchBuilds(size, options, key, rows);
      for (const size of options.unsorted) await benchBuilds(size, options, key, rows, true);
      measured.push(...rows.map(buildRowOf));
      sections.push(
        "### Builds\n\n" +
          "Wall time and peak RSS of `node --import tsx src/cli/main.ts build --data <set> --out <tmp> --cache-dir <tmp> --quiet` in a child process " +
          `(peak RSS: ${existsSync(TIME) ? "GNU time %M" : "/proc VmHWM"}). The probe reads and parses the same input and writes ` +
          "the same files with the same sizes as fast as Node can (scripts/bench-probe.ts); ratio = build / probe, or for a rebuild, rebuild / full build.\n\n" +
          buildTable(rows),
      );
      const scaling = scalingTable(rows);
      if (scaling !== undefined) {
        sections.push("### Scaling (sorted input, default options)\n\nEach size's full build against 1M's in the same run.\n\n" + scaling);
      }
    }
    if (!options.skipXlsx) {
      const rows = await benchXlsx(options.xlsxSize, options, key);
      measured.push(...rows.map(sheetRowOf));
      sections.push(
        "### Spreadsheets\n\n" +
          "Wall time and peak RSS of `src/cli/main.ts export --format xlsx` (the JSON set to a workbook: OIB, code and date as text cells, " +
          "inline strings) and of `src/cli/main.ts build --no-cache --quiet` on a directory holding only that workbook (exceljs's streaming reader), " +
          "each in a child process.\n\n" +
          sheetTable(rows),
      );
    }
    if (!options.skipServe) {
      const size = options.serveSize ?? (options.sizes.includes(1e5) ? 1e5 : Math.min(...options.sizes));
      const rows = await benchServe(size, options, key);
      measured.push(...serveRowsOf(rows, size));
      sections.push(
        "### Preview throughput\n\n" +
          `autocannon, ${options.connections} connections, ${options.duration} s after a 1 s warm-up, loopback; each server in its own process ` +
          "(`node --import tsx src/cli/main.ts preview` against `scripts/bench-raw-server.ts`, bare node:http + serve-handler serving the same page file; " +
          "serve-handler with `etag: true`). Ratio = preview / serve-handler.\n\n" +
          serveTable(rows, size),
      );
    }
  } finally {
    await rm(TMP, { recursive: true, force: true });
  }
  const report = `${sections.join("\n\n")}\n`;
  process.stdout.write(report);
  if (options.report !== undefined) await writeFile(options.report, report);
  await recordBenchmarks(measured);
}

await main();
