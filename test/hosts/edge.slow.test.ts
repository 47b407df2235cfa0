/**
 * The edge function beyond the table: canonical pages are the CDN's own stream (acceptance 4),
 * the manifest is read once per instance, and a broken site answers 503 instead of throwing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MANIFEST_PATH, pagePath } from "../../src/core/layout.ts";
import type { Manifest } from "../../src/core/manifest.ts";
import { answerFetch } from "../../src/core/answer-request.ts";
import { cdnSite, type FetchFile, ManifestCache } from "../../src/core/cdn-site.ts";
import subjekti from "../../src/edge/subjekti.ts";
import { BASE, buildFixture, COLLECTION, page } from "./fixture-site.ts";
import { fixtureCdn, fixtureContext } from "./hosts.ts";

let site: Awaited<ReturnType<typeof buildFixture>>;
let manifest: Manifest;

beforeAll(async () => {
  site = await buildFixture();
  manifest = site.manifest;
});
afterAll(() => site?.remove());

/** Calls the default export and records every `next()` call: the URL asked for and the response given. */
async function callEdge(target: string, init: RequestInit = {}) {
  const request = new Request(`${BASE}${target}`, init);
  const calls: { url: string | null; response: Response }[] = [];
  const response = await subjekti(
    request,
    fixtureContext(site.dir, request, (url, given) => calls.push({ url, response: given })),
  );
  return { response, calls };
}

/** Files of the fixture through a CDN that can be made to fail, counting fetches per path. */
function faultyHost(fail: (path: string) => Response | Error | null): { fetchFile: FetchFile; fetched: string[] } {
  const cdn = fixtureCdn(site.dir);
  const fetched: string[] = [];
  return {
    fetched,
    async fetchFile(path) {
      fetched.push(path);
      const fault = fail(path);
      if (fault instanceof Error) throw fault;
      return fault ?? cdn(`${BASE}/${path}`);
    },
  };
}

/** A new edge instance (its own manifest cache), answering over a host's files. */
function createAnswerRequest(): (request: Request, host: { fetchFile: FetchFile }) => Promise<Response> {
  const manifests = new ManifestCache();
  return (request, host) =>
    answerFetch(
      request,
      cdnSite(host.fetchFile, async () => new Response("static", { status: 200 }), manifests),
    );
}

