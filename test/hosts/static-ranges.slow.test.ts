/**
 * The published static files (the downloads and the change feed's files) as a client that
 * resumes, polls and reads them from another origin meets them: the same requests against the
 * preview, `subjekti serve` and real nginx (the configuration `subjekti nginx` prints) in front of
 * it. A resumed download whose bytes changed gets the whole new file (If-Range), an unsatisfiable
 * range a bodiless 416 naming the size, a miss under /changes/ or /downloads/ is not cached, and a
 * CORS preflight of those files is answered.
 */
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPreview } from "../../src/serve/preview-server.ts";
import { tempDir } from "../file-trees.ts";
import { buildFixture } from "./fixture-site.ts";
import { NGINX, type NginxHost, nginxHost, REQUIRE_NGINX } from "./nginx-host.ts";
import { type RawAnswer, sendRaw } from "./raw-http.ts";

type Send = (method: string, target: string, headers?: Record<string, string>) => Promise<RawAnswer>;

let site: Awaited<ReturnType<typeof buildFixture>>;
let preview: Awaited<ReturnType<typeof startPreview>>;
let nginx: NginxHost | undefined;
let nginxPrefix: string;
let csv: Buffer;
let csvEtag: string;
let atom: Buffer;

const SENDERS: [string, () => Send | undefined][] = [
  ["the preview", () => serveSender(Number(new URL(preview.url).port))],
  ["subjekti serve", () => (nginx?.serve === null || nginx === undefined ? undefined : serveSender(nginx.serve.port))],
  ["nginx in front of subjekti serve", () => nginxSender(nginx)],
];

function nginxSender(host: NginxHost | undefined): Send | undefined {
  return host === undefined ? undefined : (method, target, headers) => host.send(method, target, headers ?? {});
}

function serveSender(port: number): Send {
  return (method, target, headers) => sendRaw(port, method, target, { Host: "testserver", ...(headers ?? {}) });
}

beforeAll(async () => {
  site = await buildFixture();
  // The change feed's files as a build with the feed writes them (the fixture's build has it off).
  await mkdir(join(site.dir, "changes"));
  atom = Buffer.from('<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom"></feed>\n');
  await writeFile(join(site.dir, "changes/feed.atom"), atom);
  await writeFile(join(site.dir, "changes/state.json"), '{"sequence":1}\n');
  csv = await readFile(join(site.dir, "downloads/subjekti.csv"));
  const download = site.manifest.downloads?.find((d) => d.format === "csv");
  if (download === undefined) throw new Error("the fixture has no CSV download");
  csvEtag = `"${download.sha256}"`;
  preview = await startPreview({ dir: site.dir, port: 0, host: "127.0.0.1" });
  if (NGINX !== null || REQUIRE_NGINX) {
    nginxPrefix = await tempDir("subjekti-nginx-ranges-");
    nginx = await nginxHost(site.dir, nginxPrefix, ["--allowed-hosts", "testserver"]);
  }
}, 120_000);
afterAll(async () => {
  await preview?.close();
  await nginx?.stop();
  await site?.remove();
});

describe.each(SENDERS)("%s", (name, sender) => {
  const send = (method: string, target: string, headers?: Record<string, string>): Promise<RawAnswer> => {
    const to = sender();
    if (to === undefined) throw new Error(`${name} is not running (nginx is not installed)`);
    return to(method, target, headers);
  };
  const skip = name !== "the preview" && NGINX === null && !REQUIRE_NGINX;

  it.skipIf(skip)("Range with the download's ETag as If-Range -> 206, those bytes", async () => {
    const answer = await send("GET", "/downloads/subjekti.csv", { Range: "bytes=0-9", "If-Range": csvEtag });
    expect(answer.status).toBe(206);
    expect(answer.headers["content-range"]).toBe(`bytes 0-9/${csv.length}`);
    expect(answer.body.equals(csv.subarray(0, 10))).toBe(true);
  });

  it.skipIf(skip)("Range with another file's ETag as If-Range (a rebuild since) -> 200, the whole file", async () => {
    const answer = await send("GET", "/downloads/subjekti.csv", { Range: "bytes=10-", "If-Range": `"${"0".repeat(64)}"` });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-range"]).toBeUndefined();
    expect(answer.body.equals(csv)).toBe(true);
  });

  it.skipIf(skip)("Range with a date other than the file's as If-Range -> 200, the whole file", async () => {
    const answer = await send("GET", "/changes/feed.atom", { Range: "bytes=0-4", "If-Range": "Sat, 01 Jan 2000 00:00:00 GMT" });
    expect(answer.status).toBe(200);
    expect(answer.body.equals(atom)).toBe(true);
  });

  it.skipIf(skip)("Range with the file's Last-Modified as If-Range -> 206", async () => {
    const modified = (await stat(join(site.dir, "changes/feed.atom"))).mtime.toUTCString();
    const answer = await send("GET", "/changes/feed.atom", { Range: "bytes=0-4", "If-Range": modified });
    expect(answer.status).toBe(206);
    expect(answer.body.toString()).toBe(atom.subarray(0, 5).toString());
  });

  it.skipIf(skip)("a Range past the end -> 416 with no body and Content-Range: bytes */<size>", async () => {
    for (const target of ["/downloads/subjekti.csv", "/changes/feed.atom"]) {
      const size = target.endsWith(".csv") ? csv.length : atom.length;
      const answer = await send("GET", target, { Range: `bytes=${size}-` });
      expect(answer.status, target).toBe(416);
      expect(answer.headers["content-range"], target).toBe(`bytes */${size}`);
      expect(answer.body.length, target).toBe(0);
    }
  });

  it.skipIf(skip)("a miss under /changes/ and /downloads/ -> 404 that no cache keeps", async () => {
    for (const target of ["/changes/2.json", "/downloads/subjekti-0000.csv", "/changes/"]) {
      const answer = await send("GET", target);
      expect(answer.status, target).toBe(404);
      expect(answer.headers["cache-control"], target).toBe("no-store");
    }
  });

  it.skipIf(skip)("a found file keeps its cache rule", async () => {
    expect((await send("GET", "/downloads/subjekti.csv")).headers["cache-control"]).toBe("public, max-age=300");
    expect((await send("GET", "/changes/feed.atom")).headers["cache-control"]).toBe("public, max-age=60");
  });

  it.skipIf(skip)("a CORS preflight of a feed file or a download -> 204 as the API answers one", async () => {
    for (const target of ["/changes/state.json", "/downloads/subjekti.csv"]) {
      const answer = await send("OPTIONS", target, {
        Origin: "https://app.example",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "If-None-Match, Range",
      });
      expect(answer.status, target).toBe(204);
      expect(answer.headers, target).toMatchObject({
        "access-control-allow-origin": "*",
        "access-control-allow-methods": "GET, HEAD, OPTIONS",
        "access-control-allow-headers": "if-none-match, range",
        "access-control-max-age": "86400",
      });
      expect(answer.body.length, target).toBe(0);
    }
  });
});
