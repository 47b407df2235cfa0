/**
 * `subjekti sync` and `build --previous` as real processes against a hostile site written here
 * (loopback only): a compressed bomb and a state of endless bytes are refused in one line with the
 * process's own peak memory small (they reached 4.3 GB and 1.5 GB), and SIGTERM in the middle of a
 * snapshot leaves nothing beside the copy. Each process reports its own figures at exit
 * (report-usage.mjs).
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FeedState } from "../../src/feed/feed-format.ts";
import { tempDir } from "../file-trees.ts";
import { build } from "../site/built-site.ts";
import { answer, type Handler, startHostileSite } from "./hostile-site.ts";

let root: string;
let live: string;
let state: FeedState;

beforeAll(async () => {
  root = await tempDir("subjekti-sync-slow-");
  live = join(root, "live");
  const data = join(root, "data");
  await mkdir(data);
  await writeFile(data + "/subjekti.json", await readFile("data/subjekti.json"));
  await build(data, live, { feed: true, cacheDir: null });
  state = JSON.parse(await readFile(join(live, "changes/state.json"), "utf8")) as FeedState;
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

interface Ended {
  readonly code: number | null;
  readonly stderr: string;
  readonly usage: { readonly maxRssBytes: number; readonly wallMs: number };
}

/** `subjekti <args>` as a process that reports its own peak RSS and wall time; `whileRunning` is given its pid. */
function runReporting(args: readonly string[], whileRunning?: (pid: number) => Promise<void>): Promise<Ended> {
  const usagePath = join(root, `usage-${Math.random().toString(36).slice(2)}.json`);
  const child = spawn(process.execPath, ["--import", "tsx", "--import", "./test/feed/report-usage.mjs", "src/cli/main.ts", ...args], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, SUBJEKTI_TEST_USAGE: usagePath, SOURCE_DATE_EPOCH: "1800000000" },
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const closed = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  void whileRunning?.(child.pid as number);
  return closed.then(async (code) => ({ code, stderr, usage: JSON.parse(await readFile(usagePath, "utf8")) as Ended["usage"] }));
}

/** A body of `mib` MiB of spaces, sent as fast as the reader takes it, with no Content-Length. */
const endless =
  (mib: number): Handler =>
  (response) => {
    response.writeHead(200);
    const block = Buffer.alloc(1 << 20, 0x20);
    let sent = 0;
    const more = (): void => {
      while (sent < mib && response.write(block)) sent++;
      if (sent < mib) response.once("drain", more);
      else response.end();
    };
    more();
  };

const liveFile =
  (path: string): Handler =>
  (response) =>
    void readFile(join(live, path)).then((bytes) => response.end(bytes));

const MiB = 1024 * 1024;

