/**
 * `npm run bench:against -- --before <checkout>`: this checkout against another, alternately, in
 * one run, so that a change is judged on the same machine under the same load.
 *
 * - Builds of the `--size` set (default 1M) as users run them: a full build with its cache, then
 *   one record renamed in the middle (the cached rebuild), then a rebuild of unchanged data; wall
 *   time, peak RSS and files written, `sync` before each.
 * - The preview serving a `--serve-size` site (default 100k) that each checkout built: a
 *   pre-rendered page, a derived page and a 304, each checkout's requests a second and its CPU per
 *   request (user + system from /proc, which holds still on a loaded machine).
 *
 * Each round runs both checkouts, the order swapped every round (A B, B A, …); the figures are the
 * medians of `--rounds`. Both run compiled (`bin/subjekti.js`): this checkout is compiled first, the
 * other must be already (`npm run compile` there, its node_modules in place).
 *
 *   npm run bench:against -- --before <dir> [--size 1m] [--serve-size 100k] [--rounds 3]
 *                            [--skip-build] [--skip-serve] [--duration 5] [--write]
 */
import { type ChildProcess, execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm } from "node:fs/promises";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { Command } from "commander";
import { MANIFEST_PATH, pagePath } from "../src/core/layout.ts";
import type { Manifest } from "../src/core/manifest.ts";
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
} from "./bench-parts.ts";
import { type MeasuredRow, recordBenchmarks } from "./benchmarks-table.ts";
import { type Measured, measureCommand } from "./measure-command.ts";

interface Options {
  readonly before: string;
  readonly size: number;
  readonly serveSize: number;
  readonly rounds: number;
  readonly skipBuild: boolean;
  readonly skipServe: boolean;
  readonly duration: number;
  readonly connections: number;
  readonly seed: string;
}

/** One checkout as measured: its name in the tables and the CLI it runs. */
interface Side {
  readonly name: string;
  readonly dir: string;
  readonly cli: string;
}

const TMP = join(BENCH, `against-${process.pid}`);

function parseOptions(argv: readonly string[]): Options {
  return new Command("bench:against")
    .description("this checkout against another, alternately in one run: 1M builds (full, one record renamed, unchanged) and the preview")
    .requiredOption("--before <dir>", "the other checkout (compiled, its node_modules in place)")
    .option("--size <n>", "the set built", parseCount, 1e6)
    .option("--serve-size <n>", "the set the preview serves", parseCount, 1e5)
    .option("--rounds <n>", "rounds of both checkouts; the medians are reported", (t) => Math.max(1, Math.floor(positive(t))), 3)
    .option("--skip-build", "no builds", false)
    .option("--skip-serve", "no preview", false)
    .option("--duration <s>", "seconds of load per autocannon run", positive, 5)
    .option("--connections <n>", "autocannon connections", positive, 10)
    .option("--seed <text>", "the generator's seed", "1")
    .showHelpAfterError()
    .parse(argv)
    .opts<Options>();
}

/** A checkout's commit, or its directory's name when it is not a git checkout (a `git archive`). */
function revisionOf(dir: string): string {
  try {
    const rev = execFileSync("git", ["-C", dir, "rev-parse", "--short", "HEAD"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    const dirty = execFileSync("git", ["-C", dir, "status", "--porcelain", "--untracked-files=no"], { encoding: "utf8" }).trim() !== "";
    return `${rev.trim()}${dirty ? "+dirty" : ""}`;
  } catch {
    return dir.split("/").pop() ?? dir;
  }
}

/** The order of round `round`: A B, then B A, and so on. */
const inTurn = <T>(sides: readonly T[], round: number): readonly T[] => (round % 2 === 0 ? sides : [...sides].reverse());

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? NaN) : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}

const range = (values: readonly number[], digits = 1): string => `${fmt(Math.min(...values), digits)}–${fmt(Math.max(...values), digits)}`;

