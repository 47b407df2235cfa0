/**
 * The search stage in a thread beside the downloads (src/site/search/search-thread.ts): the site's
 * bytes are those of the stage run on the main thread; a failure inside the thread fails the build
 * (exit 1) with the site, the downloads and the temporary directory as they were; a thread out of
 * its heap makes the build warn and run the stage again on the main thread, with the same site; an
 * edit in place is patched in the thread (its counters, answered with its shards, say so); and
 * a build stopped by SIGTERM or SIGKILL while the thread holds its finished files publishes nothing.
 *
 * The thread is reached by construction: `--threads 1` (`threads: 1`) runs it whatever the list's
 * size, and the thread's own points (SUBJEKTI_PAUSE_AT, SUBJEKTI_FAIL_AT at search-thread-planned:
 * its files in the scratch directory, none handed on) stop it or fail it there. The pages are
 * written while it runs: the write stage asks for its shards only at site-awaiting-search, every
 * other shard written. A heap of 8 MB (SUBJEKTI_SEARCH_HEAP_MB) is too small for the stage over
 * the sample, so the thread runs out of it by construction.
 *
 * Since `--threads 1` and the points reach the thread whatever the size, every test but the heap's
 * builds 1,200 subjects (two chunks; the search files the same shards as at twice the sample: one
 * of keys, one of suffixes, their firsts); and the tests that start from a process's build of data
 * a into a fresh TMPDIR start from copies of one such build (copySite), which is seen to leave no temporary.
 * Likewise the tests whose sites start from a first build of data a in this process, with the stage
 * on the main thread or in the thread, start from copies of two such builds made once (INLINE_A,
 * THREAD_A): each later build into a copy finds the cache the original's would (copySite).
 */
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DATA_ROOT, MANIFEST_PATH, shardDirPath, shardKeyOf } from "../../src/core/layout.ts";
import type { Manifest } from "../../src/core/manifest.ts";
import { searchPaths } from "../../src/site/search/patch-search.ts";
import { snapshotTree, tempDir } from "../file-trees.ts";
import { build } from "./built-site.ts";
import { copySite, leftovers, pauseAt, pausedLine, runProcess, siteView, writeDataset } from "./build-processes.ts";

const POINT = "search-thread-planned";
/** Where the write stage has written every shard but the search's, and asks for those next. */
const WRITTEN = "site-awaiting-search";
const FAILED = `a failure injected at ${POINT}`;
// Each test's limit, 300 s, bounds its two to four builds, each of which ends: some 4 s a build of
// twice the sample alone, 25-40 s beside another slow file and other work at load 7-11, where a
// test of three builds took 120 s.
let work: string;
let tmp: string;
/** Subjects in data a and b. */
const SUBJECTS = 1_200;
/** A site at `out` and its build cache beside it, as build() keeps it. */
const siteAt = (out: string): { out: string; cache: string } => ({ out, cache: `${out}.cache` });
/** The prepared first build of data a (firstBuild's copies). */
const PREPARED = (): { out: string; cache: string } => siteAt(join(work, "prepared"));
/** First builds of data a in this process, the stage on the main thread (threads: 0) and in the thread (1). */
const INLINE_A = (): { out: string; cache: string } => siteAt(join(work, "inline-a"));
const THREAD_A = (): { out: string; cache: string } => siteAt(join(work, "thread-a"));
/** A copy of the first build `from` (INLINE_A or THREAD_A) in `out`. */
const copyOf = (from: { out: string; cache: string }, out: string): Promise<void> => copySite(from, siteAt(out));

beforeAll(async () => {
  work = await tempDir("subjekti-search-thread-");
  await writeDataset(join(work, "a"), 1, 0, SUBJECTS);
  await writeDataset(join(work, "b"), 1, 7, SUBJECTS);
  // The heap's test alone: the sample (5,758 subjects), which 8 MB cannot hold (nor 2,000 now;
  // twice the sample, as before, only built longer); the test asserts the thread's warning.
  await writeDataset(join(work, "sample"), 1, 0);
  // Data a with one subject renamed in place: an edit the search stage patches.
  const renamed = JSON.parse(await readFile(join(work, "a", "subjekti.json"), "utf8")) as { naziv_subjekta: string }[];
  (renamed[600] as { naziv_subjekta: string }).naziv_subjekta += " Preimenovan";
  await mkdir(join(work, "a-renamed"));
  await writeFile(join(work, "a-renamed", "subjekti.json"), JSON.stringify(renamed));
  // The first build firstBuild copies, in a process with a fresh TMPDIR that it leaves empty.
  const first = await runProcess(args(PREPARED().out, "a", 1), { TMPDIR: await freshTmp() }).ended;
  expect(first.code, first.stderr).toBe(0);
  expect(await leftovers(PREPARED().out, [tmp, PREPARED().cache])).toEqual([]);
  await build(join(work, "a"), INLINE_A().out, { threads: 0 });
  await build(join(work, "a"), THREAD_A().out, { threads: 1 });
}, 240_000);
afterAll(() => rm(work, { recursive: true, force: true }));

