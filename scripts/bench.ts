/**
 * `npm run bench -- <measure> [options] [--write]`: the project's speed and memory figures, one
 * subcommand a measure (`npm run bench -- --help` lists them, docs/commands.md says what each
 * measures), each printing markdown. `--write` records the measure's rows in BENCHMARKS.md, by key,
 * and its printed output in docs/benchmarks-history.md (scripts/benchmarks-table.ts). Each measure
 * is scripts/bench/<measure>.ts, loaded only when it runs. Two hidden ones run as child processes
 * of `build`: `probe` (the same input read, the same files written, as fast as Node can) and
 * `raw-server` (serve-handler alone, the preview's baseline). Before a measure starts it waits, up to
 * `--wait-quiet` seconds, for a machine quiet by the rule its rows are marked with (bench/wait-quiet.ts).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Command, InvalidArgumentError } from "commander";
import { machine, machineWork, recordBenchmarks } from "./benchmarks-table.ts";
import type { Report } from "./bench/parts.ts";
import { machineWatch, waitedNote, waitQuiet } from "./bench/wait-quiet.ts";

/** A count as the options give it: 10000, 10k, 1m. */
function count(text: string): number {
  const match = /^(\d+)([km]?)$/i.exec(text.trim());
  if (match === null) throw new InvalidArgumentError(`expected a count such as 400, 10k or 1m, got "${text}"`);
  return Number(match[1]) * { "": 1, k: 1e3, m: 1e6 }[(match[2] ?? "").toLowerCase() as "" | "k" | "m"];
}
const counts = (text: string): number[] => text.split(",").map(count);

const BEFORE = "also this commit (exported to .bench/checkouts/ and compiled once) or compiled checkout, in turn; both run compiled";
const DROP = "drop the machine's clean page cache before each build (root on Linux), so each starts with the same memory free";

const program = new Command("bench").description("speed and memory figures, one subcommand a measure").showHelpAfterError();

/**
 * A measure's subcommand: its options are declared by the caller; its run (`run` of
 * scripts/bench/<name>.ts, loaded only then) prints the report and, with --write, records its rows.
 */
function measure(name: string, description: string): Command {
  return program
    .command(name)
    .description(description)
    .option("--write", "record the rows in BENCHMARKS.md and the output in docs/benchmarks-history.md", false)
    .option("--wait-quiet <s>", "wait at most this long for a quiet machine before measuring (0: start at once)", count, 600)
    .showHelpAfterError()
    .action(async (options: { write: boolean; waitQuiet: number }) => {
      const { run } = (await import(`./bench/${name}.ts`)) as { run: (options: unknown) => Promise<Report> };
      const waited = await waitQuiet(options.waitQuiet, machineWatch);
      const atStart = machineWork();
      const started = new Date().toISOString().slice(0, 16).replace("T", " ");
      const report = await run(options);
      const text = `## bench ${name}, ${started} UTC\n\n- machine: ${machine()}\n${waitedNote(waited)}\n${report.text}\n`;
      process.stdout.write(text);
      if (options.write) await recordBenchmarks(report.rows, text, atStart);
      for (const failure of report.failures ?? []) process.stderr.write(`bench ${name}: ${failure}\n`);
      if ((report.failures ?? []).length > 0) process.exitCode = 1;
    });
}

measure(
  "build",
  "builds beside the probe, rebuilds, unsorted input, .xlsx, the preview against serve-handler; --before: another checkout too",
)
  .option("--sizes <list>", "dataset sizes", counts, counts("10k,100k,1m"))
  .option("--unsorted <list>", "sizes also built from the same records in a shuffled order (e.g. 3m)", counts, [])
  .option("--skip-build", "no builds", false)
  .option("--skip-limits", "no --limits 10,20,50,100 builds", false)
  .option("--skip-incremental", "no rebuilds", false)
  .option("--skip-serve", "no preview (of the 100k set if listed, else the smallest)", false)
  .option("--skip-xlsx", "no 1M .xlsx export and build", false)
  .option("--repeat <n>", "rounds of builds, probes and preview loads; the medians are reported", count, 1)
  .option("--before <rev|dir>", BEFORE)
  .option("--seed <text>", "the generator's seed", "1")
  .option("--duration <s>", "seconds of load per autocannon run", count, 5)
  .option("--connections <n>", "autocannon connections", count, 10)
  .option("--drop-caches", DROP, false);

measure("peaks", "full builds of 1M, 5M and 10M (every default on) in one run: peak RSS, CPU and wall, and their ratios to the smallest")
  .option("--sizes <list>", "dataset sizes (generated once and kept by size and seed)", counts, counts("1m,5m,10m"))
  .option("--seed <text>", "the generator's seed", "1")
  .option("--drop-caches", DROP, false);

measure(
  "peers",
  "our full build against Eleventy 3.1.2 writing the same pre-rendered pages (the list pages in both forms, the record chunks)",
)
  .option("--sizes <list>", "dataset sizes", counts, counts("1m"))
  .option("--seed <text>", "the generator's seed", "1")
  .option("--eleventy <version>", "the Eleventy release (installed once into the tools' cache by scripts/install-cached.sh)", "3.1.2")
  .option("--repeat <n>", "rounds, the three builds alternating; medians reported", count, 1)
  .option("--drop-caches", DROP, false);

