/**
 * A rebuild of unchanged data over the site the last build left does nothing (unchanged-build.ts):
 * no file or directory of the site or of its build cache changes (bytes, inode, modification
 * time), and it prints exactly what the full rebuild prints (taken here by removing the record
 * the last build left, which is what a build finds when it has none). Every input that changes an
 * output, and every change to the site by hand, takes the full path, which the site then shows.
 *
 * The sites are the sample's first SUBJECTS records with its description: two blocks of the build
 * cache (1,000 records each) and two chunks, its OIB warnings among them (records 292, 297, 528, …)
 * and the record the byte's case edits (Blatski fižuli, the 72nd). What the tests tell apart (the
 * unchanged path or the full one, what each prints and touches) is the same at any size; the
 * whole sample made each of the file's thirty-odd builds some 0.7 s of CPU dearer.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { cp, lstat, mkdir, readdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chunkTag } from "../../src/core/cache-tags.ts";
import { MANIFEST_PATH } from "../../src/core/layout.ts";
import { cacheDirOf } from "../../src/data/read/build-cache.ts";
import { runCli, type CliRun } from "../run-cli.ts";
import { READ_BATCH, tempDir } from "../file-trees.ts";
import { forEachBounded } from "../../src/common/for-each-bounded.ts";

const SAMPLE = join(import.meta.dirname, "../../data");
const SUBJECTS = 1_200;
let root: string;
/** The data directory every site copies: the sample's description and its first SUBJECTS records, as the sample writes them. */
let sample: string;
beforeAll(async () => {
  root = await tempDir("subjekti-unchanged-");
  sample = join(root, "sample");
  await mkdir(sample);
  await cp(join(SAMPLE, "datapackage.json"), join(sample, "datapackage.json"));
  const records = JSON.parse(await readFile(join(SAMPLE, "subjekti.json"), "utf8")) as unknown[];
  await writeFile(join(sample, "subjekti.json"), `${JSON.stringify(records.slice(0, SUBJECTS), null, 1)}\n`);
});
afterAll(() => rm(root, { recursive: true, force: true }));

/** A site of its own: a copy of the sample's data directory, an output, a build cache. */
async function freshSite(name: string): Promise<{ data: string; out: string; cache: string }> {
  const data = join(root, name, "data");
  await mkdir(join(root, name), { recursive: true });
  await cp(sample, data, { recursive: true });
  return { data, out: join(root, name, "site"), cache: join(root, name, "cache") };
}

/** `subjekti build` of the site, with `args` added; it must succeed. */
async function build(site: { data: string; out: string; cache: string }, args: readonly string[] = [], env = {}): Promise<CliRun> {
  const run = await runCli(["build", "--data", site.data, "--out", site.out, "--cache-dir", site.cache, "--quiet", ...args], env);
  expect(run.code, run.stderr).toBe(0);
  return run;
}

/** What the build printed, its seconds aside. */
function printed(run: CliRun): { stdout: string; stderr: string } {
  const untimed = (text: string): string =>
    text.replace(/ in \d+(\.\d+)?s$/gm, " in <t>s").replace(/"(seconds|read|write)": [\d.e-]+/g, '"$1": <t>');
  return { stdout: untimed(run.stdout), stderr: untimed(run.stderr) };
}

/** Every entry under the site and its cache: its kind, inode, size, modification time and (a file's) bytes' hash. */
async function identities(...dirs: string[]): Promise<Record<string, string>> {
  const seen: Record<string, string> = {};
  const identify = async (path: string): Promise<void> => {
    const info = await lstat(path, { bigint: true });
    const bytes = info.isFile()
      ? createHash("sha256")
          .update(await readFile(path))
          .digest("hex")
      : "";
    seen[path] = `${info.isDirectory() ? "d" : "f"} ${info.ino} ${info.size} ${info.mtimeNs} ${bytes}`;
  };
  // Every path first (a directory's recursive listing, which follows no link, as lstat does not),
  // then READ_BATCH at a time (file-trees.ts): one after another, the site's and cache's ~750 entries took most of a second
  // a call, and this file makes some thirty.
  const paths = [...dirs];
  for (const dir of dirs) paths.push(...(await readdir(dir, { recursive: true })).map((name) => join(dir, name)));
  await forEachBounded(paths, READ_BATCH, identify);
  return seen;
}

