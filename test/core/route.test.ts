import { existsSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { generateFile } from "../../scripts/generate-subjects.ts";
import { buildSite } from "../../src/site/build-site.ts";
import { DEFAULT_OPTIONS } from "../../src/site/build-options.ts";
import type { Manifest } from "../../src/core/manifest.ts";
import { chunkPath, type Form, MANIFEST_PATH, offsetsPath, pagePath, recordShardKey } from "../../src/core/layout.ts";
import { SUBJECT_FIELDS, toJson } from "../../src/core/render-page.ts";
import { bytesEtag, etagAt } from "../../src/core/etag.ts";
import { negotiate } from "../../src/core/request/negotiate.ts";
import { answerRequest, type SiteHost } from "../../src/core/answer-request.ts";
import { assemblePageBytes } from "../../src/core/page-bytes.ts";
import { linesRun, recordOffsets, recordRun } from "../../src/core/record-offsets.ts";
import { type Decision, route, type RouteRequest } from "../../src/core/route.ts";
import { assemblePage } from "./text-pages.ts";
import { tempDir } from "../file-trees.ts";

const BASE = "https://x.org";
const COUNT = 2000;

/** A real site of 2000 generated subjects, limits 20 and 100 pre-rendered in the plain and api forms: the manifest as the build writes it. */
const root = await tempDir("subjekti-route-");
const siteDir = join(root, "site");
await generateFile({ count: COUNT, seed: "route", format: "ndjson" }, join(root, "subjekti.ndjson"));
await buildSite({
  ...DEFAULT_OPTIONS,
  dataDir: root,
  outDir: siteDir,
  limits: [20, 100],
  forms: ["plain", "api"],
  baseUrl: BASE,
  cacheControl: "public, max-age=60",
  quiet: true,
  cacheDir: null,
});
afterAll(() => rm(root, { recursive: true, force: true }));
const manifest = JSON.parse(await readFile(join(siteDir, MANIFEST_PATH), "utf8")) as Manifest;
/** The subjects in id order, as the source holds them. */
const subjects = (await readFile(join(root, "subjekti.ndjson"), "utf8"))
  .trimEnd()
  .split("\n")
  .map((line) => JSON.parse(line) as { id: number })
  .toSorted((a, b) => a.id - b.id);
const chunkFile = (chunk: number): Promise<string> => readFile(join(siteDir, chunkPath(manifest, chunk) ?? "missing"), "utf8");

/** Record lines for a made-up site of any chunk size: one `{"id":n}` a line. */
const chunkText = (chunk: number, size: number, count: number): string =>
  Array.from({ length: Math.max(0, Math.min(size, count - chunk * size)) }, (_, i) => `{"id":${chunk * size + i + 1}}`).join("\n") + "\n";

function ask(target: string, init: Partial<Omit<RouteRequest, "path" | "query">> = {}, site: Manifest = manifest): Decision {
  const q = target.indexOf("?");
  return route(
    {
      method: "GET",
      baseUrl: BASE,
      ...init,
      path: q < 0 ? target : target.slice(0, q),
      query: q < 0 ? "" : target.slice(q + 1),
    },
    site,
  );
}

const header = (decision: Decision, name: string): string | undefined =>
  "headers" in decision ? new Map(decision.headers).get(name) : undefined;

/** The built site as a host reaches it: its manifest, its files read from the directory. */
const host: SiteHost<Uint8Array> = {
  manifest: async () => ({ manifest }),
  refresh: async () => undefined,
  readPage: async (path) => {
    const bytes = await readFile(join(siteDir, path)).catch(() => null);
    return bytes === null ? null : { body: new Uint8Array(bytes), length: bytes.length };
  },
  readChunk: (path) => readFile(join(siteDir, path), "utf8").catch(() => null),
  fix: "Rebuild.",
};

/** The finished answer to a request (the ETag is the handler's: a tag of the bytes). */
async function answer(
  target: string,
  init: { method?: string; ifNoneMatch?: string; accept?: string; host?: string } = {},
): Promise<{ status: number; headers: readonly (readonly [string, string])[]; body: string }> {
  const sent = new Headers();
  if (init.ifNoneMatch !== undefined) sent.set("If-None-Match", init.ifNoneMatch);
  if (init.accept !== undefined) sent.set("Accept", init.accept);
  const done = await answerRequest(
    { method: init.method ?? "GET", target, scheme: "https", host: init.host ?? "x.org", headers: sent },
    host,
  );
  if (done.kind !== "send") throw new Error(`${target} is not the API's`);
  const body =
    done.body === null
      ? ""
      : new TextDecoder().decode(done.body instanceof Uint8Array ? done.body : new Uint8Array(await new Response(done.body).arrayBuffer()));
  return { status: done.status, headers: done.headers, body };
}

const answerHeader = (done: { headers: readonly (readonly [string, string])[] }, name: string): string | undefined =>
  new Map(done.headers).get(name);

const NOT_FOUND = '{"detail":"Not found."}';
const NOT_ACCEPTABLE = '{"detail":"Could not satisfy the request Accept header."}';
const OPTIONS_BODY =
  '{"name":"Subjekt List","description":"","renders":["application/json"],"parses":["application/json","application/x-www-form-urlencoded","multipart/form-data"]}';

describe("route: the statuses and bodies of the HTTP contract", () => {
  it.each([
    ["GET /api/subjekti/ -> 200 file", "GET", "/api/subjekti/", undefined, 200, undefined],
    ["HEAD /api/subjekti/ -> 200 file (as GET)", "HEAD", "/api/subjekti/", undefined, 200, undefined],
    ["get (lower case) -> 200 file", "get", "/api/subjekti/", undefined, 200, undefined],
    ["OPTIONS -> 200 with the metadata body", "OPTIONS", "/api/subjekti/", undefined, 200, OPTIONS_BODY],
    ["POST -> 405 naming POST", "POST", "/api/subjekti/", undefined, 405, '{"detail":"Method \\"POST\\" not allowed."}'],
    ["PUT -> 405 naming PUT", "PUT", "/api/subjekti/", undefined, 405, '{"detail":"Method \\"PUT\\" not allowed."}'],
    ["DELETE -> 405", "DELETE", "/api/subjekti/", undefined, 405, '{"detail":"Method \\"DELETE\\" not allowed."}'],
    ["TRACE -> 405", "TRACE", "/api/subjekti/", undefined, 405, '{"detail":"Method \\"TRACE\\" not allowed."}'],
    ["patch -> 405 naming PATCH (upper-cased)", "patch", "/api/subjekti/", undefined, 405, '{"detail":"Method \\"PATCH\\" not allowed."}'],
    ["BREW (unknown method) -> 405", "BREW", "/api/subjekti/", undefined, 405, '{"detail":"Method \\"BREW\\" not allowed."}'],
    ["GET ?format=xml -> 404", "GET", "/api/subjekti/?format=xml", undefined, 404, NOT_FOUND],
    ["GET ?format=API -> 404 (case-sensitive)", "GET", "/api/subjekti/?format=API", undefined, 404, NOT_FOUND],
    ["GET ?format=api&format=xml -> 404 (last wins)", "GET", "/api/subjekti/?format=api&format=xml", undefined, 404, NOT_FOUND],
    ["GET ?format=xml&format=api -> 200 (last wins)", "GET", "/api/subjekti/?format=xml&format=api", undefined, 200, undefined],
    ["POST ?format=xml -> 404 (format before the method)", "POST", "/api/subjekti/?format=xml", undefined, 404, NOT_FOUND],
    ["OPTIONS ?format=xml -> 404", "OPTIONS", "/api/subjekti/?format=xml", undefined, 404, NOT_FOUND],
    ["GET ?format=xml, Accept text/html -> 404 (format before Accept)", "GET", "/api/subjekti/?format=xml", "text/html", 404, NOT_FOUND],
    ["GET, Accept text/html -> 406", "GET", "/api/subjekti/", "text/html", 406, NOT_ACCEPTABLE],
    ["POST, Accept text/html -> 406 (Accept before the method)", "POST", "/api/subjekti/", "text/html", 406, NOT_ACCEPTABLE],
    ["OPTIONS, Accept text/html -> 406", "OPTIONS", "/api/subjekti/", "text/html", 406, NOT_ACCEPTABLE],
    ["GET /api/ -> the API root", "GET", "/api/", undefined, 200, `{"subjekti":"${BASE}/api/subjekti/"}`],
    ["GET /api -> 301 to the API root", "GET", "/api", undefined, 301, ""],
    ["GET /api/other/ -> 404", "GET", "/api/other/", undefined, 404, NOT_FOUND],
    ["GET /api/subjekti/abc/ -> 404 (no id)", "GET", "/api/subjekti/abc/", undefined, 404, NOT_FOUND],
    ["GET /api/subjekti/0/ -> 404 (no id)", "GET", "/api/subjekti/0/", undefined, 404, NOT_FOUND],
    ["GET /api/subjekti// -> 404", "GET", "/api/subjekti//", undefined, 404, NOT_FOUND],
    ["POST /api/other -> 404 (not the collection: no 405)", "POST", "/api/other", undefined, 404, NOT_FOUND],
  ])("%s", (_name, method, target, accept, status, body) => {
    const decision = ask(target, { method, accept });
    expect("status" in decision ? decision.status : decision.kind).toBe(status);
    if (body !== undefined) expect(decision.kind === "respond" ? decision.body : decision.kind).toBe(body);
  });

  it.each([
    ["'/index.html' -> static", "/index.html"],
    ["'/schema/' -> static", "/schema/"],
    ["'/apix/subjekti/' -> static", "/apix/subjekti/"],
    ["'/API/subjekti/' -> static (paths are case-sensitive)", "/API/subjekti/"],
    ["'/_subjekti/manifest.json' -> static", "/_subjekti/manifest.json"],
  ])("%s", (_name, target) => {
    expect(ask(target)).toEqual({ kind: "static" });
  });

  it.each([
    ["no query -> Location '/api/subjekti/' (no '?')", "GET", "/api/subjekti", "/api/subjekti/"],
    ["'?' alone -> no '?'", "GET", "/api/subjekti?", "/api/subjekti/"],
    ["with a query -> the same query", "GET", "/api/subjekti?limit=5&format=xml", "/api/subjekti/?limit=5&format=xml"],
    ["POST -> 301 as well (APPEND_SLASH precedes the view)", "POST", "/api/subjekti?a=1", "/api/subjekti/?a=1"],
    ["percent-escaped path '/api/subjekt%69' -> 301", "GET", "/api/subjekt%69", "/api/subjekti/"],
    // Regression: Django's get_full_path runs iri_to_uri over the query; URL.search leaves {|}^` and \ raw.
    [
      "raw '{x}|^`\\' in the query -> %-escaped as iri_to_uri does",
      "GET",
      "/api/subjekti?q={x}|^`\\&a=[1]'%zz",
      "/api/subjekti/?q=%7Bx%7D%7C%5E%60%5C&a=[1]'%zz",
    ],
    // Regression: Django re-percents the bytes that are not UTF-8 (repercent_broken_unicode), then quotes that % again.
    ["'/%C0' (not UTF-8) -> '/%25C0/'", "GET", "/api/subjekti/%C0", "/api/subjekti/%25C0/"],
    ["'/%C3%A9' (UTF-8) -> '/%C3%A9/'", "GET", "/api/subjekti/%C3%A9", "/api/subjekti/%C3%A9/"],
    ["'/%C3%A9%C0x' -> only the broken byte re-quoted", "GET", "/api/subjekti/%C3%A9%C0x", "/api/subjekti/%C3%A9%25C0x/"],
    ["a cut sequence '/%E2%82' -> each byte re-quoted", "GET", "/api/subjekti/%E2%82", "/api/subjekti/%25E2%2582/"],
    ["a surrogate '/%ED%A0%80' -> not UTF-8", "GET", "/api/subjekti/%ED%A0%80", "/api/subjekti/%25ED%25A0%2580/"],
    ["an overlong '/%E0%80%AF' -> not UTF-8", "GET", "/api/subjekti/%E0%80%AF", "/api/subjekti/%25E0%2580%25AF/"],
    [
      "'/%F0%9F%98%80%F0%9F%98' -> the whole emoji kept, the cut one re-quoted",
      "GET",
      "/api/subjekti/%F0%9F%98%80%F0%9F%98",
      "/api/subjekti/%F0%9F%98%80%25F0%259F%2598/",
    ],
  ])("/api/subjekti %s", (_name, method, target, location) => {
    const decision = ask(target, { method });
    expect(decision).toMatchObject({ kind: "respond", status: 301, body: "" });
    expect(header(decision, "Location")).toBe(location);
  });

  it.each([
    ["200 file", ask("/api/subjekti/")],
    ["200 respond (past the end)", ask("/api/subjekti/?offset=5000")],
    ["404 unknown format", ask("/api/subjekti/?format=xml")],
    ["405", ask("/api/subjekti/", { method: "POST" })],
    ["406", ask("/api/subjekti/", { accept: "text/html" })],
    ["OPTIONS", ask("/api/subjekti/", { method: "OPTIONS" })],
  ])("%s carries the contract's headers", (_name, decision) => {
    for (const [name, value] of [
      ["Content-Type", "application/json"],
      ["Allow", "GET, HEAD, OPTIONS"],
      ["Vary", "Accept"],
      ["X-Content-Type-Options", "nosniff"],
      ["X-Frame-Options", "DENY"],
      ["Referrer-Policy", "same-origin"],
      ["Access-Control-Allow-Origin", "*"],
      ["Cache-Control", "public, max-age=60"],
    ] as const) {
      expect(header(decision, name)).toBe(value);
    }
  });

  it("pages carry an ETag (their bytes'); error answers do not", async () => {
    const page = await answer("/api/subjekti/");
    expect(answerHeader(page, "ETag")).toBe(bytesEtag(new TextEncoder().encode(page.body)));
    expect(answerHeader(await answer("/api/subjekti/", { method: "POST" }), "ETag")).toBeUndefined();
  });
});

describe("route: If-None-Match", async () => {
  const etag = answerHeader(await answer("/api/subjekti/?offset=40"), "ETag") ?? "";
  it.each([
    ["the page's tag -> 304", "GET", etag, 304],
    ["W/ + the tag -> 304", "GET", `W/${etag}`, 304],
    ["'*' -> 304", "GET", "*", 304],
    ["a list holding the tag -> 304", "GET", `"x", ${etag}`, 304],
    ["HEAD with the tag -> 304", "HEAD", etag, 304],
    ["another tag -> 200", "GET", '"nope"', 200],
    ["'*' on OPTIONS -> 200 (not a page)", "OPTIONS", "*", 200],
    ["'*' on POST -> 405", "POST", "*", 405],
  ])("%s", async (_name, method, ifNoneMatch, status) => {
    const done = await answer("/api/subjekti/?offset=40", { method, ifNoneMatch });
    expect(done.status).toBe(status);
    if (status === 304) expect(done.body).toBe("");
  });

  it.each([
    ["limit=20&offset=40 (same page, spelled out)", "/api/subjekti/?limit=20&offset=40", 304],
    ["offset=041 (another page)", "/api/subjekti/?offset=41", 200],
    ["format=api (other links)", "/api/subjekti/?offset=40&format=api", 200],
  ])("the tag of ?offset=40 against %s -> %i", async (_name, target, status) => {
    expect((await answer(target, { ifNoneMatch: etag })).status).toBe(status);
  });

  it("another base URL gets another tag (its links differ)", async () => {
    expect(answerHeader(await answer("/api/subjekti/", { host: "localhost:8080" }), "ETag")).not.toBe(
      answerHeader(await answer("/api/subjekti/"), "ETag"),
    );
  });

  it("a pre-rendered page's tag is read from its shard's tag list, the same as its bytes'", async () => {
    const file = ask("/api/subjekti/?offset=40");
    expect(file).toMatchObject({ kind: "file", etag: { index: 2 } });
    if (file.kind !== "file") return;
    const bytes = await readFile(join(siteDir, file.path));
    expect(etag).toBe(bytesEtag(bytes));
    expect(etagAt(await readFile(join(siteDir, file.etag.path), "utf8"), file.etag.index)).toBe(etag);
  });
});

describe("route: file or derive", () => {
  it.each([
    ["no query -> plain/20 page 0", "/api/subjekti/", ["plain", 20, 0]],
    ["offset=0 -> plain/20 page 0", "/api/subjekti/?offset=0", ["plain", 20, 0]],
    ["limit=20&offset=40 -> plain/20 page 2", "/api/subjekti/?limit=20&offset=40", ["plain", 20, 2]],
    ["offset=1980 -> plain/20 page 99 (the last)", "/api/subjekti/?offset=1980", ["plain", 20, 99]],
    ["limit=100&offset=1900 -> plain/100 page 19", "/api/subjekti/?limit=100&offset=1900", ["plain", 100, 19]],
    ["format=api -> api/20 page 0", "/api/subjekti/?format=api", ["api", 20, 0]],
    ["limit=5&limit=20 -> plain/20 (one limit in the links)", "/api/subjekti/?limit=5&limit=20", ["plain", 20, 0]],
    ["offset=05 (offset 5, not aligned) -> derive", "/api/subjekti/?offset=05", null],
    ["offset=41 (not aligned) -> derive", "/api/subjekti/?offset=41", null],
    ["limit=50 (not pre-rendered) -> derive", "/api/subjekti/?limit=50", null],
    ["limit=5000 (-> 1000, not pre-rendered) -> derive", "/api/subjekti/?limit=5000", null],
    ["format=json (form not built) -> derive", "/api/subjekti/?format=json", null],
    ["format= (blank, carried into links) -> derive", "/api/subjekti/?format=", null],
    ["format=api&format=api (repeated) -> derive", "/api/subjekti/?format=api&format=api", null],
    ["an unknown parameter -> derive", "/api/subjekti/?x=1", null],
    ["'flag' without '=' -> derive", "/api/subjekti/?flag", null],
  ] as const)("%s", (_name, target, page) => {
    const decision = ask(target);
    if (page === null) {
      expect(decision.kind).toBe("derive");
      return;
    }
    const path = pagePath(manifest, ...(page as readonly [Form, number, number]));
    expect(path).toMatch(new RegExp(`^_subjekti/pages/${page[0]}/${page[1]}/0\\.[0-9a-f]{16}/${page[2]}\\.json$`));
    expect(decision).toMatchObject({ kind: "file", status: 200, path });
    // The file the router names is one the build wrote.
    expect(existsSync(join(siteDir, path ?? ""))).toBe(true);
  });

  it("a request whose base URL is not the manifest's -> derive, links to the request's base", () => {
    const decision = ask("/api/subjekti/", { baseUrl: "http://localhost:8080" });
    expect(decision).toMatchObject({
      kind: "derive",
      head: '{"count":2000,"next":"http://localhost:8080/api/subjekti/?limit=20&offset=20","previous":null,"results":[',
      chunks: [{ path: chunkPath(manifest, 0), from: 0, to: 20 }],
    });
  });

  it("a page across a chunk boundary (offset 990, limit 20) -> two slices of the built chunks, assembled into records 990-1009", async () => {
    const decision = ask("/api/subjekti/?offset=990");
    if (decision.kind !== "derive") throw new Error(`expected derive, got ${decision.kind}`);
    expect(decision.chunks).toEqual([
      { path: chunkPath(manifest, 0), offsets: offsetsPath(manifest, 0), from: 990, to: 1000 },
      { path: chunkPath(manifest, 1), offsets: offsetsPath(manifest, 1), from: 0, to: 10 },
    ]);
    const body = assemblePage(decision.head, decision.chunks, [await chunkFile(0), await chunkFile(1)]);
    expect(JSON.parse(body)).toEqual({
      count: COUNT,
      next: `${BASE}/api/subjekti/?limit=20&offset=1010`,
      previous: `${BASE}/api/subjekti/?limit=20&offset=970`,
      results: subjects.slice(990, 1010),
    });
  });

  it("the last, partial page (offset 1990) -> the last 10 records, next null", async () => {
    const decision = ask("/api/subjekti/?offset=1990");
    if (decision.kind !== "derive") throw new Error(`expected derive, got ${decision.kind}`);
    expect(decision.chunks).toEqual([{ path: chunkPath(manifest, 1), offsets: offsetsPath(manifest, 1), from: 990, to: 1000 }]);
    const page = JSON.parse(assemblePage(decision.head, decision.chunks, [await chunkFile(1)])) as {
      next: string | null;
      results: unknown[];
    };
    expect(page.next).toBeNull();
    expect(page.results).toEqual(subjects.slice(1990));
  });

  it.each([
    [
      "offset=2000 (= count) -> [] and previous 1980",
      "offset=2000",
      `{"count":2000,"next":null,"previous":"${BASE}/api/subjekti/?limit=20&offset=1980","results":[]}`,
    ],
    [
      "offset=2005 -> [] and previous 1985",
      "offset=2005",
      `{"count":2000,"next":null,"previous":"${BASE}/api/subjekti/?limit=20&offset=1985","results":[]}`,
    ],
    [
      "offset=10**30 -> [] and previous 10**30-20 exactly",
      `offset=1${"0".repeat(30)}`,
      `{"count":2000,"next":null,"previous":"${BASE}/api/subjekti/?limit=20&offset=${"9".repeat(28)}80","results":[]}`,
    ],
  ])("past the end: %s, answered directly", (_name, query, body) => {
    expect(ask(`/api/subjekti/?${query}`)).toMatchObject({ kind: "respond", status: 200, body });
  });

  it.each([
    ["offset 0 -> [] and no links", "", '{"count":0,"next":null,"previous":null,"results":[]}'],
    [
      "offset 25 -> [] and previous offset 5",
      "?offset=25",
      `{"count":0,"next":null,"previous":"${BASE}/api/subjekti/?limit=20&offset=5","results":[]}`,
    ],
  ])("an empty list: %s", (_name, query, body) => {
    expect(ask(`/api/subjekti/${query}`, {}, { ...manifest, count: 0, dirs: {} })).toMatchObject({ kind: "respond", status: 200, body });
  });

  it("a records chunk missing from the manifest -> 503 with no-store and no ETag (never cached), not a throw", () => {
    const decision = ask("/api/subjekti/?offset=41", {}, { ...manifest, dirs: {} });
    expect(decision).toMatchObject({ kind: "respond", status: 503, body: toJson({ detail: "The site is incomplete: rebuild it." }) });
    if (decision.kind !== "respond") throw new Error("expected a respond decision");
    expect(decision.headers).toContainEqual(["Cache-Control", "no-store"]);
    expect(decision.headers.some(([name]) => name === "ETag")).toBe(false);
  });

  it("a pre-rendered shard missing from the manifest -> derive instead", () => {
    const { "pages/plain/20/0": _gone, ...dirs } = manifest.dirs;
    expect(ask("/api/subjekti/", {}, { ...manifest, dirs }).kind).toBe("derive");
  });
});

describe("a derived page from the bytes of its chunks (assemblePageBytes over each chunk's offsets)", () => {
  it.each([
    ["one slice in the middle", [{ from: 1, to: 3 }], ["x\ny\nz\nw\n"], "H" + "y,z" + "]}"],
    [
      "two slices across files",
      [
        { from: 2, to: 3 },
        { from: 0, to: 2 },
      ],
      ["x\ny\nz\n", "u\nv\nw\n"],
      "Hz,u,v]}",
    ],
    ["no trailing newline", [{ from: 0, to: 2 }], ["x\ny"], "Hx,y]}"],
    ["the last record without its newline", [{ from: 1, to: 2 }], ["x\nyz"], "Hyz]}"],
    ["multi-byte records", [{ from: 0, to: 2 }], ['"Ž"\n"\u2028"\n'], 'H"Ž","\u2028"]}'],
    ["no slices -> empty results", [], [], "H]}"],
  ])("%s", (_name, slices, texts, expected) => {
    const bytes = texts.map((text) => new TextEncoder().encode(text));
    // Through each chunk's offsets table, and by searching its line breaks: the same runs.
    const byOffsets = slices.map(({ from, to }, i) =>
      recordRun(bytes[i] as Uint8Array, recordOffsets(bytes[i] as Uint8Array).subarray(from * 4), 0, to - from),
    );
    const byLines = slices.map(({ from, to }, i) => linesRun(bytes[i] as Uint8Array, from, to - from));
    expect(new TextDecoder().decode(assemblePageBytes("H", byOffsets))).toBe(expected);
    expect(byLines).toEqual(byOffsets);
  });
});

describe("negotiate admits JSON (DRF DefaultContentNegotiation with JSONRenderer only)", () => {
  it.each([
    ["absent (null) -> true", null, true],
    ["absent (undefined) -> true", undefined, true],
    // The lead's rule; DRF itself would answer 406 to a present but empty header (see the report).
    ["blank '' -> true", "", true],
    ["'*/*' -> true", "*/*", true],
    ["'application/*' -> true", "application/*", true],
    ["'*/json' -> true", "*/json", true],
    ["'application/json' -> true", "application/json", true],
    ["'Application/JSON' -> true (Django lower-cases)", "Application/JSON", true],
    ["'application/json;q=0' -> true (DRF ignores q)", "application/json;q=0", true],
    ["'application/json; indent=4' -> true (parameters ignored)", "application/json; indent=4", true],
    ["'text/html' -> false", "text/html", false],
    ["'text/html, application/xhtml+xml' -> false", "text/html, application/xhtml+xml", false],
    ["'text/html, */*;q=0.8' (a browser) -> true", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", true],
    ["'text/*' -> false", "text/*", false],
    ["'application/xml' -> false", "application/xml", false],
    ["'application/json-patch+json' -> false", "application/json-patch+json", false],
    ["'*' (no slash) -> false", "*", false],
    ["'application' (no slash) -> false", "application", false],
    ["'application/json/x' -> false", "application/json/x", false],
    ["'text/html, ' (trailing empty range) -> false", "text/html, ", false],
    ["'  application/json  ' -> true", "  application/json  ", true],
    // Regression: Python's str.strip() also strips \x1c-\x1f and NEL, which String.trim keeps.
    ["'application/json\\x85' (NEL) -> true", "application/json\x85", true],
    ["'\\x1capplication/json;q=1' -> true", "\x1capplication/json;q=1", true],
    ["'application/json \\x1f;q=1' -> true", "application/json \x1f;q=1", true],
    ["'\\ufeffapplication/json' -> false (BOM is not whitespace to Python)", "\ufeffapplication/json", false],
  ])("%s", (_name, accept, expected) => {
    expect(negotiate(accept) !== null).toBe(expected);
  });
});

describe("route: laws", () => {
  const STATUSES = new Set([200, 204, 301, 304, 404, 405, 406, 503]);
  const anyCodePoint = fc.integer({ min: 0, max: 0x10ffff }).map((cp) => String.fromCodePoint(cp));
  const junk = fc.string({ unit: anyCodePoint, maxLength: 8 });
  const piece = fc.oneof(
    fc.constantFrom(
      "%",
      "%zz",
      "%C4",
      "%FF",
      "%8",
      "&",
      "=",
      "+",
      "limit=",
      "offset=",
      "format=",
      "api",
      "json",
      "xml",
      "-1",
      "1_0",
      "99999999999999999999999",
      "\u0663",
      " ",
    ),
    junk,
  );
  const query = fc.array(piece, { maxLength: 10 }).map((parts) => parts.join(""));
  const path = fc.oneof(
    fc.constantFrom(
      "/api/subjekti/",
      "/api/subjekti",
      "/api/",
      "/api/subjekt%69/",
      "/api/%zz",
      "/api/subjekti/%FF",
      "/",
      "/openapi.json",
      "/schema/page.json",
      "/x",
    ),
    junk.map((s) => `/${s}`),
    junk.map((s) => `/api/${s}`),
  );
  const method = fc.oneof(fc.constantFrom("GET", "HEAD", "OPTIONS", "POST", "get", "TRACE"), junk);
  const optional = (arb: fc.Arbitrary<string>) => fc.option(arb, { nil: undefined });
  const accept = optional(fc.oneof(fc.constantFrom("*/*", "text/html", "application/json;q=0", ""), junk));
  const ifNoneMatch = optional(fc.oneof(fc.constantFrom("*", 'W/"x"'), junk));
  const site = fc.record({
    count: fc.integer({ min: 0, max: 5000 }),
    complete: fc.boolean(),
  });

  const corsHeader = optional(fc.oneof(fc.constantFrom("GET", "http://page.example", "x-a, If-None-Match", ""), junk));

  it("never throws and answers only 200, 204, 301, 304, 404, 405, 406 or 503", () => {
    fc.assert(
      fc.property(method, path, query, accept, ifNoneMatch, site, corsHeader, corsHeader, (m, p, q, a, inm, s, origin, acrm) => {
        const decision = route(
          {
            method: m,
            path: p,
            query: q,
            accept: a,
            ifNoneMatch: inm,
            baseUrl: BASE,
            origin,
            accessControlRequestMethod: acrm,
            accessControlRequestHeaders: origin,
          },
          { ...manifest, count: s.count, dirs: s.complete ? manifest.dirs : {} },
        );
        if ("status" in decision) expect(STATUSES.has(decision.status)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it("following next links through route and assemblePage gives [offset, count) once, in order", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 120 }),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 0, max: 130 }),
        fc.integer({ min: 1, max: 9 }),
        (count, limit, start, chunkSize) => {
          // Nothing pre-rendered and small chunks: every page is derived, most across chunk files.
          const dirs: Record<string, string> = {};
          for (let c = 0; c * chunkSize < count; c++) dirs[recordShardKey(c)] = "0123456789abcdef";
          const site: Manifest = { ...manifest, count, chunkSize, forms: [], dirs };
          const files = new Map<string, string>();
          for (let c = 0; c * chunkSize < count; c++) files.set(chunkPath(site, c) ?? "", chunkText(c, chunkSize, count));
          const ids: number[] = [];
          let target: string | null = `/api/subjekti/?limit=${limit}&offset=${start}`;
          for (let hops = 0; target !== null && hops <= count + 1; hops++) {
            const decision = ask(target, {}, site);
            let body: string;
            if (decision.kind === "derive") {
              body = assemblePage(
                decision.head,
                decision.chunks,
                decision.chunks.map((c) => files.get(c.path) ?? ""),
              );
            } else if (decision.kind === "respond" && decision.status === 200) {
              body = decision.body;
            } else {
              throw new Error(`unexpected ${decision.kind}`);
            }
            const page = JSON.parse(body) as { count: number; next: string | null; results: { id: number }[] };
            expect(page.count).toBe(count);
            ids.push(...page.results.map((r) => r.id - 1));
            target = page.next === null ? null : page.next.slice(BASE.length);
          }
          expect(ids).toEqual(Array.from({ length: Math.max(0, count - start) }, (_, i) => start + i));
        },
      ),
    );
  });
});

describe("route: Accept's indent", () => {
  const pretty = { accept: "application/json; indent=4" };

  it("a pre-rendered page asked with an indent is derived, pretty, under its own ETag", async () => {
    expect(ask("/api/subjekti/").kind).toBe("file");
    expect(ask("/api/subjekti/", pretty)).toMatchObject({ kind: "derive", indent: 4 });
    const compact = answerHeader(await answer("/api/subjekti/"), "ETag");
    const indented = answerHeader(await answer("/api/subjekti/", pretty), "ETag");
    expect(indented).not.toBe(compact);
    expect((await answer("/api/subjekti/", { ...pretty, ifNoneMatch: compact ?? "" })).status).toBe(200);
    expect((await answer("/api/subjekti/", { ...pretty, ifNoneMatch: indented ?? "" })).status).toBe(304);
  });

  it("indent=0 and a non-integer indent are the compact page, the file itself", () => {
    expect(ask("/api/subjekti/", { accept: "application/json; indent=0" }).kind).toBe("file");
    expect(ask("/api/subjekti/", { accept: "application/json; indent=x" }).kind).toBe("file");
  });

  it("the derived page is json.dumps(indent=4, separators=(',', ': ')) of the compact one", async () => {
    const decision = ask("/api/subjekti/?limit=2&offset=1998", pretty);
    if (decision.kind !== "derive") throw new Error(decision.kind);
    const body = assemblePage(decision.head, decision.chunks, [await chunkFile(1)], decision.indent);
    // The layout written out by hand as Python's json.dumps(indent=4) lays it out (DRF's
    // JSONRenderer), each value alone from the source records: not the JSON.stringify(…, 4) the code calls.
    const record = (subject: Record<string, unknown>): string =>
      [
        "        {",
        SUBJECT_FIELDS.map((field) => `            "${field}": ${JSON.stringify(subject[field] ?? null)}`).join(",\n"),
        "        }",
      ].join("\n");
    const [a, b] = subjects.slice(1998) as Record<string, unknown>[];
    if (a === undefined || b === undefined) throw new Error("the site holds 2000 subjects");
    const expected = [
      "{",
      '    "count": 2000,',
      '    "next": null,',
      '    "previous": "https://x.org/api/subjekti/?limit=2&offset=1996",',
      '    "results": [',
      `${record(a)},`,
      record(b),
      "    ]",
      "}",
    ].join("\n");
    expect(body).toBe(expected);
  });
});

describe("route: paths as sent and raw query bytes", () => {
  it.each([
    ["/api/subjekti/./", 404],
    ["/api/subjekti/%2e", 404],
    ["/api/x/../subjekti/", 404],
    ["/api/x/../subjekti", 404],
    ["/api/%73ubjekti/", 200],
    ["/api/subjekti%2F", 200],
  ])("%s -> %i", (target, status) => {
    expect(ask(target)).toMatchObject({ status });
  });

  it("/api\\subjekti/ is not under /api/: static", () => {
    expect(ask("/api\\subjekti/")).toEqual({ kind: "static" });
  });

  it("raw bytes: values read as UTF-8 (Latin-1 when the query is no UTF-8), links from the bytes as Latin-1", () => {
    const links = (query: string) => {
      const decision = ask(`/api/subjekti/?${query}`);
      return decision.kind === "derive" ? decision.head : decision.kind;
    };
    expect(links("limit=\xd9\xa3&x=\xc4\x8d")).toContain(`?limit=3&offset=3&x=%C3%84%C2%8D"`);
    expect(links("limit=\xd9\xa3&x=\xff")).toContain(`?limit=20&offset=20&x=%C3%BF"`);
    expect(links("x=\x80")).toContain(`&x=%C2%80"`);
  });
});

describe("route: CORS preflights (django-cors-headers in front of DRF)", () => {
  const preflight = { method: "OPTIONS", origin: "http://page.example", accessControlRequestMethod: "GET" };
  it.each([
    ["the collection", "/api/subjekti/"],
    ["/api/subjekti without the slash (before the 301)", "/api/subjekti"],
    ["format=xml (before the 404)", "/api/subjekti/?format=xml"],
    ["another /api/ path (before the 404)", "/api/other"],
    ["the OpenAPI document", "/openapi.json"],
    ["the landing page", "/"],
  ])("preflight on %s -> 204 with the CORS answer, no body", (_name, target) => {
    const decision = ask(target, { ...preflight, accessControlRequestHeaders: "X-Client, if-none-match" });
    expect(decision).toMatchObject({ kind: "respond", status: 204, body: "" });
    const headers = new Map("headers" in decision ? decision.headers : []);
    expect(Object.fromEntries(headers)).toMatchObject({
      "Access-Control-Allow-Origin": "*",
      "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS",
      "Access-Control-Allow-Headers": "x-client, if-none-match",
      "Access-Control-Max-Age": "86400",
      "Cache-Control": "no-store",
    });
    expect(headers.has("Allow")).toBe(false);
  });

  it.each([
    ["Origin alone", { method: "OPTIONS", origin: "http://page.example" }],
    ["Access-Control-Request-Method alone", { method: "OPTIONS", accessControlRequestMethod: "GET" }],
  ])("OPTIONS with %s -> DRF's metadata, 200", (_name, init) => {
    expect(ask("/api/subjekti/", init)).toMatchObject({ kind: "respond", status: 200, body: OPTIONS_BODY });
  });

  it("a static path is the host's, preflight or not", () => {
    expect(ask("/_subjekti/manifest.json", preflight)).toEqual({ kind: "static" });
  });

  it.each([
    ["junk and empty names dropped", "x-a, , bad name, x@y, X-A", "x-a"],
    ["nothing usable -> no Allow-Headers", " , ", undefined],
  ])("requested headers: %s", (_name, requested, allowed) => {
    const decision = ask("/api/subjekti/", { ...preflight, accessControlRequestHeaders: requested });
    expect(header(decision, "Access-Control-Allow-Headers")).toBe(allowed);
  });
});

describe("route: the published description", () => {
  it.each([
    ["/", "index.html", "text/html; charset=utf-8"],
    ["/openapi.json", "openapi.json", "application/json"],
    ["/schema/subject.json", "subject.schema.json", "application/schema+json"],
    ["/schema/page.json", "page.schema.json", "application/schema+json"],
  ])("GET %s -> the docs shard's %s as %s, with CORS and cache headers", async (target, file, type) => {
    const decision = ask(target);
    const docs = manifest.dirs["docs"];
    expect(decision).toMatchObject({ kind: "file", status: 200, path: `_subjekti/docs.${docs}/${file}` });
    expect(existsSync(join(siteDir, `_subjekti/docs.${docs}/${file}`))).toBe(true);
    expect(header(decision, "Content-Type")).toBe(type);
    expect(header(decision, "Access-Control-Allow-Origin")).toBe("*");
    expect(header(decision, "Cache-Control")).toBe("public, max-age=60");
    const done = await answer(target);
    expect(answerHeader(done, "ETag")).toBe(bytesEtag(await readFile(join(siteDir, `_subjekti/docs.${docs}/${file}`))));
  });

  it("If-None-Match with the file's ETag -> 304; another file's -> 200", async () => {
    const etag = answerHeader(await answer("/openapi.json"), "ETag") ?? "";
    expect((await answer("/openapi.json", { ifNoneMatch: etag })).status).toBe(304);
    expect((await answer("/schema/page.json", { ifNoneMatch: etag })).status).toBe(200);
  });

  it("POST /openapi.json -> 405 naming POST; OPTIONS -> 204 with Allow", () => {
    expect(ask("/openapi.json", { method: "POST" })).toMatchObject({ status: 405, body: '{"detail":"Method \\"POST\\" not allowed."}' });
    const options = ask("/openapi.json", { method: "OPTIONS" });
    expect(options).toMatchObject({ status: 204, body: "" });
    expect(header(options, "Allow")).toBe("GET, HEAD, OPTIONS");
  });

  it("a manifest without the docs shard -> 503, never a file that is not there", () => {
    const { docs: _docs, ...dirs } = manifest.dirs;
    expect(ask("/", {}, { ...manifest, dirs })).toMatchObject({ kind: "respond", status: 503 });
  });
});

describe("route: cache tags name the records chunks a page shows", () => {
  it.each([
    ["first page -> chunk 0", "/api/subjekti/", "subjekti,subjekti-chunk-0"],
    ["limit=20&offset=990 -> chunks 0 and 1", "/api/subjekti/?limit=20&offset=990", "subjekti,subjekti-chunk-0,subjekti-chunk-1"],
    ["offset=1000 -> chunk 1 alone", "/api/subjekti/?offset=1000", "subjekti,subjekti-chunk-1"],
    [
      "limit=1000&offset=999 (derived) -> chunks 0 and 1",
      "/api/subjekti/?limit=1000&offset=999",
      "subjekti,subjekti-chunk-0,subjekti-chunk-1",
    ],
    ["past the end -> the site's alone", "/api/subjekti/?offset=2000", "subjekti"],
    ["a 404 -> the site's alone", "/api/subjekti/?format=xml", "subjekti"],
  ])("%s", (_name, target, tags) => {
    const decision = ask(target);
    expect([header(decision, "Netlify-Cache-Tag"), header(decision, "Cache-Tag")]).toEqual([tags, tags]);
  });

  it("a 304 carries the page's tags too", async () => {
    const etag = answerHeader(await answer("/api/subjekti/?offset=1000"), "ETag") ?? "";
    expect(answerHeader(await answer("/api/subjekti/?offset=1000", { ifNoneMatch: etag }), "Netlify-Cache-Tag")).toBe(
      "subjekti,subjekti-chunk-1",
    );
  });
});
