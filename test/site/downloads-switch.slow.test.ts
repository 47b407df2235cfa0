/**
 * A failed build publishes nothing, downloads included: a build stopped (SIGTERM, SIGKILL) at each
 * named pause point between the downloads stage and the switch, or failing there (an error injected
 * through the build's progress hook, as a full disk would fail a page's write), leaves the stable
 * download names holding the old bytes, whose SHA-256 the old manifest names, and the preview
 * answering them with those bytes and that ETag. The next build switches them with the rest.
 *
 * The points are reached by construction whatever the size: 1,200 subjects (two chunks of each
 * download), and the stopped builds each start from a copy of one process's first build (copySite).
 */
import { createHash } from "node:crypto";
import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_DOWNLOADS } from "../../src/core/download-files.ts";
import { MANIFEST_PATH } from "../../src/core/layout.ts";
import type { Manifest } from "../../src/core/manifest.ts";
import { startPreview } from "../../src/serve/preview-server.ts";
import { DEFAULT_OPTIONS } from "../../src/site/build-options.ts";
import { buildSite } from "../../src/site/build-site.ts";
import { tempDir } from "../file-trees.ts";
import { build, readManifest } from "./built-site.ts";
import { copySite, pauseAt, pausedLine, runProcess, writeDataset } from "./build-processes.ts";

let work: string;
const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

/** Subjects in each dataset. */
const SUBJECTS = 1_200;
/** The first build of data a, in a process, that each stopped build's site is a copy of. */
const prepared = (): { out: string; cache: string } => ({ out: join(work, "prepared"), cache: join(work, "prepared.cache") });

beforeAll(async () => {
  work = await tempDir("subjekti-downloads-switch-");
  await writeDataset(join(work, "a"), 1, 0, SUBJECTS);
  await writeDataset(join(work, "b"), 1, 7, SUBJECTS);
  await writeDataset(join(work, "c"), 1, 11, SUBJECTS);
  const first = await runProcess(args(prepared().out, "a")).ended;
  expect(first.code, first.stderr).toBe(0);
}, 120_000);
afterAll(() => rm(work, { recursive: true, force: true }));

/** What a reader of the site in `out` is served now: the manifest's bytes, the feed's state, and each stable download's bytes. */
async function published(out: string): Promise<{ manifest: string; state: string; stable: Map<string, string> }> {
  const manifest = JSON.parse(await readFile(join(out, MANIFEST_PATH), "utf8")) as Manifest;
  const stable = new Map<string, string>();
  for (const d of manifest.downloads ?? []) stable.set(d.path, sha256(await readFile(join(out, d.path))));
  return {
    manifest: await readFile(join(out, MANIFEST_PATH), "utf8"),
    state: await readFile(join(out, "changes/state.json"), "utf8"),
    stable,
  };
}

/** Every stable name holds the bytes the manifest names, and the preview sends them with that ETag. */
async function expectStableNamesOfManifest(out: string, why: string): Promise<void> {
  const manifest = await readManifest(out);
  expect(
    manifest.downloads?.map((d) => d.format),
    why,
  ).toEqual(DEFAULT_DOWNLOADS);
  const preview = await startPreview({ dir: out, port: 0, host: "127.0.0.1", watch: false });
  try {
    for (const d of manifest.downloads ?? []) {
      expect(sha256(await readFile(join(out, d.path))), `${why}: ${d.path} on disk`).toBe(d.sha256);
      const answer = await fetch(new URL(d.path, preview.url));
      expect(answer.headers.get("etag"), `${why}: ${d.path} served`).toBe(`"${d.sha256}"`);
      expect(sha256(new Uint8Array(await answer.arrayBuffer())), `${why}: ${d.path} served`).toBe(d.sha256);
    }
  } finally {
    await preview.close();
  }
}

const args = (out: string, data: string): string[] => [
  "build",
  ...["--data", join(work, data), "--out", out, "--cache-dir", `${out}.cache`, "--base-url", "http://testserver", "--quiet"],
];

describe("the stable download names switch with the site or not at all", () => {
  const POINTS = ["build-downloads-written", "site-pages-written"] as const;
  it.each(POINTS.flatMap((point) => (["SIGTERM", "SIGKILL"] as const).map((signal) => ({ point, signal }))))(
    "a build stopped by $signal at $point: the stable names keep the old bytes, the old manifest's SHA-256; the next build switches them",
    async ({ point, signal }) => {
      const out = join(work, `${point}-${signal}`);
      await copySite(prepared(), { out, cache: `${out}.cache` });
      const before = await published(out);
      const namesBefore = (await readdir(join(out, "downloads"))).sort();
      const stopped = runProcess(args(out, "b"), pauseAt(point));
      expect(await stopped.said(pausedLine(point)), `the build never reached ${point}`).toBe(true);
      // The new downloads are written under their content names by now: the switch alone is missing.
      const names = await readdir(join(out, "downloads"));
      // The old build's and this one's, of each default format.
      expect(names.filter((name) => /^subjekti-[0-9a-f]{64}\./.test(name)).length, names.join(" ")).toBe(2 * DEFAULT_DOWNLOADS.length);
      stopped.kill(signal);
      await stopped.ended;
      expect(await published(out), `${signal} at ${point}`).toEqual(before);
      // A graceful stop removes what it added among the downloads at once (a SIGKILL's go with the next build).
      if (signal === "SIGTERM") expect((await readdir(join(out, "downloads"))).sort()).toEqual(namesBefore);
      await expectStableNamesOfManifest(out, `${signal} at ${point}`);
      const next = await runProcess(args(out, "b")).ended;
      expect(next.code, next.stderr).toBe(0);
      const after = await published(out);
      expect(after.manifest).not.toBe(before.manifest);
      expect([...after.stable.values()]).not.toEqual([...before.stable.values()]);
      await expectStableNamesOfManifest(out, "the next build");
      // What the killed build left beside the downloads (a SIGKILL's links) is gone.
      expect((await readdir(join(out, "downloads"))).filter((name) => name.includes(".tmp-"))).toEqual([]);
    },
    120_000,
  );

  it("a write that fails after the downloads (an error injected into the pages' stage): the stable names and the content-named files are the old build's", async () => {
    const out = join(work, "failed");
    // Two builds: the second keeps the first's content-named files (a reader may be fetching them), which a failed build must leave too.
    await build(join(work, "c"), out, { feed: true });
    await build(join(work, "a"), out, { feed: true });
    const before = await published(out);
    const namesBefore = (await readdir(join(out, "downloads"))).sort();
    // The progress hook is called as the pages' stage starts, after the downloads are written.
    const failing = (): void => {
      throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
    };
    const options = {
      ...DEFAULT_OPTIONS,
      baseUrl: "http://testserver",
      quiet: true,
      cacheDir: `${out}.cache`,
      sourceDateEpoch: "1700000000",
      feed: true,
      dataDir: join(work, "b"),
      outDir: out,
    };
    await expect(buildSite(options, failing)).rejects.toThrow("ENOSPC");
    expect(await published(out)).toEqual(before);
    // Nothing of the failed build is left among the downloads: no new content-named file, no link waiting.
    expect((await readdir(join(out, "downloads"))).sort()).toEqual(namesBefore);
    await expectStableNamesOfManifest(out, "after the failed build");
  }, 120_000);

  it("a site of plain files (--links files) has no downloads: its link switches the whole tree at once", async () => {
    const out = join(work, "plain");
    await build(join(work, "a"), out, { links: "files" });
    expect(await readdir(out)).not.toContain("downloads");
  }, 120_000);
});
