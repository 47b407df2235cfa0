/**
 * `bench against --before <checkout>`: this checkout against another, alternately in one run, so
 * that a change is judged on the same machine under the same load. Builds of the `--size` set (a
 * full build with its cache, one record renamed, unchanged data; wall time, peak RSS and files
 * written, `sync` before each) and the preview of a `--serve-size` site each checkout built (a
 * pre-rendered page, a derived page, a 304: requests a second and CPU a request). Each round runs
 * both, the order swapped every round; the figures are the medians of `--rounds`. Both run
 * compiled (`bin/subjekti.js`): this checkout is compiled first, the other must be already.
 */
import { type ChildProcess, execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { MeasuredRow } from "../benchmarks-table.ts";
import { MANIFEST_PATH, type Manifest, pagePath } from "./from-src.ts";
import {
  BENCH,
  dataset,
  fmt,
  label,
  load,
  load1,
  type LoadOptions,
  log,
  median,
  measureNode,
  type Report,
  ROOT,
  startPreview,
  stopServer,
  table,
  writtenFiles,
} from "./parts.ts";

export interface AgainstOptions extends LoadOptions {
  readonly before: string;
  readonly size: number;
  readonly serveSize: number;
  readonly rounds: number;
  readonly skipBuild: boolean;
  readonly skipServe: boolean;
  readonly seed: string;
}

/** One checkout as measured: its name in the tables and the CLI it runs. */
interface Side {
  readonly name: string;
  readonly dir: string;
  readonly cli: string;
}

const TMP = join(BENCH, `against-${process.pid}`);
const BUILD_STEPS = ["full build", "one record renamed", "nothing changed"] as const;
const REQUESTS = ["pre-rendered page", "derived page", "304"] as const;
const range = (values: readonly number[], digits = 1): string => `${fmt(Math.min(...values), digits)}–${fmt(Math.max(...values), digits)}`;
/** The order of round `round`: A B, then B A, and so on. */
const inTurn = <T>(sides: readonly T[], round: number): readonly T[] => (round % 2 === 0 ? sides : [...sides].reverse());

/** A checkout's commit, or its directory's name when it is not a git checkout (a `git archive`). */
function revisionOf(dir: string): string {
  try {
    const git = (...args: string[]) =>
      execFileSync("git", ["-C", dir, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    return `${git("rev-parse", "--short", "HEAD")}${git("status", "--porcelain", "--untracked-files=no") === "" ? "" : "+dirty"}`;
  } catch {
    return dir.split("/").pop() ?? dir;
  }
}

/** This checkout against `--before`: the builds, then the preview. */
export async function benchAgainst(options: AgainstOptions): Promise<Report> {
  const beforeDir = resolve(options.before);
  if (!existsSync(join(beforeDir, "bin/subjekti.js")) || !existsSync(join(beforeDir, "lib"))) {
    throw new Error(`${beforeDir}: no bin/subjekti.js and lib/ (run npm run compile there)`);
  }
  log("compiling this checkout…");
  execFileSync("npm", ["run", "--silent", "compile"], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
  const sides: Side[] = [ROOT, beforeDir].map((dir, i) => ({
    name: `${i === 0 ? "this" : "before"} (${revisionOf(dir)})`,
    dir,
    cli: join(dir, "bin/subjekti.js"),
  }));
  const parts: Report[] = [
    {
      text: `## ${sides[0]?.name} against ${sides[1]?.name}, ${options.rounds} rounds, alternating (medians, the range in brackets)`,
      rows: [],
    },
  ];
  try {
    if (!options.skipBuild) parts.push(await builds(sides, options));
    if (!options.skipServe) parts.push(await previews(sides, options));
  } finally {
    await rm(TMP, { recursive: true, force: true });
  }
  return { text: parts.map((part) => part.text).join("\n\n"), rows: parts.flatMap((part) => part.rows) };
}

async function builds(sides: readonly Side[], options: AgainstOptions): Promise<Report> {
  const data = await dataset(options.size, options.seed);
  const edited = await dataset(options.size, options.seed, Math.floor(options.size / 2));
  const runs = sides.map(() => BUILD_STEPS.map(() => [] as { seconds: number; rssMb: number; written: number }[]));
  for (let round = 0; round < options.rounds; round++) {
    for (const side of inTurn(sides, round)) {
      const [out, cache] = [join(TMP, "site"), join(TMP, "cache")];
      await rm(TMP, { recursive: true, force: true });
      for (const [i, step] of BUILD_STEPS.entries()) {
        log(`round ${round + 1}, ${side.name}: ${step}…`);
        // Dirty pages of the previous step are written out first, so no build pays for another's.
        execFileSync("sync");
        const m = await measureNode([side.cli, "build", "--data", i === 0 ? data : edited, "--out", out, "--cache-dir", cache, "--quiet"]);
        runs[sides.indexOf(side)]?.[i]?.push({ ...m, written: writtenFiles(m.stdout).written });
      }
    }
  }
  const cell = (s: number, i: number): string => {
    const list = runs[s]?.[i] ?? [];
    const [seconds, rss] = [list.map((r) => r.seconds), list.map((r) => r.rssMb)];
    return `**${fmt(median(seconds))} s, ${fmt(Math.max(...rss), 0)} MB** (${range(seconds)} s, ${range(rss, 0)} MB) | ${list[0]?.written ?? "–"}`;
  };
  const header = [label(options.size), ...sides.flatMap((side) => [`${side.name}: median wall, peak RSS (range):`, "files written:"])];
  const figure = (s: number): string =>
    BUILD_STEPS.map((_, i) => `${fmt(median((runs[s]?.[i] ?? []).map((r) => r.seconds)))} s`).join(" / ") +
    `, peak ${fmt(Math.max(...(runs[s] ?? []).flat().map((r) => r.rssMb)), 0)} MB`;
  const set = label(options.size);
  return {
    text:
      "### Builds\n\n`bin/subjekti.js build --data <set> --out <tmp> --cache-dir <tmp> --quiet`, `sync` before each.\n\n" +
      table(
        header,
        BUILD_STEPS.map((step, i) => [step, ...sides.map((_, s) => cell(s, i))]),
      ),
    rows: [
      {
        key: `against-${set.toLowerCase()}-builds`,
        table: "Against an earlier commit",
        what: `${set}, full build / one record renamed / nothing changed (cached), against ${sides[1]?.name}, alternating`,
        figure: `**${figure(0)}** against ${figure(1)} (medians)`,
      },
    ],
  };
}

/** Each checkout's preview of a site it built, the three requests sent to each in turn. */
async function previews(sides: readonly Side[], options: AgainstOptions): Promise<Report> {
  const data = await dataset(options.serveSize, options.seed);
  const servers: { server: ChildProcess; targets: [string, Record<string, string>, number][] }[] = [];
  const runs = sides.map(() => REQUESTS.map(() => [] as { rate: number; cpu: number }[]));
  try {
    for (const side of sides) {
      const site = join(TMP, `serve-${servers.length}`);
      const { server, origin } = await startPreview([side.cli], data, site, side.dir);
      const manifest = JSON.parse(await readFile(join(site, MANIFEST_PATH), "utf8")) as Manifest;
      if (pagePath(manifest, "plain", 20, 2) === null) throw new Error(`${side.name}: no pre-rendered ?limit=20&offset=40`);
      const page = `${origin}/api/subjekti/?limit=20&offset=40`;
      const etag = (await fetch(page)).headers.get("etag") ?? "";
      servers.push({
        server,
        targets: [
          [page, {}, 200],
          [`${origin}/api/subjekti/?limit=20&offset=7`, {}, 200],
          [page, { "if-none-match": etag }, 304],
        ],
      });
    }
    for (let round = 0; round < options.rounds; round++) {
      for (const [r, request] of REQUESTS.entries()) {
        for (const s of inTurn([0, 1], round)) {
          const [url, headers, expect] = servers[s]?.targets[r] ?? ["", {}, 200];
          log(`round ${round + 1}, ${sides[s]?.name}: ${request}…`);
          const result = await load(url, headers, options, expect, servers[s]?.server as ChildProcess);
          runs[s]?.[r]?.push({ rate: result.requests.average, cpu: result.cpuUs });
          log(`  ${fmt(result.requests.average, 0)} req/s, ${fmt(result.cpuUs, 0)} µs of CPU a request (load ${fmt(load1(), 2)})`);
        }
      }
    }
  } finally {
    await Promise.all(servers.map((one) => stopServer(one.server)));
  }
  const values = (s: number, r: number, of: "rate" | "cpu") => (runs[s]?.[r] ?? []).map((run) => run[of]);
  const cell = (s: number, r: number): string =>
    `**${fmt(median(values(s, r, "rate")), 0)}** (${range(values(s, r, "rate"), 0)}) | **${fmt(median(values(s, r, "cpu")), 0)}** (${range(values(s, r, "cpu"), 0)})`;
  const figure = (s: number): string =>
    REQUESTS.map((_, r) => `${fmt(median(values(s, r, "cpu")), 0)} µs (${fmt(median(values(s, r, "rate")), 0)} req/s)`).join(" / ");
  const set = label(options.serveSize);
  const header = [`request (${set} site)`, ...sides.flatMap((side) => [`${side.name}: req/s (range):`, "CPU µs a request (range):"])];
  const row: MeasuredRow = {
    key: `against-preview-${set.toLowerCase()}`,
    table: "Against an earlier commit",
    what: `preview, ${set} site, pre-rendered / derived / 304: CPU a request (requests a second), against ${sides[1]?.name}, alternating`,
    figure: `**${figure(0)}** against ${figure(1)} (medians)`,
  };
  return {
    text:
      `### The preview\n\nautocannon, ${options.connections} connections, ${options.duration} s after a 1 s warm-up, loopback; ` +
      "each checkout's `bin/subjekti.js preview` serving the site it built.\n\n" +
      table(
        header,
        REQUESTS.map((request, r) => [request, ...sides.map((_, s) => cell(s, r))]),
      ),
    rows: [row],
  };
}
