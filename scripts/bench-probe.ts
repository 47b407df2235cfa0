/**
 * The machine's limit for a build's work, for `npm run bench`: read and `JSON.parse` the same
 * input, then write the same number of files of the same sizes into the same directories, as
 * fast as Node can (bounded concurrency, round-robin across directories, one shared buffer,
 * nothing rendered, nothing compared).
 * A build can hardly beat this; the bench reports build time / probe time.
 *
 *   node --import tsx scripts/bench-probe.ts --input data.json --plan sizes.json --out dir
 *
 * The plan (written by scripts/bench.ts from the built tree) is
 * `{"dirs": ["_subjekti/pages/plain/20/0.ab12", ...], "files": [[dirIndex, name, size], ...]}`.
 */
import { writeFile as writeFileWithCallback } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import { promisify } from "node:util";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { Command } from "commander";
import { forEachBounded } from "../src/build/for-each-bounded.ts";

export interface WritePlan {
  readonly dirs: readonly string[];
  readonly files: readonly (readonly [number, string, number])[];
}

/** File writes in flight at once: past ~64 libuv's 4 threads are the limit, not the queue. */
const CONCURRENCY = 64;
/** The fastest small-file write measured here (one thread-pool round trip; see src/build/write-site.ts). */
const writeFile = promisify(writeFileWithCallback);

/**
 * The files in the order a disk takes fastest: round-robin across directories, because ext4
 * serialises file creation within one directory (BENCHMARKS.md). The probe must be the machine's
 * best, or the build/probe ratio flatters the build.
 */
export function interleaveByDirectory<T extends readonly [number, ...unknown[]]>(files: readonly T[]): T[] {
  const byDir = new Map<number, T[]>();
  for (const file of files) {
    const list = byDir.get(file[0]);
    if (list === undefined) byDir.set(file[0], [file]);
    else list.push(file);
  }
  const lists = [...byDir.values()];
  const order: T[] = [];
  for (let i = 0; order.length < files.length; i++) {
    for (const list of lists) {
      const file = list[i];
      if (file !== undefined) order.push(file);
    }
  }
  return order;
}

async function main(argv: readonly string[]): Promise<void> {
  const flags = new Command("bench-probe")
    .requiredOption("--input <file>", "the JSON array the build reads")
    .requiredOption("--plan <file>", "the files to write (from the built tree)")
    .requiredOption("--out <dir>", "where to write them")
    .parse(argv)
    .opts<{ input: string; plan: string; out: string }>();
  const started = performance.now();
  const text = await readFile(flags.input, "utf8");
  const list: unknown = JSON.parse(text);
  const parsed = performance.now();
  const plan = JSON.parse(await readFile(flags.plan, "utf8")) as WritePlan;
  const largest = plan.files.reduce((most, [, , size]) => Math.max(most, size), 0);
  // Real bytes of the input, so nothing the file system might special-case (zero pages).
  const filler = Buffer.alloc(largest, Buffer.from(text.slice(0, 1 << 16)));
  await forEachBounded(plan.dirs, CONCURRENCY, (dir) => mkdir(join(flags.out, dir), { recursive: true }));
  let bytes = 0;
  await forEachBounded(interleaveByDirectory(plan.files), CONCURRENCY, async ([dir, name, size]) => {
    bytes += size;
    await writeFile(join(flags.out, plan.dirs[dir] as string, name), filler.subarray(0, size));
  });
  const done = performance.now();
  // The list stays alive to the end, as a build's records do.
  const records = Array.isArray(list) ? list.length : 0;
  process.stdout.write(
    `${JSON.stringify({ records, files: plan.files.length, bytes, readParseSeconds: (parsed - started) / 1000, writeSeconds: (done - parsed) / 1000 })}\n`,
  );
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main(process.argv);
}