describe("acceptance 4: canonical requests are the page file, untouched", () => {
  it.each([
    ["no query -> plain/20 page 0", "/api/subjekti/", pagePathOf("plain", 20, 0)],
    ["limit=7&offset=14 -> plain/7 page 2", "/api/subjekti/?limit=7&offset=14", pagePathOf("plain", 7, 2)],
    ["format=api&offset=40 -> api/20 page 2", "/api/subjekti/?format=api&offset=40", pagePathOf("api", 20, 2)],
  ])("%s: one next() with the file's URL, no chunk, the body is next()'s own stream", async (_name, target, file) => {
    await callEdge("/api/subjekti/"); // the manifest is read once per instance: warm it
    await callEdge(target); // and the shard's tag list
    const { response, calls } = await callEdge(target);
    expect(calls.map((call) => call.url)).toEqual([`${BASE}/${file()}`]);
    expect(calls.some((call) => call.url?.includes("/records/"))).toBe(false);
    expect(response.body).toBe(calls[0]?.response.body);
    expect(response.headers.get("content-length")).toBe(calls[0]?.response.headers.get("content-length"));
  });

  it("a page's ETag comes from its shard's tag list, read once per instance; If-None-Match with it -> 304, no page read", async () => {
    await callEdge("/api/subjekti/");
    const first = await callEdge("/api/subjekti/?offset=20");
    const urls = first.calls.map((call) => call.url?.replace(/\.[0-9a-f]{16}\//, "/"));
    // The list is fetched unless an earlier request of this instance read it.
    expect([
      [`${BASE}/_subjekti/pages/plain/20/0/etags.txt`, `${BASE}/_subjekti/pages/plain/20/0/1.json`],
      [`${BASE}/_subjekti/pages/plain/20/0/1.json`],
    ]).toContainEqual(urls);
    const etag = first.response.headers.get("etag") ?? "";
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await callEdge("/api/subjekti/?offset=20", { headers: { "If-None-Match": etag } });
    expect(again.response.status).toBe(304);
    expect(again.calls).toEqual([]);
  });

  it("an unaligned offset is derived from one chunk, no page file: its records' offsets, then their bytes alone", async () => {
    await callEdge("/api/subjekti/");
    const { response, calls } = await callEdge("/api/subjekti/?limit=7&offset=3");
    expect(calls).toHaveLength(2);
    expect(calls[0]?.url).toMatch(/\/_subjekti\/records\/0\.[0-9a-f]+\/0\.offsets$/);
    expect(calls[1]?.url).toMatch(/\/_subjekti\/records\/0\.[0-9a-f]+\/0\.ndjson$/);
    expect(calls.map((call) => call.response.status)).toEqual([206, 206]);
    expect(await response.text()).toBe(page(3, 7, `${COLLECTION}?limit=7&offset=10`, `${COLLECTION}?limit=7`));
  });
});

describe("links on the request's own origin", () => {
  it("a pre-rendered position on another origin (a deploy preview) -> derived from the chunk, links on that origin", async () => {
    const other = "https://deploy-preview-7--subjekti.netlify.app";
    await callEdge("/api/subjekti/");
    const request = new Request(`${other}/api/subjekti/?limit=7&offset=14`, { headers: { "X-Forwarded-Host": "evil.example" } });
    const calls: string[] = [];
    const response = await subjekti(
      request,
      fixtureContext(site.dir, request, (url) => calls.push(url ?? "")),
    );
    expect(calls).toEqual([
      expect.stringMatching(new RegExp(`^${other}/_subjekti/records/0\\.[0-9a-f]+/0\\.offsets$`)),
      expect.stringMatching(new RegExp(`^${other}/_subjekti/records/0\\.[0-9a-f]+/0\\.ndjson$`)),
    ]);
    expect(await response.text()).toBe(page(14, 7, `${other}/api/subjekti/?limit=7&offset=21`, `${other}/api/subjekti/?limit=7&offset=7`));
  });
});

function pagePathOf(form: "plain" | "api", limit: number, index: number): () => string {
  return () => {
    const path = pagePath(manifest, form, limit, index);
    if (path === null) throw new Error(`no ${form}/${limit}/${index} page in the fixture`);
    return path;
  };
}

describe("the manifest: once per instance, never a 500", () => {
  it("concurrent first requests fetch the manifest once", async () => {
    const answer = createAnswerRequest();
    const host = faultyHost(() => null);
    const answers = await Promise.all(Array.from({ length: 5 }, () => answer(new Request(`${BASE}/api/subjekti/`), host)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(host.fetched.filter((path) => path === MANIFEST_PATH)).toHaveLength(1);
  });

  it("a missing manifest -> 503 JSON that says so; once it is there, the next request answers", async () => {
    const answer = createAnswerRequest();
    let deployed = false;
    const host = faultyHost((path) => (path === MANIFEST_PATH && !deployed ? new Response("Not Found", { status: 404 }) : null));
    const first = await answer(new Request(`${BASE}/api/subjekti/`), host);
    expect(first.status).toBe(503);
    expect(first.headers.get("content-type")).toBe("application/json");
    expect(first.headers.get("cache-control")).toBe("no-store");
    expect(((await first.json()) as { detail: string }).detail).toMatch(/no manifest .*answered 404.*Rebuild and redeploy it/);
    deployed = true;
    expect((await answer(new Request(`${BASE}/api/subjekti/`), host)).status).toBe(200);
  });

  it.each([
    ["another version", JSON.stringify({ layout: 1, version: "0.0.1" }), /unusable: .*manifest\.json: built by subjekti 0\.0\.1/],
    ["not JSON", "{nope", /unusable: .*manifest\.json is not JSON/],
    ["a JSON array", "[]", /unusable/],
  ])("a manifest of %s -> 503 with the reason", async (_name, text, detail) => {
    const answer = createAnswerRequest();
    const host = faultyHost((path) => (path === MANIFEST_PATH ? new Response(text) : null));
    const response = await answer(new Request(`${BASE}/api/subjekti/?limit=3`), host);
    expect(response.status).toBe(503);
    expect(((await response.json()) as { detail: string }).detail).toMatch(detail);
  });

  it("a network error from the CDN -> 503, not an exception", async () => {
    const answer = createAnswerRequest();
    const response = await answer(
      new Request(`${BASE}/api/subjekti/`),
      faultyHost(() => new Error("connection reset")),
    );
    expect(response.status).toBe(503);
    expect(((await response.json()) as { detail: string }).detail).toMatch(/connection reset/);
  });

  it.each([
    ["a missing records chunk -> 503 on a derived page", "/api/subjekti/?limit=5&offset=3", "/records/"],
    ["a missing page file -> 503 on a canonical page", "/api/subjekti/?limit=7", "/pages/"],
  ])("%s", async (_name, target, missing) => {
    const answer = createAnswerRequest();
    const host = faultyHost((path) => (path.includes(missing) ? new Response("Not Found", { status: 404 }) : null));
    const response = await answer(new Request(`${BASE}${target}`), host);
    expect(response.status).toBe(503);
    expect(((await response.json()) as { detail: string }).detail).toMatch(/incomplete/);
    const head = await answer(new Request(`${BASE}${target}`, { method: "HEAD" }), host);
    expect([head.status, head.body]).toEqual([503, null]);
  });

  it.each([
    ["a pre-rendered page", "/api/subjekti/?limit=7", page(0, 7, `${COLLECTION}?limit=7&offset=7`, null)],
    ["a derived page", "/api/subjekti/?limit=5&offset=3", page(3, 5, `${COLLECTION}?limit=5&offset=8`, `${COLLECTION}?limit=5`)],
  ])("a manifest of an earlier deploy (its shards gone) -> fetched again once, then %s is answered", async (_name, target, body) => {
    const answer = createAnswerRequest();
    // The earlier deploy's manifest names shards of other hashes, which this deploy no longer has.
    const earlier = { ...manifest, dirs: Object.fromEntries(Object.keys(manifest.dirs).map((key) => [key, "0123456789abcdef"])) };
    let manifests = 0;
    const host = faultyHost((path) => (path === MANIFEST_PATH && manifests++ === 0 ? new Response(JSON.stringify(earlier)) : null));
    const response = await answer(new Request(`${BASE}${target}`), host);
    expect([response.status, await response.text()]).toEqual([200, body]);
    expect(host.fetched.filter((path) => path === MANIFEST_PATH)).toHaveLength(2);
  });

  it("a path outside /api/ is passed through to the static site", async () => {
    const response = await createAnswerRequest()(
      new Request(`${BASE}/index.html`),
      faultyHost(() => null),
    );
    expect(await response.text()).toBe("static");
  });
});
