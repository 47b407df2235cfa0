/**
 * A build killed with SIGKILL at any stage leaves the site whole: readers see the previous
 * complete site until the switch, the new complete site from it, never a mix. Real `subjekti build`
 * processes are killed while they write, alternating between two datasets whose every page
 * differs. Each stage is reached by construction, whatever the machine's load: the build runs with
 * a named pause point (SUBJEKTI_PAUSE_AT) and is killed once it says it waits there.
 */
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { chunkPath, MANIFEST_PATH, pagePath } from "../../src/core/layout.ts";
import type { Manifest } from "../../src/core/manifest.ts";
import { siteTree, tempDir } from "../file-trees.ts";
import { pauseAt, pausedLine, runProcess, writeDataset } from "./build-processes.ts";
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

/** The points a build passes in its order (src/common/pause-point.ts): the previous site stands until the last, the switch. */
const POINTS = [
  "output-locked",
  "build-records-written",
  "build-downloads-written",
  "site-awaiting-search",
  "site-pages-written",
  "site-switched",
] as const;

/** Runs a real CLI build of `dataDir` and SIGKILLs it once it waits at `point`; resolves when it is dead. */
async function killAt(dataDir: string, out: string, point: string): Promise<string> {
  const args = ["build", "--data", dataDir, "--out", out, "--cache-dir", `${out}.cache`, "--base-url", BASE_URL, "--quiet"];
  // The references' data date (built-site.ts): a site switched to is compared byte for byte.
  const child = runProcess(args, { ...pauseAt(point), SOURCE_DATE_EPOCH: "1700000000" });
  if (!(await child.said(pausedLine(point)))) expect.fail(`the build never reached ${point}: ${(await child.ended).stderr}`);
  child.kill("SIGKILL");
  const { code, signal } = await child.ended;
  return signal ?? `exit ${code}`;
}

beforeAll(async () => {
  work = await tempDir();
  data.a = join(work, "data-a");
  data.b = join(work, "data-b");
  // 1,200 subjects (two chunks): each stage is reached by construction, not caught in a long build.
  await writeDataset(data.a, 1, 0, 1_200);
  await writeDataset(data.b, 1, 7, 1_200); // 7 fewer subjects: the count in every page differs
  reference.a = join(work, "ref-a");
  reference.b = join(work, "ref-b");
  await build(data.a, reference.a);
  await build(data.b, reference.b);
}, 120_000);
afterAll(() => rm(work, { recursive: true, force: true }));

it(`SIGKILL at ${POINTS.join(", ")} leaves the previous complete site until the switch, and the new one from it`, async () => {
  const out = join(work, "site");
  await build(data.a, out);
  const views = { a: await siteView(reference.a), b: await siteView(reference.b) };
  let current: "a" | "b" = "a";
  const outcomes: string[] = [];
  for (const point of POINTS) {
    // Always the other data: a build of the site's own inputs would find nothing to do and reach no point.
    const target = current === "a" ? "b" : "a";
    const how = await killAt(data[target], out, point);
    const seen = await siteView(out);
    const whole =
      [...seen].every(([path, bytes]) => views[target].get(path) === bytes) && seen.size === views[target].size
        ? target
        : [...seen].every(([path, bytes]) => views[current].get(path) === bytes) && seen.size === views[current].size
          ? current
          : "mixed";
    outcomes.push(`${point}: ${how} -> ${whole === current ? "previous" : whole === target ? "new" : "MIXED"}`);
    expect(how, outcomes.join("; ")).toBe("SIGKILL");
    expect(whole, outcomes.join("; ")).toBe(point === "site-switched" ? target : current);
    current = whole as "a" | "b";
  }
  // A completed build afterwards cleans every leftover: the tree equals a clean build's.
  const last = current === "a" ? "b" : "a";
  await build(data[last], out);
  expect(await siteTree(out)).toEqual(await siteTree(reference[last]));
}, 180_000);