// A temporary directory of each test's own, so that what a build leaves in it can be counted.
let round = 0;
const TMPDIR = process.env["TMPDIR"];
afterEach(() => {
  delete process.env["SUBJEKTI_FAIL_AT"];
  delete process.env["SUBJEKTI_PAUSE_AT"];
  if (TMPDIR === undefined) delete process.env["TMPDIR"];
  else process.env["TMPDIR"] = TMPDIR;
});

async function freshTmp(): Promise<string> {
  tmp = join(work, `tmp-${round++}`);
  await mkdir(tmp);
  return tmp;
}

/** Live worker threads show as MessagePorts among the process's active resources. */
const liveThreads = (): number => process.getActiveResourcesInfo().filter((name) => name === "MessagePort").length;

const args = (out: string, data: string, threads: number): string[] => [
  "build",
  ...["--data", join(work, data), "--out", out, "--cache-dir", `${out}.cache`, "--base-url", "http://testserver"],
  ...["--threads", String(threads), "--quiet"],
];

/**
 * A first build of data a into `out` in a process with a fresh TMPDIR of its own: the prepared one
 * copied there with its cache (the build left no temporary there); the environment the next build runs in.
 */
async function firstBuild(out: string): Promise<{ TMPDIR: string }> {
  await copySite(PREPARED(), { out, cache: `${out}.cache` });
  return { TMPDIR: await freshTmp() };
}