/** The record the last build left beside the cache: removed, the next build takes the full path, as before there was one. */
const recordOf = (site: { out: string; cache: string }): string => `${cacheDirOf(site.cache, site.out)}.last-build.json`;

/**
 * The full rebuild of the site as it is, then the unchanged rebuild after it: the second changes
 * nothing in the site or its cache, and prints what the first printed. Both returned.
 */
async function unchangedAsFull(
  site: { data: string; out: string; cache: string },
  args: readonly string[] = [],
): Promise<{ full: CliRun; unchanged: CliRun }> {
  await rm(recordOf(site), { force: true });
  const full = await build(site, args);
  const before = await identities(site.out, site.cache);
  const unchanged = await build(site, args);
  expect(await identities(site.out, site.cache)).toEqual(before);
  expect(printed(unchanged)).toEqual(printed(full));
  return { full, unchanged };
}

describe("a rebuild of unchanged data", () => {
  it("after a first build: writes nothing in the site or its cache, and prints what the full rebuild prints (warnings, summary, feed)", async () => {
    const site = await freshSite("first");
    await build(site);
    const before = await identities(site.out, site.cache);
    const second = await build(site);
    expect(await identities(site.out, site.cache)).toEqual(before);
    expect(second.stderr).toMatch(/warning: oib/);
    expect(second.stdout).toMatch(
      new RegExp(`^built ${SUBJECTS} subjects \\(${SUBJECTS} unchanged, from the build cache\\) .* 0 written \\(0 B\\)`),
    );
    // The full rebuild of the same site, then the unchanged one after it.
    const { full } = await unchangedAsFull(site);
    expect(printed(second)).toEqual(printed(full));
  });

  it("--json: the same report as the full rebuild's, its times aside", async () => {
    const site = await freshSite("json");
    await build(site, ["--json"]);
    const { unchanged } = await unchangedAsFull(site, ["--json"]);
    expect(JSON.parse(unchanged.stdout)).toMatchObject({ written: 0, changed: { urls: [], tags: [] } });
  });

  it("under a baseline (validate --accept): the accepted warnings counted as the full rebuild counts them", async () => {
    const site = await freshSite("accepted");
    expect((await runCli(["validate", "--data", site.data, "--accept"])).code).toBe(0);
    await build(site);
    const { full } = await unchangedAsFull(site);
    expect(full.stderr).toMatch(/accepted/);
  });

  it("from CSV (not read in cached blocks): the subjects reused as the full rebuild says (none)", async () => {
    const site = await freshSite("csv");
    expect((await runCli(["export", "--data", site.data, "--out", join(root, "subjekti.csv")])).code).toBe(0);
    await rm(join(site.data, "subjekti.json"));
    await cp(join(root, "subjekti.csv"), join(site.data, "subjekti.csv"));
    await build(site);
    const second = await build(site);
    const { full } = await unchangedAsFull(site);
    expect(printed(second)).toEqual(printed(full));
  });

  it("--no-feed: the same, and a site without a feed stays without", async () => {
    const site = await freshSite("no-feed");
    await build(site, ["--no-feed"]);
    await unchangedAsFull(site, ["--no-feed"]);
    expect(existsSync(join(site.out, "changes"))).toBe(false);
  });
});

