/**
 * Self-hosted: the request table through real nginx (the configuration `subjekti nginx` prints)
 * in front of a real `subjekti serve` process; the pre-rendered pages answered by nginx alone
 * while `subjekti serve` is stopped; the serve process's graceful stop and its ALLOWED_HOSTS.
 *
 * Without nginx the tests skip, saying so, unless SUBJEKTI_REQUIRE_NGINX=1 (CI installs Debian's
 * nginx-light), where that is a failure.
 */
import { cp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATA_ROOT, MANIFEST_PATH, pagePath } from "../../src/core/layout.ts";
import { type Manifest, readManifest } from "../../src/core/manifest.ts";
import { buildSite } from "../../src/site/build-site.ts";
import { staticEntries } from "../../src/nginx/nginx-config.ts";
import { runCli } from "../run-cli.ts";
import { tempDir } from "../file-trees.ts";
import { BASE, buildFixture, COLLECTION, FIXTURE_OPTIONS, page } from "./fixture-site.ts";
import { freePort, type Host } from "./hosts.ts";
import { NGINX, type NginxHost, nginxHost, nginxVersion, REQUIRE_NGINX } from "./nginx-host.ts";
import { type RawAnswer, sendRaw } from "./raw-http.ts";
import { DRF_SEARCH_CASES, type RequestCase } from "./request-cases.ts";
import { runRequestCases } from "./run-cases.ts";
import { selfSignedCertificate } from "../certificates.ts";

if (NGINX === null && !REQUIRE_NGINX) console.warn("nginx tests skipped: no nginx on PATH or in /usr/sbin (apt-get install nginx-light)");

/** The hosts the table's rows use, as ALLOWED_HOSTS names them. */
const TABLE_HOSTS = "testserver,localhost,.example";

/** nginx's own error page (`<center><h1>400 Bad Request</h1></center>`…): no JSON, none of our headers. */
const NGINX_PAGE = (status: number): RegExp => new RegExp(`^<html>\\r\\n<head><title>${status} `);

/**
 * Where nginx answers a request itself, before `subjekti serve` sees it, whatever the
 * configuration says (nginx 1.22, Debian 12): each row is checked for nginx's own answer.
 */
const NGINX_ANSWERS: readonly { readonly matches: (c: RequestCase) => boolean; readonly status: number; readonly because: string }[] = [
  {
    matches: (c) => c.method !== c.method.toUpperCase(),
    status: 400,
    because: "its parser takes only upper-case method names (`get`, `Delete`)",
  },
  { matches: (c) => c.method === "TRACE" || c.method === "CONNECT", status: 405, because: "it refuses TRACE and CONNECT itself" },
  {
    matches: (c) => /%00|%(?![0-9A-Fa-f]{2})/.test(c.target.split("?")[0] ?? ""),
    status: 400,
    because: "it refuses a path holding %00 or a malformed %-escape (`/api/%00`, `/api/subjekti/%ZZ`)",
  },
];

function adaptToNginx(c: RequestCase): RequestCase {
  const own = NGINX_ANSWERS.find((answer) => answer.matches(c));
  return own === undefined
    ? c
    : { ...c, status: own.status, expectHeaders: { "content-type": "text/html" }, body: NGINX_PAGE(own.status), length: null };
}

/** Builds the fixture and starts nginx in front of `subjekti serve <serveArgs>` (over TLS with `tls`) for the enclosing describe. */
function startNginx(
  serveArgs: readonly string[],
  tls = false,
): { use: () => NginxHost; site: () => Awaited<ReturnType<typeof buildFixture>> } {
  let site: Awaited<ReturnType<typeof buildFixture>> | undefined;
  let prefix: string | undefined;
  let host: NginxHost | undefined;

  beforeAll(async () => {
    if (NGINX === null) throw new Error("SUBJEKTI_REQUIRE_NGINX=1 but no nginx on PATH or in /usr/sbin (apt-get install nginx-light)");
    site = await buildFixture();
    prefix = await tempDir("subjekti-nginx-");
    let certificate: { cert: string; key: string } | undefined;
    if (tls) {
      certificate = selfSignedCertificate(prefix, "testserver", "DNS:testserver");
    }
    host = await nginxHost(site.dir, prefix, serveArgs, undefined, certificate);
  }, 120_000);

  afterAll(async () => {
    await host?.stop();
    await site?.remove();
    if (prefix !== undefined) await rm(prefix, { recursive: true, force: true });
  });

  return {
    use: () => {
      if (host === undefined) throw new Error("nginx did not start");
      return host;
    },
    site: () => {
      if (site === undefined) throw new Error("the fixture was not built");
      return site;
    },
  };
}

/**
 * nginx's gzip adds `Vary: Accept-Encoding` to every answer of a compressible type, asked for gzip or
 * not (so that caches keep both); that name aside, Vary is the contract's (the check ignores it too).
 */
