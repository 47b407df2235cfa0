/**
 * nginx as a deployer runs it, for real on loopback: two sites (production and staging) side by side
 * in one nginx on one TLS port, each by its own `subjekti nginx --name` configuration, told apart by
 * server_name, with a certificate made here with openssl. `subjekti check` runs its whole plan
 * (every pre-rendered page, derived pages, headers, preflight, 404, 405) against each over TLS,
 * trusting the certificate with --ca, and counts the answers nginx sent from files. Then the
 * deployer's mistakes: no --ca (one line, no list of differences), a server that is down, and a
 * rebuild without regenerating the configuration (stale: `check` names it, and reports the answers that came
 * from `subjekti serve`), which deploy/redeploy.sh then repairs (build, regenerate, nginx -t,
 * reload, check).
 */
import { type ChildProcess, execFile, spawnSync } from "node:child_process";
import { chmod, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSite } from "../../src/site/build-site.ts";
import { runCli } from "../run-cli.ts";
import { tempDir } from "../file-trees.ts";
import { FIXTURE_DATA, FIXTURE_OPTIONS } from "./fixture-site.ts";
import { freePort, stopChild } from "./hosts.ts";
import { NGINX, nginxVersion, REQUIRE_NGINX, runNginx, type ServeProcess, startServe, writeNginxConf } from "./nginx-host.ts";
import { selfSignedCertificate } from "../certificates.ts";

const run = promisify(execFile);
const REPO = resolve(import.meta.dirname, "../..");
const OPENSSL = spawnSync("openssl", ["version"]).status === 0;

interface Site {
  readonly name: string;
  readonly host: string;
  readonly dir: string;
  readonly upstream: number;
  serve?: ServeProcess;
}

let root = "";
let prefix = "";
let port = 0;
let cert = "";
let key = "";
let nginx: ChildProcess | undefined;
const sites: Site[] = [];

const origin = (site: Site): string => `https://${site.host}:${port}`;

/** `subjekti nginx` for `site` on the shared TLS port. */
async function generate(site: Site): Promise<string> {
  const generated = await runCli([
    "nginx",
    "--dir",
    site.dir,
    "--name",
    site.name,
    "--server-name",
    site.host,
    "--listen",
    `127.0.0.1:${port} ssl`,
    "--ssl-certificate",
    cert,
    "--ssl-certificate-key",
    key,
    "--upstream",
    `127.0.0.1:${site.upstream}`,
  ]);
  if (generated.code !== 0) throw new Error(generated.stderr);
  return generated.stdout;
}

/** `subjekti check` of `site` through nginx, connecting to loopback (the Host and TLS name stay the site's). */
function check(site: Site, extra: readonly string[] = ["--ca", cert]): ReturnType<typeof runCli> {
  return runCli(["check", origin(site), "--dir", site.dir, "--connect", `127.0.0.1:${port}`, "--quiet", ...extra]);
}