describe("a hostile site against real processes, measured by their own figures", () => {
  // 1 GiB of zeros as 1 MB of gzip: fetch inflated such a body whole.
  const bomb = gzipSync(Buffer.alloc(1 << 30), { level: 9 });

  it.each<[string, Handler, RegExp]>([
    [
      "a gzip bomb for a state",
      answer(bomb, { "content-encoding": "gzip" }),
      /answered with Content-Encoding "gzip", though asked for none/,
    ],
    ["a state of 400 MiB with no length", endless(400), /the answer passes the bound of 67108864 bytes/],
  ])("sync: %s -> one line, exit 1, peak RSS far below the body", async (_name, handler, line) => {
    const site = await startHostileSite({ "/changes/state.json": handler });
    const dir = await tempDir("subjekti-sync-bomb-");
    try {
      const ended = await runReporting(["sync", site.origin, join(dir, "subjekti.ndjson")]);
      expect(ended.code).toBe(1);
      expect(ended.stderr).toMatch(line);
      expect(ended.stderr.trimEnd().split("\n")).toHaveLength(1);
      // The state's bound (64 MiB) held in memory at most, and the runtime: not the body's size.
      expect(ended.usage.maxRssBytes).toBeLessThan(300 * MiB);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      await site.close();
    }
  });

  it("build --previous: a gzip bomb for the snapshot -> one line, exit 1, nothing written, peak RSS small", async () => {
    const site = await startHostileSite({
      "/changes/state.json": liveFile("changes/state.json"),
      [`/changes/${state.snapshot.url}`]: answer(bomb, { "content-encoding": "gzip" }),
    });
    const out = join(root, "bombed");
    try {
      const ended = await runReporting([
        "build",
        "--data",
        join(root, "data"),
        "--out",
        out,
        "--previous",
        site.origin,
        "--no-cache",
        "--quiet",
      ]);
      expect(ended.code).toBe(1);
      expect(ended.stderr).toMatch(/snapshots\/[0-9a-f]{64}\.ndjson: answered with Content-Encoding "gzip", though asked for none/);
      expect(ended.usage.maxRssBytes).toBeLessThan(400 * MiB);
      expect(existsSync(join(out, "changes"))).toBe(false);
    } finally {
      await site.close();
    }
  });

  it("sync: the snapshot, then a diff followed to its closing line -> each run ends by itself, exit 0 (no reader left holding the process)", async () => {
    const site = await startHostileSite((path) =>
      path.startsWith("/changes/") && existsSync(join(live, path)) ? liveFile(path) : undefined,
    );
    const dir = await tempDir("subjekti-sync-ends-");
    const file = join(dir, "subjekti.ndjson");
    try {
      expect((await runReporting(["sync", site.origin, file])).code).toBe(0);
      const data = join(root, "data-2");
      await mkdir(data, { recursive: true });
      const list = JSON.parse(await readFile(join(root, "data", "subjekti.json"), "utf8")) as unknown[];
      await writeFile(join(data, "subjekti.json"), JSON.stringify(list.slice(1)));
      const second = join(root, "live-2");
      await build(data, second, { feed: true, cacheDir: null, previous: live, sourceDateEpoch: "1800000000" });
      await rm(live, { recursive: true });
      await rename(second, live);
      const ended = await runReporting(["sync", site.origin, file]);
      expect(ended.code).toBe(0);
      expect(ended.stderr).toBe("");
    } finally {
      await site.close();
    }
  });

  it("sync: SIGTERM while the snapshot streams -> exit 143, one line, nothing beside the copy but what was there", async () => {
    // The live site as it is now (a test before may have added a sequence).
    const now = JSON.parse(await readFile(join(live, "changes/state.json"), "utf8")) as FeedState;
    const snapshot = await readFile(join(live, "changes", now.snapshot.url));
    let release = (): void => undefined;
    // Most of the snapshot, then nothing until the test is done: the moment is reached when its first block is on disk.
    const half: Handler = (response) => {
      response.writeHead(200, { "content-length": String(snapshot.length) });
      response.write(snapshot.subarray(0, snapshot.length - 1));
      release = () => response.destroy();
    };
    const site = await startHostileSite({
      "/changes/state.json": liveFile("changes/state.json"),
      [`/changes/${now.snapshot.url}`]: half,
    });
    const dir = await tempDir("subjekti-sync-term-");
    const file = join(dir, "subjekti.ndjson");
    await writeFile(join(dir, "other.txt"), "kept");
    try {
      const ended = await runReporting(["sync", site.origin, file], async (pid) => {
        const temp = `${file}.tmp-${pid}`;
        for (;;) {
          // The copy's writer flushes a mebibyte at a time: bytes in the temporary show the snapshot is streaming.
          if (existsSync(temp) && statSync(temp).size > 0) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        process.kill(pid, "SIGTERM");
      });
      expect(ended.code).toBe(143);
      expect(ended.stderr).toMatch(/^subjekti: sync stopped by SIGTERM: its temporary files are removed\n$/);
      expect(readdirSync(dir)).toEqual(["other.txt"]);
    } finally {
      release();
      await site.close();
    }
  });
});