// ---------------------------------------------------------------------------------------------
// Builds

const BUILD_STEPS = ["full build", "one record renamed", "nothing changed"] as const;
type BuildStep = (typeof BUILD_STEPS)[number];

interface BuildRun {
  readonly seconds: number;
  readonly rssMb: number;
  readonly written: number;
}

async function buildOnce(side: Side, data: string, out: string, cache: string): Promise<BuildRun> {
  // Dirty pages of the previous step are written out first, so no build pays for another's.
  execFileSync("sync");
  const measured: Measured = await measureCommand(
    [side.cli, "build", "--data", data, "--out", out, "--cache-dir", cache, "--quiet"],
    ROOT,
    TMP,
  );
  return { seconds: measured.seconds, rssMb: measured.rssMb, written: parseSummary(measured.stdout).written };
}

/** Per side and step, every round's run. */
type BuildRuns = Map<string, Map<BuildStep, BuildRun[]>>;

async function benchBuilds(sides: readonly Side[], options: Options, key: string): Promise<BuildRuns> {
  const data = await dataset(options.size, options.seed, key);
  const edited = await dataset(options.size, options.seed, key, Math.floor(options.size / 2));
  const runs: BuildRuns = new Map(sides.map((side) => [side.name, new Map(BUILD_STEPS.map((step) => [step, []]))]));
  for (let round = 0; round < options.rounds; round++) {
    for (const side of inTurn(sides, round)) {
      const out = join(TMP, "site");
      const cache = join(TMP, "cache");
      await rm(out, { recursive: true, force: true });
      await rm(cache, { recursive: true, force: true });
      const steps: [BuildStep, string][] = [
        ["full build", data],
        ["one record renamed", edited],
        ["nothing changed", edited],
      ];
      for (const [step, from] of steps) {
        log(`round ${round + 1}, ${side.name}: ${step}…`);
        const run = await buildOnce(side, from, out, cache);
        runs.get(side.name)?.get(step)?.push(run);
        log(`  ${fmt(run.seconds)} s, ${fmt(run.rssMb, 0)} MB, ${run.written} files written`);
      }
    }
  }
  await rm(join(TMP, "site"), { recursive: true, force: true });
  await rm(join(TMP, "cache"), { recursive: true, force: true });
  return runs;
}

function buildTable(sides: readonly Side[], runs: BuildRuns, size: number): string {
  const lines = [
    `| ${label(size)} | ${sides.map((side) => `${side.name}: median wall, peak RSS (range) | files written`).join(" | ")} |`,
    `|---|${sides.map(() => "--:|--:").join("|")}|`,
  ];
  for (const step of BUILD_STEPS) {
    const cells = sides.map((side) => {
      const list = runs.get(side.name)?.get(step) ?? [];
      const seconds = list.map((run) => run.seconds);
      const rss = list.map((run) => run.rssMb);
      return `**${fmt(median(seconds))} s, ${fmt(Math.max(...rss), 0)} MB** (${range(seconds)} s, ${range(rss, 0)} MB) | ${list[0]?.written ?? "–"}`;
    });
    lines.push(`| ${step} | ${cells.join(" | ")} |`);
  }
  return lines.join("\n");
}

// ---------------------------------------------------------------------------------------------
// The preview

const REQUESTS = ["pre-rendered page", "derived page", "304"] as const;
type Request = (typeof REQUESTS)[number];

type ServeRuns = Map<string, Map<Request, Loaded[]>>;

/** A running preview of a site its own checkout built, and the requests it is sent. */
interface Served {
  readonly side: Side;
  /** Measured through its process: load() reads its CPU from /proc. */
  readonly server: ChildProcess;
  readonly stop: () => Promise<void>;
  readonly targets: Record<Request, { readonly url: string; readonly headers: Record<string, string>; readonly expect: number }>;
}