describe.skipIf((NGINX === null && !REQUIRE_NGINX) || !OPENSSL)(`two sites over TLS in one nginx (${nginxVersion()})`, () => {
  beforeAll(async () => {
    if (NGINX === null) throw new Error("SUBJEKTI_REQUIRE_NGINX=1 but no nginx on PATH or in /usr/sbin (apt-get install nginx-light)");
    root = await tempDir("subjekti-nginx-deploy-");
    prefix = join(root, "nginx");
    port = await freePort();
    // One self-signed certificate for both names (a deployer's would come from their CA).
    ({ cert, key } = selfSignedCertificate(root, "prod.test", "DNS:prod.test,DNS:staging.test"));
    for (const name of ["prod", "staging"]) {
      const site: Site = { name, host: `${name}.test`, dir: join(root, name), upstream: await freePort() };
      // Built for the origin nginx answers on, so that nginx sends the pre-rendered pages itself.
      await buildSite({ ...FIXTURE_OPTIONS, baseUrl: `https://${site.host}:${port}`, outDir: site.dir });
      sites.push(site);
    }
    await writeNginxConf(prefix, await Promise.all(sites.map(generate)));
    for (const site of sites) site.serve = await startServe(site.dir, site.upstream, ["--forwarded-proto", "--watch"]);
    nginx = await runNginx(prefix, [port]);
  }, 120_000);

  afterAll(async () => {
    for (const site of sites) if (site.serve !== undefined) await stopChild(site.serve.child);
    if (nginx !== undefined) await stopChild(nginx);
    if (root !== "") await rm(root, { recursive: true, force: true });
  });

  it("the two configurations share nothing by name, and nothing in them sits at http {} level but maps and upstreams", () => {
    const [prod, staging] = [generateSync(sites[0]!), generateSync(sites[1]!)];
    const names = (text: string): string[] =>
      [...text.matchAll(/\$(\w+)|upstream (\w+)|@(\w+)|shared:(\w+)/g)]
        .map((m) => m[1] ?? m[2] ?? m[3] ?? m[4] ?? "")
        .filter((n) => !/^(?:request_uri|http_\w+|request_method|scheme|server_addr|server_port|args|1|2)$/.test(n));
    const common = names(prod).filter((n) => names(staging).includes(n));
    expect(common).toEqual([]);
    expect(prod).not.toMatch(/^map_hash|^server_names_hash|^gzip|^proxy_|^ssl_/m);
  });

  it.each(["prod", "staging"])(
    "%s over TLS (--ca): every request of the check matches, the pre-rendered ones sent from files",
    async (name) => {
      const site = sites.find((s) => s.name === name)!;
      const result = await check(site);
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
      expect(result.stdout).toMatch(/^all \d+ answers that nginx should send from the site's files came from files$/m);
      expect(result.stdout).toMatch(/: all match$/m);
    },
    60_000,
  );

  it("each site answers its own Host with its own links (server_name and the upstream by name)", async () => {
    for (const site of sites) {
      const result = await runCli([
        "check",
        origin(site),
        "--dir",
        site.dir,
        "--connect",
        `127.0.0.1:${port}`,
        "--quiet",
        "--ca",
        cert,
        "--sample",
        "3",
        "--json",
      ]);
      expect(JSON.parse(result.stdout)).toMatchObject({ ok: true, baseUrl: origin(site) });
    }
    // The other site's build does not match this Host's answers.
    const crossed = await runCli([
      "check",
      origin(sites[0]!),
      "--dir",
      sites[1]!.dir,
      "--connect",
      `127.0.0.1:${port}`,
      "--quiet",
      "--ca",
      cert,
      "--sample",
      "3",
    ]);
    expect(crossed.code).toBe(1);
  }, 60_000);

  it("without --ca: one line naming the certificate problem and the fix, no list of differences; --insecure passes", async () => {
    const untrusted = await check(sites[0]!, []);
    expect(untrusted.code).toBe(1);
    expect(untrusted.stdout).toBe("");
    expect(untrusted.stderr.trim().split("\n")).toHaveLength(1);
    expect(untrusted.stderr).toMatch(
      /^subjekti: https:\/\/prod\.test:\d+ \(connecting to 127\.0\.0\.1:\d+\): self[- ]signed certificate.*: trust its CA with --ca <file>/,
    );
    const insecure = await check(sites[0]!, ["--insecure"]);
    expect({ code: insecure.code, stderr: insecure.stderr }).toEqual({ code: 0, stderr: "" });
  }, 60_000);

  it("a server that is down: one line, exit 1", async () => {
    const down = await freePort();
    const result = await runCli([
      "check",
      origin(sites[0]!),
      "--dir",
      sites[0]!.dir,
      "--connect",
      `127.0.0.1:${down}`,
      "--quiet",
      "--ca",
      cert,
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      `subjekti: ${origin(sites[0]!)} (connecting to 127.0.0.1:${down}): connect ECONNREFUSED 127.0.0.1:${down}: is the server running, and on this port?\n`,
    );
  }, 30_000);

  it("a rebuild without regenerating the configuration: check reports the answers that came from serve; redeploy.sh repairs it", async () => {
    const staging = sites[1]!;
    // Other page sizes: the configuration nginx runs names none of the new page files.
    await buildSite({ ...FIXTURE_OPTIONS, limits: [5, 20], baseUrl: origin(staging), outDir: staging.dir });
    await new Promise((wait) => setTimeout(wait, 500));
    const stale = await check(staging);
    expect(stale.code).toBe(1);
    expect(stale.stdout).toMatch(
      /^the nginx configuration was generated for another build \(site \w{12}, this build is \w{12}\), so \d+ of the \d+ answers that nginx should send from the site's files came from subjekti serve, such as https:\/\/staging\.test:\d+\/api\/subjekti\/\?limit=5.*: regenerate it with subjekti nginx, then nginx -t and reload nginx$/m,
    );
    // The old configuration also still sends the unchanged page files of limit 20: their ETags are
    // their bytes', the same in both builds, so none differs.
    expect(stale.stdout).not.toMatch(/^  ETag: /m);

    // The documented script: build, regenerate, nginx -t, reload, restart, check.
    const cli = join(root, "subjekti");
    await writeFile(cli, `#!/bin/sh\ncd ${REPO} && exec ${process.execPath} --import tsx src/cli/main.ts "$@"\n`);
    await chmod(cli, 0o755);
    const env = {
      ...process.env,
      SUBJEKTI: cli,
      DATA: FIXTURE_DATA,
      SITE: staging.dir,
      BASE_URL: origin(staging),
      BUILD_ARGS: `--limits 5,20 --max-limit 25 --cache-control 'public, max-age=60' --no-cache --strict`,
      NGINX_CONF: join(prefix, "site-1.conf"),
      NGINX_ARGS: `--name staging --server-name staging.test --listen '127.0.0.1:${port} ssl' --ssl-certificate ${cert} --ssl-certificate-key ${key} --upstream 127.0.0.1:${staging.upstream}`,
      NGINX_COMMAND: `${NGINX} -p ${prefix} -c ${join(prefix, "nginx.conf")} -e ${join(prefix, "error.log")}`,
      // serve runs with --watch here: it follows the build by itself.
      RESTART_SERVE: "true",
      CHECK_ARGS: `--connect 127.0.0.1:${port} --ca ${cert}`,
    };
    const redeployed = await run(join(REPO, "deploy/redeploy.sh"), [], { env, encoding: "utf8" }).catch(
      (error: { stdout: string; stderr: string }) => {
        throw new Error(`redeploy.sh failed:\n${error.stdout}\n${error.stderr}`);
      },
    );
    expect(redeployed.stdout).toMatch(/^all \d+ answers that nginx should send from the site's files came from files$/m);
    expect(redeployed.stderr).toContain("redeploy: done");
    // nginx -t says the configuration is fine and nothing else: no [emerg] from a variable named NGINX, no duplicate MIME type.
    expect(`${redeployed.stdout}${redeployed.stderr}`).not.toMatch(/\[(?:emerg|warn)\]/);
    expect(redeployed.stdout).toMatch(/nginx: configuration file .* test is successful/);
    expect((await check(staging)).code).toBe(0);
  }, 120_000);
});

/** The configuration `subjekti nginx` prints for `site`, synchronously from the same arguments (the names only). */
function generateSync(site: Site): string {
  const result = spawnSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "src/cli/main.ts",
      "nginx",
      "--dir",
      site.dir,
      "--name",
      site.name,
      "--server-name",
      site.host,
      "--listen",
      `127.0.0.1:${port} ssl`,
      "--ssl-certificate",
      cert,
      "--ssl-certificate-key",
      key,
      "--upstream",
      `127.0.0.1:${site.upstream}`,
    ],
    { cwd: REPO, encoding: "utf8" },
  );
  return result.stdout;
}
