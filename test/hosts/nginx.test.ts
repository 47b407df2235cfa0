/**
 * Self-hosted: the request table through real nginx (the configuration `subjekti nginx` prints)
 * in front of a real `subjekti serve` process; the pre-rendered pages answered by nginx alone
 * while `subjekti serve` is stopped; the serve process's graceful stop and its ALLOWED_HOSTS.
 *
 * Without nginx the tests skip, saying so, unless SUBJEKTI_REQUIRE_NGINX=1 (CI installs Debian's
 * nginx-light), where that is a failure.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../_tree.ts";
import { BASE, buildFixture, COLLECTION, page } from "./fixture-site.ts";
import { NGINX, type NginxHost, nginxHost, nginxVersion, REQUIRE_NGINX } from "./nginx-host.ts";
import { sendRaw } from "./raw-http.ts";
import type { RequestCase } from "./request-cases.ts";
import { runRequestCases } from "./run-cases.ts";

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
  { matches: (c) => c.method !== c.method.toUpperCase(), status: 400, because: "its parser takes only upper-case method names (`get`, `Delete`)" },
  { matches: (c) => c.method === "TRACE" || c.method === "CONNECT", status: 405, because: "it refuses TRACE and CONNECT itself" },
  { matches: (c) => /%00|%(?![0-9A-Fa-f]{2})/.test(c.target.split("?")[0] ?? ""), status: 400, because: "it refuses a path holding %00 or a malformed %-escape (`/api/%00`, `/api/subjekti/%ZZ`)" },
];

function adaptToNginx(c: RequestCase): RequestCase {
  const own = NGINX_ANSWERS.find((answer) => answer.matches(c));
  return own === undefined ? c : { ...c, status: own.status, expectHeaders: { "content-type": "text/html" }, body: NGINX_PAGE(own.status), length: null };
}

describe.skipIf(NGINX === null && !REQUIRE_NGINX)(`nginx (${nginxVersion()}) in front of subjekti serve`, () => {
  let site: Awaited<ReturnType<typeof buildFixture>>;
  let prefix: string;
  let host: NginxHost | undefined;

  beforeAll(async () => {
    if (NGINX === null) throw new Error("SUBJEKTI_REQUIRE_NGINX=1 but no nginx on PATH or in /usr/sbin (apt-get install nginx-light)");
    site = await buildFixture();
    prefix = await tempDir("subjekti-nginx-");
    host = await nginxHost(site.dir, prefix, ["--allowed-hosts", TABLE_HOSTS, "--forwarded-proto"]);
  }, 120_000);

  afterAll(async () => {
    await host?.stop();
    await site?.remove();
    if (prefix !== undefined) await rm(prefix, { recursive: true, force: true });
  });

  const use = (): NginxHost => {
    if (host === undefined) throw new Error("nginx did not start");
    return host;
  };

  describe("the request table", () => runRequestCases("nginx", use, adaptToNginx));
});
