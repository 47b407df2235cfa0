/**
 * `subjekti sync` against a hostile or broken site written here (loopback only): a mirror no
 * server can crash, spin or fill. Each attack is refused in one line (or answered with the
 * snapshot, when that is the safe way on) and leaves the copy as it was and no temporary.
 */
import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { takeOutputLock } from "../../src/common/output-lock.ts";
import { SubjektiError } from "../../src/core/errors.ts";
import type { FeedState } from "../../src/feed/feed-format.ts";
import { DEFAULT_LIMITS } from "../../src/feed/feed-limits.ts";
import { syncMirror, syncStatePath } from "../../src/feed/sync-mirror.ts";
import { runCli } from "../run-cli.ts";
import { tempDir } from "../file-trees.ts";
import { build } from "../site/built-site.ts";
import { buildLiveFeed, liveFeed } from "./live-feed.ts";
import { answer, flood, type Handler, type HostileSite, startHostileSite, trickle } from "./hostile-site.ts";

let root: string;
let live: string;
let state: FeedState;
let first: Buffer;
const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

beforeAll(async () => {
  root = await tempDir("subjekti-sync-attacks-");
  ({ live, state, first } = await buildLiveFeed(root));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A mirror at the first sequence (a copy of its snapshot, and its state beside it), in a directory of its own. */
async function mirrorAtFirst(): Promise<string> {
  const dir = join(root, `m-${Math.random().toString(36).slice(2)}`);
  await mkdir(dir);
  const file = join(dir, "subjekti.ndjson");
  await writeFile(file, first);
  await writeFile(syncStatePath(file), JSON.stringify({ url: "x", sequence: 1, version: sha256(first) }));
  return file;
}

/** What is beside the copy once a run is over: the copy and its state alone, nothing half, no lock. */
const leftBeside = (file: string): string[] => readdirSync(join(file, "..")).sort();

async function withSite<T>(routes: Parameters<typeof startHostileSite>[0], run: (site: HostileSite) => Promise<T>): Promise<T> {
  const site = await startHostileSite(routes);
  try {
    return await run(site);
  } finally {
    await site.close();
  }
}

async function refusal(run: Promise<unknown>): Promise<string> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SubjektiError);
  const line = (error as Error).message;
  expect(line).toMatch(/^[^\n]*$/);
  return line;
}

