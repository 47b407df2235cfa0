/**
 * A rebuild over a site as the last build left it takes the change feed's snapshot as it is: every
 * file's identity is what that build recorded (unchanged-build.ts), so the snapshot it verified or
 * wrote has not changed, and hashing it again (286 MB at a million subjects) checks nothing. Any
 * file of the site changed since, and the snapshot is verified as always; a snapshot damaged by hand
 * is refused. Which way a build went is read from a counter (snapshotChecks), not the clock.
 */
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseState, type FeedState } from "../../src/feed/feed-format.ts";
import { snapshotChecks } from "../../src/feed/read-previous.ts";
import { build } from "../site/built-site.ts";

let root: string;
let data: string;
let site: string;
/** The data's subjects, renamed in place by the tests. */
let subjects: { naziv_subjekta: string }[];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "subjekti-intact-"));
  data = join(root, "data");
  site = join(root, "site");
  subjects = JSON.parse(await readFile("data/subjekti.json", "utf8")) as typeof subjects;
  await mkdir(data);
  await writeFile(join(data, "subjekti.json"), JSON.stringify(subjects));
  await build(data, site, { feed: true });
});
afterAll(() => rm(root, { recursive: true, force: true }));

/** Renames subject `i` and rebuilds over the site; the snapshots this build verified. */
async function renamed(i: number, name: string): Promise<number> {
  (subjects[i] as { naziv_subjekta: string }).naziv_subjekta = name;
  await writeFile(join(data, "subjekti.json"), JSON.stringify(subjects));
  const before = snapshotChecks.verified;
  const report = await build(data, site, { feed: true });
  expect(report.feed).toMatchObject({ changed: true, upserts: 1 });
  return snapshotChecks.verified - before;
}

describe("the change feed's snapshot on a rebuild in place", () => {
  it("is taken as it is when the site is as the last build left it", async () => {
    expect(await renamed(10, "Preimenovan prvi put")).toBe(0);
    expect(await renamed(11, "Preimenovan drugi put")).toBe(0);
  });

  it("is verified when a file of the site changed since (its identity: here its time)", async () => {
    const later = new Date(Date.now() + 60_000);
    await utimes(join(site, "robots.txt"), later, later);
    expect(await renamed(12, "Preimenovan nakon promjene")).toBe(1);
    // That build recorded the site it left: the next is intact again.
    expect(await renamed(13, "Preimenovan opet")).toBe(0);
  });

  it("is refused when damaged by hand, the site left as it was", async () => {
    const state = parseState(await readFile(join(site, "changes/state.json"), "utf8")) as FeedState;
    const snapshot = join(site, "changes", state.snapshot.url);
    const bytes = await readFile(snapshot);
    await writeFile(snapshot, Buffer.concat([bytes.subarray(0, bytes.length - 2), Buffer.from("]\n")]));
    const manifest = await readFile(join(site, "_subjekti/manifest.json"));
    (subjects[14] as { naziv_subjekta: string }).naziv_subjekta = "Preimenovan nad oštećenim";
    await writeFile(join(data, "subjekti.json"), JSON.stringify(subjects));
    await expect(build(data, site, { feed: true })).rejects.toThrow(/the previous feed is damaged/);
    expect((await readFile(join(site, "_subjekti/manifest.json"))).equals(manifest)).toBe(true);
  });
});
