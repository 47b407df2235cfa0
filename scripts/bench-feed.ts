/**
 * The change feed's cost and a mirror's catch-up, measured at one size (default 1M):
 *   npm run bench:feed -- --size 1000000
 * A full build makes the feed's first state; then one record is renamed and the site rebuilt,
 * alternately with the feed and without it (--no-feed), `--repeat` times each; then `subjekti sync`
 * takes the snapshot, the site is rebuilt after one more rename, and `sync` applies that one diff.
 * Prints a table: wall time and peak memory of each command, and the diff's size. `--write`: the
 * full build, the renames and the sync into BENCHMARKS.md (scripts/benchmarks-table.ts).
 */
import { spawn } from "node:child_process";
import { mkdir, rename, rm } from "node:fs/promises";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { recordBenchmarks, setLabel } from "./benchmarks-table.ts";
import { generateFile } from "./generate-subjects.ts";
import { type Measured, measureCommand } from "./measure-command.ts";

const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const WORK = join(ROOT, ".bench", `feed-${process.pid}`);
const CLI = ["--import", "tsx", "src/cli/main.ts"];

const flags = new Command("bench-feed")
  .option("--size <n>", "subjects", (text) => Number(text), 1_000_000)
  .option("--repeat <n>", "one-record edits with and without the feed, each", (text) => Number(text), 2)
  .parse()
  .opts<{ size: number; repeat: number }>();

const run = (args: readonly string[]): Promise<Measured> => measureCommand([...CLI, ...args], ROOT, WORK);
const rows: [string, string, string][] = [];
const row = (what: string, m: Measured, extra = ""): void => {
  rows.push([what, `${m.seconds.toFixed(2)} s`, `${m.rssMb.toFixed(0)} MB${extra}`]);
  process.stderr.write(`${what}: ${m.seconds.toFixed(2)} s, ${m.rssMb.toFixed(0)} MB${extra}\n`);
};

/** The data directory with record `edit` renamed (a fresh name each time), written whole. */
async function data(edit?: number): Promise<string> {
  const dir = join(WORK, "data");
  await mkdir(dir, { recursive: true });
  await generateFile(
    { count: flags.size, seed: "feed", format: "json", ...(edit === undefined ? {} : { edit }) },
    join(dir, "subjekti.json.tmp"),
  );
  await rename(join(dir, "subjekti.json.tmp"), join(dir, "subjekti.json"));
  return dir;
}

async function main(): Promise<void> {
  await mkdir(WORK, { recursive: true });
  const out = join(WORK, "site");
  const build = (dir: string, extra: string[] = []): Promise<Measured> =>
    run(["build", "--data", dir, "--out", out, "--cache-dir", join(WORK, "cache"), "--quiet", "--json", ...extra]);
  const diffBytes = (m: Measured): number => (JSON.parse(m.stdout) as { feed: { diffBytes: number } | null }).feed?.diffBytes ?? 0;
  try {
    row("full build, the feed's first state", await build(await data()));
    // Alternating, so a noisy machine weighs on both alike. The edits move along the list.
    for (let i = 0; i < flags.repeat; i++) {
      for (const feed of [true, false]) {
        const index = Math.floor(flags.size / 2) + i * 2 + (feed ? 0 : 1);
        const m = await build(await data(index), feed ? [] : ["--no-feed"]);
        row(`one record renamed, ${feed ? "with the feed" : "--no-feed"}`, m, feed ? `, diff ${diffBytes(m)} B` : "");
      }
    }
    // A mirror: the snapshot, then one diff.
    const preview = spawn(process.execPath, [...CLI, "preview", "--dir", out, "--port", "0"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "inherit"],
    });
    const url = await new Promise<string>((resolve) =>
      preview.stdout.on("data", (text: Buffer) => resolve(new URL(/http\S+/.exec(text.toString())?.[0] ?? "").origin)),
    );
    try {
      const mirror = join(WORK, "mirror.ndjson");
      row("sync, first run (the snapshot)", await run(["sync", url, mirror]));
      const m = await build(await data(3));
      row("one more record renamed, with the feed", m, `, diff ${diffBytes(m)} B`);
      row("sync, one diff applied and verified", await run(["sync", url, mirror]));
    } finally {
      preview.kill();
    }
  } finally {
    await rm(WORK, { recursive: true, force: true });
  }
  const load = loadavg()
    .map((n) => n.toFixed(1))
    .join(" ");
  process.stdout.write(
    `\n${flags.size} subjects; ${cpus().length} cores, Node ${process.version}, load ${load}\n\n| command | wall | peak RSS |\n|---|--:|--:|\n`,
  );
  for (const [what, wall, rss] of rows) process.stdout.write(`| ${what} | ${wall} | ${rss} |\n`);
  const set = setLabel(flags.size);
  const figures = (prefix: string): string => {
    const walls = rows.filter(([what]) => what.startsWith(prefix)).map(([, wall, rss]) => `${wall} (${rss.replace(/,.*/, "")})`);
    return walls.length === 0 ? "–" : `**${walls.join(", ")}**`;
  };
  await recordBenchmarks([
    {
      key: `feed-${set.toLowerCase()}-full`,
      table: "Builds",
      what: `${set}, full build with the change feed (its first state)`,
      figure: figures("full build"),
    },
    {
      key: `feed-${set.toLowerCase()}-one-renamed`,
      table: "Builds",
      what: `${set}, one record renamed, with the feed / \`--no-feed\``,
      figure: `${figures("one record renamed, with")} / ${figures("one record renamed, --no-feed")}, alternating`,
    },
    {
      key: `feed-${set.toLowerCase()}-sync`,
      table: "Builds",
      what: `${set}, \`subjekti sync\` applying one diff`,
      figure: `${figures("sync, one diff")} (first run, the snapshot: ${figures("sync, first run").replace(/\*/g, "")})`,
    },
  ]);
}

await main();