async function serveSide(side: Side, data: string): Promise<Served> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const site = join(TMP, `serve-${side.name.replace(/\W+/g, "-")}`);
  await rm(site, { recursive: true, force: true });
  log(`${side.name}: building the preview's site for ${origin}…`);
  await measureCommand([side.cli, "build", "--data", data, "--out", site, "--base-url", origin, "--no-cache", "--quiet"], ROOT, TMP);
  const manifest = JSON.parse(await readFile(join(site, MANIFEST_PATH), "utf8")) as Manifest;
  // The page the build pre-rendered (offset a multiple of the limit), and one it cannot have.
  if (pagePath(manifest, "plain", 20, 2) === null) throw new Error(`${side.name}: no pre-rendered ?limit=20&offset=40`);
  const server = await startServer([side.cli, "preview", "--dir", site, "--port", String(port)], /subjekti preview:/, side.dir);
  const page = `${origin}/api/subjekti/?limit=20&offset=40`;
  const answer = await fetch(page);
  await answer.arrayBuffer();
  const etag = answer.headers.get("etag");
  if (answer.status !== 200 || etag === null) throw new Error(`${side.name}: ${page} answered ${answer.status} without an ETag`);
  return {
    side,
    server,
    stop: async () => {
      await stopServer(server);
      await rm(site, { recursive: true, force: true });
    },
    targets: {
      "pre-rendered page": { url: page, headers: {}, expect: 200 },
      "derived page": { url: `${origin}/api/subjekti/?limit=20&offset=7`, headers: {}, expect: 200 },
      "304": { url: page, headers: { "if-none-match": etag }, expect: 304 },
    },
  };
}

async function benchServe(sides: readonly Side[], options: Options, key: string): Promise<ServeRuns> {
  const data = await dataset(options.serveSize, options.seed, key);
  const runs: ServeRuns = new Map(sides.map((side) => [side.name, new Map(REQUESTS.map((request) => [request, []]))]));
  const served: Served[] = [];
  try {
    for (const side of sides) served.push(await serveSide(side, data));
    for (let round = 0; round < options.rounds; round++) {
      for (const request of REQUESTS) {
        for (const one of inTurn(served, round)) {
          const target = one.targets[request];
          log(`round ${round + 1}, ${one.side.name}: ${request}…`);
          const result = await load(target.url, target.headers, options, target.expect, one.server);
          runs.get(one.side.name)?.get(request)?.push(result);
          log(
            `  ${fmt(result.requests.average, 0)} req/s, ${fmt(result.cpuUs ?? NaN, 0)} µs of CPU a request (load ${fmt(loadavg()[0] ?? 0, 2)})`,
          );
        }
      }
    }
  } finally {
    await Promise.all(served.map((one) => one.stop()));
  }
  return runs;
}

