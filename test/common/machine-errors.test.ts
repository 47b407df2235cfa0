/**
 * The machine's errors in one line each, naming the path and what to do: a read-only output, a
 * read-only export target, a read-only build cache and a full disk under the cache (the build goes
 * on without the cache, with one warning; from the record threads too). Read-only and full disks
 * are real small tmpfs mounts where this process may mount one (root in a container); elsewhere a
 * read-only directory by its mode, and a file in the cache's place (an injected write error).
 */
import { execFileSync } from "node:child_process";
import { chmod, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../run-cli.ts";
import { snapshotTree, tempDir } from "../file-trees.ts";

let work: string;
const mounted: string[] = [];

/** Mounts a tmpfs of `size` at `dir` (read-only with `ro`); false where this process may not mount. */
function mountTmpfs(dir: string, size: string, ro = false): boolean {
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}${ro ? ",ro" : ""}`, "tmpfs", dir], { stdio: "ignore" });
    mounted.push(dir);
    return true;
  } catch {
    return false;
  }
}

/** A directory nothing can be written into: a read-only tmpfs, or (not root) a directory of mode 555. */
async function readOnlyDir(name: string): Promise<{ readonly dir: string; readonly why: string }> {
  const dir = join(work, name);
  await mkdir(dir);
  if (mountTmpfs(dir, "1m", true)) return { dir, why: "the file system is read-only; pick a directory on a writable one" };
  await chmod(dir, 0o555);
  return { dir, why: "permission denied; check its permissions or pick another directory" };
}

const quiet = ["--quiet", "--no-feed", "--base-url", "http://testserver"];

beforeAll(async () => {
  work = await tempDir("subjekti-machine-");
  await mkdir(join(work, "data"));
  // The sample, in one JSON array: its blocks go through the build cache.
  await writeFile(join(work, "data", "subjekti.json"), await readFile("data/subjekti.json"));
  const reference = await runCli(["build", "--data", join(work, "data"), "--out", join(work, "reference"), "--no-cache", ...quiet]);
  expect(reference.code, reference.stderr).toBe(0);
}, 60_000);
afterAll(async () => {
  for (const dir of mounted) execFileSync("umount", [dir]);
  await rm(work, { recursive: true, force: true });
});

/** The lines of stderr that are not the sample's own data warnings (nor the licence it copies no descriptor of). */
const machineLines = (stderr: string): string[] =>
  stderr.split("\n").filter((line) => line.startsWith("subjekti:") && !line.includes(" error") && !line.includes("no licence is declared"));

describe("a disk that cannot be written", () => {
  it("a read-only --out: exit 1, one line naming the directory and what to do", async () => {
    const { dir, why } = await readOnlyDir("ro-out");
    const run = await runCli(["build", "--data", join(work, "data"), "--out", join(dir, "site"), ...quiet]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`subjekti: cannot write into ${dir}: ${why}\n`);
  });

  it("a read-only export target: exit 1, one line naming the directory", async () => {
    const { dir, why } = await readOnlyDir("ro-export");
    const run = await runCli(["export", "--data", join(work, "data"), "--out", join(dir, "subjekti.xlsx")]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`subjekti: cannot write into ${dir}: ${why}\n`);
  });

  it("a read-only build cache: the build goes on without it, with one warning naming it", async () => {
    const { dir } = await readOnlyDir("ro-cache");
    const out = join(work, "site-ro-cache");
    const run = await runCli(["build", "--data", join(work, "data"), "--out", out, "--cache-dir", join(dir, "cache"), ...quiet]);
    expect(run.code, run.stderr).toBe(0);
    expect(machineLines(run.stderr)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^subjekti: warning: the build cache cannot be written at ${dir}/cache \\((the file system is read-only|permission denied)\\): the build goes on without it; pass --cache-dir with a directory this user can write, or --no-cache$`,
        ),
      ),
    ]);
    expect(await snapshotTree(out)).toEqual(await snapshotTree(join(work, "reference")));
  });

  it("a full disk under the cache, written by the record threads: one warning naming that disk, and the site whole", async () => {
    const dir = join(work, "full-cache");
    await mkdir(dir);
    // 64 KB: the first block or two fit, the rest find the disk full (ENOSPC); else a file where the cache's directory belongs.
    const full = mountTmpfs(dir, "64k");
    const cache = full ? dir : join(dir, "file");
    if (!full) await writeFile(cache, "not a directory");
    const out = join(work, "site-full-cache");
    const run = await runCli(["build", "--data", join(work, "data"), "--out", out, "--cache-dir", cache, "--threads", "2", ...quiet]);
    expect(run.code, run.stderr).toBe(0);
    const warning = full
      ? new RegExp(
          `^subjekti: warning: the build cache cannot be written at ${dir}/[0-9a-f]{16} \\(no space left on the disk\\): the build goes on without it; free space on the disk that holds ${dir}/[0-9a-f]{16}, or pass --cache-dir with a directory on another disk, or --no-cache$`,
        )
      : /^subjekti: warning: the build cache cannot be written at .* \(a file where a directory belongs\): the build goes on without it; pass --cache-dir/;
    expect(machineLines(run.stderr)).toEqual([expect.stringMatching(warning)]);
    expect(await snapshotTree(out)).toEqual(await snapshotTree(join(work, "reference")));
    // No temporary block was left on the full disk.
    if (full) expect((await readdir(dir, { recursive: true })).filter((name) => name.includes(".tmp-"))).toEqual([]);
  });
});
