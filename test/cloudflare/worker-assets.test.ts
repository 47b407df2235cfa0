/**
 * The Worker reads the site's files through the assets binding with a bare GET: a client's Range
 * or If-* header must never reach it, or the assets would answer 206 or 304 instead of a file.
 * `wrangler dev`'s assets answer the whole file whatever the headers, so the request table under
 * workerd cannot see a Worker that forwards them; here the Worker runs in-process over a stand-in
 * binding that refuses such a read (conditional-headers.ts). Mutation caught: assetsSite's
 * `new Request(url)` given `{ headers: request.headers }` (src/cloudflare/worker.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import worker from "../../src/cloudflare/worker.ts";
import { refuseConditional } from "../hosts/conditional-headers.ts";
import { BASE, buildFixture } from "../hosts/fixture-site.ts";
import { fixtureCdn } from "../hosts/hosts.ts";

let site: Awaited<ReturnType<typeof buildFixture>>;
beforeAll(async () => {
  site = await buildFixture();
});
afterAll(() => site?.remove());

/** The Worker over a stand-in ASSETS binding: the built site's files, refused when asked with a conditional header. */
async function callWorker(target: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const cdn = fixtureCdn(site.dir);
  const ASSETS = {
    async fetch(request: Request): Promise<Response> {
      const path = new URL(request.url).pathname;
      return (path.startsWith("/_subjekti/") ? refuseConditional(path, request.headers) : null) ?? cdn(request.url);
    },
  };
  const response = await worker.fetch(new Request(`${BASE}${target}`, { headers }), { ASSETS });
  return { status: response.status, body: await response.text() };
}

describe("the Worker reads its files without the client's Range and If-* headers", () => {
  it.each([
    ["Range on a pre-rendered page", "/api/subjekti/", { Range: "bytes=0-9" }],
    ["Range and If-Range on a derived page", "/api/subjekti/?limit=5&offset=3", { Range: "bytes=0-9", "If-Range": '"x"' }],
    ["If-None-Match of another ETag on a pre-rendered page", "/api/subjekti/?limit=7", { "If-None-Match": '"nope"' }],
    [
      "If-Modified-Since in the future on a derived page",
      "/api/subjekti/?limit=3&offset=1",
      { "If-Modified-Since": "Fri, 01 Jan 2100 00:00:00 GMT" },
    ],
    [
      "If-Match and If-Unmodified-Since that fail",
      "/api/subjekti/?offset=20",
      { "If-Match": '"nope"', "If-Unmodified-Since": "Thu, 01 Jan 1970 00:00:00 GMT" },
    ],
  ])("%s -> 200, the page a plain GET gets", async (_name, target, headers) => {
    const plain = await callWorker(target);
    expect(plain.status).toBe(200);
    expect(await callWorker(target, headers)).toEqual(plain);
  });
});
