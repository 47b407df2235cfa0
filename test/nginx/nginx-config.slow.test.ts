/**
 * `subjekti nginx`: the targets it answers from files are exactly the ones our own links name (and
 * the bare URLs), the Accept values it lets through ask for compact JSON, and its command line
 * refuses what it cannot write into a configuration. nginx itself runs in test/hosts/nginx.slow.test.ts.
 */
import { readFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLISHED_PATHS } from "../../src/core/published-files.ts";
import { DATA_ROOT } from "../../src/core/layout.ts";
import { negotiate } from "../../src/core/request/negotiate.ts";
import { nginxConfig, STATIC_ACCEPTS, staticEntries } from "../../src/nginx/nginx-config.ts";
import { runCli } from "../run-cli.ts";
import { BASE, buildFixture } from "../hosts/fixture-site.ts";
import { DRF_SEARCH_GOLDEN } from "../hosts/request-cases.ts";

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
      const page = JSON.parse(await readFile(join(site.dir, DATA_ROOT, "pages", file), "utf8")) as {
        next: string | null;
        previous: string | null;
      };
      for (const link of [page.next, page.previous]) if (link !== null) links.add(link.slice(BASE.length));
    }
    const bare = ["/api/subjekti/", "/api/subjekti/?format=api", ...PUBLISHED_PATHS];
    const targets = staticEntries(site.manifest).map((entry) => entry.target);
    expect(new Set(targets).size).toBe(targets.length);
    expect(targets.toSorted()).toEqual([...links, ...bare].toSorted());
  });

  it("hands every search, filter and ordering to subjekti serve: no target of the search goldens (list or detail, in any case) is an entry, and no location but the catch-all reaches a subject", () => {
    const entries = new Set(staticEntries(site.manifest).map((entry) => entry.target.toLowerCase()));
    const targets = [...DRF_SEARCH_GOLDEN.fixture, ...DRF_SEARCH_GOLDEN.sample].map((answer) => answer.target);
    expect(targets.filter((t) => /^\/api\/subjekti\/\d+\/\?/.test(t)).length).toBeGreaterThan(2);
    for (const target of targets) expect(entries.has(target.toLowerCase()), target).toBe(false);
    // A map ignores case; the query keys our links write are these three alone.
    for (const entry of entries)
      for (const key of new URL(entry, BASE).searchParams.keys()) expect(["limit", "offset", "format"], entry).toContain(key);
    const config = nginxConfig(site.manifest, {
      root: "/srv/site",
      listen: "8080",
      serverName: "_",
      upstream: "127.0.0.1:8081",
      readText: (path) => readFileSync(join(site.dir, path), "utf8"),
    });
    const locations = [...config.matchAll(/^ {4}location (.+) \{$/gm)].map((match) => match[1]);
    const exact = new Set([
      "/api/subjekti/",
      ...PUBLISHED_PATHS,
      ...(site.manifest.downloads ?? []).flatMap((d) => [d.path, d.immutablePath]),
    ]);
    for (const location of locations) {
      if (location === "/" || location?.startsWith("@")) continue;
      expect(location?.startsWith("= ") && exact.has(location.slice(2)), location).toBe(true);
    }
    expect(config).toMatch(/ {4}location \/ \{\n {8}proxy_pass http:\/\/subjekti_serve;\n {4}\}/);
  });

  it("lets through only Accept values that ask for compact JSON, in any case", () => {
    expect(STATIC_ACCEPTS).toContain("*/*");
    for (const accept of STATIC_ACCEPTS) expect([negotiate(accept), negotiate(accept.toUpperCase())]).toEqual([0, 0]);
  });

  it("refuses a value it cannot quote for nginx", () => {
    expect(() =>
      nginxConfig(
        { ...site.manifest, cacheControl: "public, max-age='\"60'" },
        {
          root: "/srv/site",
          listen: "8080",
          serverName: "_",
          upstream: "127.0.0.1:8081",
          readText: (path) => readFileSync(join(site.dir, path), "utf8"),
        },
      ),
    ).toThrow(/cannot quote/);
  });
});

describe("subjekti nginx", () => {
  it("prints the maps and one server block for the site", async () => {
    const run = await runCli([
      "nginx",
      "--dir",
      site.dir,
      "--listen",
      "127.0.0.1:8080",
      "--server-name",
      "registry.example.hr",
      "--upstream",
      "127.0.0.1:9000",
    ]);
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
    expect(run.stderr).toMatch(
      /nowhere holds no built site \(no such directory\): pass --dir <the built site>, or run `npm run build` first/,
    );
  });
});

describe("subjekti nginx for real servers: TLS, names, gzip", () => {
  const nginx = (args: readonly string[]) => runCli(["nginx", "--dir", site.dir, ...args]);

  it("a listen with ssl needs the certificate and its key, and writes them; one without refuses them", async () => {
    expect(await nginx(["--listen", "443 ssl http2"])).toMatchObject({
      code: 1,
      stderr: "subjekti: --listen '443 ssl http2' needs --ssl-certificate <file> and --ssl-certificate-key <file>\n",
    });
    expect(await nginx(["--ssl-certificate", "/etc/ssl/a.pem", "--ssl-certificate-key", "/etc/ssl/a.key"])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("need a --listen with ssl"),
    });
    const tls = await nginx([
      "--listen",
      "[::]:443 ssl http2 default_server",
      "--ssl-certificate",
      "/etc/ssl/a.pem",
      "--ssl-certificate-key",
      "/etc/ssl/a.key",
    ]);
    expect(tls.code).toBe(0);
    expect(tls.stdout).toContain("    listen [::]:443 ssl http2 default_server;\n    server_name _;");
    expect(tls.stdout).toContain("    ssl_certificate '/etc/ssl/a.pem';\n    ssl_certificate_key '/etc/ssl/a.key';\n");
  });

  it("refuses a listen parameter it does not know and a name nginx could not take", async () => {
    expect((await nginx(["--listen", "443 ssl; include /x"])).stderr).toContain(`"ssl;" is not a listen parameter here`);
    expect((await nginx(["--name", "Bad-Name"])).stderr).toContain(`"Bad-Name" is not a name of lowercase letters`);
  });

  it("--name prefixes every name it gives; nothing at http {} level but maps and the upstream; gzip unless --no-gzip", async () => {
    const { stdout } = await nginx(["--name", "staging"]);
    expect(stdout).toContain("upstream staging_serve {");
    expect(stdout).not.toMatch(/subjekti_/);
    expect(
      [...stdout.matchAll(/\$(\w+)/g)]
        .map((m) => m[1])
        .filter((name) => !/^(?:request_uri|http_\w+|request_method|scheme|server_addr|server_port|\d)$/.test(name ?? ""))
        .every((name) => name?.startsWith("staging_")),
    ).toBe(true);
    const topLevel = stdout
      .split("\n")
      .filter((line) => /^[a-z]/.test(line))
      .map((line) => line.split(" ")[0]);
    expect(new Set(topLevel)).toEqual(new Set(["upstream", "map", "server"]));
    expect(stdout).toMatch(/^#\s+map_hash_max_size \d+;$/m);
    expect(stdout).toContain("    gzip on;\n");
    expect((await nginx(["--no-gzip"])).stdout).toContain("    gzip off;\n");
  });
});