describe("sync refuses in one line what it cannot bound, leaving the copy as it was", () => {
  it.each<[string, Handler, RegExp]>([
    [
      "a compressed state (fetch would inflate it without a bound)",
      answer("x", { "content-encoding": "gzip" }),
      /answered with Content-Encoding "gzip", though asked for none/,
    ],
    [
      "a state over its bound, stated",
      (r) => r.writeHead(200, { "content-length": String(1 << 30) }).end(),
      /its Content-Length 1073741824 is over the bound of 67108864 bytes/,
    ],
    ["a state over its bound, streamed", flood, /the answer passes the bound of 67108864 bytes/],
  ])("%s -> refused", async (_name, handler, line) => {
    const file = await mirrorAtFirst();
    const before = leftBeside(file);
    await withSite(liveFeed(live, { "/changes/state.json": handler }), async (site) =>
      expect(await refusal(syncMirror(site.origin, file))).toMatch(line),
    );
    expect(await readFile(file)).toEqual(first);
    expect(leftBeside(file)).toEqual(before);
  });

  it("a snapshot longer than its state says -> refused at that size, nothing half beside the copy", async () => {
    const file = join(await tempDir("subjekti-sync-long-"), "subjekti.ndjson");
    const bytes = await readFile(join(live, "changes", state.snapshot.url));
    const longer = answer(Buffer.concat([bytes, Buffer.alloc(4 << 20, 0x20)]));
    await withSite(liveFeed(live, { [`/changes/${state.snapshot.url}`]: longer }), async (site) =>
      expect(await refusal(syncMirror(site.origin, file))).toMatch(
        new RegExp(`the answer passes the size its state gives of ${state.snapshot.bytes} bytes`),
      ),
    );
    expect(leftBeside(file)).toEqual([]);
  });

  it("a snapshot of junk whose hash the state gives -> refused in one line (it ended in a stack trace)", async () => {
    const junk = Buffer.from("<html><script>alert(1)</script></html>\n");
    const version = sha256(junk);
    const forged = {
      ...state,
      version,
      count: 1,
      snapshot: { url: `snapshots/${version}.ndjson`, sha256: version, bytes: junk.length },
      history: state.history.map((e, i) => (i === state.history.length - 1 ? { ...e, to_version: version } : e)),
    };
    const file = join(await tempDir("subjekti-sync-junk-"), "subjekti.ndjson");
    await withSite(
      liveFeed(live, { "/changes/state.json": answer(JSON.stringify(forged)), [`/changes/${forged.snapshot.url}`]: answer(junk) }),
      async (site) =>
        expect(await refusal(syncMirror(site.origin, file))).toMatch(/the snapshot is not the list's NDJSON \(not a rendered record/),
    );
    expect(leftBeside(file)).toEqual([]);
  });

  it("a state trickled a byte at a time -> refused by the rate floor; a site that never answers -> by the deadline", async () => {
    const file = await mirrorAtFirst();
    const started = performance.now();
    await withSite({ "/changes/state.json": trickle(50) }, async (site) =>
      expect(await refusal(syncMirror(site.origin, file, { limits: { ...DEFAULT_LIMITS, graceMs: 400, minRate: 1024 } }))).toMatch(
        /slower than 1024 bytes a second/,
      ),
    );
    expect(performance.now() - started).toBeLessThan(400 + 2000);
    await withSite({ "/changes/state.json": () => undefined }, async (site) =>
      expect(await refusal(syncMirror(site.origin, file, { limits: { ...DEFAULT_LIMITS, deadlineMs: 300 } }))).toMatch(
        /no whole answer within the deadline/,
      ),
    );
    expect(await readFile(file)).toEqual(first);
  });

  it("another run holding the copy's lock -> refused in one line naming it (cron runs do not pile up)", async () => {
    const file = await mirrorAtFirst();
    const lock = await takeOutputLock(file, file, { wait: false, command: "sync" });
    try {
      await withSite(liveFeed(live), async (site) => {
        const run = await runCli(["sync", site.origin, file]);
        expect(run.code).toBe(1);
        expect(run.stderr).toMatch(/^subjekti: .*subjekti\.ndjson is being written by process \d+ \(subjekti sync since/);
        expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
      });
    } finally {
      await lock.release();
    }
    expect(await readFile(file)).toEqual(first);
  });
});

describe("sync takes a bounded way on", () => {
  it("more diffs behind than a run applies -> the snapshot, no diff asked (a huge sequence cannot spin it)", async () => {
    const file = await mirrorAtFirst();
    await withSite(liveFeed(live), async (site) => {
      const report = await syncMirror(site.origin, file, { limits: { ...DEFAULT_LIMITS, maxSteps: 1 } });
      expect(report.snapshot).toMatchObject({ key: "sync.too-far-behind", params: { behind: 2, max: 1 } });
      expect(site.asked.filter((path) => /\/\d+\.json$/.test(path))).toEqual([]);
    });
    expect(sha256(await readFile(file))).toBe(state.version);
  });

  it("a diff line holding terminal escapes -> the snapshot instead, and the reason printed escaped", async () => {
    const file = await mirrorAtFirst();
    const head = (await readFile(join(live, "changes/2.json"), "utf8")).split("\n")[0] as string;
    const evil = `${head}\n\u001b]0;pwned\u0007\u001b[2J\u202e{"op":"delete"\n]}\n`;
    await withSite(liveFeed(live, { "/changes/2.json": answer(evil) }), async (site) => {
      for (const args of [[], ["--json"]]) {
        await writeFile(file, first);
        await writeFile(syncStatePath(file), JSON.stringify({ url: "x", sequence: 1, version: sha256(first) }));
        const run = await runCli(["sync", site.origin, file, ...args]);
        expect(run.code).toBe(0);
        expect(run.stdout).toMatch(/cannot be read: not a change line/);
        expect(run.stdout).not.toMatch(/[\u001b\u0007\u202e]/);
      }
    });
  });

  it("a copy kept in a data directory: its state is hidden, so the build reads the copy alone", async () => {
    const data = await tempDir("subjekti-sync-data-");
    const file = join(data, "subjekti.ndjson");
    await withSite(liveFeed(live), async (site) => void (await syncMirror(site.origin, file)));
    expect(readdirSync(data).sort()).toEqual([".subjekti.ndjson.sync.json", "subjekti.ndjson"]);
    const report = await build(data, join(data, "..", "from-mirror"), { cacheDir: null });
    expect(report.count).toBe(state.count);
  });
});
