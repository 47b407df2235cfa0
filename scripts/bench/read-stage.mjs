/**
 * The read stage alone, as a full build runs it: `node scripts/bench/read-stage.mjs <data> <scratch>
 * <checkout>...` runs, for each round and each checkout in turn, `node <checkout>/bin/subjekti.js
 * build --data <data> --out <scratch>/site --cache-dir <scratch>/cache --quiet` (site and cache
 * removed first: a cold build) with SUBJEKTI_PAUSE_AT=build-records-written, and when the build
 * says it paused there (every record read, ordered and written as chunk files) takes its wall time,
 * its CPU (user + system of all its threads, from /proc), the main thread's and each busy
 * thread's (the record threads, sampled every 100 ms as they end before the pause), its peak RSS
 * and minor page faults so far, then ends it (SIGKILL: the scratch is removed anyway).
 * Prints a line a build and each checkout's medians. `--rounds N` (3), `--drop-caches` (drops the
 * page cache before each build; root on Linux), `--no-cache` (builds without a build cache),
 * `--warm-from <data>` (a rebuild: each build's site and cache first built whole from <data>, untimed),
 * `--timeout S` (600). Linux only (/proc). A checkout is a directory with a compiled lib/.
 */
import { execFileSync, execSync, spawn } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const args = process.argv.slice(2);
const flag = (name) => {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const [, value] = args.splice(at, 2);
  return value;
};
const rounds = Number(flag("--rounds") ?? 3);
const warmFrom = flag("--warm-from");
const timeout = Number(flag("--timeout") ?? 600) * 1000;
const dropAt = args.indexOf("--drop-caches");
const drop = dropAt >= 0;
if (drop) args.splice(dropAt, 1);
const noCacheAt = args.indexOf("--no-cache");
const noCache = noCacheAt >= 0;
if (noCache) args.splice(noCacheAt, 1);
const [data, scratch, ...checkouts] = args;
if (data === undefined || scratch === undefined || checkouts.length === 0)
  throw new Error("usage: read-stage.mjs <data> <scratch> <checkout>... [--rounds N] [--drop-caches] [--timeout S]");

const TICKS = 100; // USER_HZ: /proc's CPU times are in these on Linux

/** CPU seconds (user, system) of process `pid`, all its threads, and its peak RSS in MB. */
function usage(pid) {
  // The fields after the command's name (which may hold spaces) start at its closing parenthesis.
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const hwm = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return { user: Number(fields[11]) / TICKS, sys: Number(fields[12]) / TICKS, peak: hwm / 1024, faults: Number(fields[7]) };
}

/** CPU seconds (user + system) of each thread of `pid` now, by thread id (a thread that ended is gone). */
function threadTimes(pid) {
  const times = new Map();
  let tids = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return times;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      times.set(tid, (Number(fields[11]) + Number(fields[12])) / TICKS);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return times;
}

/** One build of `checkout` to the pause point (cold, or after the --warm-from build): its wall, CPU and peak. */
function measure(checkout) {
  rmSync(scratch, { recursive: true, force: true });
  const bin = join(resolve(checkout), "bin/subjekti.js");
  const out = ["--out", join(scratch, "site"), ...(noCache ? ["--no-cache"] : ["--cache-dir", join(scratch, "cache")])];
  // A rebuild: the site and its cache first built whole from another set, untimed.
  if (warmFrom !== undefined) execFileSync(process.execPath, [bin, "build", "--data", warmFrom, ...out, "--quiet"], { stdio: "ignore" });
  if (drop) {
    execSync("sync");
    writeFileSync("/proc/sys/vm/drop_caches", "1");
  }
  const start = performance.now();
  const child = spawn(process.execPath, [bin, "build", "--data", data, ...out, "--quiet"], {
    env: { ...process.env, SUBJEKTI_PAUSE_AT: "build-records-written" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  return new Promise((done, fail) => {
    let stderr = "";
    let paused;
    // Threads are sampled as the build runs: the record threads end before the pause point.
    const seen = new Map();
    const sample = () => {
      for (const [tid, cpu] of threadTimes(child.pid)) seen.set(tid, cpu);
    };
    const sampler = setInterval(sample, 100);
    const timer = setTimeout(() => child.kill("SIGKILL"), timeout);
    child.stderr.on("data", (bytes) => {
      stderr += bytes;
      if (!stderr.includes("paused at build-records-written")) return;
      const wall = (performance.now() - start) / 1000;
      const taken = usage(child.pid);
      sample();
      clearInterval(sampler);
      const main = seen.get(String(child.pid)) ?? 0;
      // Threads that worked (the record threads, the shard writers); the rest (libuv, V8's) are in the total only.
      const busy = [...seen].filter(([tid, cpu]) => tid !== String(child.pid) && cpu >= 0.5).map(([, cpu]) => cpu);
      Object.assign(taken, { main, threads: busy.sort((a, b) => b - a) });
      child.stderr.removeAllListeners("data");
      paused = { wall, ...taken };
      child.kill("SIGKILL");
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      clearInterval(sampler);
      if (paused !== undefined) done(paused);
      else fail(new Error(`${checkout}: the build ended (${code ?? signal}) before the pause point:\n${stderr}`));
    });
  });
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const line = (name, r) =>
  `${name}: ${r.wall.toFixed(2)} s wall, ${(r.user + r.sys).toFixed(2)} s CPU (${r.user.toFixed(2)} user ${r.sys.toFixed(2)} sys; main thread ${r.main.toFixed(2)}` +
  (r.threads === undefined ? "" : `, threads ${r.threads.map((t) => t.toFixed(2)).join(" ")}`) +
  `), ${Math.round(r.peak)} MB peak, ${Math.round(r.faults / 1000)}k page faults`;

const results = new Map(checkouts.map((c) => [c, []]));
for (let round = 1; round <= rounds; round++) {
  for (const checkout of checkouts) {
    const r = await measure(checkout);
    results.get(checkout).push(r);
    console.log(`round ${round} ${line(checkout, r)}`);
  }
}
rmSync(scratch, { recursive: true, force: true });
console.log("medians:");
for (const [checkout, rs] of results) {
  const med = {
    wall: median(rs.map((r) => r.wall)),
    user: median(rs.map((r) => r.user)),
    sys: median(rs.map((r) => r.sys)),
    peak: median(rs.map((r) => r.peak)),
    main: median(rs.map((r) => r.main)),
    faults: median(rs.map((r) => r.faults)),
  };
  console.log(line(checkout, med));
}
