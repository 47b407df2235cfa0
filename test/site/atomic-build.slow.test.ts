/**
 * A build killed with SIGKILL at any moment leaves the site whole: readers see the previous
 * complete site or the new complete site, never a mix. Real `subjekti build` processes are killed
 * while they write, alternating between two datasets whose every page differs.
 */
import { spawn } from "node:child_process";
import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { chunkPath, MANIFEST_PATH, pagePath } from "../../src/core/layout.ts";
import type { Manifest } from "../../src/core/manifest.ts";
import { siteTree, tempDir } from "../file-trees.ts";
import { writeDataset } from "./build-processes.ts";
import { BASE_URL, build } from "./built-site.ts";

let work: string;
const data = { a: "", b: "" };
const reference = { a: "", b: "" };

/** What a reader sees: the manifest and every file it names, by logical path. */
async function siteView(out: string): Promise<Map<string, string>> {
  const manifestText = await readFile(join(out, MANIFEST_PATH), "utf8");
  const manifest = JSON.parse(manifestText) as Manifest;
  const view = new Map([["manifest", manifestText]]);
  const paths: string[] = [];
  for (const form of manifest.forms) {
    for (const limit of manifest.limits) {
      for (let page = 0; page * limit < manifest.count; page++) paths.push(pagePath(manifest, form, limit, page) ?? `missing page ${page}`);
    }
  }
  for (let chunk = 0; chunk * manifest.chunkSize < manifest.count; chunk++)
    paths.push(chunkPath(manifest, chunk) ?? `missing chunk ${chunk}`);
  for (const path of paths) view.set(path.replace(/\.[0-9a-f]{16}\//, "/"), await readFile(join(out, path), "utf8"));
  return view;
}

/** Is a shard being written (a `.tmp-<pid>` directory under the site's pages)? */
async function writing(out: string): Promise<boolean> {
  try {
    const dirs = await readdir(join(out, "_subjekti/pages/plain/20"));
    return dirs.some((name) => name.includes(".tmp-"));
  } catch {
    return false;
  }
}

/** Runs a real CLI build and SIGKILLs it `afterMs` after it starts writing shards; resolves when it is dead. */
async function killMidWrite(dataDir: string, out: string, afterMs: number): Promise<string> {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "src/cli/main.ts",
      "build",
      "--data",
      dataDir,
      "--out",
      out,
      "--cache-dir",
      `${out}.cache`,
      "--base-url",
      BASE_URL,
      "--quiet",
    ],
    {
      stdio: "ignore",
    },
  );
  const exited = new Promise<string>((resolve) => child.on("exit", (code, signal) => resolve(signal ?? `exit ${code}`)));
  const started = Date.now();
  while (!(await writing(out)) && Date.now() - started < 30_000 && child.exitCode === null) await new Promise((r) => setTimeout(r, 2));
  await new Promise((r) => setTimeout(r, afterMs));
  child.kill("SIGKILL");
  return exited;
}

beforeAll(async () => {
  work = await tempDir();
  data.a = join(work, "data-a");
  data.b = join(work, "data-b");
  await writeDataset(data.a, 4, 0);
  await writeDataset(data.b, 4, 7); // 7 fewer subjects: the count in every page differs
  reference.a = join(work, "ref-a");
  reference.b = join(work, "ref-b");
  await build(data.a, reference.a);
  await build(data.b, reference.b);
}, 120_000);
afterAll(() => rm(work, { recursive: true, force: true }));

it("SIGKILL at any moment of a build leaves the previous or the new complete site", async () => {
  const out = join(work, "site");
  await build(data.a, out);
  const views = { a: await siteView(reference.a), b: await siteView(reference.b) };
  let current: "a" | "b" = "a";
  const outcomes: string[] = [];
  let killedMidWrite = 0;
  for (const afterMs of [0, 5, 20, 50, 100, 200, 400]) {
    const target = current === "a" ? "b" : "a";
    const how = await killMidWrite(data[target], out, afterMs);
    const seen = await siteView(out);
    const whole =
      [...seen].every(([path, bytes]) => views[target].get(path) === bytes) && seen.size === views[target].size
        ? target
        : [...seen].every(([path, bytes]) => views[current].get(path) === bytes) && seen.size === views[current].size
          ? current
          : "mixed";
    outcomes.push(`${afterMs}ms: ${how} -> ${whole === current ? "previous" : whole === target ? "new" : "MIXED"}`);
    expect(whole, outcomes.join("; ")).not.toBe("mixed");
    if (how === "SIGKILL" && whole === current) killedMidWrite += 1;
    current = whole as "a" | "b";
  }
  // Kills must have landed mid-write (the site stayed the previous one), or the test proved nothing.
  expect(killedMidWrite, outcomes.join("; ")).toBeGreaterThan(0);
  // A completed build afterwards cleans every leftover: the tree equals a clean build's.
  await build(data.b, out);
  expect(await siteTree(out)).toEqual(await siteTree(reference.b));
}, 180_000);
