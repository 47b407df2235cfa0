/**
 * The main thread gives the search thread its core (src/threads/thread-priority.mjs): lowered, it
 * keeps the threads it started before at their priority and hands its own to those it starts
 * after; and the search stage lowers it when, and only when, it runs in a thread; a shard writer
 * lowers itself. Each case runs in
 * a process of its own (a lowered thread cannot raise itself back, and the test's worker must not
 * stay lowered). Linux alone gives each thread its own nice value.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const src = (path: string): string => JSON.stringify(new URL(`../../src/${path}`, import.meta.url).href);

/** Runs `code` (an ES module body) in a child process with tsx; returns what it printed, parsed. */
async function inChild(code: string): Promise<Record<string, number>> {
  const { stdout } = await run(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code]);
  return JSON.parse(stdout) as Record<string, number>;
}

/** A module body that defines `niceOf(worker)`: the worker thread's own nice value, as it reports it. */
const NICE_OF = `
  import { Worker } from "node:worker_threads";
  const REPORTER = 'const { parentPort } = process.getBuiltinModule("node:worker_threads"); parentPort.on("message", () => parentPort.postMessage(process.getBuiltinModule("node:os").getPriority(0)));';
  const reporter = () => new Worker(REPORTER, { eval: true });
  const niceOf = (worker) => new Promise((resolve) => { worker.once("message", resolve); worker.postMessage(0); });
`;

describe.runIf(process.platform === "linux")("the main thread yields to the threads it started", () => {
  it("lowers the calling thread only: a thread started before keeps its priority, one started after takes the lower", async () => {
    const seen = await inChild(`${NICE_OF}
      import { getPriority } from "node:os";
      const { yieldToOwnThreads, YIELD_STEP } = await import(${src("threads/thread-priority.mjs")});
      const start = getPriority(0);
      const before = reporter();
      yieldToOwnThreads();
      const after = reporter();
      process.stdout.write(JSON.stringify({ start, step: YIELD_STEP, main: getPriority(0), before: await niceOf(before), after: await niceOf(after) }));
      process.exit(0);`);
    expect(seen["main"]).toBe(Math.min(19, (seen["start"] ?? 0) + (seen["step"] ?? 0)));
    expect(seen["main"]).toBeGreaterThan(seen["start"] ?? 0);
    expect(seen["before"]).toBe(seen["start"]);
    expect(seen["after"]).toBe(seen["main"]);
  });

  it("the search stage lowers the main thread when it runs in a thread, and not when it runs here", async () => {
    const dir = await mkdtemp(join(tmpdir(), "subjekti-priority-"));
    try {
      const seen = await inChild(`
        import { getPriority } from "node:os";
        const { startSearch } = await import(${src("site/search/search-thread.ts")});
        const task = { count: 0, chunkSize: 1000, files: [], spill: ${JSON.stringify(dir)} };
        const start = getPriority(0);
        const here = startSearch(task, false);
        const afterHere = getPriority(0);
        const thread = startSearch(task, true);
        const afterThread = getPriority(0);
        await thread.shards();
        await here.shards();
        process.stdout.write(JSON.stringify({ start, afterHere, afterThread }));`);
      expect(seen["afterHere"]).toBe(seen["start"]);
      expect(seen["afterThread"]).toBeGreaterThan(seen["start"] ?? 0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("a shard writer lowers its own thread, and only its own, as it starts", async () => {
    // Each thread's nice value from /proc (the 19th field of its stat; the name before it may hold spaces).
    const seen = await inChild(`
      import { readdirSync, readFileSync } from "node:fs";
      import { getPriority } from "node:os";
      import { Worker } from "node:worker_threads";
      const nices = () => readdirSync("/proc/self/task").map((tid) => Number(readFileSync("/proc/self/task/" + tid + "/stat", "utf8").split(") ")[1].split(" ")[16]));
      const start = getPriority(0);
      const before = Math.max(...nices());
      const writer = new Worker(new URL(${src("site/shard-writer-thread.mjs")}), { execArgv: [] });
      // A task it cannot do is answered with an error once its module has run, and so has lowered it.
      const answered = new Promise((resolve) => writer.once("message", resolve));
      writer.postMessage({ id: 1, task: null });
      await answered;
      const after = Math.max(...nices());
      process.stdout.write(JSON.stringify({ start, before, main: getPriority(0), after }));
      process.exit(0);`);
    expect(seen["before"]).toBe(seen["start"]);
    expect(seen["main"]).toBe(seen["start"]);
    expect(seen["after"]).toBe(Math.min(19, (seen["start"] ?? 0) + 5));
  });
});
