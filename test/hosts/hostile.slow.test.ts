/**
 * The preview (and the edge under real Deno) against an attacker with raw sockets: one test per
 * way a request could stall a host, leak from it, read outside the site or get another request's
 * answer. Each case is the attack as it was first found, sent over a real connection.
 */
import { readdirSync } from "node:fs";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePythonInt } from "../../src/core/request/python-int.ts";
import { negotiate } from "../../src/core/request/negotiate.ts";
import { MAX_HEADER_BYTES, MAX_TARGET_BYTES } from "../../src/core/request/request-bounds.ts";
import { readRawRequest } from "../../src/serve/raw-request.ts";
import { PREVIEW_LIMITS, startPreview } from "../../src/serve/preview-server.ts";
import { buildFixture } from "./fixture-site.ts";
import { denoHost, type Host, previewHost } from "./hosts.ts";
import { type RawAnswer, sendRaw } from "./raw-http.ts";

/** What every refusal carries: JSON, Django's security headers, CORS, and no caching. */
const REFUSAL_HEADERS = {
  "content-type": "application/json",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "same-origin",
  "access-control-allow-origin": "*",
  "cache-control": "no-store",
};
const MEGABYTE_OF_PLUSES = "+".repeat(1_040_000);
/** The most inner spaces an offset the core reads can carry (its target limit is 4 KB). */
const LARGEST_PLUSES = "+".repeat(MAX_TARGET_BYTES - "/api/subjekti/?limit=1&offset=11".length);

let site: Awaited<ReturnType<typeof buildFixture>>;
let preview: Awaited<ReturnType<typeof previewHost>>;
let port: number;

beforeAll(async () => {
  site = await buildFixture();
  preview = await previewHost(site.dir);
  port = preview.port;
});
afterAll(async () => {
  await preview?.stop();
  await site?.remove();
});

/** Writes `bytes` on one connection and reads every answer until the server closes it. */
function exchange(bytes: string | Buffer, timeoutMs = 10_000, to = port): Promise<RawAnswer[]> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port: to });
    const parts: Buffer[] = [];
    socket.setTimeout(timeoutMs, () => {
      reject(new Error(`the server kept the connection open for ${timeoutMs} ms`));
      socket.destroy();
    });
    socket.on("connect", () => socket.write(bytes));
    socket.on("data", (chunk: Buffer) => parts.push(chunk));
    // A server that closes first (a refused connection) may reset ours: what came is the answer.
    socket.on("error", () => {});
    socket.on("close", () => resolve(splitAnswers(Buffer.concat(parts))));
  });
}

/** Consecutive answers (each with a Content-Length or none for a body-less status) in `data`. */
function splitAnswers(data: Buffer): RawAnswer[] {
  const answers: RawAnswer[] = [];
  let at = 0;
  while (at < data.length) {
    const end = data.indexOf("\r\n\r\n", at);
    if (end < 0) throw new Error(`a truncated answer: ${JSON.stringify(data.toString("latin1", at, at + 200))}`);
    const lines = data.toString("latin1", at, end).split("\r\n");
    const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(lines[0] ?? "")?.[1]);
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(":");
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers["content-length"] ?? 0);
    answers.push({ status, headers, body: data.subarray(end + 4, end + 4 + length) });
    at = end + 4 + length;
  }
  return answers;
}

/**
 * The bound of these inputs, as the tests' names say: under ten seconds. The super-linear patterns
 * they were written against took minutes each, so ten seconds catches those again without failing
 * on a machine loaded by other work (a 1-second bound measured 1.3 s at load 20). How fast they are
 * answered is the bench's to say (`npm run soak`), not a test's.
 */
const QUICK_MS = 10_000;

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await work();
  return { value, ms: performance.now() - start };
}

const get = (target: string, headers = "Host: testserver\r\n"): string => `GET ${target} HTTP/1.1\r\n${headers}\r\n`;

function expectRefusal(answer: RawAnswer | undefined, status: number, detail: RegExp): void {
  expect(answer?.status).toBe(status);
  expect(answer?.headers).toMatchObject(REFUSAL_HEADERS);
  expect((JSON.parse(answer?.body.toString() ?? "") as { detail: string }).detail).toMatch(detail);
}

