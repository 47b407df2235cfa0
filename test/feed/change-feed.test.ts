/**
 * The change feed end to end: real builds of a list edited between them, served by the real
 * preview over HTTP, followed by `subjekti sync` mirrors that start at different moments; then
 * the feed damaged in each way a file host can damage it.
 */
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readFile, rm, truncate, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { msg } from "../../src/common/messages/message.ts";
import { SubjektiError } from "../../src/core/errors.ts";
import { parseState, type FeedState } from "../../src/feed/feed-format.ts";
import { syncMirror } from "../../src/feed/sync-mirror.ts";
import { startPreview } from "../../src/serve/preview-server.ts";
import { runCli } from "../run-cli.ts";
import { freePort } from "../hosts/hosts.ts";
import { build } from "../site/built-site.ts";
import { feedLine } from "../../src/cli/build-report.ts";

type Subject = Record<string, unknown> & { id: number; jedinstvena_oznaka: string; naziv_subjekta: string };

const sample = (JSON.parse(await readFile("data/subjekti.json", "utf8")) as Subject[]).slice(0, 400);

/** The ten versions of the list: adds, deletes, renames, and one build with no change (version 5 = version 4). */
function versions(): Subject[][] {
  const lists: Subject[][] = [sample.map((s) => ({ ...s }))];
  const edit = (f: (list: Subject[]) => Subject[]): void => void lists.push(f(structuredClone(lists.at(-1) as Subject[])));
  edit((l) => l.filter((_, i) => i !== 3 && i !== 200));
  edit((l) => l.map((s, i) => (i % 50 === 7 ? { ...s, naziv_subjekta: `${s.naziv_subjekta} (preimenovan)` } : s)));
  edit((l) => [
    ...l,
    { ...(l[0] as Subject), id: 900_001, jedinstvena_oznaka: "900001", naziv_subjekta: "Novi subjekt \u2028 s razdjelnikom" },
  ]);
  edit((l) => l);
  edit((l) => l.slice(10));
  edit((l) => l.map((s, i) => (i === 0 ? { ...s, institucija_grad: "Šibenik" } : s)));
  edit((l) => [...l, ...[1, 2, 3].map((n) => ({ ...(l[1] as Subject), id: 900_001 + n, jedinstvena_oznaka: String(900_001 + n) }))]);
  edit((l) => l.filter((s) => s.id % 7 !== 0));
  edit((l) => l.map((s, i) => (i === l.length - 1 ? { ...s, naziv_subjekta: "Zadnji" } : s)));
  return lists;
}

const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

