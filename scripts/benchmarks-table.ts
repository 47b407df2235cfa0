/**
 * The writer of BENCHMARKS.md, for the bench harness (scripts/bench.ts): given `--write`, a
 * measure's rows are recorded. Each row has a stable key (the table's last column); the writer replaces
 * exactly the rows whose keys it was given (figure, date, commit, machine, load, command, history
 * link), adds a new key as the last row of its table (or a new table), leaves every other line of
 * the file byte for byte, and appends the run's full printed output to docs/benchmarks-history.md
 * under a dated heading that the rows link to.
 *
 * The machine, the commit and the command are read here, from node:os, git and the process, never
 * typed by hand.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { cpus, loadavg, totalmem } from "node:os";
import { join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");
export const TABLE_FILE = "BENCHMARKS.md";
export const HISTORY_FILE = "docs/benchmarks-history.md";
export const HEADER = "| what | figure | date (UTC) | commit | machine | load | command | history | key |";
const SEPARATOR = "|---|---|---|---|---|--:|---|---|---|";

/** One measured row: its stable key (the row it replaces, e.g. `build-1m-full`), the `## ` heading of its table, its cells. */
export type MeasuredRow = { readonly key: string; readonly table: string; readonly what: string; readonly figure: string };

/** What is the same for every row of one run (`time`: `YYYY-MM-DD HH:MM:SS`, UTC). */
export type RunStamp = { readonly [cell in "time" | "commit" | "machine" | "load" | "command"]: string };

/** A cell's text with its pipes escaped, on one line. */
const cell = (text: string): string => text.replace(/\r?\n/g, " ").replace(/(?<!\\)\|/g, "\\|");

/** The heading of the run in the history. */
export const runHeading = (stamp: RunStamp): string => `Run of ${stamp.time} UTC`;

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
export const anchorOf = (heading: string): string =>
  heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, "").replace(/ /g, "-"); // prettier-ignore

const KEY = /^[a-z0-9][a-z0-9.-]*$/;

/** The key of a table row (its last cell, in backticks), or undefined. */
export const keyOf = (line: string): string | undefined => /\|\s*`([a-z0-9][a-z0-9.-]*)`\s*\|\s*$/.exec(line)?.[1];

function rowLine(row: MeasuredRow, stamp: RunStamp): string {
  const history = `[${runHeading(stamp)}](${HISTORY_FILE}#${anchorOf(runHeading(stamp))})`;
  const cells = [row.what, row.figure, stamp.time.slice(0, 16), stamp.commit, stamp.machine, stamp.load, `\`${stamp.command}\``, history];
  return `| ${cells.map(cell).join(" | ")} | \`${row.key}\` |`;
}

/**
 * `markdown` (BENCHMARKS.md) with the rows of `rows` replaced by key, or added at the end of their
 * table, or in a new table at the end of the file; every other line unchanged.
 */
export function replaceRows(markdown: string, rows: readonly MeasuredRow[], stamp: RunStamp): string {
  const lines = markdown.split("\n");
  for (const row of rows) {
    // A key keyOf could not read back would add a new row on every run.
    if (!KEY.test(row.key)) throw new Error(`a row key is lower-case letters, digits, "." and "-": "${row.key}"`);
    const line = rowLine(row, stamp);
    const at = lines.findIndex((l) => l.startsWith("|") && keyOf(l) === row.key);
    if (at >= 0) {
      lines[at] = line;
      continue;
    }
    const heading = lines.findIndex((l) => l.trim() === `## ${row.table}`);
    const start = heading < 0 ? -1 : lines.findIndex((l, i) => i > heading && l.startsWith("|"));
    const next = heading < 0 ? -1 : lines.findIndex((l, i) => i > heading && l.startsWith("## "));
    if (start >= 0 && (next < 0 || start < next)) {
      let end = start;
      while (lines[end + 1]?.startsWith("|") === true) end++;
      lines.splice(end + 1, 0, line);
      continue;
    }
    if (heading >= 0) {
      // The heading without a table yet.
      lines.splice(heading + 1, 0, "", HEADER, SEPARATOR, line);
      continue;
    }
    // No such table yet: a new section at the end.
    while (lines.length > 0 && lines.at(-1) === "") lines.pop();
    lines.push("", `## ${row.table}`, "", HEADER, SEPARATOR, line, "");
  }
  return lines.join("\n");
}

/** The history with the run appended: its heading, what it was, and its printed output (headings one level down). */
export function appendRun(history: string, rows: readonly MeasuredRow[], stamp: RunStamp, output: string): string {
  const printed = output.trimEnd().replace(/^(#{1,5} )/gm, "#$1");
  return `${history.trimEnd()}\n\n## ${runHeading(stamp)}\n\n- command: \`${stamp.command}\`
- commit: ${stamp.commit}; machine: ${stamp.machine}; load (1-minute average at the start and the end, lowest–highest): ${stamp.load}
- rows written to [BENCHMARKS.md](../BENCHMARKS.md): ${rows.map((r) => `\`${r.key}\``).join(", ")}\n\nWhat it printed:\n\n${printed}\n`;
}

const quote = (arg: string): string => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`);