function withoutGzipVary(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out = { ...headers };
  const vary = out["vary"]
    ?.split(",")
    .map((name) => name.trim())
    .filter((name) => name.toLowerCase() !== "accept-encoding");
  if (vary !== undefined) {
    if (vary.length === 0) delete out["vary"];
    else out["vary"] = vary.join(", ");
  }
  return out;
}

/** The table's host with Vary's Accept-Encoding set aside (and nothing else changed). */
function plain(host: () => NginxHost): () => Host {
  return () => ({
    ...host(),
    send: async (...args: Parameters<Host["send"]>) => {
      const answer = await host().send(...args);
      return { ...answer, headers: withoutGzipVary(answer.headers) };
    },
  });
}

/** Answers nginx compressed, counted by the gzip table. */
let gzipped = 0;

/**
 * The table's host asking for gzip on every request: a compressed answer is decoded, and must then
 * be the contract's bytes; its length is the decoded one (nginx drops Content-Length when it
 * compresses) and its ETag the contract's made weak (W/), which If-None-Match compares weakly.
 */
function gzipClient(host: () => NginxHost): () => Host {
  return () => ({
    ...host(),
    send: async (method, target, headers, encoding) => {
      const answer = await host().send(method, target, { "Accept-Encoding": "gzip", ...headers }, encoding);
      const out = withoutGzipVary(answer.headers);
      if (answer.headers["content-encoding"] !== "gzip") return { ...answer, headers: out };
      gzipped += 1;
      expect(answer.headers["content-length"], "no length for a compressed answer").toBeUndefined();
      const body = method === "HEAD" ? answer.body : gunzipSync(answer.body);
      delete out["content-encoding"];
      // A compressed HEAD has no length and no body to decode: its length is the identity HEAD's.
      const length =
        method === "HEAD" ? (await host().send(method, target, headers, encoding)).headers["content-length"] : String(body.length);
      if (length !== undefined) out["content-length"] = length;
      if (out["etag"] !== undefined) {
        expect(out["etag"]).toMatch(/^W\//);
        out["etag"] = out["etag"].slice(2);
      }
      return { ...answer, headers: out, body };
    },
  });
}

describe.skipIf(NGINX === null && !REQUIRE_NGINX)(`nginx (${nginxVersion()}) in front of subjekti serve`, () => {
  const { use } = startNginx(["--allowed-hosts", TABLE_HOSTS, "--forwarded-proto"]);
  describe("the request table", () => runRequestCases("nginx", plain(use), adaptToNginx));
  // Searches, filters, orderings and their 400s, on the list and the detail route: every one reaches subjekti serve.
  describe("the search goldens", () => runRequestCases("nginx", plain(use), adaptToNginx, DRF_SEARCH_CASES));
  describe("the request table asking for gzip (the decoded bytes)", () => {
    runRequestCases("nginx", gzipClient(use), adaptToNginx);
    it("compressed the JSON answers of the table", () => {
      expect(gzipped).toBeGreaterThan(50);
    });
  });
});

/**
 * The table over TLS (a certificate made here with openssl, trusted by the client): the fixture's
 * base URL is http://testserver, so over https nginx sends no file (the scheme is part of the
 * gate) and `subjekti serve`, without --forwarded-proto, writes the table's http links: the table
 * checks TLS termination, the proxying and every answer's bytes through it.
 */
describe.skipIf(NGINX === null && !REQUIRE_NGINX)(`nginx (${nginxVersion()}) over TLS in front of subjekti serve`, () => {
  const { use } = startNginx(["--allowed-hosts", TABLE_HOSTS], true);
  describe("the request table over TLS", () => runRequestCases("nginx", plain(use), adaptToNginx));
});

describe.skipIf(NGINX === null && !REQUIRE_NGINX)("nginx without the Node process", () => {
  const started = startNginx(["--forwarded-proto"]);

  /** Headers a server adds about itself and the connection, not the answer; nginx's mark of a file. */
  const OWN = new Set(["server", "date", "connection", "keep-alive", "x-subjekti-source"]);
  const answerOf = (answer: RawAnswer): object => ({
    status: answer.status,
    headers: Object.fromEntries(Object.entries(withoutGzipVary(answer.headers)).filter(([name]) => !OWN.has(name))),
    body: answer.body.toString("utf8"),
  });

  it("every pre-rendered page on disk is named by the configuration", async () => {
    const named = new Set(staticEntries(started.site().manifest).map((entry) => entry.file));
    const files = (await readdir(join(started.site().dir, DATA_ROOT, "pages"), { recursive: true })).filter((file) =>
      file.endsWith(".json"),
    );
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) expect(named, file).toContain(`/${DATA_ROOT}/pages/${file}`);
  });

  it("answers every pre-rendered target from the files alone, byte for byte as subjekti serve; derived ones 502 until it is back", async () => {
    const nginx = started.use();
    const targets = staticEntries(started.site().manifest).map((entry) => entry.target);
    const served = await Promise.all(targets.map((target) => sendRaw(nginx.serve!.port, "GET", target, { Host: "testserver" })));
    expect(await nginx.stopServe(), "subjekti serve's exit code after SIGTERM").toBe(0);

    for (const [i, target] of targets.entries()) {
      const alone = await nginx.send("GET", target, {});
      expect(answerOf(alone), target).toEqual(answerOf(served[i]!));
      expect(alone.headers["x-subjekti-source"], target).toBe("file");
      expect(alone.headers["last-modified"], target).toBeUndefined();
    }
    // A browser's Accept is answered from the file too, and headers the router ignores change nothing
    // (nginx's own ranges, compression and If-Modified-Since are off); what the router must read is proxied.
    const seventh = targets.indexOf("/api/subjekti/?limit=7&offset=7");
    for (const headers of [
      { Accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" },
      { Range: "bytes=0-9" },
      { "If-Modified-Since": "Fri, 01 Jan 2100 00:00:00 GMT" },
    ]) {
      expect(answerOf(await nginx.send("GET", targets[seventh]!, headers)), JSON.stringify(headers)).toEqual(answerOf(served[seventh]!));
    }
    for (const [target, headers] of [
      ["/api/subjekti/?limit=7&offset=3", {}],
      ["/api/subjekti/?LIMIT=7&offset=7", {}],
      ["/api/subjekti/?limit=7&offset=7", { Accept: "application/json; indent=2" }],
      ["/api/subjekti/?limit=7&offset=7", { "If-None-Match": "*" }],
      ["/api/subjekti/?limit=7&offset=7", { Host: "TestServer" }],
      ["/api/subjekti/./?limit=7&offset=7", {}],
      // A search, a filter, an ordering and a 400 beside a pre-rendered page's own query, and the detail route filtered: none is a file.
      ["/api/subjekti/?limit=7&offset=7&search=a", {}],
      ["/api/subjekti/?limit=7&offset=7&razina=lokalna", {}],
      ["/api/subjekti/?limit=7&offset=7&ordering=naziv_subjekta", {}],
      ["/api/subjekti/?razina=regionalna", {}],
      ["/api/subjekti/1/?oib=00000000000", {}],
    ] as const) {
      const answer = await nginx.send("GET", target, headers);
      expect({ target, headers, status: answer.status }).toEqual({ target, headers, status: 502 });
    }
    expect((await nginx.send("HEAD", "/api/subjekti/", {})).status).toBe(502);

    await nginx.startServe();
    const back = await nginx.send("GET", "/api/subjekti/?limit=7&offset=3", {});
    expect(back.status).toBe(200);
    expect(back.body.toString("utf8")).toBe(page(3, 7, `${COLLECTION}?limit=7&offset=10`, `${COLLECTION}?limit=7`));
  }, 120_000);

  it("subjekti serve answers only the base URL's host by default: any other gets Django's 400 through nginx", async () => {
    const nginx = started.use();
    const other = await nginx.send("GET", "/api/subjekti/?limit=7&offset=3", { Host: "deploy-preview-7--subjekti.example" });
    expect(other.status).toBe(400);
    expect(other.headers["content-type"]).toBe("text/html");
    expect(other.body.toString("utf8")).toContain("<h1>Bad Request (400)</h1>");
    const own = await nginx.send("GET", "/api/subjekti/?limit=7&offset=3", { Host: "TestServer:80" });
    expect(own.status).toBe(200);
    expect(own.body.toString("utf8")).toContain(`"next":"http://TestServer:80/api/subjekti/?limit=7&offset=10"`);
    expect(new URL(BASE).hostname).toBe("testserver");
    // nginx writes X-Forwarded-Proto itself (a client's is replaced); serve reads it with --forwarded-proto.
    const forged = await nginx.send("GET", "/api/subjekti/?limit=7&offset=3", { "X-Forwarded-Proto": "https" });
    expect(forged.body.toString("utf8")).toContain(`"next":"http://testserver/`);
    const behindTls = await sendRaw(nginx.serve!.port, "GET", "/api/subjekti/?limit=7&offset=3", {
      Host: "testserver",
      "X-Forwarded-Proto": "https",
    });
    expect(behindTls.body.toString("utf8")).toContain(`"next":"https://testserver/api/subjekti/?limit=7&offset=10"`);
  });

  it("HTTP/1.0 without a Host: nginx hands on its own address (as the preview uses its own), which ALLOWED_HOSTS must name", async () => {
    const nginx = started.use();
    const answer = await new Promise<string>((done, fail) => {
      const socket = connect({ host: "127.0.0.1", port: nginx.port });
      const parts: Buffer[] = [];
      socket.on("connect", () => socket.write("GET /api/subjekti/?limit=7&offset=3 HTTP/1.0\r\n\r\n"));
      socket.on("data", (chunk: Buffer) => parts.push(chunk));
      socket.on("error", fail);
      socket.on("end", () => done(Buffer.concat(parts).toString("utf8")));
    });
    // Django reads SERVER_NAME:SERVER_PORT then, and refuses it unless ALLOWED_HOSTS names it; without
    // a Host at all, subjekti serve would have refused the HTTP/1.1 request nginx makes with its JSON 400.
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain("<h1>Bad Request (400)</h1>");
  });

  it("subjekti serve stops gracefully on SIGTERM: no new connection, the answer in flight finished, exit 0", async () => {
    const nginx = started.use();
    const big = Buffer.alloc(64 * 1024 * 1024, "x");
    await writeFile(join(started.site().dir, "big.txt"), big);
    const serve = nginx.serve!;
    const socket = connect({ host: "127.0.0.1", port: serve.port });
    let received = 0;
    const ended = new Promise<void>((done) => socket.once("end", done));
    await new Promise<void>((done) => socket.once("connect", done));
    socket.write("GET /big.txt HTTP/1.1\r\nHost: testserver\r\n\r\n");
    const firstBytes = new Promise<void>((done) => socket.once("data", () => done()));
    socket.on("data", (chunk: Buffer) => {
      received += chunk.length;
    });
    await firstBytes;
    socket.pause();
    const exited = new Promise<number | null>((done) => serve.child.once("exit", (code) => done(code)));
    serve.child.kill("SIGTERM");
    // The drain is under way once the listener is closed: polled for, however long the loaded machine takes to deliver the signal.
    let refused = false;
    for (const until = Date.now() + 30_000; !refused && Date.now() < until; ) {
      refused = await sendRaw(serve.port, "GET", "/api/subjekti/", { Host: "testserver" }).then(
        () => false,
        (error: Error) => /ECONNREFUSED/.test(error.message),
      );
      if (!refused) await new Promise((wait) => setTimeout(wait, 20));
    }
    expect(refused, "a new connection while draining is refused").toBe(true);
    expect(serve.child.exitCode, "still finishing the answer in flight").toBe(null);
    socket.resume();
    await ended;
    expect(received).toBeGreaterThan(big.length);
    expect(await exited).toBe(0);
    nginx.serve = null;
  }, 60_000);
});

describe.skipIf(NGINX === null && !REQUIRE_NGINX)("subjekti check against nginx in front of subjekti serve", () => {
  let root: string | undefined;
  let host: NginxHost | undefined;
  let origin = "";
  let built = "";
  let deployed = "";

  beforeAll(async () => {
    if (NGINX === null) throw new Error("SUBJEKTI_REQUIRE_NGINX=1 but no nginx on PATH or in /usr/sbin (apt-get install nginx-light)");
    root = await tempDir("subjekti-nginx-check-");
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    [built, deployed] = [join(root, "built"), join(root, "deployed")];
    // Built for nginx's own origin, so that nginx answers the pre-rendered pages itself.
    await buildSite({ ...FIXTURE_OPTIONS, baseUrl: origin, outDir: built });
    await cp(built, deployed, { recursive: true });
    host = await nginxHost(deployed, join(root, "nginx"), [], port);
  }, 120_000);

  afterAll(async () => {
    await host?.stop();
    if (root !== undefined) await rm(root, { recursive: true, force: true });
  });

  it("passes: every pre-rendered page, derived pages, HEAD, 304, preflight, 404 and 405 as built", async () => {
    const run = await runCli(["check", origin, "--dir", built, "--quiet"]);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
  }, 60_000);

  it("fails on one byte changed in a page file nginx sends, naming its URL and the byte", async () => {
    const manifest = (await readManifestFile(built)).manifest;
    const path = join(deployed, pagePath(manifest, "plain", 7, 2) as string);
    const original = await readFile(path);
    const changed = Buffer.from(original);
    changed[100] = (changed[100] as number) ^ 1;
    await writeFile(path, changed);
    try {
      const run = await runCli(["check", origin, "--dir", built, "--quiet"]);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain(`GET ${origin}/api/subjekti/?limit=7&offset=14 (pre-rendered):\n  body: first difference at byte 100\n`);
    } finally {
      await writeFile(path, original);
    }
  }, 60_000);
});

/** The manifest of the site built in `dir`. */
async function readManifestFile(dir: string): Promise<{ manifest: Manifest }> {
  const state = readManifest(await readFile(join(dir, MANIFEST_PATH), "utf8"));
  if ("problem" in state) throw new Error(state.problem);
  return state;
}
