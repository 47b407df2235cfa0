/**
 * `npm run bench:bad-sources`: a source of millions of bad items validates in bounded memory.
 *
 * Writes a JSON array of N items that are not records (default 5,000,000) into a temporary
 * folder, validates it in this process as `subjekti validate` does, and checks what the problem
 * collector promises: the exact count of the one kind, five problems kept, and this process's own
 * peak RSS under a ceiling (exit 1 when not). Prints the figures as a markdown table row.
 *
 *   npm run bench:bad-sources -- [--items 5000000] [--ceiling-mb 600] [--threads auto|0|n] [--write]
 *
 * `--write`: the row into BENCHMARKS.md (scripts/benchmarks-table.ts).
 */
import { createWriteStream } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { once } from "node:events";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Command } from "commander";
import { recordBenchmarks } from "./benchmarks-table.ts";
import { DataError } from "../src/data/problems/problems.ts";
import { forEachItem } from "../src/common/stage-iterables.ts";
import { orderBlocks } from "../src/data/order/order-blocks.ts";
import { readBlocks } from "../src/data/read/read-blocks.ts";
import { resolveReadOptions } from "../src/data/read-options.ts";

const program = new Command("bench-bad-sources")
  .option("--items <n>", "items in the array", (t) => Number(t), 5_000_000)
  .option("--ceiling-mb <n>", "the peak RSS allowed, in MB", (t) => Number(t), 600)
  .option("--threads <n>", "record threads (auto, 0 or a number)", "auto")
  .parse();
const { items, ceilingMb, threads } = program.opts<{ items: number; ceilingMb: number; threads: string }>();

/** `[1,1,…,1]`, written in pieces so the script itself stays small. */
async function writeBadArray(path: string, count: number): Promise<void> {
  const out = createWriteStream(path);
  const piece = `${"1,".repeat(9_999)}1`;
  out.write("[");
  for (let written = 0; written < count; written += 10_000) {
    const n = Math.min(10_000, count - written);
    if (!out.write(`${written > 0 ? "," : ""}${n === 10_000 ? piece : `${"1,".repeat(n - 1)}1`}`)) await once(out, "drain");
  }
  out.end("]");
  await once(out, "finish");
}

const dir = await mkdtemp(join(tmpdir(), "subjekti-bad-sources-"));
try {
  const file = join(dir, "bad.json");
  await writeBadArray(file, items);
  const bytes = (await stat(file)).size;
  const rssBefore = process.resourceUsage().maxRSS / 1024;
  const started = performance.now();
  let error: DataError | undefined;
  try {
    const read = { dataDir: dir, strict: false, threads: threads === "auto" ? ("auto" as const) : Number(threads) };
    await forEachItem(
      orderBlocks(() => readBlocks(resolveReadOptions(read))),
      () => undefined,
    );
  } catch (e) {
    if (!(e instanceof DataError)) throw e;
    error = e;
  }
  const seconds = (performance.now() - started) / 1000;
  const peakMb = process.resourceUsage().maxRSS / 1024;
  const counted = error?.kinds.reduce((sum, k) => sum + k.count, 0) ?? 0;
  const kept = error?.problems.length ?? 0;
  process.stdout.write(
    `| items | file | kinds | counted | kept | time | peak RSS (before reading) | ceiling |\n|---|---|---|---|---|---|---|---|\n`,
  );
  process.stdout.write(
    `| ${items.toLocaleString("en-US")} | ${(bytes / 1e6).toFixed(1)} MB | ${error?.kinds.length ?? 0} | ${counted.toLocaleString("en-US")} | ${kept} | ${seconds.toFixed(1)} s | ${peakMb.toFixed(0)} MB (${rssBefore.toFixed(0)} MB) | ${ceilingMb} MB |\n`,
  );
  process.stdout.write(
    `machine: ${cpus().length} cores, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}, node ${process.version}\n`,
  );
  const failures = [
    ...(counted === items ? [] : [`counted ${counted} problems, expected ${items}`]),
    ...(kept <= 5 ? [] : [`kept ${kept} problems, expected at most 5`]),
    ...(peakMb <= ceilingMb ? [] : [`peak RSS ${peakMb.toFixed(0)} MB is over the ${ceilingMb} MB ceiling`]),
  ];
  for (const failure of failures) process.stderr.write(`bench-bad-sources: ${failure}\n`);
  process.exitCode = failures.length === 0 ? 0 : 1;
  await recordBenchmarks([
    {
      key: `bad-sources-${items}`,
      table: "Other commands",
      what: `${items.toLocaleString("en-US")} bad items validated`,
      figure:
        `**${seconds.toFixed(1)} s, ${peakMb.toFixed(0)} MB** peak, ${counted === items ? "counted exactly" : `counted ${counted.toLocaleString("en-US")}`}, ` +
        `${kept} kept (ceiling ${ceilingMb} MB)${failures.length === 0 ? "" : `; **failed**: ${failures.join("; ")}`}`,
    },
  ]);
} finally {
  await rm(dir, { recursive: true, force: true });
}
