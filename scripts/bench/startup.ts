/**
 * `bench startup`: the CPU (user + system) that `subjekti --help`, `--version` and a usage error
 * cost against a bare `node -e 0`, for the CLI as it ships: `tsc` into a temporary package of
 * `bin/` and `lib/` (no `src/` beside it, so bin/subjekti.js skips the checkout's stale-lib check,
 * as an installed copy does), node_modules linked from the checkout; and `--help` once more as a
 * contributor runs it, the same package beside the sources (`src/` linked in: bin/subjekti.js
 * reads every source's time to see whether lib/ is stale before a command, not before the top-level
 * help, which this row shows). `--before <rev|dir>` builds the same package from that checkout's
 * sources (checkout.ts `checkoutOf`) and measures both in one run, alternating. CPU
 * is bash's `times` for the children of a loop running one command `--runs` times (getrusage:
 * finer than GNU time's 10 ms); a row is the median over `--rounds` rounds of that loop's mean.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkoutOf } from "./checkout.ts";
import { fmt, median, type Report, ROOT, table } from "./parts.ts";

export type StartupOptions = { before?: string; runs: number; rounds: number };

/** A build measured: the bin of its package as installed, and of the same package as a checkout (src/ beside lib/). */
type Build = { name: string; bin: string; checkoutBin: string };

/**
 * A package of bin/ and lib/ compiled from `sources` (holding src/, bin/ and the tsconfigs) into
 * `dir`, and `dir`-checkout: the same bin and lib with `sources`' src/ beside them. Compiled after
 * the sources were written, so the checkout's stale-lib check finds nothing and reads every time.
 */
function compilePackage(name: string, sources: string, dir: string): Build {
  const tsc = join(ROOT, "node_modules/typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-p", join(sources, "tsconfig.build.json"), "--outDir", join(dir, "lib")], { stdio: "inherit" });
  const checkout = `${dir}-checkout`;
  for (const [at, links] of [
    [dir, []],
    [checkout, ["lib", "src"]],
  ] as const) {
    mkdirSync(join(at, "bin"), { recursive: true });
    copyFileSync(join(sources, "bin/subjekti.js"), join(at, "bin/subjekti.js"));
    copyFileSync(join(sources, "package.json"), join(at, "package.json"));
    symlinkSync(join(ROOT, "node_modules"), join(at, "node_modules"));
    for (const link of links) symlinkSync(link === "lib" ? join(dir, "lib") : join(sources, "src"), join(at, link));
  }
  return { name, bin: join(dir, "bin/subjekti.js"), checkoutBin: join(checkout, "bin/subjekti.js") };
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
    const builds: Build[] = [];
    if (options.before !== undefined)
      builds.push(compilePackage(`before (${options.before})`, (await checkoutOf(options.before)).dir, join(work, "before")));
    const after = join(work, "after");
    builds.push(compilePackage("after (this checkout)", ROOT, after));
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
      ...builds.flatMap(({ name, bin, checkoutBin }): [string, string[]][] => [
        [`\`subjekti --help\`, ${name}`, [node, bin, "--help"]],
        [`\`subjekti --version\`, ${name}`, [node, bin, "--version"]],
        [`\`subjekti build --limits x\` (usage error), ${name}`, [node, bin, "build", "--limits", "x"]],
        [`\`subjekti --help\` from a checkout (src/ beside lib/), ${name}`, [node, checkoutBin, "--help"]],
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
      ["startup-help-checkout", "`subjekti --help` from a checkout (src/ beside lib/: the stale-lib check)"],
    ] as const;
    // This checkout's rows are the last four; with --before, that build's are the four before them.
    const at = (i: number): number => ms.at(i) ?? NaN;
    return {
      text,
      rows: keys.map(([key, what], i) => {
        const was =
          options.before === undefined ? "" : ` (${options.before}, same run: ${fmt(at(i - 8))} ms, ${fmt(at(i - 8) / floor, 2)}×)`;
        return { key, table: "Start-up", what, figure: `**${fmt(at(i - 4))} ms** CPU, ${fmt(at(i - 4) / floor, 2)}× \`node -e 0\`${was}` };
      }),
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