describe("a rebuild that must take the full path", () => {
  /** A built site whose next build would do nothing (checked), and that build's --json report once `change` is made. */
  async function after(name: string, change: (site: { data: string; out: string; cache: string }) => Promise<void>, args: string[] = []) {
    const site = await freshSite(name);
    await build(site);
    const before = await identities(site.out, site.cache);
    await build(site);
    expect(await identities(site.out, site.cache), "the rebuild before the change did nothing").toEqual(before);
    await change(site);
    const run = await build(site, ["--json", ...args]);
    return { site, report: JSON.parse(run.stdout) as { written: number; removed: number; changed: { tags: string[] } } };
  }

  it("a data byte changed, the file's size and modification time as they were: the changed record is written", async () => {
    const { report } = await after("byte", async ({ data }) => {
      const file = join(data, "subjekti.json");
      const { atime, mtime, size } = await stat(file);
      const text = await readFile(file, "utf8");
      const at = text.indexOf("Blatski fižuli");
      expect(at).toBeGreaterThan(0);
      await writeFile(file, `${text.slice(0, at)}Clatski${text.slice(at + "Blatski".length)}`);
      await utimes(file, atime, mtime);
      expect((await stat(file)).size).toBe(size);
    });
    expect(report.written).toBeGreaterThan(0);
    expect(report.changed.tags).toContain(chunkTag(0));
  });

  it("an option changed (--cache-control): the manifest is written", async () => {
    const { site, report } = await after("option", async () => undefined, ["--cache-control", "public, max-age=60"]);
    expect(report.written).toBeGreaterThan(0);
    expect(JSON.parse(await readFile(join(site.out, MANIFEST_PATH), "utf8"))).toMatchObject({ cacheControl: "public, max-age=60" });
  });

  it("a directory the manifest names removed by hand: it is written again", async () => {
    let removed = "";
    const { site, report } = await after("removed-dir", async ({ out }) => {
      const manifest = JSON.parse(await readFile(join(out, MANIFEST_PATH), "utf8")) as { dirs: Record<string, string> };
      const [key, hash] = Object.entries(manifest.dirs).find(([k]) => k.startsWith("pages/")) ?? ["", ""];
      removed = join(out, "_subjekti", `${key}.${hash}`);
      await rm(removed, { recursive: true });
    });
    expect(report.written).toBeGreaterThan(0);
    expect(existsSync(removed)).toBe(true);
    expect(site).toBeDefined();
  });

  it("a file added to the data root by hand: the full path removes it", async () => {
    const { site, report } = await after("stray", async ({ out }) => {
      await writeFile(join(out, "_subjekti", "stray.txt"), "by hand\n");
    });
    expect(report.removed).toBe(1);
    expect(existsSync(join(site.out, "_subjekti", "stray.txt"))).toBe(false);
  });

  it("the sitemap edited by hand: written again", async () => {
    const { site } = await after("sitemap", async ({ out }) => {
      await writeFile(join(out, "sitemap.xml"), "by hand\n");
    });
    expect(await readFile(join(site.out, "sitemap.xml"), "utf8")).toMatch(/^<\?xml/);
  });

  it("--no-feed over a site with a feed: the feed is removed; the next --no-feed rebuild does nothing", async () => {
    const { site } = await after("feed-off", async () => undefined, ["--no-feed"]);
    expect(existsSync(join(site.out, "changes"))).toBe(false);
    const before = await identities(site.out, site.cache);
    await build(site, ["--no-feed"]);
    expect(await identities(site.out, site.cache)).toEqual(before);
  });

  it("warnings accepted meanwhile (validate --accept): counted, not listed", async () => {
    const { site } = await after("accept", async ({ data }) => {
      expect((await runCli(["validate", "--data", data, "--accept"])).code).toBe(0);
    });
    const run = await build(site);
    expect(run.stderr).not.toMatch(/warning: oib/);
    expect(run.stderr).toMatch(/accepted/);
  });

  it("with the feed off and no SOURCE_DATE_EPOCH, the data's file dated another day (its bytes the same): the new date is published", async () => {
    const site = await freshSite("dated");
    const env = { SOURCE_DATE_EPOCH: undefined };
    await build(site, ["--no-feed"], env);
    await build(site, ["--no-feed"], env);
    const file = join(site.data, "subjekti.json");
    const day = new Date("2020-02-02T12:00:00Z");
    await utimes(file, day, day);
    await build(site, ["--no-feed"], env);
    expect(JSON.parse(await readFile(join(site.out, MANIFEST_PATH), "utf8"))).toMatchObject({ published: "2020-02-02" });
  });
});
