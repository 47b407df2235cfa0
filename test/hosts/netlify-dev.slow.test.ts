/**
 * The request table through the real `netlify dev --offline` (netlify-cli's proxy, its Deno edge
 * runtime and the edge function as Netlify bundles it). Slow and heavy, so it runs only with
 * `npm run test:netlify` (SUBJEKTI_NETLIFY=1); `npm test` skips it.
 *
 * Offline on purpose: a temp HOME (no login state, nothing written to the user's config), the edge
 * runtime's bootstrap from node_modules (NETLIFY_EDGE_BOOTSTRAP, DESIGN.md), Deno from
 * node_modules/.bin; scripts/test-netlify-*.mjs keep netlify's servers and Deno on 127.0.0.1. The site is a temp directory holding the built fixture, a netlify.toml that
 * declares the function like the repo's, and `src` linked to the repo's src/.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../file-trees.ts";
import { buildSite } from "../../src/site/build-site.ts";
import { syncMirror } from "../../src/feed/sync-mirror.ts";
import { PUBLISHED_PATHS } from "../../src/core/published-files.ts";
import { HTML_ROUTE_PATTERNS } from "../../src/core/html/html-routes.ts";
import { FIXTURE_OPTIONS } from "./fixture-site.ts";
import { firstLine, freePort, type Host, stopChild } from "./hosts.ts";
import { sendRaw } from "./raw-http.ts";
import type { RequestCase } from "./request-cases.ts";
import { DRF_SEARCH_CASES } from "./request-cases.ts";
import { runRequestCases } from "./run-cases.ts";
import { msg } from "../../src/common/messages/message.ts";

const ENABLED = process.env["SUBJEKTI_NETLIFY"] === "1";
const REPO = resolve(import.meta.dirname, "../..");

/**
 * Where `netlify dev` (netlify-cli 26.2, its Node proxy in front of the Deno edge runtime) differs
 * from the contract on this machine, whatever the function answers; production Netlify is another
 * proxy and is not tested here:
 * - its Node HTTP parser refuses method names it does not know (FOO, lower-case get, Delete) and raw
 *   UTF-8 in the target with a bare 400, and a 40 KB query with 431, before the edge runs;
 * - it merges `//` in the path (so /api/subjekti// reaches the collection), and resolves dot segments
 *   and `\` as a URL parser does (listed as `netlify` exceptions in the request table);
 * - it re-chunks streamed bodies (no Content-Length on pre-rendered pages) and sends
 *   `Content-Length: 0` on HEAD;
 * - it drops `Allow` and `Vary` from a 404 the edge function returns, and its body is the one the
 *   function makes without the request's headers (an indent asked in `Accept` is lost);
 * - it builds the edge function's `Request.url` from a client's `X-Forwarded-Host`, so the origin
 *   the platform reports is the forged one (the function reads only `Request.url`; the in-process,
 *   preview and Deno hosts show that it ignores the header itself).
 */
const REFUSED_BY_PROXY = new Set(["FOO", "get", "Delete", "CONNECT"]);
const PROXY_TARGETS = [/[^\x00-\x7f]/, /^\/api\/subjekti\/\/$/, /p=1&p=1/];

function adaptToNetlifyDev(c: RequestCase): RequestCase | null {
  if (REFUSED_BY_PROXY.has(c.method) || PROXY_TARGETS.some((pattern) => pattern.test(c.target))) return null;
  if (c.headers !== undefined && "X-Forwarded-Host" in c.headers) return null;
  let expectHeaders = c.expectHeaders;
  let body = c.body;
  if (c.status === 404) {
    const { allow: _allow, vary: _vary, ...rest } = expectHeaders;
    expectHeaders = rest;
    // The 404 it passes on is the function's answer without the request's headers: an indent asked in Accept is lost too.
    if (typeof body === "string" && body.startsWith("{")) body = JSON.stringify(JSON.parse(body));
  }
  return { ...c, expectHeaders, body, length: null };
}

