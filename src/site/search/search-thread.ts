/**
 * The search stage beside the downloads and the pages: planSearch depends only on the chunk files,
 * the count and a scratch directory, so it starts in a worker thread as soon as the records are
 * written and runs on the second core while the main thread writes the downloads, plans the rest
 * and writes the pages; its shards are awaited once every other shard is written (the plan's rest).
 * They cross back as data (spilled-shard.ts: key, hash, the directory and names of their files in
 * the scratch directory), made plans again on this side.
 *
 * The stage of an edit is first patched from the previous site (patch-search.ts), in the thread
 * too: the patch of one record at a million subjects takes about a second of CPU, which on the
 * main thread held back the downloads beside it.
 *
 * The thread runs this module (threads/module-thread.mjs calls answerTask), so the stage is
 * called with its one signature on either side. With `--threads 0`, or a list too small for a
 * thread to pay, the stage runs here when its shards are asked for, as it always did.
 */
import { rmSync } from "node:fs";
import { availableParallelism } from "node:os";
import { failAt, pauseAt } from "../../common/pause-point.ts";
import { yieldToOwnThreads } from "../../threads/thread-priority.mjs";
import { startWorkerPool } from "../../threads/worker-pool.ts";
import type { ShardPlan } from "../hand-offs.ts";
import type { ChunkFile } from "../read-chunks.ts";
import { patchedSearch, searchPaths } from "./patch-search.ts";
import { planSearch } from "./plan-search.ts";
import { type CutFacts, writeSearchFacts } from "./search-facts.ts";
import { spilledData, type SpilledShardData, spilledPlan } from "./spilled-shard.ts";
import { isErrno } from "../../common/machine-error.ts";

/**
 * Subjects from which "auto" plans the search in a thread. Below it the stage takes a few hundred
 * milliseconds at most, and the downloads beside it less: the overlap would win less than the
 * thread's start (~0.1 s compiled, its modules loaded again) and its own heap cost. The read stage
 * starts its record threads from about the same size (read-blocks.ts).
 */
export const SEARCH_THREAD_FROM = 100_000;

/**
 * The search thread's old generation at most, in MB. V8 lets an isolate's old generation grow
 * between two full collections by a factor it sets from how fast it collects, up to 4 under a
 * limit of 2 GB or more (Node's default, 4 GB, on a machine of 16 GB) and about 1.8 under
 * 1.5 GB (heap-controller.cc: the factor falls with the limit). The stage's live heap is some 55 MB
 * at one million subjects as at five; its heap grew to 170-300 MB of mostly dead strings (the
 * names of a run, a generation of the caches), a third to a half of the build's peak. Under this
 * limit it stays near 120 MB at either size. A list whose stage needs more heap than this (names
 * of thousands of characters) runs out in the thread, and the stage runs again here, with the
 * main thread's whole heap (SearchStage.outOfHeap), and the build warns.
 */
export const SEARCH_HEAP_MB = 1536;

/**
 * The thread's limit: SEARCH_HEAP_MB, or SUBJEKTI_SEARCH_HEAP_MB where a test sets it to reach a
 * thread out of its heap by construction (8 MB: an isolate starts, the stage over a few thousand
 * subjects does not fit).
 */
export function searchHeapMb(env: NodeJS.ProcessEnv = process.env): number {
  const asked = Number(env["SUBJEKTI_SEARCH_HEAP_MB"]);
  return Number.isSafeInteger(asked) && asked > 0 ? asked : SEARCH_HEAP_MB;
}

const ENTRY = new URL("../../threads/module-thread.mjs", import.meta.url);
/** The module the thread runs (its .ts source; module-thread.mjs loads the .js when compiled). */
const MODULE = new URL("./search-thread.ts", import.meta.url);

/** What the stage reads and where it writes: plain data, so that it crosses to the thread. */
export interface SearchTask {
  readonly count: number;
  readonly chunkSize: number;
  /** Every chunk file, in order. */
  readonly files: readonly ChunkFile[];
  /** The scratch directory the shards' files wait in. */
  readonly spill: string;
  /** The site the build writes over and the new list's chunk hashes: an edit's stage is patched from that site's search files when it can be. */
  readonly previous?: { readonly outDir: string; readonly hashes: readonly string[] };
  /** Where the stage keeps what it learnt of its shards for the next edit's patch, beside the build cache (search-facts.ts); none without a cache. */
  readonly factsFile?: string;
}

