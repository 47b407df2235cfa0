/**
 * The preview beyond the table: following `next` through the sample data (acceptance 5), links on
 * its own origin, following rebuilds, refusing a missing or foreign site, and bad requests that
 * must never 500 nor read a byte outside the site directory.
 */
import { mkdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSite } from "../../src/site/build-site.ts";
import { SubjektiError } from "../../src/core/errors.ts";
import { MANIFEST_PATH } from "../../src/core/layout.ts";
import { startPreview } from "../../src/serve/preview-server.ts";
import { tempDir } from "../file-trees.ts";
import { buildFixture, FIXTURE_OPTIONS, RECORDS } from "./fixture-site.ts";
import { sendRaw } from "./raw-http.ts";

const REPO = join(import.meta.dirname, "../..");

interface Page {
  count: number;
  next: string | null;
  previous: string | null;
  results: { id: number }[];
}

describe("acceptance 5: following next through the sample data", () => {
  let root: string;
  let preview: Awaited<ReturnType<typeof startPreview>>;
  let ids: number[];

  beforeAll(async () => {
    root = await tempDir("subjekti-sample-");
    const out = join(root, "site");
    // Not strict: the sample holds a few real OIBs whose check digit fails (warnings).
    await buildSite({
      ...FIXTURE_OPTIONS,
      dataDir: join(REPO, "data"),
      outDir: out,
      limits: [20],
      maxLimit: 1000,
      baseUrl: "http://localhost:8080",
      strict: false,
    });
    preview = await startPreview({ dir: out, port: 0, host: "127.0.0.1" });
    const sample = JSON.parse(await readFile(join(REPO, "data/subjekti.json"), "utf8")) as { id: number }[];
    ids = sample.map((s) => s.id).sort((a, b) => a - b);
  });
  afterAll(async () => {
    await preview?.close();
    await rm(root, { recursive: true, force: true });
  });

  it.each([20, 1000, 37])("limit=%i: every subject exactly once, in id order, every link on the preview's origin", async (limit) => {
    const origin = new URL(preview.url).origin;
    const seen: number[] = [];
    let url: string | null = `${preview.url}?limit=${limit}`;
    let pages = 0;
    while (url !== null) {
      expect(url.startsWith(`${origin}/api/subjekti/?`)).toBe(true);
      const response: Response = await fetch(url);
      expect(response.status).toBe(200);
      const body = (await response.json()) as Page;
      expect(body.count).toBe(ids.length);
      if (body.previous !== null) expect(body.previous.startsWith(`${origin}/api/subjekti/?`)).toBe(true);
      seen.push(...body.results.map((r) => r.id));
      url = body.next;
      pages += 1;
    }
    expect(pages).toBe(Math.ceil(ids.length / limit));
    expect(seen).toEqual(ids);
  });
});