/** Starts `netlify dev` on the site in `root/site` (netlify's static server serves only inside its project). */
async function netlifyDevHost(root: string): Promise<Host & { readonly port: number }> {
  const [port, staticPort] = [await freePort(), await freePort()];
  await writeFile(
    join(root, "netlify.toml"),
    [
      "[build]",
      '  publish = "site"',
      '  edge_functions = "src/edge"',
      "[[edge_functions]]",
      '  path = "/api"',
      '  function = "subjekti"',
      "[[edge_functions]]",
      '  path = "/api/subjekti"',
      '  function = "subjekti"',
      "[[edge_functions]]",
      '  path = "/api/*"',
      '  function = "subjekti"',
      ...[...PUBLISHED_PATHS, ...HTML_ROUTE_PATTERNS].flatMap((path) => [
        "[[edge_functions]]",
        `  path = "${path}"`,
        '  function = "subjekti"',
      ]),
      "[dev]",
      '  framework = "#static"',
      "  autoLaunch = false",
      `  staticServerPort = ${staticPort}`,
      "",
    ].join("\n"),
  );
  await symlink(join(REPO, "src"), join(root, "src"));
  const home = join(root, "home");
  await mkdir(home);
  const child: ChildProcess = spawn(
    join(REPO, "node_modules/.bin/netlify"),
    ["dev", "--offline", "--port", String(port), "--no-open", "--skip-gitignore"],
    {
      cwd: root,
      env: {
        ...process.env,
        HOME: home,
        CI: "1",
        PATH: `${join(REPO, "node_modules/.bin")}:${process.env["PATH"] ?? ""}`,
        // The local bootstrap (DESIGN.md), wrapped so Deno listens on loopback only.
        NETLIFY_EDGE_BOOTSTRAP: `file://${join(REPO, "scripts/test-netlify-edge-bootstrap.mjs")}`,
        // netlify-cli binds every interface and has no flag against it: keep it on loopback.
        NODE_OPTIONS: `${process.env["NODE_OPTIONS"] ?? ""} --import ${pathToFileURL(join(REPO, "scripts/test-netlify-loopback.mjs")).href}`,
        DENO_NO_UPDATE_CHECK: "1",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  await firstLine(
    child,
    (line) => {
      if (!line.includes("Loaded edge function subjekti")) throw new Error("not yet");
    },
    120_000,
  );
  return {
    name: "netlify",
    port,
    send: (method, target, headers, encoding) => sendRaw(port, method, target, { Host: "testserver", ...headers }, encoding),
    stop: () => stopChild(child),
  };
}

describe.skipIf(!ENABLED)("netlify dev --offline (npm run test:netlify)", () => {
  let root: string;
  let host: (Host & { readonly port: number }) | undefined;

  beforeAll(async () => {
    root = await tempDir("subjekti-netlify-");
    // With its change feed: the last test follows it with `subjekti sync`.
    await buildSite({ ...FIXTURE_OPTIONS, outDir: join(root, "site"), feed: true, sourceDateEpoch: "1700000000" });
    host = await netlifyDevHost(root);
  }, 180_000);

  afterAll(async () => {
    await host?.stop();
    await rm(root, { recursive: true, force: true });
  });

  const started = (): Host => {
    if (host === undefined) throw new Error("netlify dev did not start");
    return host;
  };
  runRequestCases("netlify", started, adaptToNetlifyDev);
  describe("DRF search goldens", () => runRequestCases("netlify", started, adaptToNetlifyDev, DRF_SEARCH_CASES));

  // Last: it rebuilds the site with other data.
  it("subjekti sync follows the change feed as netlify dev serves it: the snapshot, then one diff", async () => {
    if (host === undefined) throw new Error("netlify dev did not start");
    const origin = `http://127.0.0.1:${host.port}`;
    const mirror = join(root, "mirror.ndjson");
    expect(await syncMirror(origin, mirror)).toMatchObject({ from: null, to: 1, snapshot: msg("sync.no-local-copy") });
    const data = join(root, "data");
    await mkdir(data);
    const list = JSON.parse(await readFile(join(FIXTURE_OPTIONS.dataDir, "subjekti.json"), "utf8")) as unknown[];
    await writeFile(join(data, "subjekti.json"), JSON.stringify(list.slice(1)));
    await buildSite({ ...FIXTURE_OPTIONS, dataDir: data, outDir: join(root, "site"), feed: true, sourceDateEpoch: "1700086400" });
    expect(await syncMirror(origin, mirror)).toMatchObject({ from: 1, to: 2, removed: 1, snapshot: null });
    const state = JSON.parse(await readFile(join(root, "site/changes/state.json"), "utf8")) as { snapshot: { url: string } };
    expect((await readFile(mirror)).equals(await readFile(join(root, "site/changes", state.snapshot.url)))).toBe(true);
  });
});
