/**
 * `subjekti sync` against the real hosts that serve a built site's files: nginx in front of
 * `subjekti serve` (which hands /changes/ on like every path), and the Cloudflare Worker's
 * `wrangler dev` (its assets binding serves the feed's files as plain assets). The preview is in
 * change-feed.test.ts; Netlify serves dist/ as plain files the same way (netlify.toml's headers).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FeedState } from "../../src/feed/feed-format.ts";
import { syncMirror } from "../../src/feed/sync-mirror.ts";
import { freePort } from "../hosts/hosts.ts";
import { NGINX, nginxHost, REQUIRE_NGINX } from "../hosts/nginx-host.ts";
import { startWranglerDev } from "../hosts/wrangler-dev.ts";
import { build } from "../site/built-site.ts";

let root: string;
const sample = (JSON.parse(await readFile("data/subjekti.json", "utf8")) as { id: number; naziv_subjekta: string }[]).slice(0, 300);

/** A site with a feed of two sequences, its links on `origin`; the mirror synced at sequence 1 and the expected last snapshot. */
async function twoSequences(name: string, origin: string): Promise<{ site: string; data: string }> {
  const data = join(root, `${name}-data`);
  const site = join(root, name);
  await mkdir(data, { recursive: true });
  await writeFile(join(data, "subjekti.json"), JSON.stringify(sample));
  await build(data, site, { feed: true, cacheDir: null, baseUrl: origin, sourceDateEpoch: "1700000000" });
  return { site, data };
}

async function secondSequence(data: string, site: string, origin: string): Promise<FeedState> {
  await writeFile(
    join(data, "subjekti.json"),
    JSON.stringify(sample.slice(1).map((s, i) => (i === 5 ? { ...s, naziv_subjekta: "Novo ime" } : s))),
  );
  await build(data, site, { feed: true, cacheDir: null, baseUrl: origin, sourceDateEpoch: "1700086400" });
  return JSON.parse(await readFile(join(site, "changes/state.json"), "utf8")) as FeedState;
}

// Each test's limit, 300 s, bounds what ends: two builds, the host's starts (wrangler's each
// bounded at 120 s), two syncs; 23 to 29 s beside another slow file at load 7-11, past the default
// 60 s's margin for a wrangler start alone.
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "subjekti-sync-hosts-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe.skipIf(NGINX === null && !REQUIRE_NGINX)("sync through nginx in front of subjekti serve", () => {
  it("the snapshot, then one diff; the copy byte-identical to the last snapshot", async () => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const { site, data } = await twoSequences("nginx", origin);
    const host = await nginxHost(site, join(root, "nginx-prefix"), [], port);
    try {
      const mirror = join(root, "nginx.ndjson");
      expect(await syncMirror(origin, mirror)).toMatchObject({ from: null, to: 1, added: 300 });
      const state = await secondSequence(data, site, origin);
      expect(await syncMirror(origin, mirror)).toMatchObject({ from: 1, to: 2, removed: 1, changed: 1, snapshot: null });
      expect((await readFile(mirror)).equals(await readFile(join(site, "changes", state.snapshot.url)))).toBe(true);
    } finally {
      await host.stop();
    }
  }, 300_000);
});

describe("sync through the Cloudflare Worker (wrangler dev, workerd)", () => {
  it("the snapshot, then one diff; the copy byte-identical to the last snapshot", async () => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const { site, data } = await twoSequences("worker", origin);
    let dev = await startWranglerDev(site, port);
    try {
      const mirror = join(root, "worker.ndjson");
      expect(await syncMirror(origin, mirror)).toMatchObject({ from: null, to: 1, added: 300 });
      const state = await secondSequence(data, site, origin);
      // A deploy uploads the new site's assets; wrangler dev reads the asset list when it starts.
      await dev.stop();
      dev = await startWranglerDev(site, port);
      expect(await syncMirror(origin, mirror)).toMatchObject({ from: 1, to: 2, removed: 1, changed: 1, snapshot: null });
      expect((await readFile(mirror)).equals(await readFile(join(site, "changes", state.snapshot.url)))).toBe(true);
    } finally {
      await dev.stop();
    }
  }, 300_000);
});
