/**
 * `bench build`: the CLI's builds of seeded sets (10k, 100k, 1M by default) in a child process,
 * each beside the probe (probe.ts: the same input read and parsed, the same files written, as fast
 * as Node can); a rebuild after one record renamed and one of unchanged data; optionally sets
 * written in a shuffled order (the build's external sort); a 1M set exported to .xlsx and built
 * from that workbook alone; and the preview's requests a second (a pre-rendered page, a derived
 * page, a 304) beside a bare serve-handler serving the same file.
 *
 * `--before <checkout>` measures that checkout's builds and preview too, alternately in one run (the
 * order swapped every round, `--repeat` rounds), so that a change is judged on the same machine
 * under the same load. Both then run compiled (`bin/subjekti.js`): this checkout is compiled
 * first, the other must be already.
 */
import type { ChildProcess } from "node:child_process";
import { mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { join, relative } from "node:path";
import type { MeasuredRow } from "../benchmarks-table.ts";
import { forEachBounded, MANIFEST_PATH, type Manifest, pagePath, route } from "./from-src.ts";
import { compiledSides } from "./checkout.ts";
import type { WritePlan } from "./probe.ts";
import {
  BENCH,
  CLI,
  dataset,
  dropNote,
  fmt,
  inTurn,
  joinReports,
  label,
  load,
  type Loaded,
  type LoadOptions,
  log,
  type Measured,
  medians,
  measureNode,
  type Report,
  ROOT,
  startFresh,
  startPreview,
  startServer,
  stopServer,
  table,
  writtenFiles,
} from "./parts.ts";

/** The options (`unsorted`: sizes also built from a shuffled set, a full build with default options). */
export type BuildOptions = LoadOptions & {
  sizes: number[];
  unsorted: number[];
  seed: string;
  repeat: number;
  before?: string;
  dropCaches: boolean;
} & {
  [skip in "skipBuild" | "skipLimits" | "skipIncremental" | "skipServe" | "skipXlsx"]: boolean;
};

/** One checkout as measured: its name in the tables, the node arguments that run its CLI, its directory. */
type Side = { name: string; cli: readonly string[]; dir: string };

// Per run, so two benches never delete each other's output (still: one at a time, or both lie).
const TMP = join(BENCH, `tmp-${process.pid}`);
const LIMITS_4 = "10,20,50,100";
const STEPS = ["full build", "one record renamed (cached rebuild)", "rebuild, nothing changed"] as const;
const mb = (bytes: number): string => (Number.isFinite(bytes) ? `${fmt(bytes / 2 ** 20, 0)} MB` : "–");
const spent = (m: Measured): string => `**${fmt(m.seconds)} s, ${fmt(m.rssMb, 0)} MB**, ${fmt(m.cpuSeconds)} s CPU`;
const count = (n: number): string => n.toLocaleString("en");

/** This checkout from its sources; with `before` (a compiled checkout, or a git revision: checkout.ts), both compiled. */
async function sidesOf(before: string | undefined): Promise<Side[]> {
  if (before === undefined) return [{ name: "this", cli: CLI, dir: ROOT }];
  return (await compiledSides([before])).map((side) => ({ ...side, cli: [join(side.dir, "bin/subjekti.js")] }));
}

/** Full build / edit / unchanged: CPU, the edit's fraction of the full build, wall and peaks, as the "Against an earlier commit" row gives them. */
function againstFigure(steps: readonly Measured[]): string {
  const [full, edit] = steps as [Measured, Measured];
  const each = (value: (m: Measured) => string): string => steps.map(value).join(" / ");
  return (
    `CPU (user+sys) ${each((m) => `${fmt(m.cpuSeconds)} s`)} (the edit ${fmt(edit.cpuSeconds / full.cpuSeconds, 2)}× the full build); ` +
    `wall ${each((m) => `${fmt(m.seconds)} s`)} (${fmt(edit.seconds / full.seconds, 2)}×); peaks ${each((m) => fmt(m.rssMb, 0))} MB`
  );
}

/** Every measure of `bench build` the options ask for. */
export async function run(options: BuildOptions): Promise<Report> {
  const sides = await sidesOf(options.before);
  await rm(TMP, { recursive: true, force: true });
  await mkdir(TMP, { recursive: true });
  const parts: Report[] = [];
  try {
    if (!options.skipBuild) {
      for (const size of options.sizes) parts.push(await fullBuilds(size, options, sides, false));
      for (const size of options.unsorted) parts.push(await fullBuilds(size, options, sides, true));
    }
    if (!options.skipXlsx) parts.push(await spreadsheet(1e6, options));
    if (!options.skipServe) parts.push(await preview(options.sizes.includes(1e5) ? 1e5 : Math.min(...options.sizes), options, sides));
  } finally {
    await rm(TMP, { recursive: true, force: true });
  }
  return joinReports(parts);
}

/**
 * `subjekti build` of `data` into `out` (the build cache as users have it, kept in the bench's
 * scratch), from `startFresh`: `sync` first, so no build pays for another's dirty pages, and the page
 * cache dropped when `fresh` (a full build under `--drop-caches`; a rebuild keeps what the build
 * before it left, as a maintainer's does); `dropped`: whether it was (false where the machine does
 * not let it).
 */
async function build(
  side: Side,
  data: string,
  out: string,
  fresh: boolean,
  extra: readonly string[] = [],
): Promise<Measured & { dropped: boolean }> {
  const dropped = startFresh(fresh);
  const args = ["build", "--data", data, "--out", out, "--cache-dir", join(TMP, "build-cache"), "--quiet", ...extra];
  return { ...(await measureNode([...side.cli, ...args])), dropped };
}

/** The run of the median `by` (the lower of the two middle ones). */
const middle = <T>(runs: readonly T[], by: (run: T) => number): T => [...runs].sort((a, b) => by(a) - by(b))[(runs.length - 1) >> 1] as T;
/** The run of median wall time, with the median CPU time and the highest peak RSS of all runs (a shared machine is noisy). */
const medianRun = (runs: readonly Measured[]): Measured => {
  const { seconds, stdout } = middle(runs, (r) => r.seconds);
  return { ...medians(runs), seconds, stdout, rssMb: Math.max(...runs.map((r) => r.rssMb)) };
};

/** Full builds of set `size` (sorted: also the --limits build and the rebuilds) by each side in turn, beside the probe. */
async function fullBuilds(size: number, options: BuildOptions, sides: readonly Side[], shuffled: boolean): Promise<Report> {
  const data = await dataset(size, options.seed, undefined, shuffled);
  const set = label(size);
  const key = set.toLowerCase();
  const ofRounds = options.repeat > 1 ? ` (median of ${options.repeat})` : "";
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
  // Whether every full build began with the page cache dropped (startFresh: false where it cannot be).
  let dropped = options.dropCaches;
  for (const [rowKey, what, extra] of configs) {
    const steps = extra.length > 0 || options.skipIncremental || shuffled ? 1 : STEPS.length;
    const edited = steps > 1 ? await dataset(size, options.seed, Math.floor(size / 2)) : data;
    const runs = sides.map(() => STEPS.slice(0, steps).map(() => [] as Measured[]));
    // This side's full build, as the probe writes it (walked once, before a rebuild touches it).
    let tree: Tree | undefined;
    for (let round = 0; round < options.repeat; round++) {
      for (const side of inTurn(sides, round)) {
        await rm(out, { recursive: true, force: true });
        await rm(join(TMP, "build-cache"), { recursive: true, force: true });
        for (const [i, step] of STEPS.slice(0, steps).entries()) {
          log(`${what}, ${side.name}, round ${round + 1}: ${step}…`);
          const m = await build(side, i === 0 ? data : edited, out, i === 0 && options.dropCaches, extra);
          if (i === 0) dropped = m.dropped && dropped;
          // Each round's own figures and the load it ran under: a median hides a round that ran beside something else.
          log(`  ${fmt(m.seconds)} s wall, ${fmt(m.cpuSeconds)} s CPU, ${fmt(m.rssMb, 0)} MB; load ${loadavg()[0]?.toFixed(1)}`);
          runs[sides.indexOf(side)]?.[i]?.push(m);
          if (i === 0 && side === sides[0]) tree ??= await walkTree(out);
        }
      }
    }
    const medians = runs.map((side) => side.map(medianRun));
    const [full, ...again] = medians[0] as Measured[];
    const { files } = writtenFiles((full as Measured).stdout);
    const { probe, bytes } = await probeOf(data, tree as Tree, options.repeat);
    const ratio = (full as Measured).seconds / probe.seconds;
    const cells = (s: number, i: number): string[] => {
      const m = medians[s]?.[i] as Measured;
      const files = count(writtenFiles(m.stdout)[i === 0 ? "files" : "written"]);
      return [`${fmt(m.seconds)} s`, `${fmt(m.cpuSeconds)} s`, `${fmt(m.rssMb, 0)} MB`, files];
    };
    printed.push([what + ofRounds, ...sides.flatMap((_, s) => cells(s, 0)), mb(bytes), `${fmt(probe.seconds)} s`, `${fmt(ratio, 2)}×`]);
    rows.push({
      key: rowKey,
      table: "Builds",
      what,
      figure: `${spent(full as Measured)}${ofRounds}; probe ${fmt(probe.seconds)} s: ${fmt(ratio, 2)}× the probe; ${count(files)} files, ${mb(bytes)}`,
    });
    for (const [j, m] of again.entries()) {
      const [step, stepKey] = [STEPS[j + 1], `rebuild-${key}-${j === 0 ? "one-renamed" : "unchanged"}`];
      const times = `${fmt(m.seconds / (full as Measured).seconds, 2)}× the full build's wall, ${fmt(m.cpuSeconds / (full as Measured).cpuSeconds, 2)}× its CPU`;
      printed.push([`${set}, ${step}`, ...sides.flatMap((_, s) => cells(s, j + 1)), "–", "–", times]);
      const figure = `${spent(m)}, ${count(writtenFiles(m.stdout).written)} files written${j === 0 ? `, ${times}` : ""}`;
      rows.push({ key: stepKey, table: "Builds", what: `${set}, ${step}`, figure });
    }
    if (sides.length > 1 && steps > 1 && extra.length === 0) {
      const other = sides[1] as Side;
      rows.push({
        // One row for each earlier commit, so that a comparison with another one stays in the table.
        key: `against-${key}-builds-${other.name
          .replace(/^before \(|\)$/g, "")
          .toLowerCase()
          .replace(/[^a-z0-9.-]+/g, "-")}`,
        table: "Against an earlier commit",
        what:
          `${set} (generate-subjects --seed ${options.seed}), full build / record ${count(Math.floor(size / 2))} renamed (the same file for both) / nothing changed, ` +
          `\`--cache-dir\`, every default on, against ${other.name}, alternating ${options.repeat} round${options.repeat > 1 ? "s" : ""}, both compiled`,
        figure: `**${againstFigure(medians[0] ?? [])}** against ${againstFigure(medians[1] ?? [])}${ofRounds === "" ? "" : " (medians)"}`,
      });
    }
  }
  await rm(out, { recursive: true, force: true });
  const header = [
    "run",
    ...sides.flatMap((s) => [`${s.name} wall:`, "CPU:", "peak RSS:", "files (written):"]),
    "bytes:",
    "probe wall:",
    "ratio:",
  ];
  const text =
    `### Builds of ${set}\n\n\`subjekti build --data <set> --out <tmp> --cache-dir <tmp> --quiet\` in a child process, \`sync\` before each${dropNote(options.dropCaches, dropped, "each full build")}; CPU is user + system ` +
    `(GNU time); the edit renames record ${count(Math.floor(size / 2))} (0-based) in one generated copy of the set that every side builds; the probe reads and parses ` +
    "the same input and writes the same files as fast as Node can; ratio = build / probe, or rebuild / full build.\n\n" +
    table(header, printed);
  return { text, rows };
}

/** A built site's files as the probe's plan, and their bytes. */
type Tree = { plan: WritePlan; bytes: number };

/** Every file under `dir` with its size, grouped by directory, as the probe's plan. */
async function walkTree(dir: string): Promise<Tree> {
  const [dirs, index, files] = [[] as string[], new Map<string, number>(), [] as [number, string, number][]];
  const entries = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
  await forEachBounded(entries, 64, async (entry) => {
    const rel = relative(dir, entry.parentPath);
    if (!index.has(rel)) index.set(rel, dirs.push(rel) - 1);
    files.push([index.get(rel) as number, entry.name, (await stat(join(entry.parentPath, entry.name))).size]);
  });
  return { plan: { dirs, files }, bytes: files.reduce((sum, [, , size]) => sum + size, 0) };
}

/** Runs the probe `repeat` times on the plan of a built tree. */
async function probeOf(data: string, tree: Tree, repeat: number): Promise<{ probe: Measured; bytes: number }> {
  const planFile = join(TMP, "probe-plan.json");
  await writeFile(planFile, JSON.stringify(tree.plan));
  const probeOut = join(TMP, "probe-out");
  const runs: Measured[] = [];
  for (let i = 0; i < repeat; i++) {
    await rm(probeOut, { recursive: true, force: true });
    runs.push(await measureNode(["--import", "tsx", "scripts/bench.ts", "probe", join(data, "subjekti.json"), planFile, probeOut]));
  }
  await rm(probeOut, { recursive: true, force: true });
  return { probe: medianRun(runs), bytes: tree.bytes };
}

/** The set exported to an .xlsx by the CLI, then built from that workbook alone. */
async function spreadsheet(size: number, options: BuildOptions): Promise<Report> {
  const data = await dataset(size, options.seed);
  const [set, key] = [label(size), label(size).toLowerCase()];
  const dir = join(TMP, `xlsx-${set}`);
  await mkdir(dir, { recursive: true });
  const file = join(dir, "subjekti.xlsx");
  log(`${set}: export to .xlsx, then a build from it…`);
  const exported = await measureNode([...CLI, "export", "--data", data, "--out", file, "--format", "xlsx"]);
  const bytes = (await stat(file)).size;
  const built = await build({ name: "this", cli: CLI, dir: ROOT }, dir, join(TMP, `site-xlsx-${set}`), options.dropCaches, ["--no-cache"]);
  const text =
    "### Spreadsheets\n\n`subjekti export --format xlsx` of the JSON set, then `subjekti build --no-cache` of a directory holding only that workbook.\n\n" +
    table(
      ["run", "wall:", "peak RSS:", ".xlsx size:"],
      [exported, built].map((m, i) => [
        `${set}, ${i === 0 ? "export" : "build from the .xlsx"}`,
        `${fmt(m.seconds)} s`,
        `${fmt(m.rssMb, 0)} MB`,
        mb(bytes),
      ]),
    );
  const rows = [
    [
      `xlsx-${key}-export`,
      `${set}, \`export --format xlsx\` (the project's streaming writer, xlsx-writer.ts)`,
      `${spent(exported)}, ${mb(bytes)}`,
    ],
    [`xlsx-${key}-build`, `full build from a ${set}-row \`.xlsx\` alone (yauzl + saxes)`, `${spent(built)} (${mb(bytes)} workbook)`],
  ];
  return { text, rows: rows.map(([key = "", what = "", figure = ""]) => ({ key, table: "Other commands", what, figure })) };
}

/** Each side's preview of a site it built and a bare serve-handler (`bench raw-server`) serving this side's page file, each in its own process, loaded in turn. */
async function preview(size: number, options: BuildOptions, sides: readonly Side[]): Promise<Report> {
  const data = await dataset(size, options.seed);
  const servers: { name: string; server: ChildProcess; targets: (readonly [string, Record<string, string>, number])[] }[] = [];
  try {
    for (const [s, side] of sides.entries()) {
      // The preview's links point at itself; a site built for that origin is served from its files.
      const site = join(TMP, `serve-${s}`);
      const { server, origin } = await startPreview(side.cli, data, site, side.dir);
      const manifest = JSON.parse(await readFile(join(site, MANIFEST_PATH), "utf8")) as Manifest;
      const page = { query: "limit=20&offset=40", file: pagePath(manifest, "plain", 20, 2) };
      const derived = "limit=20&offset=7";
      const decide = (query: string): string => route({ method: "GET", path: "/api/subjekti/", query, baseUrl: origin }, manifest).kind;
      if (page.file === null || decide(page.query) !== "file" || decide(derived) !== "derive")
        throw new Error(`${side.name}: the router does not see ?${page.query} as a file and ?${derived} as derived`);
      const previewPage = `${origin}/api/subjekti/?${page.query}`;
      const etag = (await fetch(previewPage)).headers.get("etag") ?? "";
      servers.push({
        name: side.name,
        server,
        targets: [
          [previewPage, {}, 200],
          [`${origin}/api/subjekti/?${derived}`, {}, 200],
          [previewPage, { "if-none-match": etag }, 304],
        ],
      });
      if (s > 0) continue;
      const raw = await startServer(["--import", "tsx", "scripts/bench.ts", "raw-server", site], /raw serve-handler: (\S+)/);
      const rawPage = `${raw.match[1]}${page.file}`;
      // Same bytes from both, or the comparison means nothing.
      const [a, b] = await Promise.all([fetch(previewPage), fetch(rawPage)]);
      if (a.status !== 200 || b.status !== 200 || (await a.text()) !== (await b.text()))
        throw new Error(`${previewPage} and ${rawPage} differ`);
      // serve-handler 6.1.8 opens the file's read stream before its ETag check and never closes it on
      // a 304 (one leaked descriptor per answer; under load it runs out and errors), so the 304 row
      // is compared with serve-handler's 200 for the same file, a baseline that does the most work.
      servers.push({ name: "raw serve-handler", server: raw.child, targets: [0, 1, 2].map(() => [rawPage, {}, 200] as const) });
    }
    const requests = ["pre-rendered page", "derived page", "304 to `If-None-Match`"];
    const runs = servers.map(() => requests.map(() => [] as Loaded[]));
    for (let round = 0; round < options.repeat; round++) {
      for (const [r, request] of requests.entries()) {
        for (const one of inTurn(servers, round)) {
          log(`round ${round + 1}, ${one.name}: ${request}…`);
          const [url, headers, expect] = one.targets[r] as (typeof one.targets)[number];
          runs[servers.indexOf(one)]?.[r]?.push(await load(url, headers, options, expect, one.server));
        }
      }
    }
    // The run of median requests a second, each server and request.
    const at = (s: number, r: number): Loaded => middle(runs[s]?.[r] ?? [], (l) => l.requests.average);
    const raw = 1; // this side's preview, serve-handler, then the other side's
    const rows: MeasuredRow[] = requests.map((request, r) => {
      const [ours, base] = [at(0, r), at(raw, r)];
      const ratio = `${fmt(ours.requests.average / base.requests.average, 2)}× raw serve-handler${r === 2 ? "'s 200" : ""}`;
      return {
        key: `preview-${label(size).toLowerCase()}-${["page", "derived", "304"][r]}`,
        table: "Serving",
        what: `preview, ${request} (${label(size)} site)`,
        figure: `**${count(Math.round(ours.requests.average))} req/s**, p50 / p99 ${ours.latency.p50} / ${ours.latency.p99} ms, ${fmt(ours.cpuUs, 0)} µs of CPU a request: ${ratio}`,
      };
    });
    if (sides.length > 1) {
      const figure = (s: number): string =>
        requests.map((_, r) => `${fmt(at(s, r).cpuUs, 0)} µs (${fmt(at(s, r).requests.average, 0)} req/s)`).join(" / ");
      rows.push({
        key: `against-preview-${label(size).toLowerCase()}`,
        table: "Against an earlier commit",
        what: `preview, ${label(size)} site, pre-rendered / derived / 304: CPU a request (requests a second), against ${sides[1]?.name}, alternating`,
        figure: `**${figure(0)}** against ${figure(2)} (medians)`,
      });
    }
    const header = ["request", ...servers.flatMap((one) => [`${one.name} req/s:`, "p50 / p99 ms:", "CPU µs a request:"])];
    const cells = (l: Loaded) => [fmt(l.requests.average, 0), `${l.latency.p50} / ${l.latency.p99}`, fmt(l.cpuUs, 0)];
    const text =
      `### The preview (${label(size)} site)\n\nautocannon, ${options.connections} connections, ${options.duration} s after a 1 s warm-up, loopback, ` +
      `the median of ${options.repeat} rounds; each server in its own process (\`subjekti preview\`, bare node:http + serve-handler with \`etag: true\`).\n\n` +
      table(
        header,
        requests.map((request, r) => [request, ...servers.flatMap((_, s) => cells(at(s, r)))]),
      );
    return { text, rows };
  } finally {
    await Promise.all(servers.map((one) => stopServer(one.server)));
  }
}
