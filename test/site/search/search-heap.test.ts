/**
 * The search thread's heap limit (src/site/search/search-thread.ts, SEARCH_HEAP_MB): under the
 * limit the thread's shards are those of the stage run on the main thread; a thread that runs out
 * of its heap does not fail the build: the stage runs again on the main thread, from an empty
 * scratch directory, with the same shards. Reached by construction: the thread is given a heap
 * far too small for the stage over four times the sample (8 MB: enough for an isolate to start,
 * where 2 MB stops Node 22's whole process in its snapshot's deserialization, not the thread).
 * Each case in a child process: starting the thread lowers the calling thread's priority
 * (threads/thread-priority.mjs), which the test's worker must keep.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../built-site.ts";
import { writeDataset } from "../build-processes.ts";
import { RUNS_LIB } from "../../cli-entry.ts";

const run = promisify(execFile);
/**
 * The child runs the compiled modules while lib/ is as new as the sources (as the process tests
 * run the CLI: test/cli-entry.ts), else the sources through tsx: tsx's transform, in the child and
 * again in its thread, was most of each case's time.
 */
const src = (path: string): string =>
  JSON.stringify(new URL(RUNS_LIB ? `../../../lib/${path.replace(/\.ts$/, ".js")}` : `../../../src/${path}`, import.meta.url).href);

let work: string;
let site: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "subjekti-search-heap-"));
  site = join(work, "site");
  await writeDataset(join(work, "data"), 4, 0);
  await build(join(work, "data"), site, { threads: 0 });
}, 120_000);
afterAll(() => rm(work, { recursive: true, force: true }));

interface Seen {
  readonly outOfHeap: number | null;
  readonly shards: readonly (readonly [string, string])[];
  readonly inline: readonly (readonly [string, string])[];
}

/** The stage in a thread of `heapMb` MB (the default when null) and on the main thread, over the site's chunk files. */
async function stageIn(heapMb: number | null): Promise<Seen> {
  const code = `
    import { readFileSync } from "node:fs";
    import { join } from "node:path";
    const { startSearch } = await import(${src("site/search/search-thread.ts")});
    const { chunkPath, CHUNK_SIZE, MANIFEST_PATH } = await import(${src("core/layout.ts")});
    const site = ${JSON.stringify(site)};
    const manifest = JSON.parse(readFileSync(join(site, MANIFEST_PATH), "utf8"));
    const files = Array.from({ length: Math.ceil(manifest.count / CHUNK_SIZE) }, (_, chunk) => ({ path: join(site, chunkPath(manifest, chunk)) }));
    const task = (spill) => ({ count: manifest.count, chunkSize: CHUNK_SIZE, files, spill: join(${JSON.stringify(work)}, spill) });
    const heapMb = ${JSON.stringify(heapMb)};
    // null: startSearch's own default.
    const thread = startSearch(task("thread-${heapMb}"), true, heapMb ?? undefined);
    const keys = (shards) => shards.map((shard) => [shard.key, shard.hash]);
    const shards = keys(await thread.shards());
    const inline = keys(await startSearch(task("inline-${heapMb}"), false).shards());
    process.stdout.write(JSON.stringify({ outOfHeap: thread.outOfHeap(), shards, inline }));`;
  const { stdout } = await run(process.execPath, [...(RUNS_LIB ? [] : ["--import", "tsx"]), "--input-type=module", "-e", code]);
  return JSON.parse(stdout) as Seen;
}

describe("the search thread's heap limit", () => {
  it("under the default limit: the thread's shards are the main thread's", async () => {
    const seen = await stageIn(null);
    expect(seen.outOfHeap).toBeNull();
    expect(seen.shards.length).toBeGreaterThan(1);
    expect(seen.shards).toEqual(seen.inline);
  }, 60_000);

  it("a thread out of its heap: the stage runs again here, with the same shards", async () => {
    const seen = await stageIn(8);
    expect(seen.outOfHeap).toBe(8);
    expect(seen.shards).toEqual(seen.inline);
  }, 60_000);
});