/** What the thread answers: its shards as data, and which way its stage went (the counters of patch-search.ts, added to this side's). */
interface SearchAnswer {
  readonly shards: SpilledShardData[];
  readonly paths: typeof searchPaths;
}

/** The search stage under way (or waiting to run here). */
export interface SearchStage {
  /** The search shards: the thread's once it is done, or the stage run here now. Rejects with the thread's failure. */
  shards(): Promise<ShardPlan[]>;
  /** Stops the thread if it still runs (a build that failed meanwhile); before its scratch directory is removed. */
  stop(): Promise<void>;
  /** The heap (MB) the thread ran out of, so that shards() ran the stage again here; null when it did not. */
  outOfHeap(): number | null;
}

/**
 * Whether the search of `count` subjects runs in a thread under `--threads` (`threads`): never with
 * 0, always with a number of threads, under "auto" from SEARCH_THREAD_FROM subjects on a machine
 * of more than one core (on one, the thread would only take turns with the main thread).
 */
export function searchInThread(threads: number | "auto", count: number): boolean {
  if (threads !== "auto") return threads > 0;
  return count >= SEARCH_THREAD_FROM && availableParallelism() > 1;
}

/**
 * Starts the search stage of `task`: in a thread now when `thread` (its old generation at most
 * `heapMb`), else here when its shards are asked for.
 */
export function startSearch(task: SearchTask, thread: boolean, heapMb = searchHeapMb()): SearchStage {
  const here = (): ShardPlan[] => searchStage(task);
  if (!thread) return { shards: async () => here(), stop: async () => undefined, outOfHeap: () => null };
  const pool = startWorkerPool<SearchTask, SearchAnswer>(ENTRY, 1, 1, { module: MODULE.href }, { maxOldGenerationSizeMb: heapMb });
  // The thread is the build's critical path from here on: this one, whose work beside it has slack, gives it its core (threads/thread-priority.mjs).
  yieldToOwnThreads();
  // The thread ends as soon as its answer is in: its heap (the stage's whole peak) goes with it.
  const planned = pool.run(task).finally(() => pool.close());
  // Awaited only once the pages are written: a build failing before then must not see this as unhandled.
  planned.catch(() => undefined);
  let outOfHeap: number | null = null;
  return {
    shards: async () => {
      try {
        const { shards, paths } = await planned;
        searchPaths.patched += paths.patched;
        searchPaths.whole += paths.whole;
        if (paths.whole > 0) searchPaths.reason = paths.reason;
        return shards.map(spilledPlan);
      } catch (error) {
        if (!isErrno(error, "ERR_WORKER_OUT_OF_MEMORY")) throw error;
        // Again from an empty scratch directory: the thread stopped midway through its files.
        outOfHeap = heapMb;
        rmSync(task.spill, { recursive: true, force: true });
        return here();
      }
    },
    stop: () => pool.close(),
    outOfHeap: () => outOfHeap,
  };
}

/**
 * The stage on either side: an edit patched from the previous site when it can be (patch-search.ts),
 * else whole; then its facts kept for the next edit's patch (search-facts.ts).
 */
function searchStage({ count, chunkSize, files, spill, previous, factsFile }: SearchTask): ShardPlan[] {
  const fileOf = (chunk: number): ChunkFile => files[chunk] as ChunkFile;
  const cuts: CutFacts = { threshold: null };
  const facts = factsFile === undefined ? {} : { factsFile };
  const patched = previous === undefined ? null : patchedSearch({ ...previous, count, chunkSize, fileOf, spill, cuts, ...facts });
  const shards = patched ?? planSearch(count, chunkSize, fileOf, spill, undefined, cuts);
  if (factsFile !== undefined) writeSearchFacts(factsFile, shards, cuts);
  return shards;
}

/** The thread's side (threads/module-thread.mjs calls it): the stage run, its shards answered as data. */
export async function answerTask(task: SearchTask): Promise<{ result: SearchAnswer }> {
  const shards = searchStage(task);
  // Where a process test stops or fails the thread by construction: its files in the scratch directory, none handed on.
  await pauseAt("search-thread-planned");
  failAt("search-thread-planned");
  return { result: { shards: shards.map(spilledData), paths: { ...searchPaths } } };
}
