/**
 * writeSite when a file cannot be written: the build rejects with the file system's error, the
 * previous site stays whole, no temporary shard directory is left, and no writer thread lives on.
 */
import { mkdir, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DATA_ROOT, pageFileName, pageShardKey } from "../../src/core/layout.ts";
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
