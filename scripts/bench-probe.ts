/**
 * The machine's limit for a build's work, for `npm run bench`: read and `JSON.parse` the same
 * input (above 400 MB in pieces of whole records, each dropped once parsed: one string of a 1 GB
 * input is past V8's limit), then write the same number of files of the same
 * sizes into the same directories, as fast as Node can (one shared buffer, nothing rendered,
 * nothing compared).
 * A build can hardly beat this; the bench reports build time / probe time.
 *
 * Files are written the way the build writes them, a directory a task for worker threads with
 * synchronous fs calls (src/site/shard-writers.ts), which on the 2-core machine beat 64 callback `fs.writeFile`s in
 * flight on tmpfs and on disk alike (BENCHMARKS.md). `--writer callback` writes the old way
 * instead, and `--threads <n>` with another thread count, to compare on another machine or disk:
 * the probe must stay the machine's best, or the build/probe ratio flatters the build.
 *
 *   node --import tsx scripts/bench-probe.ts --input data.json --plan sizes.json --out dir [--writer threads|callback] [--threads n]
 *
 * The plan (written by scripts/bench.ts from the built tree) is
 * `{"dirs": ["_subjekti/pages/plain/20/0.ab12", ...], "files": [[dirIndex, name, size], ...]}`.
 */
import { createReadStream, writeFile as writeFileWithCallback } from "node:fs";
import { mkdir, readFile, stat } from "node:fs/promises";
import { promisify } from "node:util";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { Command, InvalidArgumentError } from "commander";
import { startShardWriters } from "../src/site/shard-writers.ts";
import { forEachBounded } from "../src/common/for-each-bounded.ts";

export interface WritePlan {
  readonly dirs: readonly string[];
  readonly files: readonly (readonly [number, string, number])[];
}

/** Directories made, or callback writes in flight, at once: past ~64 libuv's 4 threads are the limit, not the queue. */
const CONCURRENCY = 64;
/** The fastest main-thread small-file write measured here: one thread-pool round trip per step. */
const writeFile = promisify(writeFileWithCallback);
const WRITERS = ["threads", "callback"] as const;
type Writer = (typeof WRITERS)[number];

/**
 * The files in the order callback writes take fastest: round-robin across directories, because
 * ext4 serialises file creation within one directory (BENCHMARKS.md).
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
    .option("--writer <method>", `how to write: ${WRITERS.join(" or ")}`, parseWriter, "threads")
    .option("--threads <n>", "writer threads (default: as the build)", parseCount)
    .parse(argv)
    .opts<{ input: string; plan: string; out: string; writer: Writer; threads?: number }>();
  const started = performance.now();
  // Up to 1M subjects (330 MB) the whole input is one string, parsed at once, and kept to the end,
  // as the builds measured before the streamed build held their records; a larger one cannot be one
  // string, and is parsed in pieces.
  const whole = (await stat(flags.input)).size < WHOLE_BYTES ? await readFile(flags.input, "utf8") : undefined;
  const list: unknown = whole === undefined ? undefined : JSON.parse(whole);
  const pieces = whole === undefined ? await readAndParse(flags.input) : { records: 0, head: Buffer.from(whole.slice(0, 1 << 16)) };
  const parsed = performance.now();
  const plan = JSON.parse(await readFile(flags.plan, "utf8")) as WritePlan;
  const largest = plan.files.reduce((most, [, , size]) => Math.max(most, size), 0);
  // Real bytes of the input, so nothing the file system might special-case (zero pages).
  const filler = Buffer.alloc(largest, pieces.head);
  const threads = flags.writer === "threads";
  // Made first, as the build makes its temporary shard directories first.
  // A directory that holds others (`_subjekti`, with the manifest) cannot be renamed onto: as in the
  // build, only shard directories are written under a temporary name.
  const parents = new Set(plan.dirs.filter((dir) => plan.dirs.some((other) => other.startsWith(`${dir}/`))));
  const tmpOf = (dir: string): string => (parents.has(dir) ? join(flags.out, dir) : `${join(flags.out, dir)}.tmp-probe`);
  await forEachBounded(plan.dirs, CONCURRENCY, (dir) => mkdir(threads ? tmpOf(dir) : join(flags.out, dir), { recursive: true }));
  const bytes = threads
    ? await writeWithThreads(flags.out, plan.dirs, plan.files, filler, tmpOf, flags.threads)
    : await writeWithCallbacks(flags.out, plan.dirs, interleaveByDirectory(plan.files), filler);
  const done = performance.now();
  process.stdout.write(
    `${JSON.stringify({ records: Array.isArray(list) ? list.length : pieces.records, files: plan.files.length, bytes, readParseSeconds: (parsed - started) / 1000, writeSeconds: (done - parsed) / 1000 })}\n`,
  );
}

/** Inputs smaller than this are read as one string (V8's longest is about 512 MB). */
const WHOLE_BYTES = 400 * 1024 * 1024;
/** Between two elements of a JSON array in data/subjekti.json's layout (`JSON.stringify(list, null, 1)`). */
const BETWEEN = "\n },\n {";

