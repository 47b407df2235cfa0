/**
 * `bench read-stage`: the read stage alone, as a full build runs it. Builds of this checkout and of
 * each `--before` (compiled) in turn, each stopped at the pause point `build-records-written`
 * (SUBJEKTI_PAUSE_AT: every record read, ordered and written as chunk files); there its wall, its
 * CPU (all its threads', the main thread's and each busy thread's: the record threads, sampled every
 * 100 ms as they end before the pause), its peak RSS and minor faults are read from /proc, and it is
 * killed. Everything after that point starts only when the read ends, so a second cut here is a
 * second of the build's wall. Cold builds, or (`--warm-from`) rebuilds: site and cache first built
 * whole from another set, untimed. Linux only.
 */
import { execFileSync, spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { compiledSides } from "./checkout.ts";
import {
  BENCH,
  cpuMs,
  dataset,
  dropNote,
  fmt,
  inTurn,
  label,
  log,
  medians,
  procUsage,
  type Report,
  rssMb,
  startFresh,
  table,
} from "./parts.ts";

/** The options every stage measure takes (bench.ts `stage`). */
export type StageOptions = { size: number; seed: string; before: string[]; rounds: number; dropCaches: boolean; scratch?: string };
export type ReadStageOptions = StageOptions & { data?: string; cache: boolean; warmFrom?: string; timeout: number };

const POINT = "build-records-written";
type Paused = ReturnType<typeof procUsage> & { wall: number; main: number; threads: number[]; peakMb: number };

/** `node <args>` (a compiled CLI's build) run to the pause point, then killed: what it had used by then. */
async function pausedBuild(args: readonly string[], timeout: number): Promise<Paused> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { env: { ...process.env, SUBJEKTI_PAUSE_AT: POINT }, stdio: ["ignore", "ignore", "pipe"] });
  const pid = String(child.pid);
  // Each thread's CPU as last seen: the record threads end before the pause point.
  const threads = new Map<string, number>();
  const sample = (): void => {
    try {
      for (const tid of readdirSync(`/proc/${pid}/task`)) threads.set(tid, cpuMs(`${pid}/task/${tid}`) / 1000 || (threads.get(tid) ?? 0));
    } catch {
      // The process has ended.
    }
  };
  const sampler = setInterval(sample, 100);
  const timer = setTimeout(() => child.kill("SIGKILL"), timeout * 1000);
  let stderr = "";
  let paused: Paused | undefined;
  child.stderr.setEncoding("utf8").on("data", (text: string) => {
    if (paused !== undefined || !(stderr += text).includes(`paused at ${POINT}`)) return;
    const wall = (performance.now() - started) / 1000;
    const usage = procUsage(pid);
    sample();
    // Threads that worked (the record threads, the shard writers); the rest (libuv's, V8's) count in the total only.
    const busy = [...threads].filter(([tid, cpu]) => tid !== pid && cpu >= 0.5).map(([, cpu]) => cpu);
    paused = { wall, ...usage, main: threads.get(pid) ?? NaN, threads: busy.sort((a, b) => b - a), peakMb: rssMb(child.pid, "VmHWM") };
    child.kill("SIGKILL");
  });
  const end = await new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal)));
  clearInterval(sampler);
  clearTimeout(timer);
  if (paused === undefined) throw new Error(`node ${args.join(" ")} ended (${String(end)}) before the pause point:\n${stderr}`);
  return paused;
}

const cells = (r: Paused): string[] =>
  [r.wall, r.cpuSeconds, r.userSeconds, r.systemSeconds, r.main]
    .map((s) => `${fmt(s, 2)} s`)
    .concat(`${fmt(r.peakMb, 0)} MB`, `${fmt(r.minorFaults / 1000, 0)}k`);
const HEADER = ["wall:", "CPU:", "user:", "sys:", "main thread:", "peak RSS:", "minor faults:"];

export async function run(options: ReadStageOptions): Promise<Report> {
  const data = options.data ?? (await dataset(options.size, options.seed));
  const { warmFrom: warm, rounds } = options;
  const warmFrom = warm === "edited" ? await dataset(options.size, options.seed, Math.floor(options.size / 2)) : warm;
  const sides = await compiledSides(options.before);
  const scratch = options.scratch ?? join(BENCH, `read-stage-${process.pid}`);
  const out = ["--out", join(scratch, "site"), ...(options.cache ? ["--cache-dir", join(scratch, "cache")] : ["--no-cache"]), "--quiet"];
  const runs = sides.map(() => [] as Paused[]);
  const lines: string[][] = [];
  let dropped = options.dropCaches;
  try {
    for (let round = 0; round < rounds; round++) {
      for (const side of inTurn(sides, round)) {
        const bin = join(side.dir, "bin/subjekti.js");
        await rm(scratch, { recursive: true, force: true });
        if (warmFrom !== undefined) execFileSync(process.execPath, [bin, "build", "--data", warmFrom, ...out], { stdio: "ignore" });
        dropped = startFresh(options.dropCaches) && dropped;
        const r = await pausedBuild([bin, "build", "--data", data, ...out], options.timeout);
        runs[sides.indexOf(side)]?.push(r);
        lines.push([String(round + 1), side.name, ...cells(r), r.threads.map((t) => fmt(t, 2)).join(" ")]);
        log(`round ${round + 1}, ${side.name}: ${cells(r).join(", ")}`);
      }
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  const med = runs.map((r) => medians(r));
  const how = `${warm === undefined ? "cold builds" : `rebuilds after a build of ${warm}`}${options.cache ? "" : " (--no-cache)"}`;
  const drop = dropNote(options.dropCaches, dropped);
  const medianLines = med.map((m, i) => [sides[i]?.name ?? "", ...cells(m)]);
  const text =
    `${options.data ?? `${label(options.size)} (seed ${options.seed})`}, ${how} stopped at \`${POINT}\`, in turn, rounds: ${rounds}${drop}\n\n` +
    `${table(["round", "checkout", ...HEADER, "busy threads' CPU (s)"], lines)}\n\nMedians:\n\n${table(["checkout", ...HEADER], medianLines)}`;
  // A generated set's rows only: a directory of data has no stable key.
  if (options.data !== undefined || (warm ?? "edited") !== "edited") return { text, rows: [] };
  const figure = (m: Paused): string =>
    `${fmt(m.wall, 2)} s wall, ${fmt(m.cpuSeconds, 2)} s CPU (main thread ${fmt(m.main, 2)} s), ${fmt(m.peakMb, 0)} MB, ${fmt(m.minorFaults / 1000, 0)}k page faults`;
  const against = med.slice(1).map((m, i) => `; ${sides[i + 1]?.name}: ${figure(m)}`);
  const key = `read-stage-${label(options.size).toLowerCase()}${warm === undefined ? "" : "-rebuild"}${options.cache ? "" : "-no-cache"}`;
  const what = `${label(options.size)}, the read stage alone (${how} stopped at the pause point \`${POINT}\`), medians of ${rounds}${drop}`;
  return { text, rows: [{ key, table: "Builds", what, figure: `**${figure(med[0] as Paused)}**${against.join("")}` }] };
}