measure("requests", "CPU a request on the handler, serve, Deno (another checkout, workerd): derived pages, keys, hostile requests")
  .option("--count <n>", "subjects in the generated site", count, 1e6)
  .option("--data <dir>", "build this data directory instead of a generated list")
  .option("--requests <n>", "requests of each kind measured on each host (after the warm-up)", count, 300)
  .option("--warm <n>", "requests of each kind to warm up", count, 50)
  .option("--blocks <n>", "blocks the measured requests are sent in, the hosts alternating", count, 10)
  .option("--before <dir>", "another checkout whose build and handler are measured alongside")
  .option("--workerd", "also the Cloudflare Worker under wrangler dev (a site of at most 20,000 files: --data data)", false)
  .option(
    "--hosts <list>",
    "hosts measured: handler, serve, deno (`--hosts handler`: the handler alone, no servers)",
    (t: string) => t.split(","),
    ["handler", "serve", "deno"],
  );

measure("feed", "the change feed in a rebuild, and a mirror's sync")
  .option("--size <n>", "subjects", count, 1e6)
  .option("--repeat <n>", "one-record edits with and without the feed, each", count, 2);

measure("startup", "the CPU of --help, --version and a usage error against node -e 0")
  .option("--before <rev|dir>", "also the CLI compiled from this git revision (or checkout)")
  .option("--runs <n>", "runs of a command in one timed loop", count, 20)
  .option("--rounds <n>", "timed loops of each command (the median is printed)", count, 7);

measure("bad-sources", "millions of bad items validated: the exact count, the peak RSS under a ceiling")
  .option("--items <n>", "items in the array", count, 5e6)
  .option("--ceiling-mb <n>", "the peak RSS allowed, in MB", count, 600)
  .option("--threads <n>", "record threads (auto, 0 or a number)", "auto");

measure("search", "what each class of search query costs the handler on a built site: CPU and bytes read")
  .requiredOption("--site <dir>", "a built site (e.g. of `npm run generate` data)")
  .option("--requests <n>", "requests of each class", count, 200)
  .option("--no-ranges", "the host answers every Range with the whole file")
  .option("--tries <n>", "each request's CPU the least of this many sends (a shared machine's scheduler and collections aside)", count, 1)
  .option("--before <rev|dir>", "also this commit's compiled handler (or a compiled checkout's), in turn, its answers compared")
  .option("--only <text>", "only the classes whose name holds this text (e.g. `order fields`)")
  .option(
    "--paths <file>",
    "these requests (a path a line, e.g. the slowest of an earlier run) as a class of their own; with --only, besides it",
  )
  .option("--seed <n>", "the seed of the drawn requests (another seed, other requests)", count, 11)
  .option("--worst <n>", "the slowest requests of each class listed", count, 5);

const more = (value: string, all: string[]): string[] => [...all, value];
/** A stage measure: a generated set's size, this checkout compiled and each --before in turn, rounds, a scratch directory. */
const stage = (name: string, description: string, rounds: number): Command =>
  measure(name, description)
    .option("--size <n>", "subjects in the generated set (kept by size and seed)", count, 1e6)
    .option("--seed <text>", "the generator's seed", "1")
    .option("--before <rev|dir>", `${BEFORE} (again for more)`, more, [])
    .option("--rounds <n>", "runs of each checkout, in turn (the medians are reported)", count, rounds)
    .option("--drop-caches", DROP, false)
    .option("--scratch <dir>", "where the runs write (removed after; default .bench/)");
stage("read-stage", "the read stage alone: cold builds stopped at the pause point build-records-written (every record read and written)", 3)
  .option("--data <dir>", "this data instead of the generated set (no rows written)")
  .option("--no-cache", "build without a build cache")
  .option("--warm-from <dir>", "time rebuilds: site and cache first built from this set, untimed (`edited`: record N/2 renamed)")
  .option("--timeout <s>", "seconds a build may take to reach the pause point", count, 600);

stage("search-stage", "the search stage alone (planSearch of each checkout's lib/) over a built site's chunk files, a process a run", 1)
  .option("--site <dir>", "a built site (else the generated set of --size, built by this checkout into the scratch)")
  .option("--hashes <file>", "write this checkout's search shards there, key and hash a line (to compare two runs' bytes)");

measure("soak", "the preview under slowloris, large unfinished heads and a mixed load")
  .option("--duration <s>", "seconds of attack", count, 20)
  .option("--rounds <n>", "attacks one after another (RSS after each)", count, 2);

program
  .command("probe <input> <plan> <out>", { hidden: true })
  .action(async (input: string, plan: string, out: string) => (await import("./bench/probe.ts")).probe(input, plan, out));

// etag: true so that a 304 baseline exists (serve-handler hashes a file once per mtime).
program.command("raw-server <dir>", { hidden: true }).action(async (dir: string) => {
  const handler = (await import("serve-handler")).default;
  const server = createServer((request, response) => void handler(request, response, { public: dir, etag: true }));
  server.listen(0, "127.0.0.1", () =>
    process.stdout.write(`raw serve-handler: http://127.0.0.1:${(server.address() as AddressInfo).port}/\n`),
  );
  process.once("SIGTERM", () => server.close(() => process.exit(0)));
});

await program.parseAsync();
