/**
 * writeSite when a file cannot be written: the build rejects with the file system's error, the
 * previous site stays whole, no temporary shard directory is left, and no writer thread lives on.
 * And the order of the write (SiteWriter over a plan made here): the shards at hand first, the
 * plan's rest (the search's) asked for only then, its failure leaving the previous site whole.
 */
import { mkdir, readdir, readFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DATA_ROOT, MANIFEST_PATH, pageFileName, pageShardKey, shardDirPath } from "../../src/core/layout.ts";
import { LAYOUT_VERSION, type Manifest } from "../../src/core/manifest.ts";
import type { ChunkItem, PlanRest, ShardPlan, SitePlan } from "../../src/site/hand-offs.ts";
import { SiteWriter } from "../../src/site/write-site.ts";
import { snapshotTree, tempDir } from "../file-trees.ts";
import { build } from "./built-site.ts";

const FIXTURE = "test/fixtures/small-site";

let work: string;
beforeAll(async () => {
  work = await tempDir();
});
afterAll(() => rm(work, { recursive: true, force: true }));

/** Every directory under `dir` whose name marks a shard being written. */
async function tmpDirs(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isDirectory() && e.name.includes(".tmp-")).map((e) => join(e.parentPath, e.name));
}

it("a page that cannot be written (a directory in its place) rejects the build with EISDIR and leaves the previous site as it was", async () => {
  const out = join(work, "site");
  await build(FIXTURE, out, { limits: [20], forms: ["plain"] });
  const before = await snapshotTree(out);
  const ports = process.getActiveResourcesInfo().filter((name) => name === "MessagePort").length;

  // A new origin changes every page, so the rebuild writes shard pages/plain/20/0 into
  // `<key>.tmp-<pid>` (this process's pid: the build runs in it), where page 1 is now a directory.
  const blocked = join(out, DATA_ROOT, `${pageShardKey("plain", 20, 1)}.tmp-${process.pid}`, pageFileName(1));
  await mkdir(blocked, { recursive: true });
  const failure = await build(FIXTURE, out, { limits: [20], forms: ["plain"], baseUrl: "http://elsewhere" }).then(
    () => null,
    (error: unknown) => error as NodeJS.ErrnoException,
  );

  expect(failure?.code).toBe("EISDIR");
  expect(failure?.path).toBe(blocked);
  expect(await snapshotTree(out)).toEqual(before);
  expect(await tmpDirs(out)).toEqual([]);
  expect(process.getActiveResourcesInfo().filter((name) => name === "MessagePort").length).toBe(ports);
});

/** A shard of `files` files named `<n>.json`, each holding `text` and its number. */
function shardOf(key: string, hash: string, files: number, text: string): ShardPlan {
  const name = (i: number): string => `${i}.json`;
  return {
    key,
    hash,
    size: files,
    name,
    *files() {
      for (let i = 0; i < files; i++) yield { name: name(i), bytes: Buffer.from(`${text} ${i}\n`) };
    },
  };
}

/** A manifest naming `shards` (the rest of its fields those of an empty list). */
function manifestOf(shards: readonly ShardPlan[]): Manifest {
  return {
    layout: LAYOUT_VERSION,
    version: "test",
    count: 0,
    maxLimit: 20,
    limits: [20],
    forms: ["plain"],
    chunkSize: 1000,
    baseUrl: "http://testserver",
    cacheControl: "no-cache",
    hash: "0",
    dirs: Object.fromEntries(shards.map((s) => [s.key, s.hash])),
  };
}

/** No records: the writer's own records stage, done. */
async function* noRecords(): AsyncGenerator<ChunkItem, null> {
  yield* [];
  return null;
}

/**
 * A plan whose rest (the search's shards, in a real build a thread's) is held until the test lets
 * it go: `asked` resolves when the writer asks for it.
 */
function heldPlan(now: readonly ShardPlan[]): { plan: SitePlan; asked: Promise<void>; release: (rest: PlanRest | Error) => void } {
  let ask = (): void => undefined;
  const asked = new Promise<void>((resolve) => (ask = resolve));
  let release = (_: PlanRest | Error): void => undefined;
  const rest = new Promise<PlanRest>((resolve, reject) => (release = (r) => (r instanceof Error ? reject(r) : resolve(r))));
  const plan = { count: 0, baseUrl: "http://testserver", records: [], shards: now, rest: () => (ask(), rest) };
  return { plan, asked, release };
}

/** Whether the shard's directory is in place under its final name. */
const placed = (out: string, shard: ShardPlan): Promise<boolean> =>
  stat(join(out, DATA_ROOT, shardDirPath(shard.key, shard.hash))).then(
    (s) => s.isDirectory(),
    () => false,
  );

it("writes every shard at hand before it asks for the plan's rest (the search's), and those last, before the manifest", async () => {
  const out = join(work, "rest-last");
  const pages = [shardOf("pages/plain/20/0", "00000000000000a1", 3, "page"), shardOf("docs", "00000000000000d1", 2, "doc")];
  const searched = shardOf("search/names", "00000000000000e1", 2, "search");
  const writer = await SiteWriter.open(out);
  await writer.writeRecords(noRecords());
  const { plan, asked, release } = heldPlan(pages);
  const writing = writer.write({ count: 0, plan });
  await asked;
  // The rest is not in yet (a real build's search thread still runs): the shards at hand are written, the switch is not.
  expect(await Promise.all(pages.map((shard) => placed(out, shard)))).toEqual([true, true]);
  expect(await placed(out, searched)).toBe(false);
  await expect(stat(join(out, MANIFEST_PATH))).rejects.toThrow(/ENOENT/);
  release({ shards: [searched], manifest: manifestOf([...pages, searched]) });
  const written = await writing;
  expect(written.written).toBe(3 + 2 + 2 + 1);
  expect(await placed(out, searched)).toBe(true);
  expect((JSON.parse(await readFile(join(out, MANIFEST_PATH), "utf8")) as Manifest).dirs).toEqual(manifestOf([...pages, searched]).dirs);
  await writer.close();
});

it("a rest that fails after the shards at hand are written (the search thread's failure) leaves the previous site as it was", async () => {
  const out = join(work, "rest-failed");
  const first = await SiteWriter.open(out);
  await first.writeRecords(noRecords());
  const old = [shardOf("pages/plain/20/0", "00000000000000a1", 3, "page")];
  const { plan: oldPlan, release: releaseOld } = heldPlan(old);
  releaseOld({ shards: [], manifest: manifestOf(old) });
  await first.write({ count: 0, plan: oldPlan });
  await first.close();
  const before = await snapshotTree(out);

  const pages = [shardOf("pages/plain/20/0", "00000000000000a2", 3, "other page")];
  const writer = await SiteWriter.open(out);
  await writer.writeRecords(noRecords());
  const { plan, asked, release } = heldPlan(pages);
  const writing = writer.write({ count: 0, plan });
  await asked;
  expect(await placed(out, pages[0] as ShardPlan)).toBe(true);
  release(new Error("the search failed"));
  await expect(writing).rejects.toThrow("the search failed");
  await writer.abort();
  await writer.close();
  expect(await snapshotTree(out)).toEqual(before);
  expect(await tmpDirs(out)).toEqual([]);
});