/**
 * Reads the JSON array at `path` (data/subjekti.json's layout) in 16 MB reads and parses it in
 * pieces of whole elements; returns how many there were and the input's first 64 KB.
 */
async function readAndParse(path: string): Promise<{ records: number; head: Buffer }> {
  let records = 0;
  let head: Buffer | undefined;
  let rest = "";
  /** Parses elements written between `[`/`,` and `,`/`]`: the text of a JSON array without its brackets. */
  const parse = (elements: string): void => {
    const list: unknown = JSON.parse(`[${elements}]`);
    if (Array.isArray(list)) records += list.length;
  };
  for await (const chunk of createReadStream(path, { encoding: "utf8", highWaterMark: 16 << 20 }) as AsyncIterable<string>) {
    head ??= Buffer.from(chunk.slice(0, 1 << 16));
    const text = rest === "" ? chunk.slice(chunk.indexOf("[") + 1) : rest + chunk;
    const cut = text.lastIndexOf(BETWEEN);
    if (cut < 0) {
      rest = text;
      continue;
    }
    parse(text.slice(0, cut + 3));
    rest = text.slice(cut + 4);
  }
  const end = rest.lastIndexOf("]");
  parse(end < 0 ? rest : rest.slice(0, end));
  return { records, head: head ?? Buffer.from("[]") };
}

/** Writes `files` as the build does: a shard a task for the writer threads, into a temporary directory renamed into place; returns the bytes written. */
async function writeWithThreads(
  out: string,
  dirs: readonly string[],
  files: WritePlan["files"],
  filler: Buffer,
  tmpOf: (dir: string) => string,
  threads?: number,
): Promise<number> {
  const byDir = dirs.map((): { name: string; bytes: Uint8Array }[] => []);
  for (const [dir, name, size] of files) byDir[dir]?.push({ name, bytes: filler.subarray(0, size) });
  let bytes = 0;
  const writers = startShardWriters(threads);
  try {
    const writing: Promise<unknown>[] = [];
    for (const [i, dir] of dirs.entries()) {
      await writers.room();
      // A parent directory's "temporary" name is itself: renaming it onto itself does nothing.
      writing.push(writers.write(byDir[i] ?? [], tmpOf(dir), join(out, dir), null).then((written) => (bytes += written.bytesWritten)));
    }
    await Promise.all(writing);
  } finally {
    await writers.close();
  }
  return bytes;
}

/** Writes `files` from the main thread, CONCURRENCY callback writes in flight; returns the bytes written. */
async function writeWithCallbacks(out: string, dirs: readonly string[], files: WritePlan["files"], filler: Buffer): Promise<number> {
  let bytes = 0;
  await forEachBounded(files, CONCURRENCY, async ([dir, name, size]) => {
    bytes += size;
    await writeFile(join(out, dirs[dir] as string, name), filler.subarray(0, size));
  });
  return bytes;
}

function parseCount(text: string): number {
  const n = Number(text);
  if (Number.isInteger(n) && n >= 1) return n;
  throw new InvalidArgumentError("expected a whole number, at least 1");
}

function parseWriter(text: string): Writer {
  if ((WRITERS as readonly string[]).includes(text)) return text as Writer;
  throw new InvalidArgumentError(`expected ${WRITERS.join(" or ")}`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main(process.argv);
}