/** The command that was run, as one would type it again: `npm run <script> -- <args>` or `npx tsx <file> <args>`. */
export function commandLine(argv: readonly string[], env: NodeJS.ProcessEnv, root = ROOT): string {
  const args = argv.slice(2).map(quote).join(" ");
  const file = relative(root, argv[1] ?? "");
  const event = env["npm_lifecycle_event"];
  if (event !== undefined && env["npm_lifecycle_script"]?.includes(file) === true)
    return `npm run ${event}${args === "" ? "" : ` -- ${args}`}`;
  return `npx tsx ${file}${args === "" ? "" : ` ${args}`}`;
}

/** `git rev-parse --short HEAD`, with `+dirty` when tracked files differ (the two benchmark files aside: writing them changes nothing measured). */
export function commitOf(root: string): string {
  const git = (...args: string[]): string =>
    execFileSync("git", ["-C", root, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  const dirty = git("status", "--porcelain", "--untracked-files=no", "--", ".", `:!${TABLE_FILE}`, `:!${HISTORY_FILE}`) !== "";
  return `${git("rev-parse", "--short", "HEAD")}${dirty ? "+dirty" : ""}`;
}

export function machine(): string {
  const cpu = cpus();
  return `${cpu[0]?.model.trim() ?? "unknown CPU"}, ${cpu.length} cores, ${Math.round(totalmem() / 1024 ** 3)} GB, Node ${process.version}`;
}

/** Rewrites BENCHMARKS.md and appends to the history under `root`: the testable core of `recordBenchmarks`. */
export async function writeRun(root: string, rows: readonly MeasuredRow[], stamp: RunStamp, output: string): Promise<void> {
  const table = join(root, TABLE_FILE);
  const history = join(root, HISTORY_FILE);
  await writeFile(table, replaceRows(await readFile(table, "utf8"), rows, stamp));
  await writeFile(history, appendRun(existsSync(history) ? await readFile(history, "utf8") : "", rows, stamp, output));
}

/**
 * The machine's work at one moment, to tell afterwards how much of it was not the run's: every
 * processor's busy time (/proc/stat: user, nice, system, irq and softirq; not idle, iowait or the
 * hypervisor's steal) and this process's own with its children's (/proc/self/stat: utime, stime,
 * cutime, cstime: every build and server the run started and waited for), in clock ticks, and the
 * 1-minute load. Null off Linux.
 */
export type MachineWork = { readonly at: number; readonly load: number; readonly busy: number; readonly own: number } | null;

export function machineWork(): MachineWork {
  try {
    const cpu = readFileSync("/proc/stat", "utf8").split("\n", 1)[0]?.trim().split(/\s+/).slice(1).map(Number) ?? [];
    const self = readFileSync("/proc/self/stat", "utf8");
    // Past the command's name, which may hold spaces: utime is the 14th field, cstime the 17th.
    const fields = self
      .slice(self.lastIndexOf(")") + 2)
      .split(" ")
      .map(Number);
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0] = cpu;
    return {
      at: performance.now(),
      load: loadavg()[0] ?? 0,
      busy: user + nice + system + irq + softirq,
      own: fields.slice(11, 15).reduce((a, b) => a + b, 0),
    };
  } catch {
    return null;
  }
}

/** Clock ticks a second as /proc counts them (USER_HZ: 100 on every Linux Node runs on). */
const TICKS = 100;

/** The cores other processes kept busy on average between `start` and `end`: the machine's busy time less the run's own. */
export function othersCores(start: MachineWork, end: MachineWork): number | null {
  if (start === null || end === null || end.at <= start.at) return null;
  const others = end.busy - start.busy - (end.own - start.own);
  return Math.max(0, others / TICKS / ((end.at - start.at) / 1000));
}

/**
 * When a run counts as quiet (BENCHMARKS.md): the 1-minute load under 2 when it starts (nothing else
 * running then) and other processes' CPU under a quarter of a core through it. The load at its end
 * is the run's own: a build keeps more threads runnable than the two cores, so its own load passes 2.
 */
export const QUIET_LOAD = 2;
export const QUIET_OTHERS = 0.25;
/** The rule itself, which the harness also waits for before a measure starts (scripts/bench/wait-quiet.ts). */
export const isQuiet = (load: number, others: number | null): boolean => load < QUIET_LOAD && others !== null && others < QUIET_OTHERS;
export const quietness = (loadAtStart: number, others: number | null): string => (isQuiet(loadAtStart, others) ? "" : " (not quiet)");

/** The load cell: the load at the start and the others' cores, then whether the run was quiet. */
export const loadCell = (loadAtStart: number, others: number | null): string =>
  `${loadAtStart.toFixed(1)}, others ${others === null ? "unknown" : `${others.toFixed(2)} cores`}${quietness(loadAtStart, others)}`;

/** `rows` into BENCHMARKS.md and the run's printed `output` into the history, stamped with the machine's work at its start and now. */
export async function recordBenchmarks(rows: readonly MeasuredRow[], output: string, start: MachineWork): Promise<void> {
  const end = machineWork();
  const stamp: RunStamp = {
    time: new Date().toISOString().slice(0, 19).replace("T", " "),
    commit: commitOf(ROOT),
    machine: machine(),
    load: loadCell(start?.load ?? loadavg()[0] ?? 0, othersCores(start, end)),
    command: commandLine(process.argv, process.env),
  };
  await writeRun(ROOT, rows, stamp, output);
  process.stderr.write(
    `${TABLE_FILE}: ${rows.length} rows written (${rows.map((r) => r.key).join(", ")}); the run appended to ${HISTORY_FILE}\n`,
  );
}
