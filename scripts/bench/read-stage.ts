/**
 * `bench read-stage`: the read stage alone, as a full build runs it. Cold builds (site and cache
 * removed first) of this checkout compiled and of each `--before` in turn, `--rounds` rounds, each
 * stopped at the pause point `build-records-written` (SUBJEKTI_PAUSE_AT: every record read, parsed,
 * validated, rendered, ordered and written as chunk files). When the build says it paused there, its
 * wall time, its CPU (user + system of all its threads, from /proc), the main thread's and each busy
 * thread's (the record threads, sampled every 100 ms as they end before the pause), its peak RSS and
 * minor page faults so far are taken, and it is ended (SIGKILL: the scratch is removed anyway).
 * Everything after that point starts only when the read ends, so a second cut here is a second of
 * the build's wall time. `--warm-from` times a rebuild's read instead: each build's site and cache
 * are first built whole from another set (`edited`: this one with record N/2 renamed), untimed.
 * Linux only (/proc).
 */
import { execFileSync, spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { compiledSides } from "./checkout.ts";
import { BENCH, cpuMs, dataset, fmt, inTurn, label, log, medians, procUsage, type Report, rssMb, startFresh, table } from "./parts.ts";

/** The options every stage measure takes (bench.ts `stage`). */
export type StageOptions = { size: number; seed: string; before: string[]; rounds: number; dropCaches: boolean; scratch?: string };
export type ReadStageOptions = StageOptions & { data?: string; cache: boolean; warmFrom?: string; timeout: number };

const POINT = "build-records-written";
type Paused = {
  wall: number;
  userSeconds: number;
  systemSeconds: number;
  main: number;
  threads: number[];
  peakMb: number;
  minorFaults: number;
};

/** One build of `dir`'s compiled CLI to the pause point, from an empty `scratch` (or the `warmFrom` build's site and cache). */
async function pausedBuild(dir: string, data: string, scratch: string, options: ReadStageOptions, warmFrom?: string): Promise<Paused> {
  await rm(scratch, { recursive: true, force: true });
  const bin = join(dir, "bin/subjekti.js");
  const out = ["--out", join(scratch, "site"), ...(options.cache ? ["--cache-dir", join(scratch, "cache")] : ["--no-cache"]), "--quiet"];
  if (warmFrom !== undefined) execFileSync(process.execPath, [bin, "build", "--data", warmFrom, ...out], { stdio: "ignore" });
  startFresh(options.dropCaches);
  const started = performance.now();
  const env = { ...process.env, SUBJEKTI_PAUSE_AT: POINT };
  const child = spawn(process.execPath, [bin, "build", "--data", data, ...out], { env, stdio: ["ignore", "ignore", "pipe"] });
  const pid = String(child.pid);
  // Each thread's CPU as last seen: the record threads end before the pause point.
  const threads = new Map<string, number>();
  const sample = (): void => {
    let tids: string[] = [];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      return; // ended
    }
    for (const tid of tids) {
      const ms = cpuMs(`${pid}/task/${tid}`);
      if (!Number.isNaN(ms)) threads.set(tid, ms / 1000);
    }
  };
  const sampler = setInterval(sample, 100);
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeout * 1000);
  let [stderr, paused] = ["", undefined as Paused | undefined];
  child.stderr.setEncoding("utf8").on("data", (text: string) => {
    if (paused !== undefined || !(stderr += text).includes(`paused at ${POINT}`)) return;
    const wall = (performance.now() - started) / 1000;
    const usage = procUsage(child.pid);
    sample();
    // Threads that worked (the record threads, the shard writers); the rest (libuv's, V8's) count in the total only.
    const busy = [...threads].filter(([tid, cpu]) => tid !== pid && cpu >= 0.5).map(([, cpu]) => cpu);
    paused = { wall, ...usage, main: threads.get(pid) ?? NaN, threads: busy.sort((a, b) => b - a), peakMb: rssMb(child.pid, "VmHWM") };
    child.kill("SIGKILL");
  });
  const end = await new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal)));
  clearInterval(sampler);
  clearTimeout(timer);
  if (paused === undefined) throw new Error(`${dir}: the build ended (${String(end)}) before the pause point:\n${stderr}`);
  return paused;
}

const cells = (r: Paused): string[] => [
  `${fmt(r.wall, 2)} s`,
  `${fmt(r.userSeconds + r.systemSeconds, 2)} s`,
  `${fmt(r.userSeconds, 2)} s`,
  `${fmt(r.systemSeconds, 2)} s`,
  `${fmt(r.main, 2)} s`,
  `${fmt(r.peakMb, 0)} MB`,
  `${fmt(r.minorFaults / 1000, 0)}k`,
];
const HEADER = ["wall:", "CPU:", "user:", "sys:", "main thread:", "peak RSS:", "minor faults:"];

export async function run(options: ReadStageOptions): Promise<Report> {
  const data = options.data ?? (await dataset(options.size, options.seed));
  const warmFrom =
    options.warmFrom === "edited" ? await dataset(options.size, options.seed, Math.floor(options.size / 2)) : options.warmFrom;
  const sides = await compiledSides(options.before);
  const scratch = options.scratch ?? join(BENCH, `read-stage-${process.pid}`);
  const runs = sides.map(() => [] as Paused[]);
  const lines: string[][] = [];
  try {
    for (let round = 0; round < options.rounds; round++) {
      for (const side of inTurn(sides, round)) {
        const r = await pausedBuild(side.dir, data, scratch, options, warmFrom);
        runs[sides.indexOf(side)]?.push(r);
        lines.push([String(round + 1), side.name, ...cells(r), r.threads.map((t) => fmt(t, 2)).join(" ")]);
        log(`round ${round + 1}, ${side.name}: ${cells(r).join(", ")}`);
      }
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  const med = runs.map((r) => medians(r));
  const how = `${options.warmFrom === undefined ? "cold builds" : `rebuilds after a build of ${options.warmFrom}`}${options.cache ? "" : " (--no-cache)"}`;
  const dropped = options.dropCaches ? ", the page cache dropped before each" : "";
  const text =
    `${options.data ?? `${label(options.size)} (seed ${options.seed})`}, ${how} stopped at \`${POINT}\`, each checkout in turn, rounds: ${options.rounds}${dropped}\n\n` +
    `${table(["round", "checkout", ...HEADER, "busy threads' CPU (s)"], lines)}\n\nMedians:\n\n` +
    table(
      ["checkout", ...HEADER],
      med.map((m, i) => [sides[i]?.name ?? "", ...cells(m)]),
    );
  // A generated set's rows only: a directory of data has no stable key.
  if (options.data !== undefined || (options.warmFrom ?? "edited") !== "edited") return { text, rows: [] };
  const figure = (m: Paused): string =>
    `${fmt(m.wall, 2)} s wall, ${fmt(m.userSeconds + m.systemSeconds, 2)} s CPU (main thread ${fmt(m.main, 2)} s), ${fmt(m.peakMb, 0)} MB, ${fmt(m.minorFaults / 1000, 0)}k page faults`;
  const [self, ...others] = med as [Paused, ...Paused[]];
  const against = others.map((m, i) => `; ${sides[i + 1]?.name}: ${figure(m)}`).join("");
  const key = `read-stage-${label(options.size).toLowerCase()}${options.warmFrom === undefined ? "" : "-rebuild"}${options.cache ? "" : "-no-cache"}`;
  const what = `${label(options.size)}, the read stage alone (${how} stopped at the pause point \`${POINT}\`), medians of ${options.rounds}${dropped}`;
  return { text, rows: [{ key, table: "Builds", what, figure: `**${figure(self)}**${against}` }] };
}
