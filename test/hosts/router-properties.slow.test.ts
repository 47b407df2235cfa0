/**
 * Laws of the router over the built fixture (fast-check): it never throws and answers only the
 * contract's statuses; every file it names exists; a derived page is the slice of the list with
 * the links the contract gives, and equals the pre-rendered file's bytes where one exists.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Manifest } from "../../src/core/manifest.ts";
import { type Decision, route } from "../../src/core/route.ts";
import { assemblePage } from "../core/text-pages.ts";
import { BASE, buildFixture, COLLECTION, COUNT, RECORDS } from "./fixture-site.ts";

let site: Awaited<ReturnType<typeof buildFixture>>;
let manifest: Manifest;

beforeAll(async () => {
  site = await buildFixture();
  manifest = site.manifest;
});
afterAll(() => site?.remove());

/** 204: a CORS preflight, or OPTIONS on a published file. */
const CONTRACT_STATUSES = new Set([200, 204, 301, 304, 404, 405, 406]);
const METHOD = fc.oneof(
  fc.constantFrom("GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE", "TRACE", "get", "head"),
  fc.stringMatching(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,10}$/),
);
const PATH = fc.oneof(
  fc.constantFrom("/api/subjekti/", "/api/subjekti", "/api/", "/api/x", "/", "/index.html", "/api/subjekti/%2"),
  fc.string().map((s) => `/api/${encodeURIComponent(s)}`),
);
const KEY = fc.oneof(fc.constantFrom("limit", "offset", "format", "LIMIT", "x", ""), fc.string({ maxLength: 6 }));
const VALUE = fc.oneof(
  fc.constantFrom("", "0", "-1", "7", "20", "25", "1000", "api", "json", "xml", "1_0", " 3 ", "٣", "1e1", "99999999999999999999999"),
  fc.string({ maxLength: 8 }),
  fc.nat().map(String),
);
/** A raw query: pairs percent-encoded or not, plus arbitrary junk (malformed escapes, lone `%`, `+`). */
const QUERY = fc.oneof(
  fc
    .array(fc.tuple(KEY, VALUE, fc.boolean()), { maxLength: 6 })
    .map((pairs) => pairs.map(([k, v, encode]) => (encode ? `${encodeURIComponent(k)}=${encodeURIComponent(v)}` : `${k}=${v}`)).join("&")),
  fc.string({ maxLength: 40 }).map((s) => encodeURI(s).replaceAll("#", "%23")),
);

function decide(
  method: string,
  path: string,
  query: string,
  baseUrl = BASE,
  m: Manifest = manifest,
  accept?: string,
  ifNoneMatch?: string,
): Decision {
  return route({ method, path, query, accept, ifNoneMatch, baseUrl }, m);
}

describe("the router over the fixture", () => {
  it("never throws and answers only the contract's statuses, naming only files that exist", () => {
    fc.assert(
      fc.property(
        METHOD,
        PATH,
        QUERY,
        fc.option(fc.string({ maxLength: 30 })),
        fc.option(fc.string({ maxLength: 30 })),
        (method, path, query, accept, inm) => {
          const decision = decide(method, path, query, BASE, manifest, accept ?? undefined, inm ?? undefined);
          switch (decision.kind) {
            case "static":
              expect(path.startsWith("/api/")).toBe(false);
              break;
            case "file":
              expect(existsSync(join(site.dir, decision.path))).toBe(true);
              break;
            case "derive":
              for (const chunk of decision.chunks) expect(existsSync(join(site.dir, chunk.path))).toBe(true);
              break;
            case "respond":
              expect(CONTRACT_STATUSES.has(decision.status), `status ${decision.status}`).toBe(true);
              break;
            case "find":
              // Found through the indexes, which the build wrote: see test/hosts/lookup-properties.slow.test.ts.
              expect(manifest.dirs["keys"]).toBeDefined();
              break;
            case "html":
              // A page for people: only under its own paths, never the API's.
              expect(path.startsWith("/api/")).toBe(false);
              break;
            default: {
              const never: never = decision;
              throw new Error(String(never));
            }
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  /** Simple extra parameters: plain keys and values that urlencode leaves as they are. */
  const EXTRAS = fc.array(fc.tuple(fc.constantFrom("a", "b", "q", "zeta", "Z"), fc.stringMatching(/^[a-z0-9]{0,4}$/)), { maxLength: 3 });

  it("a derived page is the slice [offset, offset+limit) with the contract's links", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 0, max: 70 }), EXTRAS, (asked, offset, extras) => {
        const query = [...extras.map(([k, v]) => `${k}=${v}`), `limit=${asked}`, `offset=${offset}`].join("&");
        const body = answerBytes(decide("GET", "/api/subjekti/", query, "http://other.example"));
        const limit = Math.min(asked, manifest.maxLimit);
        const parsed = JSON.parse(body) as { count: number; next: string | null; previous: string | null; results: unknown[] };
        expect(parsed.count).toBe(COUNT);
        expect(parsed.results).toEqual(RECORDS.slice(offset, offset + limit));
        // The reference link: sorted plain pairs (code-point order is JS order for ASCII keys).
        const link = (at: number | null): string => {
          const pairs = [...extras, ["limit", String(limit)] as const, ...(at === null ? [] : [["offset", String(at)] as const])];
          pairs.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
          return `http://other.example/api/subjekti/?${pairs.map(([k, v]) => `${k}=${v}`).join("&")}`;
        };
        expect(parsed.next).toBe(offset + limit >= COUNT ? null : link(offset + limit));
        expect(parsed.previous).toBe(offset <= 0 ? null : link(offset - limit <= 0 ? null : offset - limit));
      }),
      { numRuns: 300 },
    );
  });

  it("where a pre-rendered page exists, deriving the same request gives its bytes", () => {
    const noFiles: Manifest = { ...manifest, limits: [] };
    fc.assert(
      fc.property(fc.constantFrom(...manifest.limits), fc.nat({ max: 10 }), fc.constantFrom("", "format=api"), (limit, index, form) => {
        const query = [form, `limit=${limit}`, `offset=${index * limit}`].filter((p) => p !== "").join("&");
        const canonical = decide("GET", "/api/subjekti/", query);
        if (index * limit >= COUNT) {
          expect(canonical.kind).toBe("respond");
          return;
        }
        expect(canonical.kind).toBe("file");
        const derived = decide("GET", "/api/subjekti/", query, BASE, noFiles);
        expect(derived.kind).toBe("derive");
        expect(answerBytes(derived)).toBe(answerBytes(canonical));
      }),
      { numRuns: 100 },
    );
  });

  it("the canonical first page names the collection's own links", () => {
    const body = answerBytes(decide("GET", "/api/subjekti/", ""));
    expect((JSON.parse(body) as { next: string }).next).toBe(`${COLLECTION}?limit=20&offset=20`);
  });
});

/** The bytes a host would send for a 200 decision, read from the fixture. */
function answerBytes(decision: Decision): string {
  switch (decision.kind) {
    case "file":
      return readFileSync(join(site.dir, decision.path), "utf8");
    case "derive":
      return assemblePage(
        decision.head,
        decision.chunks,
        decision.chunks.map((chunk) => readFileSync(join(site.dir, chunk.path), "utf8")),
      );
    case "respond":
      return decision.body;
    case "static":
    case "find":
    case "html":
      throw new Error("not a page of the whole list");
    default: {
      const never: never = decision;
      throw new Error(String(never));
    }
  }
}
