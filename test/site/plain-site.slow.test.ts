/**
 * A site of plain files (`build --links files`) served by a plain static server: serve-handler with
 * no rewrites and no configuration, on loopback. A client starts at the entry page and follows
 * `next` to the end. Rebuilds switch the tree by one rename and reuse unchanged pages.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { cp, lstat, mkdir, readFile, readlink, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import handler from "serve-handler";
import { describe, expect, it } from "vitest";
import { filePagePath } from "../../src/core/file-links.ts";
import type { Subject } from "../../src/core/render-page.ts";
import { runCli } from "../run-cli.ts";
import { snapshotTree, useTempDir } from "../file-trees.ts";
import { build } from "./built-site.ts";

const SAMPLE = "data";
const FIXTURE = "test/fixtures/small-site";

const dir = useTempDir();

/** A plain file server for `dir` on a free loopback port: serve-handler as it comes, nothing rewritten. */
async function serveFiles(dir: string): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => void handler(req, res, { public: dir }));
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((done) => server.close(() => done())) };
}

interface Page {
  readonly count: number;
  readonly next: string | null;
  readonly previous: string | null;
  readonly results: Subject[];
}

/** Pages from the entry page to the end by `next`, as a client does; every response's Content-Type. */
async function walk(entry: string): Promise<{ pages: Page[]; types: Set<string> }> {
  const pages: Page[] = [];
  const types = new Set<string>();
  for (let url: string | null = entry; url !== null; ) {
    const response: Response = await fetch(url);
    expect(response.status, url).toBe(200);
    types.add(response.headers.get("content-type") ?? "");
    const page = (await response.json()) as Page;
    pages.push(page);
    url = page.next;
    if (pages.length > 10_000) throw new Error("next never ends");
  }
  return { pages, types };
}