describe("linear time on every byte a request carries", () => {
  it("the core in under 10 s: int() of 1 + a million spaces + 1, str.strip() of an Accept with a million inner spaces, a raw header line of a megabyte", () => {
    const spaces = " ".repeat(1_040_000);
    const start = performance.now();
    expect(parsePythonInt(`1${spaces}1`)).toBeNull();
    expect(parsePythonInt(`${spaces}7${spaces}`)).toBe(7n);
    expect(negotiate(`a${spaces}b`)).toBeNull();
    expect(negotiate(`${spaces}application/json${spaces}; indent=${spaces}4${spaces}`)).toBe(4);
    const raw = readRawRequest(Buffer.from(`get / HTTP/1.1\r\nAccept: a${" \t".repeat(500_000)}b \r\n\r\n`, "latin1"));
    expect(raw?.headers["accept"]?.length).toBe(1_000_002);
    expect(performance.now() - start).toBeLessThan(QUICK_MS);
  });

  it("GET ?offset=1 + a megabyte of + + 1 -> refused (431) in under 10 s, an ordinary request on another connection unharmed", async () => {
    const [attack, ordinary] = await Promise.all([
      timed(() => exchange(get(`/api/subjekti/?offset=1${MEGABYTE_OF_PLUSES}1`))),
      timed(() => sendRaw(port, "GET", "/api/subjekti/?limit=1", { Host: "testserver" })),
    ]);
    expectRefusal(attack.value[0], 431, /Request header fields too large/);
    expect(ordinary.value.status).toBe(200);
    expect(attack.ms).toBeLessThan(QUICK_MS);
    expect(ordinary.ms).toBeLessThan(QUICK_MS);
  });

  it("the largest offset (4 KB) and Accept (8 KB) the core reads -> answered; 120,000 of them -> 414 and 431 at once", async () => {
    const offset = await timed(() => sendRaw(port, "GET", `/api/subjekti/?limit=1&offset=1${LARGEST_PLUSES}1`, { Host: "testserver" }));
    expect(offset.value.status).toBe(200);
    expect((JSON.parse(offset.value.body.toString()) as { previous: string | null }).previous).toBeNull();
    const accept = await timed(() =>
      sendRaw(port, "GET", "/api/subjekti/?limit=1", { Host: "testserver", Accept: `a${" ".repeat(MAX_HEADER_BYTES - 2)}b` }),
    );
    expect(accept.value.status).toBe(406);
    const longOffset = await timed(() =>
      sendRaw(port, "GET", `/api/subjekti/?limit=1&offset=1${"+".repeat(120_000)}1`, { Host: "testserver" }),
    );
    expectRefusal(longOffset.value, 414, /URI too long/);
    const longAccept = await timed(() =>
      sendRaw(port, "GET", "/api/subjekti/?limit=1", { Host: "testserver", Accept: `a${" ".repeat(120_000)}b` }),
    );
    expectRefusal(longAccept.value, 431, /the accept header is over/);
    for (const { ms } of [offset, accept, longOffset, longAccept]) expect(ms).toBeLessThan(QUICK_MS);
  });

  it("an Accept of a megabyte -> 431 in under 10 s", async () => {
    const { value, ms } = await timed(() => exchange(get("/api/subjekti/", `Host: testserver\r\nAccept: a${" ".repeat(1_040_000)}b\r\n`)));
    expectRefusal(value[0], 431, /too large/);
    expect(ms).toBeLessThan(QUICK_MS);
  });

  describe("the edge under real Deno (64 KB heads): the same inputs within its head limit", () => {
    let deno: Host;
    beforeAll(async () => {
      deno = await denoHost(site.dir);
    });
    afterAll(async () => {
      await deno?.stop();
    });

    it("offset=1 + 60,000 + + 1, then Accept: a + 60,000 spaces + b -> 414 and 431 at once", async () => {
      const offset = await timed(() => deno.send("GET", `/api/subjekti/?limit=1&offset=1${"+".repeat(60_000)}1`, {}));
      expectRefusal(offset.value, 414, /URI too long/);
      const accept = await timed(() => deno.send("GET", "/api/subjekti/?limit=1", { Accept: `a${" ".repeat(60_000)}b` }));
      expectRefusal(accept.value, 431, /the accept header is over/);
      expect(offset.ms).toBeLessThan(QUICK_MS);
      expect(accept.ms).toBeLessThan(QUICK_MS);
    });
  });
});

