/**
 * `subjekti nginx`: the targets it answers from files are exactly the ones our own links name (and
 * the bare URLs), the Accept values it lets through ask for compact JSON, and its command line
 * refuses what it cannot write into a configuration. nginx itself runs in test/hosts/nginx.test.ts.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATA_ROOT } from "../../src/core/layout.ts";
import { negotiate } from "../../src/core/negotiate.ts";
import { nginxConfig, STATIC_ACCEPTS, staticEntries } from "../../src/nginx/nginx-config.ts";
import { runCli } from "../_cli.ts";
import { BASE, buildFixture } from "../hosts/fixture-site.ts";

let site: Awaited<ReturnType<typeof buildFixture>>;
beforeAll(async () => {
  site = await buildFixture();
}, 60_000);
afterAll(() => site?.remove());

describe("staticEntries", () => {
  it("names every link of every pre-rendered page, the bare URLs and the description, and nothing else", async () => {
    const links = new Set<string>();
    const files = (await readdir(join(site.dir, DATA_ROOT, "pages"), { recursive: true })).filter((file) => file.endsWith(".json"));
    for (const file of files) {
      const page = JSON.parse(await readFile(join(site.dir, DATA_ROOT, "pages", file), "utf8")) as { next: string | null; previous: string | null };
      for (const link of [page.next, page.previous]) if (link !== null) links.add(link.slice(BASE.length));
    }
    const bare = ["/api/subjekti/", "/api/subjekti/?format=api", "/", "/openapi.json", "/schema/subject.json", "/schema/page.json"];
    const targets = staticEntries(site.manifest).map((entry) => entry.target);
    expect(new Set(targets).size).toBe(targets.length);
    expect(targets.toSorted()).toEqual([...links, ...bare].toSorted());
  });

  it("lets through only Accept values that ask for compact JSON, in any case", () => {
    expect(STATIC_ACCEPTS).toContain("*/*");
    for (const accept of STATIC_ACCEPTS) expect([negotiate(accept), negotiate(accept.toUpperCase())]).toEqual([0, 0]);
  });

  it("refuses a value it cannot quote for nginx", () => {
    expect(() => nginxConfig({ ...site.manifest, cacheControl: "public, max-age='60'" }, { root: "/srv/site", listen: "8080", serverName: "_", upstream: "127.0.0.1:8081" })).toThrow(/cannot quote/);
  });
});

describe("subjekti nginx", () => {
  it("prints the maps and one server block for the site", async () => {
    const run = await runCli(["nginx", "--dir", site.dir, "--listen", "127.0.0.1:8080", "--server-name", "registry.example.hr", "--upstream", "127.0.0.1:9000"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^map \$request_uri \$subjekti_entry \{$/m);
    expect(run.stdout).toContain("    server 127.0.0.1:9000;");
    expect(run.stdout).toContain(`    root '${site.dir}';`);
    expect(run.stdout.match(/^server \{$/gm)).toHaveLength(1);
  });

  it.each([
    [["--listen", "80; include /etc/passwd"], 2, /is not a port/],
    [["--upstream", "localhost"], 2, /is not host:port/],
    [["--server-name", "a;b"], 2, /is not a server name/],
  ])("%j -> exit %i", async (args, code, message) => {
    const run = await runCli(["nginx", "--dir", site.dir, ...args]);
    expect(run.code).toBe(code);
    expect(run.stderr).toMatch(message);
  });

  it("a directory without a built site -> exit 1, saying what to run", async () => {
    const run = await runCli(["nginx", "--dir", join(site.dir, "nowhere")]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/has no _subjekti\/manifest\.json: run `npm run build` first/);
  });
});
