/**
 * `subjekti check` against the Cloudflare Worker under `wrangler dev` (workerd, the repo's
 * wrangler.jsonc) serving a copy of a built fixture site: it passes; one byte of one page changed
 * in the deployed copy behind the check's back (wrangler dev reloads its assets) fails it, naming
 * the page's URL and the byte.
 */
import { cp, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MANIFEST_PATH, pagePath } from "../../src/core/layout.ts";
import type { Manifest } from "../../src/core/manifest.ts";
import { buildSite } from "../../src/site/build-site.ts";
import { runCli } from "../run-cli.ts";
import { tempDir } from "../file-trees.ts";
import { FIXTURE_OPTIONS } from "../hosts/fixture-site.ts";
import { freePort } from "../hosts/hosts.ts";
import { sendRaw } from "../hosts/raw-http.ts";
import { startWranglerDev, type WranglerDev } from "../hosts/wrangler-dev.ts";

let root: string;
let built: string;
let deployed: string;
let manifest: Manifest;
let port: number;
let origin: string;
let dev: WranglerDev | undefined;

beforeAll(async () => {
  root = await tempDir("subjekti-check-wrangler-");
  port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  built = join(root, "built");
  deployed = join(root, "deployed");
  // Built for the Worker's origin, so it serves the pre-rendered files themselves.
  await buildSite({ ...FIXTURE_OPTIONS, baseUrl: origin, outDir: built });
  manifest = JSON.parse(await readFile(join(built, MANIFEST_PATH), "utf8")) as Manifest;
  await cp(built, deployed, { recursive: true });
  dev = await startWranglerDev(deployed, port);
});

afterAll(async () => {
  await dev?.stop();
  await rm(root, { recursive: true, force: true });
});

const check = (...args: string[]) => runCli(["check", origin, "--dir", built, "--concurrency", "4", ...args]);

describe("subjekti check against the Worker under wrangler dev", () => {
  it("passes: every pre-rendered page, the derived sample and the contract's answers match (exit 0)", async () => {
    const run = await check();
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(
      new RegExp(`^${origin} against ${built} \\(53 subjects\\): \\d+ requests \\(.*22 pre-rendered.*\\) in [\\d.]+ s: all match\\n$`),
    );
    expect(run.code).toBe(0);
  });

  it("one byte of one deployed page file changed: exit 1, naming the page's URL and the byte", async () => {
    const path = join(deployed, pagePath(manifest, "plain", 7, 2) as string);
    const changed = await readFile(path);
    changed[100] = (changed[100] as number) ^ 1;
    await writeFile(path, changed);
    // wrangler dev watches its assets: wait until the Worker reads the changed file.
    const target = "/api/subjekti/?limit=7&offset=14";
    for (let tries = 0; !(await sendRaw(port, "GET", target, { Host: `127.0.0.1:${port}` })).body.equals(changed); tries++) {
      if (tries === 60) throw new Error("wrangler dev did not pick up the changed file in 30 s");
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const run = await check();
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`GET ${origin}${target} (pre-rendered):\n  body: first difference at byte 100\n`);
    expect(run.stdout).toMatch(/: 1 differ\n$/);
  });
});
