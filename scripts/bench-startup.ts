/**
 * `npm run bench:startup`: the CPU (user + system) that `subjekti --help`, `--version` and a
 * usage error cost, against a bare `node -e 0`, for the CLI as it ships: `tsc` into a temporary
 * package of `bin/` and `lib/` (no `src/` beside it, so bin/subjekti.js skips the checkout's
 * stale-lib check, as an installed copy does), node_modules linked from the checkout.
 *
 * `--before <rev>` builds the same package from a git revision too (`git archive`), so before and
 * after are measured in one run, alternating. CPU is the kernel's count for the children of a
 * `bash` loop that runs one command `--runs` times (`times`, getrusage's children user + sys:
 * finer than GNU time's 10 ms); a row is the median over `--rounds` rounds of that loop's mean.
 *
 *   npm run bench:startup -- [--before <rev>] [--runs 20] [--rounds 7] [--write]
 *
 * `--write`: the three rows of this checkout into BENCHMARKS.md (scripts/benchmarks-table.ts).
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Command } from "commander";
import { recordBenchmarks } from "./benchmarks-table.ts";

const ROOT = resolve(import.meta.dirname, "..");

const program = new Command("bench-startup")
  .option("--before <rev>", "also measure the CLI compiled from this git revision")
  .option("--runs <n>", "runs of a command in one timed loop", (t) => Number(t), 20)
  .option("--rounds <n>", "timed loops of each command (the median is printed)", (t) => Number(t), 7)
  .parse();
const { before, runs, rounds } = program.opts<{ before?: string; runs: number; rounds: number }>();

/** A package of bin/ and lib/ compiled from `sources` (a directory holding src/ and the tsconfigs), in `dir`. */
function compilePackage(sources: string, dir: string): string {
  mkdirSync(join(dir, "bin"), { recursive: true });
  execFileSync(
    process.execPath,
    [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", join(sources, "tsconfig.build.json"), "--outDir", join(dir, "lib")],
    { stdio: "inherit" },
  );
  copyFileSync(join(sources, "bin/subjekti.js"), join(dir, "bin/subjekti.js"));
  copyFileSync(join(sources, "package.json"), join(dir, "package.json"));
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  return join(dir, "bin/subjekti.js");
}

/** The sources of `rev` (src/, bin/, the tsconfigs, package.json) unpacked into `dir`. */
function checkout(rev: string, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const archive = execFileSync("git", ["-C", ROOT, "archive", rev, "src", "bin", "package.json", "tsconfig.json", "tsconfig.build.json"]);
  execFileSync("tar", ["-x", "-C", dir], { input: archive });
  // tsc finds @types/node there.
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  return dir;
}

/** Mean CPU ms (user + sys) of one run of `command`, over a loop of `runs`: bash's `times` after the loop. */
function loopCpu(command: readonly string[]): number {
  const script = 'n=$1; shift; for ((i=0; i<n; i++)); do "$@" >/dev/null 2>&1; done; times';
  const out = execFileSync("bash", ["-c", script, "bench", String(runs), ...command], { cwd: tmpdir(), encoding: "utf8" });
  // `times` prints the shell's own user/sys, then its children's: "0m0.812s 0m0.131s".
  const children = out.trim().split("\n").at(-1) ?? "";
  const seconds = children.split(" ").reduce((sum, time) => {
    const [minutes = "", rest = ""] = time.split("m");
    return sum + Number(minutes) * 60 + Number(rest.replace("s", ""));
  }, 0);
  return (seconds * 1000) / runs;
}

const median = (values: readonly number[]): number => {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

const work = mkdtempSync(join(tmpdir(), "subjekti-bench-startup-"));
try {
  const builds: { label: string; bin: string }[] = [];
  if (before !== undefined)
    builds.push({ label: `before (${before})`, bin: compilePackage(checkout(before, join(work, "before-src")), join(work, "before")) });
  builds.push({ label: "after (this checkout)", bin: compilePackage(ROOT, join(work, "after")) });

  // The floor under any commander CLI: an ES module alone, and one that prints a help with commander
  // (which requires node:child_process, for executable subcommands, as it loads).
  const after = join(work, "after");
  writeFileSync(join(after, "empty.mjs"), "");
  writeFileSync(
    join(after, "commander-help.mjs"),
    'import { Command } from "commander";\nnew Command("x").description("y").parse(["--help"], { from: "user" });\n',
  );
  const rows: { name: string; command: string[] }[] = [
    { name: "`node -e 0` (Node alone)", command: [process.execPath, "-e", "0"] },
    { name: "an empty ES module", command: [process.execPath, join(after, "empty.mjs")] },
    { name: "commander alone: an ES module printing a one-command help", command: [process.execPath, join(after, "commander-help.mjs")] },
  ];
  for (const { label, bin } of builds) {
    rows.push({ name: `\`subjekti --help\`, ${label}`, command: [process.execPath, bin, "--help"] });
    rows.push({ name: `\`subjekti --version\`, ${label}`, command: [process.execPath, bin, "--version"] });
    rows.push({
      name: `\`subjekti build --limits x\` (usage error), ${label}`,
      command: [process.execPath, bin, "build", "--limits", "x"],
    });
  }
  const samples = rows.map(() => [] as number[]);
  const loads: number[] = [];
  // Rounds alternate the commands, so load from other work falls on every row alike.
  for (let round = 0; round < rounds; round++) {
    loads.push(loadavg()[0] ?? 0);
    rows.forEach((row, i) => samples[i]?.push(loopCpu(row.command)));
  }
  const node = median(samples[0] ?? []);
  console.log(
    `Node ${process.version}, ${rounds} rounds of ${runs} runs each, load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}\n`,
  );
  console.log("| command | CPU a run, median | × `node -e 0` |");
  console.log("|---|--:|--:|");
  rows.forEach((row, i) => {
    const cpu = median(samples[i] ?? []);
    console.log(`| ${row.name} | ${cpu.toFixed(1)} ms | ${(cpu / node).toFixed(2)} |`);
  });
  // This checkout's rows are the last three; with --before, that build's are the three before them.
  const ms = (i: number): number => median(samples.at(i) ?? []);
  await recordBenchmarks(
    [
      ["startup-help", "`subjekti --help`"],
      ["startup-version", "`subjekti --version`"],
      ["startup-usage-error", "a usage error (`subjekti build --limits x`)"],
    ].map(([key = "", what = ""], i) => {
      const cpu = ms(i - 3);
      const was = before === undefined ? "" : ` (${before}, same run: ${ms(i - 6).toFixed(1)} ms)`;
      return { key, table: "Start-up", what, figure: `**${cpu.toFixed(1)} ms** CPU, ${(cpu / node).toFixed(2)}× \`node -e 0\`${was}` };
    }),
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