describe("the sample's plain files behind a plain static server", () => {
  it("following next from /api/subjekti/index.json gives every subject once, in id order, each page application/json", async () => {
    // The links carry the origin, so the server listens before the build.
    const out = join(dir.path, "sample-site");
    const server = await serveFiles(out);
    try {
      const run = await runCli([
        "build",
        "--data",
        SAMPLE,
        "--out",
        out,
        "--links",
        "files",
        "--base-url",
        server.origin,
        "--cache-dir",
        `${out}.cache`,
        "--quiet",
      ]);
      expect(run.code, run.stderr).toBe(0);
      const { pages, types } = await walk(`${server.origin}/api/subjekti/index.json`);

      const source = JSON.parse(await readFile(join(SAMPLE, "subjekti.json"), "utf8")) as Subject[];
      const ids = source.map((s) => s.id).sort((a, b) => a - b);
      expect(pages.flatMap((p) => p.results.map((s) => s.id))).toEqual(ids);
      expect(pages.every((p) => p.count === ids.length && p.results.length <= 20)).toBe(true);
      expect([...types].every((type) => type.split(";")[0] === "application/json")).toBe(true);
      // Links name sibling files on the base URL; previous goes back the same way.
      expect(pages[1]?.next).toBe(`${server.origin}/${filePagePath(20, 40)}`);
      expect(pages[1]?.previous).toBe(`${server.origin}/${filePagePath(20, 0)}`);
      expect(pages[0]?.previous).toBeNull();
      // The entry page is page 0 of limit 20, byte for byte.
      const [entry, first] = await Promise.all([
        fetch(`${server.origin}/api/subjekti/index.json`),
        fetch(`${server.origin}/${filePagePath(20, 0)}`),
      ]);
      expect(await entry.text()).toBe(await first.text());
    } finally {
      await server.close();
    }
  });

  it("each pre-rendered limit is its own chain of files (limit 7: the records the same, pages of 7)", async () => {
    const out = join(dir.path, "limits-site");
    const server = await serveFiles(out);
    try {
      await build(FIXTURE, out, { links: "files", limits: [7, 20], baseUrl: server.origin });
      const byTwenty = await walk(`${server.origin}/api/subjekti/index.json`);
      const bySeven = await walk(`${server.origin}/${filePagePath(7, 0)}`);
      expect(bySeven.pages.flatMap((p) => p.results)).toEqual(byTwenty.pages.flatMap((p) => p.results));
      expect(bySeven.pages.slice(0, -1).every((p) => p.results.length === 7)).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe("rebuilding a site of plain files", () => {
  it("--out is a link to one content-named tree; a one-record edit writes the page that shows it and hard-links the rest; the old tree goes", async () => {
    const data = join(dir.path, "edit-data");
    await cp(FIXTURE, data, { recursive: true });
    const out = join(dir.path, "edit-site");
    const options = { links: "files", limits: [5], baseUrl: "http://files.test" } as const;
    const first = await build(data, out, options);
    expect(first.written).toBe(first.files);
    const firstTree = await readlink(out);
    expect(firstTree).toMatch(/^edit-site\.[0-9a-f]{16}$/);

    const again = await build(data, out, options);
    expect({ written: again.written, unchanged: again.unchanged, tree: await readlink(out) }).toEqual({
      written: 0,
      unchanged: first.files,
      tree: firstTree,
    });

    // Edit the first record of a-first.json; the page that shows it, its own file and its page for people are the three files to change.
    const json = join(data, "a-first.json");
    const records = JSON.parse(await readFile(json, "utf8")) as Subject[];
    const target = records[0] as Subject;
    const pageFiles = (await readdir(join(out, "api/subjekti/5"))).map((name) => `api/subjekti/5/${name}`);
    const shows = [];
    for (const path of pageFiles) {
      const page = JSON.parse(await readFile(join(out, path), "utf8")) as Page;
      if (page.results.some((s) => s.id === target.id)) shows.push(path);
    }
    expect(shows).toEqual([expect.stringMatching(/^api\/subjekti\/5\/[1-9]\d*\.json$/)]);
    records[0] = { ...target, naziv_subjekta: `${target.naziv_subjekta} (uređeno)` };
    await writeFile(json, JSON.stringify(records));
    const edited = await build(data, out, options);

    const own = `api/subjekti/id/${Math.floor(target.id / 1000)}/${target.id}.json`;
    const person = `subjekti/${Math.floor(target.id / 1000)}/${target.id}.html`;
    expect(edited.changed).toEqual([...shows, own, person]);
    expect(edited.unchanged).toBe(first.files - 3);
    expect(edited.changes.urls).toEqual([`http://files.test/${shows[0]}`, `http://files.test/${own}`, `http://files.test/${person}`]);
    expect(JSON.parse(await readFile(join(out, own), "utf8"))).toEqual(records[0]);
    // The page for people names its own URL and its JSON file on the plain host, and shows the edit.
    const html = await readFile(join(out, person), "utf8");
    expect(html).toContain(`<link rel="canonical" href="http://files.test/${person}">`);
    expect(html).toContain(`<link rel="alternate" type="application/json" href="/${own}">`);
    expect(html).toContain("(uređeno)</bdi></h1>");
    const tree = await readlink(out);
    expect(tree).not.toBe(firstTree);
    expect((await readdir(dir.path)).filter((name) => /^edit-site\.(?!cache$)/.test(name))).toEqual([tree]);
  });

  it("an --out that holds anything else is refused before the data is read, and left as it was", async () => {
    const out = join(dir.path, "taken");
    await mkdir(out);
    await writeFile(join(out, "keep.txt"), "mine");
    const run = await runCli(["build", "--data", FIXTURE, "--out", out, "--links", "files", "--no-cache", "--quiet"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`--out ${out} already holds something else`);
    expect(await snapshotTree(out)).toEqual({ "keep.txt": Buffer.from("mine").toString("base64") });
  });

  it("a routed build refuses an --out that is a site of plain files (it would write into that tree)", async () => {
    const out = join(dir.path, "plain-then-routed");
    await build(FIXTURE, out, { links: "files", limits: [20] });
    const before = await snapshotTree(out);
    const run = await runCli(["build", "--data", FIXTURE, "--out", out, "--no-cache", "--quiet"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("is a site of plain files");
    expect(await snapshotTree(out)).toEqual(before);
    expect((await lstat(out)).isSymbolicLink()).toBe(true);
  });

  it("--links files without a limit is a usage error (no router derives pages)", async () => {
    const run = await runCli(["build", "--data", FIXTURE, "--out", join(dir.path, "none"), "--links", "files", "--limits", "none"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--links files needs at least one of --limits");
  });
});
