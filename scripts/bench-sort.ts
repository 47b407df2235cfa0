/**
 * The external merge sort (src/data/order/sort-records.ts) alone: N generated subjects in a shuffled
 * order, rendered into blocks of 1,000 as the build renders them, added to a sorter, merged back
 * in id order (checked: ascending, every record once). Prints the time of each phase and the
 * process's peak RSS, beside the peak before the sorter saw a record.
 *
 *   tsx scripts/bench-sort.ts --count 3m [--run-mb 64] [--seed 1] [--dir /tmp]
 *
 * Making the blocks (generating and rendering subjects) is timed apart: it is the reader's work,
 * not the sort's. The merge is timed to the last batch, consumed as the build would (summed, not kept).
 */
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Command, InvalidArgumentError } from "commander";
import { renderSubject } from "../src/core/render-page.ts";
import { createRecordSorter, DEFAULT_RUN_BYTES, type SortableBlock } from "../src/data/order/sort-records.ts";
import { makeSubject, seedFromText, shuffledIndexes } from "./generate-subjects.ts";

const BLOCK = 1000;
const MB = 1024 * 1024;

function count(text: string): number {
  const match = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(text.trim());
  const n = match === null ? NaN : Number(match[1]) * { "": 1, k: 1e3, m: 1e6 }[(match[2] ?? "").toLowerCase() as "" | "k" | "m"];
  if (!Number.isSafeInteger(n) || n <= 0) throw new InvalidArgumentError(`expected a count such as 100k or 3m, got "${text}"`);
  return n;
}

/** Peak RSS of this process so far, MB (the kernel's high-water mark). */
function peakMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}

/** Records `from`..`to` of the shuffled order, rendered as one block (ids, codes, positions as the reader gives them). */
function renderBlock(seed: number, order: Uint32Array, from: number, to: number): SortableBlock {
  const encoder = new TextEncoder();
  const lines: Uint8Array[] = [];
  const ends = new Uint32Array(to - from);
  const ids = new Float64Array(to - from);
  const codes: string[] = [];
  const positions = new Uint32Array(to - from);
  let length = 0;
  for (let at = from; at < to; at++) {
    const subject = makeSubject(seed, order[at] ?? 0);
    const line = encoder.encode(`${renderSubject(subject)}\n`);
    lines.push(line);
    length += line.length;
    ends[at - from] = length;
    ids[at - from] = subject.id;
    codes.push(subject.jedinstvena_oznaka);
    positions[at - from] = at;
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const line of lines) {
    bytes.set(line, offset);
    offset += line.length;
  }
  return { bytes, ends, ids, codes, positions };
}

async function treeBytes(dir: string): Promise<number> {
  let bytes = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) bytes += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return bytes;
}

async function main(): Promise<void> {
  const flags = new Command("bench-sort")
    .description("time and peak RSS of the external merge sort alone, on N shuffled generated subjects")
    .requiredOption("--count <n>", "how many subjects (100k, 3m)", count)
    .option("--seed <text>", "the generator's seed", "1")
    .option("--run-mb <n>", "the run budget, MB of rendered bytes", Number, DEFAULT_RUN_BYTES / MB)
    .option("--dir <dir>", "where the runs' temporary directory is made", tmpdir())
    .parse(process.argv)
    .opts<{ count: number; seed: string; runMb: number; dir: string }>();
  const seed = seedFromText(flags.seed);
  const order = shuffledIndexes(seed, flags.count);
  const parent = await mkdtemp(join(flags.dir, "bench-sort-"));
  const sorter = createRecordSorter({ dir: parent, runBytes: flags.runMb * MB });
  let making = 0;
  let adding = 0;
  try {
    renderBlock(seed, order, 0, Math.min(BLOCK, flags.count));
    const before = peakMb();
    const started = performance.now();
    for (let from = 0; from < flags.count; from += BLOCK) {
      const t0 = performance.now();
      const block = renderBlock(seed, order, from, Math.min(from + BLOCK, flags.count));
      const t1 = performance.now();
      await sorter.add(block, 0);
      adding += performance.now() - t1;
      making += t1 - t0;
    }
    const merging = performance.now();
    let seen = 0;
    let last = -Infinity;
    let bytes = 0;
    let runBytes = 0;
    for await (const batch of sorter.sorted()) {
      // The last run is written when the merge starts: the runs on disk are measured at the first batch.
      if (seen === 0) runBytes = await treeBytes(parent);
      for (const id of batch.ids) {
        if (id < last) throw new Error(`out of order: ${id} after ${last}`);
        last = id;
      }
      seen += batch.ids.length;
      bytes += batch.bytes.length;
    }
    const ended = performance.now();
    if (seen !== flags.count) throw new Error(`${seen} records out, ${flags.count} in`);
    const sortSeconds = (adding + (ended - merging)) / 1000;
    process.stdout.write(
      `${flags.count} shuffled subjects, run budget ${flags.runMb} MB: ${sorter.runs} runs, ${(runBytes / MB).toFixed(0)} MB on disk, ${(bytes / MB).toFixed(0)} MB rendered\n` +
        `  making blocks (generate + render, not the sort): ${(making / 1000).toFixed(1)} s\n` +
        `  sort: adds and spills ${(adding / 1000).toFixed(1)} s, merge ${((ended - merging) / 1000).toFixed(1)} s, total ${sortSeconds.toFixed(1)} s ` +
        `(${(flags.count / sortSeconds / 1e6).toFixed(2)} M records/s)\n` +
        `  wall ${((ended - started) / 1000).toFixed(1)} s; peak RSS ${peakMb().toFixed(0)} MB (${before.toFixed(0)} MB before the first add)\n`,
    );
  } finally {
    await sorter.close();
    await rm(parent, { recursive: true, force: true });
  }
}

await main();