describe("the preview's origin, rebuilds and refusals", () => {
  let site: Awaited<ReturnType<typeof buildFixture>>;
  let preview: Awaited<ReturnType<typeof startPreview>>;
  let port: number;

  beforeAll(async () => {
    site = await buildFixture();
    preview = await startPreview({ dir: site.dir, port: 0, host: "127.0.0.1" });
    port = Number(new URL(preview.url).port);
  });
  afterAll(async () => {
    await preview?.close();
    await site?.remove();
  });

  const nextLink = async (headers: Record<string, string>): Promise<string | null> =>
    (JSON.parse((await sendRaw(port, "GET", "/api/subjekti/?limit=3", headers)).body.toString()) as Page).next;

  it.each([
    ["Host: example.org:8000 -> links on http://example.org:8000", { Host: "example.org:8000" }, "http://example.org:8000"],
    ["Host: LOCALHOST -> kept as sent (Django's get_host)", { Host: "LOCALHOST" }, "http://LOCALHOST"],
    ["Host: [::1]:9 -> an IPv6 literal", { Host: "[::1]:9" }, "http://[::1]:9"],
    ["Host: evil.org/x?y -> not a host: the listening address", { Host: "evil.org/x?y" }, "LISTEN"],
    ["Host: a b -> the listening address", { Host: "a b" }, "LISTEN"],
  ])("%s", async (_name, headers, origin) => {
    const expected = origin === "LISTEN" ? `http://127.0.0.1:${port}` : origin;
    expect(await nextLink(headers)).toBe(`${expected}/api/subjekti/?limit=3&offset=3`);
  });

  it("follows a rebuild of its directory (new manifest, old shards removed)", async () => {
    const before = JSON.parse((await sendRaw(port, "GET", "/api/subjekti/?limit=7", { Host: "testserver" })).body.toString()) as Page;
    expect(before.count).toBe(RECORDS.length);
    const data = await tempDir("subjekti-rebuild-");
    try {
      await writeFile(join(data, "subjekti.json"), JSON.stringify(RECORDS.slice(0, 9)));
      await buildSite({ ...FIXTURE_OPTIONS, dataDir: data, outDir: site.dir });
      await new Promise((done) => setTimeout(done, 150));
      for (const target of ["/api/subjekti/?limit=7", "/api/subjekti/?limit=5&offset=3", "/api/subjekti/"]) {
        const answer = await sendRaw(port, "GET", target, { Host: "testserver" });
        expect(answer.status, target).toBe(200);
        expect((JSON.parse(answer.body.toString()) as Page).count, target).toBe(9);
      }
    } finally {
      await rm(data, { recursive: true, force: true });
      await buildSite({ ...FIXTURE_OPTIONS, outDir: site.dir });
    }
  });

  it("refuses a missing directory, a directory without a site, and a site of another version", async () => {
    const root = await tempDir("subjekti-refuse-");
    try {
      await expect(startPreview({ dir: join(root, "nope"), port: 0, host: "127.0.0.1" })).rejects.toThrow(
        /nope holds no built site \(no such directory\): pass --dir <the built site>, or run `npm run build` first/,
      );
      await expect(startPreview({ dir: root, port: 0, host: "127.0.0.1" })).rejects.toThrow(
        /holds no built site \(_subjekti\/manifest\.json is missing\): pass --dir <the built site>, or run `npm run build` first/,
      );
      await mkdir(join(root, "_subjekti"));
      await writeFile(join(root, MANIFEST_PATH), JSON.stringify({ layout: 1, version: "0.0.1" }));
      const error = await startPreview({ dir: root, port: 0, host: "127.0.0.1" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SubjektiError);
      expect((error as Error).message).toMatch(/built by subjekti 0\.0\.1 .*run `npm run build` again/);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe("bad requests never 500 and never leave the site directory", () => {
  const SECRET = "SECRET-OUTSIDE-THE-SITE";
  let root: string;
  let preview: Awaited<ReturnType<typeof startPreview>>;
  let port: number;

  beforeAll(async () => {
    root = await tempDir("subjekti-escape-");
    await buildSite({ ...FIXTURE_OPTIONS, outDir: join(root, "site") });
    await writeFile(join(root, "secret.txt"), SECRET);
    await writeFile(join(root, "site", "extra.txt"), "a static file");
    await symlink(join(root, "secret.txt"), join(root, "site", "link.txt"));
    preview = await startPreview({ dir: join(root, "site"), port: 0, host: "127.0.0.1" });
    port = Number(new URL(preview.url).port);
  });
  afterAll(async () => {
    await preview?.close();
    await rm(root, { recursive: true, force: true });
  });

  it.each(
    [
      "/../secret.txt",
      "/%2e%2e/secret.txt",
      "/..%2fsecret.txt",
      "/..%2Fsecret.txt",
      "/%2e%2e%2fsecret.txt",
      "/_subjekti/..%2f..%2fsecret.txt",
      "/_subjekti/%2e%2e/%2e%2e/secret.txt",
      "/..\\secret.txt",
      "/%5c..%5csecret.txt",
      "//../secret.txt",
      "/link.txt",
      "/%00",
      "/index.html%00.json",
      "/_subjekti/%00/manifest.json",
      "/%E0%A4%A",
      "/%",
      `/${"a".repeat(5000)}`,
      `/_subjekti/${"b/".repeat(2000)}x.json`,
      "http://evil.example/../secret.txt",
      "*",
      `/api/subjekti/?${"x=%ZZ&".repeat(2000)}`,
    ].map((target) => ({ target, label: target.length > 60 ? `${target.slice(0, 40)}… (${target.length} chars)` : target })),
  )("GET and HEAD $label -> no 500, no byte from outside", async ({ target }) => {
    for (const method of ["GET", "HEAD"]) {
      const answer = await sendRaw(port, method, target, { Host: "testserver" });
      expect(answer.status, `${method} ${target}`).not.toBe(500);
      expect(answer.status, `${method} ${target}`).toBeLessThan(500);
      expect(answer.body.toString("latin1")).not.toContain(SECRET);
    }
  });

  it("the static site is still served (a file of its own, a manifest file) beside the landing page at /", async () => {
    expect((await sendRaw(port, "GET", "/extra.txt", { Host: "testserver" })).body.toString()).toBe("a static file");
    expect((await sendRaw(port, "GET", "/", { Host: "testserver" })).body.toString()).toMatch(/^<!doctype html>/);
    expect((await sendRaw(port, "GET", "/_subjekti/manifest.json", { Host: "testserver" })).status).toBe(200);
  });

  it("a request line Node cannot parse -> 400 that says so; a huge header block -> 431", async () => {
    const garbage = await sendRaw(port, "GET", "/ HTTP/9\r\nx", {});
    expect(garbage.status).toBe(400);
    expect(garbage.body.toString()).toMatch(/Node's HTTP parser refused it/);
    const huge = await sendRaw(port, "GET", "/api/subjekti/", { "X-Big": "x".repeat(1_100_000) });
    expect(huge.status).toBe(431);
  });
});