describe("the change feed, built ten times and followed by sync mirrors over HTTP", () => {
  let root: string;
  let site: string;
  let preview: Awaited<ReturnType<typeof startPreview>>;
  let origin: string;
  const sequences: number[] = [];
  const lines: string[] = [];
  const state = async (): Promise<FeedState> => parseState(await readFile(join(site, "changes/state.json"), "utf8")) as FeedState;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "subjekti-feed-"));
    site = join(root, "site");
    await mkdir(join(root, "data"));
    await build(join(root, "data"), site, { feed: true, cacheDir: null }).catch(() => undefined);
  });
  afterAll(async () => {
    await preview?.close();
    await rm(root, { recursive: true, force: true });
  });

  const buildVersion = async (list: Subject[], epoch: number): Promise<void> => {
    await writeFile(join(root, "data", "subjekti.json"), JSON.stringify(list));
    // Five diffs kept: a mirror from the first sequence is past the history by the end.
    const report = await build(join(root, "data"), site, {
      feed: true,
      cacheDir: null,
      sourceDateEpoch: String(epoch),
      keepChanges: { count: 5 },
    });
    sequences.push(report.feed?.sequence ?? -1);
    if (report.feed !== undefined) lines.push(feedLine(report.feed));
  };

  it("a build with no previous state starts sequence 1; a build with no change keeps its sequence", async () => {
    const lists = versions();
    await buildVersion(lists[0] as Subject[], 1_700_000_000);
    preview = await startPreview({ dir: site, port: 0, host: "127.0.0.1" });
    origin = new URL(preview.url).origin;
    expect(sequences).toEqual([1]);
    const mirrors = { a: join(root, "a.ndjson"), b: join(root, "b.ndjson"), c: join(root, "c.ndjson") };
    const first = await syncMirror(origin, mirrors.a);
    expect(first).toMatchObject({ from: null, to: 1, added: 400, removed: 0, changed: 0, snapshot: msg("sync.no-local-copy") });
    for (let v = 1; v < lists.length; v++) {
      await buildVersion(lists[v] as Subject[], 1_700_000_000 + v * 86_400);
      if (v === 3) expect(await syncMirror(origin, mirrors.b)).toMatchObject({ from: null, to: 4 });
      if (v === 8) expect(await syncMirror(origin, mirrors.c)).toMatchObject({ from: null, to: 8 });
    }
    // Version 5 is version 4 again: no new sequence.
    expect(sequences).toEqual([1, 2, 3, 4, 4, 5, 6, 7, 8, 9]);
    // What changed, in subjects, as the build's summary says it (two removed, eight renamed, one added, none).
    expect(lines.slice(1, 5).map((line) => line.replace(/ \(change feed.*$/, ""))).toEqual([
      "subjects since the last build: 0 added, 2 removed, 0 changed",
      "subjects since the last build: 0 added, 0 removed, 8 changed",
      "subjects since the last build: 1 added, 0 removed, 0 changed",
      "no subject changed since the last build",
    ]);
    const last = await state();
    const snapshot = await readFile(join(site, "changes", last.snapshot.url));
    expect(sha256(snapshot)).toBe(last.version);
    expect(last.oldest).toBe(5);
    // Mirror a is older than the history kept: the snapshot. b and c catch up through the diffs.
    // Each ends byte-identical to the last snapshot.
    const a = await syncMirror(origin, mirrors.a);
    expect(a).toMatchObject({ from: 1, to: 9, snapshot: msg("sync.older-than-kept", { local: 1, oldest: 5 }) });
    const b = await syncMirror(origin, mirrors.b);
    expect(b).toMatchObject({ from: 4, to: 9, snapshot: null });
    // Through the diffs, the counts are each diff's, summed (an id added then deleted counts in both).
    const kept = last.history.filter((entry) => entry.sequence >= 5);
    expect(b.removed).toBe(kept.reduce((sum, entry) => sum + entry.deletes, 0));
    expect(b.added + b.changed).toBe(kept.reduce((sum, entry) => sum + entry.upserts, 0));
    const c = await syncMirror(origin, mirrors.c);
    expect(c).toMatchObject({ from: 8, to: 9, added: 0, removed: 0, changed: 1, snapshot: null });
    for (const file of Object.values(mirrors)) expect((await readFile(file)).equals(snapshot), file).toBe(true);
    // The preview serves the feed as the hosts do: any origin may read it; the state briefly cached, the rest immutable.
    const answer = await fetch(`${origin}/changes/state.json`);
    expect([answer.headers.get("access-control-allow-origin"), answer.headers.get("cache-control")]).toEqual(["*", "public, max-age=60"]);
    const diff = await fetch(`${origin}/changes/9.json`);
    expect([diff.status, diff.headers.get("cache-control")]).toEqual([200, "public, max-age=31536000, immutable"]);
    // A second sync with nothing new does nothing.
    expect(await syncMirror(origin, mirrors.c)).toMatchObject({ from: 9, to: 9, added: 0, removed: 0, changed: 0, snapshot: null });
    // From the snapshot, the counts are the records that differ between the two ends.
    const end = lists.at(-1) as Subject[];
    const ids = new Set(end.map((s) => s.id));
    const startIds = new Set(lists[0]?.map((s) => s.id));
    expect(a.removed).toBe(lists[0]?.filter((s) => !ids.has(s.id)).length);
    expect(a.added).toBe(end.filter((s) => !startIds.has(s.id)).length);
  });

  it("the command: one line of counts, or --json; a site without a feed or out of reach -> exit 1, one line", async () => {
    const file = join(root, "cli.ndjson");
    const first = await runCli(["sync", origin, file]);
    expect(first).toMatchObject({ code: 0, stderr: "" });
    expect(first.stdout).toMatch(/^\+\d+ −0 ~0 subjects, sequence none → 9 \(snapshot: no verified local copy\)\n$/);
    const again = await runCli(["sync", origin, file, "--json"]);
    expect(JSON.parse(again.stdout)).toMatchObject({ from: 9, to: 9, added: 0, removed: 0, changed: 0, snapshot: null });
    // Why the snapshot was taken: in the maintainer's language on the line, in English in --json.
    const croatian = await runCli(["sync", origin, join(root, "cli-hr.ndjson"), "--lang", "hr"]);
    expect(croatian.stdout).toMatch(/^\+\d+ −0 ~0 subjek\w*, slijed nijedan → 9 \(snimka: nema provjerene lokalne kopije\)\n$/);
    const json = await runCli(["sync", origin, join(root, "cli-json.ndjson"), "--json", "--lang", "hr"]);
    expect(JSON.parse(json.stdout)).toMatchObject({ from: null, to: 9, snapshot: "no verified local copy" });
    const none = await runCli(["sync", `${origin}/api/`, file]);
    expect(none).toMatchObject({ code: 1, stdout: "" });
    expect(none.stderr).toMatch(
      /^subjekti: .*changes\/state\.json answered 404: is this the site's origin, and was it built with its change feed\?\n$/,
    );
    const closed = await freePort();
    const down = await runCli(["sync", `http://127.0.0.1:${closed}`, file]);
    expect(down).toMatchObject({ code: 1 });
    expect(down.stderr).toBe(`subjekti: cannot reach http://127.0.0.1:${closed}/changes/state.json: ECONNREFUSED\n`);
  });

  it("a copy edited by hand no longer hashes to its version -> replaced from the snapshot, byte-identical", async () => {
    const last = await state();
    const mirror = join(root, "edited.ndjson");
    await syncMirror(origin, mirror);
    await writeFile(mirror, (await readFile(mirror, "utf8")).replace("Zadnji", "Zadnja"));
    // Its bytes are not trusted as a base at all: every record comes from the snapshot.
    expect(await syncMirror(origin, mirror)).toMatchObject({
      from: null,
      added: last.count,
      changed: 0,
      snapshot: msg("sync.no-local-copy"),
    });
    const snapshot = await readFile(join(site, "changes", last.snapshot.url));
    expect((await readFile(mirror)).equals(snapshot)).toBe(true);
  });

  it("a missing diff -> the snapshot instead; a truncated snapshot or a state naming another hash -> refused, the copy untouched", async () => {
    const mirrorOf = async (name: string): Promise<string> => {
      const file = join(root, name);
      await syncMirror(origin, file);
      return file;
    };
    // A mirror one sequence behind: build a tenth version.
    const lagging = await mirrorOf("lagging.ndjson");
    const before = await readFile(lagging);
    const list = JSON.parse(await readFile(join(root, "data", "subjekti.json"), "utf8")) as Subject[];
    await buildVersion(list.slice(1), 1_700_000_000 + 20 * 86_400);
    const now = await state();
    expect(now.sequence).toBe(10);
    await unlink(join(site, "changes", "10.json"));
    expect(await syncMirror(origin, lagging)).toMatchObject({
      from: 9,
      to: 10,
      removed: 1,
      snapshot: { key: "sync.diff-status", params: expect.objectContaining({ status: 404 }) as unknown },
    });

    const stale = join(root, "stale.ndjson");
    await writeFile(stale, before);
    await writeFile(`${stale}.sync.json`, JSON.stringify({ url: origin, sequence: 9, version: sha256(before) }));
    const snapshotPath = join(site, "changes", now.snapshot.url);
    const whole = await readFile(snapshotPath);
    await truncate(snapshotPath, 100);
    await expect(syncMirror(origin, stale)).rejects.toThrow(SubjektiError);
    expect((await readFile(stale)).equals(before)).toBe(true);
    await writeFile(snapshotPath, whole);

    const statePath = join(site, "changes/state.json");
    const text = await readFile(statePath, "utf8");
    const other = "0".repeat(64);
    // A state whole in itself that names a version its snapshot's bytes do not hash to.
    const forged = {
      ...now,
      version: other,
      snapshot: { ...now.snapshot, url: `snapshots/${other}.ndjson`, sha256: other },
      history: now.history.map((entry, i) => (i === now.history.length - 1 ? { ...entry, to_version: other } : entry)),
    };
    await writeFile(join(site, "changes", forged.snapshot.url), whole);
    await writeFile(statePath, JSON.stringify(forged));
    await expect(syncMirror(origin, stale)).rejects.toThrow(/hashes to .* not the state's version/);
    expect((await readFile(stale)).equals(before)).toBe(true);
    // The build refuses to continue a feed whose state does not match its snapshot, and writes nothing.
    const manifest = await readFile(join(site, "_subjekti/manifest.json"));
    await expect(build(join(root, "data"), site, { feed: true, cacheDir: null })).rejects.toThrow(/the previous feed is damaged/);
    expect((await readFile(join(site, "_subjekti/manifest.json"))).equals(manifest)).toBe(true);
    await writeFile(statePath, text);
  });

  it("a build in CI with no dist/ of the last deploy continues the live feed through --previous <url>", async () => {
    const live = await state();
    const fresh = join(root, "ci-site");
    const list = JSON.parse(await readFile(join(root, "data", "subjekti.json"), "utf8")) as Subject[];
    await writeFile(join(root, "data", "subjekti.json"), JSON.stringify(list.slice(1)));
    const report = await build(join(root, "data"), fresh, { feed: true, cacheDir: null, previous: origin, sourceDateEpoch: "1800000000" });
    expect(report.feed).toMatchObject({ sequence: live.sequence + 1, changed: true, upserts: 0, deletes: 1 });
    const carried = parseState(await readFile(join(fresh, "changes/state.json"), "utf8")) as FeedState;
    // The live site lost diff 10 (above): the history carried ends there, and the new diff is the oldest.
    expect(carried.oldest).toBe(11);
    await expect(readFile(join(fresh, "changes/11.json"))).resolves.toBeDefined();
    // A mirror of the live site's version follows the CI build's feed through its one diff.
    const mirror = join(root, "ci.ndjson");
    await syncMirror(origin, mirror);
    const ci = await startPreview({ dir: fresh, port: 0, host: "127.0.0.1" });
    try {
      expect(await syncMirror(new URL(ci.url).origin, mirror)).toMatchObject({ from: 10, to: 11, removed: 1, snapshot: null });
      expect((await readFile(mirror)).equals(await readFile(join(fresh, "changes", carried.snapshot.url)))).toBe(true);
    } finally {
      await ci.close();
    }
  });

  it("a plain-file site (--links files) carries its feed into each new tree", async () => {
    const data = join(root, "plain-data");
    const plain = join(root, "plain");
    await mkdir(data);
    const lists = versions();
    const sequences: (number | undefined)[] = [];
    for (const v of [0, 1, 2]) {
      await writeFile(join(data, "subjekti.json"), JSON.stringify(lists[v]));
      const report = await build(data, plain, {
        feed: true,
        cacheDir: null,
        links: "files",
        limits: [20],
        sourceDateEpoch: String(1_700_000_000 + v),
      });
      sequences.push(report.feed?.sequence);
    }
    expect(sequences).toEqual([1, 2, 3]);
    // Through the link, the newest tree holds the whole history: the diffs of sequences 2 and 3 and the snapshot.
    const kept = parseState(await readFile(join(plain, "changes/state.json"), "utf8")) as FeedState;
    expect(kept).toMatchObject({ sequence: 3, oldest: 2 });
    const diff2 = JSON.parse(await readFile(join(plain, "changes/2.json"), "utf8")) as { to_version: string };
    const diff3 = JSON.parse(await readFile(join(plain, "changes/3.json"), "utf8")) as { from_version: string; to_version: string };
    expect(diff3.from_version).toBe(diff2.to_version);
    expect(sha256(await readFile(join(plain, "changes", kept.snapshot.url)))).toBe(diff3.to_version);
  });
});