describe("static files served safely", () => {
  const SECRET = "SECRET-BEYOND-A-SYMLINKED-DIRECTORY";

  beforeAll(async () => {
    const outside = join(site.dir, "..", "outside");
    await mkdir(outside);
    await writeFile(join(outside, "secret.txt"), SECRET);
    await symlink(outside, join(site.dir, "tmplink"));
  });

  it.each([
    ["GET /tmplink/secret.txt", "/tmplink/secret.txt", ""],
    ["GET /tmplink/secret.txt with a Range", "/tmplink/secret.txt", "Range: bytes=0-5\r\n"],
    ["GET /tmplink%2fsecret.txt", "/tmplink%2fsecret.txt", ""],
    ["GET /tmplink/../tmplink/secret.txt", "/tmplink/../tmplink/secret.txt", ""],
  ])("a symlinked directory leading out of the site: %s -> 404", async (_name, target, extra) => {
    const [answer] = await exchange(get(target, `Host: testserver\r\n${extra}Connection: close\r\n`));
    expect(answer?.status).toBe(404);
    expect(answer?.body.toString("latin1")).not.toContain(SECRET);
  });

  it("200 reset requests for a static file -> the descriptor count returns to its baseline", async () => {
    const openFds = (): number => readdirSync("/proc/self/fd").length;
    expect((await sendRaw(port, "GET", "/_subjekti/manifest.json", { Host: "testserver" })).status).toBe(200);
    const baseline = openFds();
    for (let batch = 0; batch < 10; batch++) {
      await Promise.all(
        Array.from(
          { length: 20 },
          () =>
            new Promise<void>((done) => {
              const socket: Socket = connect({ host: "127.0.0.1", port });
              socket.on("error", () => {});
              socket.on("close", () => done());
              socket.on("connect", () => socket.write(get("/_subjekti/manifest.json"), () => socket.resetAndDestroy()));
            }),
        ),
      );
    }
    let now = openFds();
    for (let waited = 0; now > baseline && waited < 5_000; waited += 50) {
      await new Promise((wake) => setTimeout(wake, 50));
      now = openFds();
    }
    expect(now).toBeLessThanOrEqual(baseline);
    expect((await sendRaw(port, "GET", "/_subjekti/manifest.json", { Host: "testserver" })).status).toBe(200);
  });

  it.each(["POST", "DELETE", "PUT"])("%s on a static file -> 405, Allow: GET, HEAD", async (method) => {
    const answer = await sendRaw(port, method, "/_subjekti/manifest.json", { Host: "testserver" });
    expectRefusal(answer, 405, new RegExp(`Method "${method}" not allowed`));
    expect(answer.headers["allow"]).toBe("GET, HEAD");
  });

  it('a raw non-ASCII GET on a static path -> 400 that asks for percent-encoding (not "not to GET")', async () => {
    const [answer] = await exchange(Buffer.from(get("/č.txt", "Host: testserver\r\nConnection: close\r\n"), "utf8"));
    expectRefusal(answer, 400, /percent-encoded/);
    expect(answer?.body.toString()).not.toMatch(/not to GET/);
  });
});

describe("the raw fallback answers the request that failed, in order, then closes", () => {
  type Page = { next: string | null; results: unknown[] };
  const results = (answer: RawAnswer | undefined): number => (JSON.parse(answer?.body.toString() ?? "") as Page).results.length;

  it("GET ?limit=1 then get ?limit=3 in one write -> a page of 1, then a page of 3", async () => {
    const answers = await exchange(get("/api/subjekti/?limit=1") + "get /api/subjekti/?limit=3 HTTP/1.1\r\nHost: testserver\r\n\r\n");
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect([results(answers[0]), results(answers[1])]).toEqual([1, 3]);
    expect(answers[1]?.headers["connection"]).toBe("close");
  });

  it("PUT, GET, junk in one write -> 405 for PUT, the GET's page, 400 for the junk", async () => {
    const answers = await exchange(
      "PUT /api/subjekti/ HTTP/1.1\r\nHost: testserver\r\nContent-Length: 0\r\n\r\n" +
        get("/api/subjekti/?limit=2") +
        "\x01\x02junk\r\n\r\n",
    );
    expect(answers.map((a) => a.status)).toEqual([405, 200, 400]);
    expect(answers[0]?.body.toString()).toBe(`{"detail":"Method \\"PUT\\" not allowed."}`);
    expect(results(answers[1])).toBe(2);
  });

  it("GET, FOO, get in one write -> the page, FOO's 405, then the connection closes (nothing after a refused request is read)", async () => {
    const answers = await exchange(
      get("/api/subjekti/?limit=1") +
        "FOO /api/subjekti/ HTTP/1.1\r\nHost: testserver\r\n\r\n" +
        "get /api/subjekti/?limit=3 HTTP/1.1\r\nHost: testserver\r\n\r\n",
    );
    expect(answers.map((a) => a.status)).toEqual([200, 405]);
    expect(answers[1]?.body.toString()).toBe(`{"detail":"Method \\"FOO\\" not allowed."}`);
  });
});