function serveTable(sides: readonly Side[], runs: ServeRuns, size: number): string {
  const lines = [
    `| request (${label(size)} site) | ${sides.map((side) => `${side.name}: req/s (range) | CPU µs / request (range)`).join(" | ")} |`,
    `|---|${sides.map(() => "--:|--:").join("|")}|`,
  ];
  for (const request of REQUESTS) {
    const cells = sides.map((side) => {
      const list = runs.get(side.name)?.get(request) ?? [];
      const rates = list.map((run) => run.requests.average);
      const cpu = list.map((run) => run.cpuUs ?? NaN);
      return `**${fmt(median(rates), 0)}** (${range(rates, 0)}) | **${fmt(median(cpu), 0)}** (${range(cpu, 0)})`;
    });
    lines.push(`| ${request} | ${cells.join(" | ")} |`);
  }
  return lines.join("\n");
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const options = parseOptions(process.argv);
  const beforeDir = resolve(options.before);
  if (!existsSync(join(beforeDir, "bin/subjekti.js")) || !existsSync(join(beforeDir, "lib"))) {
    throw new Error(`${beforeDir}: no bin/subjekti.js and lib/ (run npm run compile there)`);
  }
  log("compiling this checkout…");
  execFileSync("npm", ["run", "--silent", "compile"], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
  const sides: Side[] = [
    { name: `this (${revisionOf(ROOT)})`, dir: ROOT, cli: join(ROOT, "bin/subjekti.js") },
    { name: `before (${revisionOf(beforeDir)})`, dir: beforeDir, cli: join(beforeDir, "bin/subjekti.js") },
  ];
  await rm(TMP, { recursive: true, force: true });
  await mkdir(TMP, { recursive: true });
  const key = await generatorKey();
  const sections = [
    `## ${sides[0]?.name} against ${sides[1]?.name}, ${options.rounds} rounds, alternating\n\n` +
      `- load (1 minute) at the start: ${fmt(loadavg()[0] ?? 0, 2)}; medians of the rounds, the range in brackets`,
  ];
  const measured: MeasuredRow[] = [];
  try {
    if (!options.skipBuild) {
      const runs = await benchBuilds(sides, options, key);
      sections.push(
        "### Builds\n\n`bin/subjekti.js build --data <set> --out <tmp> --cache-dir <tmp> --quiet`, `sync` before each; peak RSS the highest of the rounds.\n\n" +
          buildTable(sides, runs, options.size),
      );
      measured.push(...buildRows(sides, runs, options.size));
    }
    if (!options.skipServe) {
      const runs = await benchServe(sides, options, key);
      sections.push(
        `### The preview\n\nautocannon, ${options.connections} connections, ${options.duration} s after a 1 s warm-up, loopback; ` +
          "each checkout's `bin/subjekti.js preview` serving the site it built.\n\n" +
          serveTable(sides, runs, options.serveSize),
      );
      measured.push(...serveRows(sides, runs, options.serveSize));
    }
  } finally {
    await rm(TMP, { recursive: true, force: true });
  }
  process.stdout.write(`${sections.join("\n\n")}\n`);
  await recordBenchmarks(measured);
}

/** The rows `--write` records: this checkout's medians, with the other's beside them. */
function buildRows(sides: readonly Side[], runs: BuildRuns, size: number): MeasuredRow[] {
  const [after, before] = sides as [Side, Side];
  const set = label(size);
  const figure = (side: Side): string =>
    BUILD_STEPS.map((step) => {
      const list = runs.get(side.name)?.get(step) ?? [];
      return `${fmt(median(list.map((run) => run.seconds)))} s`;
    }).join(" / ") +
    `, peak ${fmt(Math.max(...BUILD_STEPS.flatMap((step) => (runs.get(side.name)?.get(step) ?? []).map((run) => run.rssMb))), 0)} MB`;
  return [
    {
      key: `against-${set.toLowerCase()}-builds`,
      table: "Against an earlier commit",
      what: `${set}, full build / one record renamed / nothing changed (cached), against ${before.name}, alternating`,
      figure: `**${figure(after)}** against ${figure(before)} (medians)`,
    },
  ];
}

function serveRows(sides: readonly Side[], runs: ServeRuns, size: number): MeasuredRow[] {
  const [after, before] = sides as [Side, Side];
  const set = label(size);
  const figure = (side: Side): string =>
    REQUESTS.map((request) => {
      const list = runs.get(side.name)?.get(request) ?? [];
      return `${fmt(median(list.map((run) => run.cpuUs ?? NaN)), 0)} µs (${fmt(median(list.map((run) => run.requests.average)), 0)} req/s)`;
    }).join(" / ");
  return [
    {
      key: `against-preview-${set.toLowerCase()}`,
      table: "Against an earlier commit",
      what: `preview, ${set} site, pre-rendered / derived / 304: CPU a request (requests a second), against ${before.name}, alternating`,
      figure: `**${figure(after)}** against ${figure(before)} (medians)`,
    },
  ];
}

await main();
