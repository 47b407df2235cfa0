/**
 * `bench startup`: the CPU (user + system) that `subjekti --help`, `--version` and a usage error
 * cost against a bare `node -e 0`, for the CLI as it ships: `tsc` into a temporary package of
 * `bin/` and `lib/` (no `src/` beside it, so bin/subjekti.js skips the checkout's stale-lib check,
 * as an installed copy does), node_modules linked from the checkout. `--before <rev>` builds the
 * same package from a git revision (`git archive`) and measures both in one run, alternating. CPU
 * is bash's `times` for the children of a loop running one command `--runs` times (getrusage:
 * finer than GNU time's 10 ms); a row is the median over `--rounds` rounds of that loop's mean.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fmt, median, type Report, ROOT, table } from "./parts.ts";

export type StartupOptions = { before?: string; runs: number; rounds: number };

/** A package of bin/ and lib/ compiled from `sources` (holding src/, bin/ and the tsconfigs) into `dir`; its bin. */
function compilePackage(sources: string, dir: string): string {
  mkdirSync(join(dir, "bin"), { recursive: true });
  const tsc = join(ROOT, "node_modules/typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-p", join(sources, "tsconfig.build.json"), "--outDir", join(dir, "lib")], { stdio: "inherit" });
  copyFileSync(join(sources, "bin/subjekti.js"), join(dir, "bin/subjekti.js"));
  copyFileSync(join(sources, "package.json"), join(dir, "package.json"));
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  return join(dir, "bin/subjekti.js");
}

/** The sources of `rev` unpacked into `dir` (node_modules linked, so tsc finds @types/node). */
function checkout(rev: string, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const archive = execFileSync("git", ["-C", ROOT, "archive", rev, "src", "bin", "package.json", "tsconfig.json", "tsconfig.build.json"]);
  execFileSync("tar", ["-x", "-C", dir], { input: archive });
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  return dir;
}

/** Mean CPU ms (user + sys) of one run of `command`, over a loop of `runs`. */
function loopCpu(command: readonly string[], runs: number): number {
  const script = 'n=$1; shift; for ((i=0; i<n; i++)); do "$@" >/dev/null 2>&1; done; times';
  const out = execFileSync("bash", ["-c", script, "bench", String(runs), ...command], { cwd: tmpdir(), encoding: "utf8" });
  // `times` prints the shell's own user/sys, then its children's: "0m0.812s 0m0.131s".
  const seconds = (out.trim().split("\n").at(-1) ?? "").split(" ").reduce((sum, time) => {
    const [minutes = "", rest = ""] = time.split("m");
    return sum + Number(minutes) * 60 + Number(rest.replace("s", ""));
  }, 0);
  return (seconds * 1000) / runs;
}

/** The floors (Node, an empty module, commander alone), then each build's three commands, in alternating rounds. */
export async function run(options: StartupOptions): Promise<Report> {
  const work = mkdtempSync(join(tmpdir(), "subjekti-bench-startup-"));
  try {
    const builds: [string, string][] = [];
    if (options.before !== undefined)
      builds.push([`before (${options.before})`, compilePackage(checkout(options.before, join(work, "before-src")), join(work, "before"))]);
    const after = join(work, "after");
    builds.push(["after (this checkout)", compilePackage(ROOT, after)]);
    // The floor under any commander CLI: an ES module alone, and one that prints a help with commander.
    writeFileSync(join(after, "empty.mjs"), "");
    writeFileSync(
      join(after, "commander-help.mjs"),
      'import { Command } from "commander";\nnew Command("x").description("y").parse(["--help"], { from: "user" });\n',
    );
    const node = process.execPath;
    const rows: [string, string[]][] = [
      ["`node -e 0` (Node alone)", [node, "-e", "0"]],
      ["an empty ES module", [node, join(after, "empty.mjs")]],
      ["commander alone: an ES module printing a one-command help", [node, join(after, "commander-help.mjs")]],
      ...builds.flatMap(([name, bin]): [string, string[]][] => [
        [`\`subjekti --help\`, ${name}`, [node, bin, "--help"]],
        [`\`subjekti --version\`, ${name}`, [node, bin, "--version"]],
        [`\`subjekti build --limits x\` (usage error), ${name}`, [node, bin, "build", "--limits", "x"]],
      ]),
    ];
    const samples = rows.map(() => [] as number[]);
    // Rounds alternate the commands, so load from other work falls on every row alike.
    for (let round = 0; round < options.rounds; round++) rows.forEach(([, command], i) => samples[i]?.push(loopCpu(command, options.runs)));
    const ms = samples.map(median);
    const floor = ms[0] ?? NaN;
    const text = `${options.rounds} rounds of ${options.runs} runs each\n\n${table(
      ["command", "CPU a run, median:", "× `node -e 0`:"],
      rows.map(([name], i) => [name, `${fmt(ms[i] ?? NaN)} ms`, fmt((ms[i] ?? NaN) / floor, 2)]),
    )}`;
    const keys = [
      ["startup-help", "`subjekti --help`"],
      ["startup-version", "`subjekti --version`"],
      ["startup-usage-error", "a usage error (`subjekti build --limits x`)"],
    ] as const;
    // This checkout's rows are the last three; with --before, that build's are the three before them.
    const at = (i: number): number => ms.at(i) ?? NaN;
    return {
      text,
      rows: keys.map(([key, what], i) => {
        const was = options.before === undefined ? "" : ` (${options.before}, same run: ${fmt(at(i - 6))} ms)`;
        return { key, table: "Start-up", what, figure: `**${fmt(at(i - 3))} ms** CPU, ${fmt(at(i - 3) / floor, 2)}× \`node -e 0\`${was}` };
      }),
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
