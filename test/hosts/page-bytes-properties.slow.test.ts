/**
 * Derived pages assembled from bytes (page-bytes.ts) on a generated site of 100,000 subjects: for
 * random limits, offsets and indents the answer's bytes are those of the text assembly the router
 * used before (every chunk decoded, split, joined and encoded again: test/core/text-pages.ts),
 * whether the host gives whole files, byte ranges, or only its page reader.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSubject } from "../../scripts/generate-subjects.ts";
import { answerRequest, type SiteHost } from "../../src/core/answer-request.ts";
import type { Manifest } from "../../src/core/manifest.ts";
import { route } from "../../src/core/route.ts";
import { assemblePage } from "../core/text-pages.ts";
import { BASE, buildSubjectsSite } from "./fixture-site.ts";

const SIZE = 100_000;

let remove: () => Promise<void> = async () => undefined;
let dir = "";
let manifest: Manifest;
const files = new Map<string, Buffer | null>();

function file(path: string): Buffer | null {
  if (!files.has(path)) {
    try {
      files.set(path, readFileSync(join(dir, path)));
    } catch {
      files.set(path, null);
    }
  }
  return files.get(path) ?? null;
}

/** The three ways a host gives the core its files. */
function host(kind: "bytes" | "range" | "pages"): SiteHost<Uint8Array> {
  return {
    manifest: async () => ({ manifest }),
    refresh: async () => undefined,
    readPage: async (path) => {
      const body = file(path);
      return body === null ? null : { body, length: body.length };
    },
    readChunk: async (path) => file(path)?.toString("utf8") ?? null,
    ...(kind === "pages" ? {} : { readBytes: async (path: string) => file(path) }),
    ...(kind === "range"
      ? { readRange: async (path: string, start: number, end: number) => file(path)?.subarray(start, end) ?? null }
      : {}),
    fix: "",
  };
}

beforeAll(async () => {
  ({ dir, manifest, remove } = await buildSubjectsSite(
    "subjekti-page-bytes-",
    Array.from({ length: SIZE }, (_, i) => makeSubject(13, i)),
  ));
}, 120_000);

afterAll(() => remove());

/** The page as the text assembly made it, from the router's own decision. */
function oracle(query: string, accept: string | undefined): string {
  const decision = route({ method: "GET", path: "/api/subjekti/", query, accept, baseUrl: BASE }, manifest);
  switch (decision.kind) {
    case "derive":
      return assemblePage(
        decision.head,
        decision.chunks,
        decision.chunks.map((chunk) => file(chunk.path)?.toString("utf8") ?? ""),
        decision.indent,
      );
    case "file":
      return file(decision.path)?.toString("utf8") ?? "";
    case "respond":
      return decision.body;
    default:
      throw new Error(`unexpected ${decision.kind}`);
  }
}

const limit = fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.constantFrom(1, 20, 999, 1000));
// Offsets near chunk boundaries and the list's end as often as anywhere.
const offset = fc.oneof(
  fc.integer({ min: 0, max: SIZE + 50 }),
  fc.tuple(fc.integer({ min: 0, max: SIZE / 1000 }), fc.integer({ min: -3, max: 3 })).map(([chunk, by]) => Math.max(0, chunk * 1000 + by)),
);
const indent = fc.constantFrom(undefined, 0, 1, 2, 4, 8);

describe("derived pages from bytes on a generated site of 100,000 subjects", () => {
  it.each(["bytes", "range", "pages"] as const)("equal the text assembly's bytes (host gives %s)", async (kind) => {
    const site = host(kind);
    await fc.assert(
      fc.asyncProperty(limit, offset, indent, async (l, o, n) => {
        const query = `limit=${l}&offset=${o}`;
        const accept = n === undefined ? undefined : `application/json; indent=${n}`;
        const headers = new Headers(accept === undefined ? {} : { accept });
        const answer = await answerRequest(
          { method: "GET", target: `/api/subjekti/?${query}`, scheme: "http", host: "testserver", headers },
          site,
        );
        if (answer.kind !== "send" || !(answer.body instanceof Uint8Array)) throw new Error("no body");
        expect(answer.status).toBe(200);
        expect(Buffer.from(answer.body).toString("utf8")).toBe(oracle(query, accept));
      }),
      { numRuns: kind === "bytes" ? 300 : 100 },
    );
  });
});
