/**
 * A build with the feed off over a site that had one: the old feed goes, so a mirror is told the site
 * has no feed rather than "nothing changed" while the data did.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { syncMirror } from "../../src/feed/sync-mirror.ts";
import { startPreview } from "../../src/serve/preview-server.ts";
import { build } from "../site/built-site.ts";

type Subject = Record<string, unknown> & { naziv_subjekta: string };

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "subjekti-feed-off-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

it("build --no-feed removes the feed an earlier build wrote, and sync then refuses the site instead of saying nothing changed", async () => {
  const list = (JSON.parse(await readFile("data/subjekti.json", "utf8")) as Subject[]).slice(0, 50);
  const [data, site, mirror] = [join(root, "data"), join(root, "site"), join(root, "mirror.ndjson")];
  await mkdir(data);
  await writeFile(join(data, "subjekti.json"), JSON.stringify(list));
  await build(data, site, { feed: true });
  const preview = await startPreview({ dir: site, port: 0, host: "127.0.0.1" });
  try {
    const origin = new URL(preview.url).origin;
    expect(await syncMirror(origin, mirror)).toMatchObject({ to: 1 });

    list[0] = { ...(list[0] as Subject), naziv_subjekta: "Preimenovani subjekt" };
    await writeFile(join(data, "subjekti.json"), JSON.stringify(list));
    const report = await build(data, site, { feed: false });
    expect(report.feed).toBeUndefined();
    expect(existsSync(join(site, "changes"))).toBe(false);
    await expect(syncMirror(origin, mirror)).rejects.toThrow(/state\.json answered 404: .* built with its change feed\?/);
  } finally {
    await preview.close();
  }
});