describe("the search stage in a thread", () => {
  it("writes the same site, byte for byte, as the stage on the main thread: a first build, then an edit", async () => {
    // The first builds, of data a, made once (beforeAll); the edit, data b, built over copies of them.
    expect(await snapshotTree(THREAD_A().out), "built from a").toEqual(await snapshotTree(INLINE_A().out));
    await copyOf(INLINE_A(), join(work, "inline"));
    await copyOf(THREAD_A(), join(work, "thread"));
    await build(join(work, "b"), join(work, "inline"), { threads: 0 });
    await build(join(work, "b"), join(work, "thread"), { threads: 1 });
    expect(await snapshotTree(join(work, "thread")), "built from b").toEqual(await snapshotTree(join(work, "inline")));
  }, 300_000);

  it("patches an edit's search files in the thread, as the main thread does: the same site, and the thread's counters say patched", async () => {
    const [inline, thread] = [join(work, "patch-inline"), join(work, "patch-thread")];
    await copyOf(INLINE_A(), inline);
    await copyOf(THREAD_A(), thread);
    for (const [out, threads] of [
      [inline, 0],
      [thread, 1],
    ] as const) {
      const [patched, whole] = [searchPaths.patched, searchPaths.whole];
      await build(join(work, "a-renamed"), out, { threads });
      expect([searchPaths.patched - patched, searchPaths.whole - whole], `threads: ${threads}`).toEqual([1, 0]);
    }
    expect(await snapshotTree(thread)).toEqual(await snapshotTree(inline));
  }, 300_000);

  it("a thread out of its heap: the build warns, makes the search files again on the main thread, and writes the same site", async () => {
    const [inline, thread] = [join(work, "heap-inline"), join(work, "heap-thread")];
    const env = { TMPDIR: await freshTmp() };
    const plain = await runProcess(args(inline, "sample", 0), env).ended;
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stderr).not.toContain("heap");
    const short = await runProcess(args(thread, "sample", 1), { ...env, SUBJEKTI_SEARCH_HEAP_MB: "8" }).ended;
    expect(short.code, short.stderr).toBe(0);
    expect(short.stderr).toContain("subjekti: warning: the search thread ran out of its 8 MB heap");
    expect(await snapshotTree(thread)).toEqual(await snapshotTree(inline));
    expect(await leftovers(thread, [tmp, `${thread}.cache`])).toEqual([]);
  }, 300_000);

  it("runs in the thread with threads: 1 only, not with 0 nor (a small list) by default: the thread's failure point is reached in the first alone", async () => {
    const out = join(work, "which");
    process.env["SUBJEKTI_FAIL_AT"] = POINT;
    await expect(build(join(work, "a"), out, { threads: 1 })).rejects.toThrow(FAILED);
    await build(join(work, "a"), out, { threads: 0 });
    await build(join(work, "b"), out);
  }, 300_000);

  it("a build failing on the main thread while the thread still runs stops the thread, then removes its scratch directory", async () => {
    const out = join(work, "main-failed");
    await copyOf(THREAD_A(), out);
    // The downloads stage, which runs beside the thread, cannot write where a file stands in for its directory.
    await rm(join(out, "downloads"), { recursive: true });
    await writeFile(join(out, "downloads"), "");
    const before = await snapshotTree(out);
    const threads = liveThreads();
    process.env["TMPDIR"] = await freshTmp();
    // The thread waits at its point for good: only the build's stopping it ends it.
    process.env["SUBJEKTI_PAUSE_AT"] = POINT;
    await expect(build(join(work, "b"), out, { threads: 1 })).rejects.toThrow(/ENOTDIR|EEXIST/);
    expect(liveThreads()).toBe(threads);
    expect(await snapshotTree(out)).toEqual(before);
    expect((await readdir(tmp)).filter((name) => name.startsWith("subjekti-"))).toEqual([]);
  }, 300_000);

  it("a failure inside the thread fails the build: exit 1 with the thread's error, the site, its downloads and the temporary directory as they were", async () => {
    const out = join(work, "failed");
    const env = await firstBuild(out);
    const before = await snapshotTree(out);
    const failed = await runProcess(args(out, "b", 1), { ...env, SUBJEKTI_FAIL_AT: POINT }).ended;
    expect(failed.code, failed.stderr).toBe(1);
    expect(failed.stderr).toContain(FAILED);
    expect(await snapshotTree(out)).toEqual(before);
    expect(await leftovers(out, [tmp, `${out}.cache`])).toEqual([]);
  }, 300_000);

  it("writes the pages before it awaits the thread's shards: a failure in the thread then fails the build with the site and the temporary directory as they were", async () => {
    const out = join(work, "pages-first");
    const env = await firstBuild(out);
    const before = await snapshotTree(out);
    const old = (JSON.parse(await readFile(join(out, MANIFEST_PATH), "utf8")) as Manifest).dirs;
    // The thread fails whenever it ends; the write stage waits at its point before it asks for the thread's shards.
    const held = runProcess(args(out, "b", 1), { ...env, ...pauseAt(WRITTEN), SUBJEKTI_FAIL_AT: POINT });
    expect(await held.said(pausedLine(WRITTEN)), `the build never reached ${WRITTEN}`).toBe(true);
    // Data b has other subjects: every page shard is new, and each is in place under its new name, which the manifest does not name yet.
    const named = new Set(Object.entries(old).map(([key, hash]) => shardDirPath(key, hash)));
    const dirs = (await readdir(join(out, DATA_ROOT), { recursive: true })).filter((path) => shardKeyOf(path) !== null);
    const fresh = dirs.filter((path) => path.startsWith("pages/") && !named.has(path)).map(shardKeyOf);
    const pageKeys = Object.keys(old).filter((key) => key.startsWith("pages/"));
    expect(pageKeys.length).toBeGreaterThan(0);
    expect(new Set(fresh)).toEqual(new Set(pageKeys));
    held.resume();
    const failed = await held.ended;
    expect(failed.code, failed.stderr).toBe(1);
    expect(failed.stderr).toContain(FAILED);
    expect(await snapshotTree(out)).toEqual(before);
    expect(await leftovers(out, [tmp, `${out}.cache`])).toEqual([]);
  }, 300_000);

  it.each(["SIGTERM", "SIGKILL"] as const)(
    "a build stopped by %s while the thread holds its files publishes nothing; the next build leaves nothing behind",
    async (signal) => {
      const out = join(work, `stopped-${signal}`);
      const env = await firstBuild(out);
      const before = await siteView(out, "routed");
      const stopped = runProcess(args(out, "b", 1), { ...env, ...pauseAt(POINT) });
      expect(await stopped.said(pausedLine(POINT)), `the thread never reached ${POINT}`).toBe(true);
      // Midway by construction: the thread's files are in its scratch directory, not yet handed on.
      const [scratch] = (await readdir(tmp)).filter((name) => name.includes("-search-"));
      expect(scratch, (await readdir(tmp)).join(" ")).toBeDefined();
      expect((await readdir(join(tmp, scratch as string))).length).toBeGreaterThan(0);
      stopped.kill(signal);
      const ended = await stopped.ended;
      if (signal === "SIGTERM") {
        expect(ended.code, ended.stderr).toBe(143);
        // A graceful stop removes its temporaries at once, the thread's scratch directory with them.
        expect(await leftovers(out, [tmp, `${out}.cache`])).toEqual([]);
      }
      expect(await siteView(out, "routed"), `${signal} while the thread held its files`).toEqual(before);
      const next = await runProcess(args(out, "b", 1), env).ended;
      expect(next.code, next.stderr).toBe(0);
      expect(await siteView(out, "routed")).not.toEqual(before);
      expect(await leftovers(out, [tmp, `${out}.cache`])).toEqual([]);
    },
    300_000,
  );
});