describe("bounds", () => {
  it("a head over the limit -> 431 with the contract's headers; a head just under it -> answered", async () => {
    const [over] = await exchange(get("/api/subjekti/", `Host: testserver\r\nX-Big: ${"x".repeat(PREVIEW_LIMITS.maxHeaderBytes)}\r\n`));
    expectRefusal(over, 431, /Request header fields too large/);
    const under = await sendRaw(port, "GET", "/api/subjekti/?limit=1", {
      Host: "testserver",
      "X-Big": "x".repeat(PREVIEW_LIMITS.maxHeaderBytes - 1_000),
    });
    expect(under.status).toBe(200);
  });

  it("connections over the cap are closed unanswered; a slow head gets 408 and an idle connection is closed, both after their timeout", async () => {
    const small = await startPreview({
      dir: site.dir,
      port: 0,
      host: "127.0.0.1",
      limits: { maxConnections: 8, headersTimeoutMs: 600, idleTimeoutMs: 600 },
    });
    const smallPort = Number(new URL(small.url).port);
    try {
      const held = await Promise.all(
        Array.from(
          { length: 8 },
          () =>
            new Promise<Socket>((done) => {
              const socket = connect({ host: "127.0.0.1", port: smallPort }, () => done(socket));
              socket.on("error", () => {});
            }),
        ),
      );
      const refused = await timed(() => exchange(get("/api/subjekti/?limit=1"), 5_000, smallPort));
      expect(refused.value).toEqual([]);
      for (const socket of held) socket.destroy();
      await new Promise((wake) => setTimeout(wake, 100));

      const slow = await timed(() => exchange("GET /api/subjekti/ HTTP/1.1\r\nHost: testserver\r\nX-Slow: 1", 10_000, smallPort));
      expectRefusal(slow.value[0], 408, /did not arrive in time/);
      expect(slow.ms).toBeLessThan(5_000);

      const idle = await timed(() => exchange(get("/api/subjekti/?limit=1"), 10_000, smallPort));
      expect(idle.value.map((a) => a.status)).toEqual([200]);
      expect(idle.ms).toBeGreaterThanOrEqual(500);
      expect(idle.ms).toBeLessThan(5_000);
    } finally {
      await small.close();
    }
  });

  it("400 connections holding a 120 KB unfinished head, twice: once they close, the heap is back to its baseline", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const heapUsed = (): number => {
      gc();
      gc();
      return process.memoryUsage().heapUsed;
    };
    const head = "GET /api/subjekti/ HTTP/1.1\r\nHost: testserver\r\n" + `X-Large: ${"b".repeat(985)}\r\n`.repeat(120);
    const baseline = heapUsed();
    for (let round = 0; round < 2; round++) {
      const held = await Promise.all(
        Array.from(
          { length: 400 },
          () =>
            new Promise<Socket>((done) => {
              const socket = connect({ host: "127.0.0.1", port }, () => socket.write(head, () => done(socket)));
              socket.on("error", () => {});
            }),
        ),
      );
      await new Promise((wake) => setTimeout(wake, 300));
      for (const socket of held) socket.destroy();
      await new Promise((wake) => setTimeout(wake, 300));
    }
    // The heads alone were 48 MB; what stays is the preview's own caches and the test's sockets.
    expect((heapUsed() - baseline) / 1024 / 1024).toBeLessThan(8);
  });
});

describe("protocol errors -> 400 (505 for the version) in JSON with the contract's headers", () => {
  it.each([
    ["HTTP/1.1 without Host", "GET /api/subjekti/ HTTP/1.1\r\n\r\n", 400, /needs a Host header/],
    ["two Host headers", "GET /api/subjekti/ HTTP/1.1\r\nHost: testserver\r\nHost: evil.example\r\n\r\n", 400, /more than one Host/],
    ["HTTP/2.0", "GET /api/subjekti/ HTTP/2.0\r\nHost: testserver\r\n\r\n", 505, /HTTP\/2\.0 is not supported/],
    ["HTTP/1.2", "GET /api/subjekti/ HTTP/1.2\r\nHost: testserver\r\n\r\n", 505, /HTTP version not supported/],
    ["no version at all", "GET /api/subjekti/\r\n\r\n", 400, /no HTTP version/],
  ])("%s", async (_name, request, status, detail) => {
    const answers = await exchange(request);
    expect(answers).toHaveLength(1);
    expectRefusal(answers[0], status, detail);
  });

  it("HTTP/1.0 without Host is still answered", async () => {
    const [answer] = await exchange("GET /api/subjekti/?limit=1 HTTP/1.0\r\n\r\n");
    expect(answer?.status).toBe(200);
  });
});
