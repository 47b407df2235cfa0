/**
 * `subjekti serve` follows rebuilds of its --dir by default: a real `serve` process, then a build of
 * other data into the same directory (records edited, the last ones removed, the old shards swept).
 * At once after the build, a conditional request with the old ETag gets the new page (no 304 for
 * bytes the server no longer serves), and a page the rebuild removed answers as the new site does.
 * `--no-watch` keeps the old manifest, as documented.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { cp, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MANIFEST_PATH } from "../../src/core/layout.ts";
import { startPreview } from "../../src/serve/preview-server.ts";
import { buildSite } from "../../src/site/build-site.ts";
import { tempDir } from "../file-trees.ts";
import { FIXTURE_DATA, FIXTURE_OPTIONS } from "./fixture-site.ts";
import { firstLine, stopChild } from "./hosts.ts";
import { sendRaw } from "./raw-http.ts";
import { CLI_ENTRY } from "../cli-entry.ts";

const REPO = resolve(import.meta.dirname, "../..");

let root: string;
let site: string;
let serve: ChildProcess | undefined;

beforeEach(async () => {
  root = await tempDir("subjekti-serve-follows-");
  site = join(root, "site");
  await buildSite({ ...FIXTURE_OPTIONS, outDir: site });
});
afterEach(async () => {
  if (serve !== undefined) await stopChild(serve);
  serve = undefined;
  await rm(root, { recursive: true, force: true });
});

/** Starts `subjekti serve` on the site; resolves to its port once it prints its address. */
async function startServe(...args: string[]): Promise<number> {
  serve = spawn(process.execPath, [...CLI_ENTRY, "serve", "--dir", site, "--port", "0", "--allowed-hosts", "*", ...args], {
    cwd: REPO,
    stdio: ["ignore", "pipe", "pipe"],
  });
  return firstLine(
    serve,
    (line) => {
      const port = /^subjekti serve: http:\/\/127\.0\.0\.1:(\d+)\//.exec(line)?.[1];
      if (port === undefined) throw new Error(`not the address line: ${line}`);
      return Number(port);
    },
    60_000,
  );
}

/** Builds the fixture's data with the first record renamed and the last ten removed into the same site. */
async function rebuildWithOtherData(): Promise<void> {
  const records = JSON.parse(await readFile(join(FIXTURE_DATA, "subjekti.json"), "utf8")) as Record<string, unknown>[];
  const edited = records.slice(0, -10).map((record, i) => (i === 0 ? { ...record, naziv_subjekta: "Preimenovani subjekt" } : record));
  const data = join(root, "other-data");
  await mkdir(data);
  await writeFile(join(data, "subjekti.json"), JSON.stringify(edited));
  await buildSite({ ...FIXTURE_OPTIONS, dataDir: data, outDir: site });
}

const get = (port: number, target: string, headers: Record<string, string> = {}) =>
  sendRaw(port, "GET", target, { Host: "testserver", ...headers });

describe("subjekti serve follows rebuilds by default", () => {
  it("right after a rebuild: the old ETag gets the new page (200, not 304), and a page the rebuild removed answers as the new site", async () => {
    const port = await startServe();
    const before = await get(port, "/api/subjekti/?limit=7");
    const lastBefore = await get(port, "/api/subjekti/?limit=7&offset=49");
    expect(before.status).toBe(200);
    expect(JSON.parse(lastBefore.body.toString()).results).toHaveLength(4);
    const oldEtag = before.headers["etag"] ?? "";
    expect((await get(port, "/api/subjekti/?limit=7", { "If-None-Match": oldEtag })).status).toBe(304);

    await rebuildWithOtherData();
    const conditional = await get(port, "/api/subjekti/?limit=7", { "If-None-Match": oldEtag });
    expect(conditional.status).toBe(200);
    expect(conditional.headers["etag"]).not.toBe(oldEtag);
    expect(JSON.parse(conditional.body.toString()).results[0].naziv_subjekta).toBe("Preimenovani subjekt");
    const removed = JSON.parse((await get(port, "/api/subjekti/?limit=7&offset=49")).body.toString()) as {
      count: number;
      results: unknown[];
    };
    expect({ count: removed.count, results: removed.results.length }).toEqual({ count: 43, results: 0 });
  });

  it("a manifest replaced within the 100 ms between two looks: a conditional request looks first, so the old ETag gets the new page", async () => {
    const other = join(root, "other");
    const records = JSON.parse(await readFile(join(FIXTURE_DATA, "subjekti.json"), "utf8")) as Record<string, unknown>[];
    await mkdir(join(root, "renamed"));
    await writeFile(
      join(root, "renamed", "subjekti.json"),
      JSON.stringify(records.map((record, i) => (i === 0 ? { ...record, naziv_subjekta: "Preimenovani subjekt" } : record))),
    );
    await buildSite({ ...FIXTURE_OPTIONS, dataDir: join(root, "renamed"), outDir: other });
    // The other build's shards beside the served ones (content-named, they coexist); its manifest last, as a build writes it.
    await cp(join(other, "_subjekti"), join(site, "_subjekti"), { recursive: true, filter: (path) => !path.endsWith("manifest.json") });
    const preview = await startPreview({ dir: site, port: 0, host: "127.0.0.1" });
    try {
      const port = Number(new URL(preview.url).port);
      const before = await get(port, "/api/subjekti/?limit=7");
      await rename(join(other, MANIFEST_PATH), join(site, MANIFEST_PATH));
      const conditional = await get(port, "/api/subjekti/?limit=7", { "If-None-Match": before.headers["etag"] ?? "" });
      expect(conditional.status).toBe(200);
      expect(JSON.parse(conditional.body.toString()).results[0].naziv_subjekta).toBe("Preimenovani subjekt");
    } finally {
      await preview.close();
    }
  });

  it("--no-watch keeps the manifest it read (a restart follows the build)", async () => {
    const port = await startServe("--no-watch");
    const before = await get(port, "/api/subjekti/?limit=7");
    await rebuildWithOtherData();
    await new Promise((wake) => setTimeout(wake, 300));
    const conditional = await get(port, "/api/subjekti/?limit=7", { "If-None-Match": before.headers["etag"] ?? "" });
    expect(conditional.status).toBe(304);
  });
});
