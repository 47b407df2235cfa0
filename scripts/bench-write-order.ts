/**
 * Does the order of file writes matter? Writes one planned site three ways in one process, with
 * every record rendered first so only the disk work differs: the build's own `writeSite`, the
 * files in plan order through 64 slots, and the files round-robin across shard directories.
 * On ext4 file creation is serialised per directory, so spreading writes over directories is what
 * lets the thread pool work in parallel (see BENCHMARKS.md).
 *
 *   tsx scripts/bench-write-order.ts --data .bench/data/100k-seed1-<key> [--rounds 2] [--skip-plan-order]
 *
 * Dev-only; it calls src/build's internals directly, so it follows their signatures.
 */
import { execSync } from "node:child_process";
import { writeFile as writeFileWithCallback } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { promisify } from "node:util";
import { Command } from "commander";
import { DEFAULT_OPTIONS } from "../src/build/build-options.ts";
import { type FilePlan, planSite, type ShardPlan } from "../src/build/plan-site.ts";
import { readSubjects } from "../src/build/read-subjects.ts";
import { createRecordArena } from "../src/build/render-records.ts";
import { forEachBounded, writeSite } from "../src/build/write-site.ts";
import { CHUNK_SIZE, DATA_ROOT } from "../src/core/layout.ts";

const writeSmallFile = promisify(writeFileWithCallback);
const flags = new Command("bench-write-order")
  .requiredOption("--data <dir>", "a data directory")
  .option("--out <dir>", "a scratch directory (removed)", ".bench/write-order")
  .option("--rounds <n>", "rounds of the three ways", (text) => Number(text), 2)
  .option("--skip-plan-order", "only writeSite and round-robin", false)
  .parse(process.argv)
  .opts<{ data: string; out: string; rounds: number; skipPlanOrder: boolean }>();

const { subjects } = await readSubjects({ dataDir: flags.data, strict: false });
// A copy: the arena may release records it has rendered.
const arena = createRecordArena([...subjects], CHUNK_SIZE);
const plan = planSite(arena, { ...DEFAULT_OPTIONS, baseUrl: "http://localhost:8080" });
while (arena.renderedChunks < arena.chunkCount) arena.renderChunk();

type Job = readonly [ShardPlan, FilePlan];
/** Makes every shard's temporary directory first, writes `jobs` 64 at a time, then renames. */
async function writeJobs(jobs: readonly Job[]): Promise<void> {
  const root = join(flags.out, DATA_ROOT);
  const tmp = (shard: ShardPlan): string => join(root, `${shard.key}.${shard.hash()}.tmp`);
  for (const shard of plan.shards) await mkdir(tmp(shard), { recursive: true });
  await forEachBounded(jobs, 64, (([shard, file]) => writeSmallFile(join(tmp(shard), file.name), file.bytes())));
  for (const shard of plan.shards) await rename(tmp(shard), join(root, `${shard.key}.${shard.hash()}`));
}

const planOrder: Job[] = plan.shards.flatMap((shard) => shard.files.map((file) => [shard, file] as const));
const roundRobin: Job[] = [];
for (let i = 0; roundRobin.length < planOrder.length; i++) {
  for (const shard of plan.shards) {
    const file = shard.files[i];
    if (file !== undefined) roundRobin.push([shard, file]);
  }
}
const ways: [string, () => Promise<unknown>][] = [
  ["writeSite", () => writeSite(flags.out, plan, arena)],
  ...(flags.skipPlanOrder ? [] : [["plan order, 64 in flight", () => writeJobs(planOrder)] as [string, () => Promise<unknown>]]),
  ["round-robin across directories, 64 in flight", () => writeJobs(roundRobin)],
];
process.stdout.write(`${planOrder.length} files in ${plan.shards.length} shard directories\n`);
for (let round = 0; round < flags.rounds; round++) {
  for (const [name, write] of ways) {
    await rm(flags.out, { recursive: true, force: true });
    execSync("sync");
    const started = performance.now();
    await write();
    process.stdout.write(`${name.padEnd(48)} ${((performance.now() - started) / 1000).toFixed(2)} s\n`);
  }
}
await rm(flags.out, { recursive: true, force: true });
