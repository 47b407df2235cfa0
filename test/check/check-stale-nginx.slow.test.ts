/**
 * `subjekti check` against real nginx whose configuration is older than the data: after a data
 * change every page folder has a new name, so the old configuration sends nothing from files and
 * `subjekti serve` (which follows the build) answers everything right. The check must say so and
 * fail, naming the cause and the fix, rather than "all match".
 */
import { cp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MANIFEST_PATH } from "../../src/core/layout.ts";
import type { Manifest } from "../../src/core/manifest.ts";
import { buildSite } from "../../src/site/build-site.ts";
import { tempDir } from "../file-trees.ts";
import { FIXTURE_DATA, FIXTURE_OPTIONS } from "../hosts/fixture-site.ts";
import { freePort } from "../hosts/hosts.ts";
import { NGINX, type NginxHost, nginxHost, REQUIRE_NGINX } from "../hosts/nginx-host.ts";
import { runCli } from "../run-cli.ts";

describe.skipIf(NGINX === null && !REQUIRE_NGINX)("subjekti check against nginx configured for the data before a change", () => {
  let root: string | undefined;
  let host: NginxHost | undefined;
  let origin = "";
  let site = "";
  let data = "";

  beforeAll(async () => {
    if (NGINX === null) throw new Error("SUBJEKTI_REQUIRE_NGINX=1 but no nginx on PATH or in /usr/sbin (apt-get install nginx-light)");
    root = await tempDir("subjekti-stale-nginx-");
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    [site, data] = [join(root, "site"), join(root, "data")];
    await mkdir(data);
    await cp(FIXTURE_DATA, data, { recursive: true });
    // Built for nginx's own origin, so that nginx answers the pre-rendered pages itself.
    await buildSite({ ...FIXTURE_OPTIONS, dataDir: data, baseUrl: origin, outDir: site });
    host = await nginxHost(site, join(root, "nginx"), [], port);
  }, 120_000);

  afterAll(async () => {
    await host?.stop();
    if (root !== undefined) await rm(root, { recursive: true, force: true });
  });

  it("passes while the configuration is the build's; after a data change and a rebuild, fails naming the stale configuration and the fix", async () => {
    const fresh = await runCli(["check", origin, "--dir", site, "--quiet"]);
    expect({ code: fresh.code, stderr: fresh.stderr }).toEqual({ code: 0, stderr: "" });
    expect(fresh.stdout).toMatch(/^all \d+ answers that nginx should send from the site's files came from files$/m);
    const before = await siteHash(site);

    // One subject renamed: every page folder and the downloads get new names; the configuration stays.
    const file = join(data, "subjekti.json");
    await writeFile(file, (await readFile(file, "utf8")).replace('"Grad Zagreb"', '"Grad Zagreb (preimenovan)"'));
    await buildSite({ ...FIXTURE_OPTIONS, dataDir: data, baseUrl: origin, outDir: site });
    const after = await siteHash(site);
    expect(after).not.toBe(before);
    // serve follows the build by itself: wait until its health check names the new one.
    while (!(await servedSite(host?.serve?.port)).startsWith(after.slice(0, 12))) await new Promise((wake) => setTimeout(wake, 50));

    const stale = await runCli(["check", origin, "--dir", site, "--quiet"]);
    expect(stale.code).toBe(1);
    // serve follows the build, so every answer is right: only where it came from is wrong.
    expect(stale.stdout).not.toMatch(/ \((pre-rendered|derived|published|download)\):$/m);
    expect(stale.stdout).toMatch(
      new RegExp(
        `^the nginx configuration was generated for another build \\(site ${before.slice(0, 12)}, this build is ${after.slice(0, 12)}\\), so none of the \\d+ answers that nginx should send from the site's files came from files \\(its page files are gone\\): regenerate it with subjekti nginx, then nginx -t and reload nginx$`,
        "m",
      ),
    );
    expect(stale.stdout).toMatch(/: all match, the nginx configuration is another build's$/m);
    expect(stale.stderr).toBe(
      `subjekti: the nginx configuration of ${origin} was generated for another build than ${site}: regenerate it with subjekti nginx and reload nginx (nginx -t && nginx -s reload)\n`,
    );

    const json = await runCli(["check", origin, "--dir", site, "--json"]);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as {
      ok: boolean;
      fromFiles: { expected: number; notFromFiles: string[] } | null;
      staleNginx: { configured: string; built: string } | null;
    };
    expect(report.ok).toBe(false);
    expect(report.staleNginx).toEqual({ configured: before, built: after });
    expect(report.fromFiles?.expected).toBeGreaterThan(0);
    expect(report.fromFiles?.notFromFiles).toHaveLength(report.fromFiles?.expected ?? -1);
  }, 120_000);
});

/** The site `subjekti serve` answers from, as its health check names it. */
async function servedSite(port: number | undefined): Promise<string> {
  const answer = await fetch(`http://127.0.0.1:${port}/healthz`);
  return ((await answer.json()) as { site?: string }).site ?? "";
}

async function siteHash(dir: string): Promise<string> {
  return (JSON.parse(await readFile(join(dir, MANIFEST_PATH), "utf8")) as Manifest).hash;
}
