/**
 * `subjekti check` against the real preview on 127.0.0.1 serving a copy of a built fixture site
 * (the "deployment"), checked against the site as built: it passes; a byte or a header changed in
 * the deployment behind the check's back fails it, naming the URL and the difference; a host in
 * front of the preview that answers a 404, 405 or preflight wrongly fails the check of that answer.
 */
import { cp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ETAGS_FILE } from "../../src/core/layout.ts";
import { DATA_ROOT, MANIFEST_PATH, pagePath } from "../../src/core/layout.ts";
import type { Manifest } from "../../src/core/manifest.ts";
import { startPreview } from "../../src/serve/preview-server.ts";
import { buildSite } from "../../src/site/build-site.ts";
import { runCli } from "../run-cli.ts";
import { tempDir } from "../file-trees.ts";
import { CACHE_CONTROL, FIXTURE_OPTIONS } from "../hosts/fixture-site.ts";

interface Upstream {
  status: number;
  headers: [string, string][];
  body: Buffer;
}
/** How a misconfigured host in front of the preview changes an answer (null: passes it on). */
type Fault = ((method: string, headers: IncomingHttpHeaders, answer: Upstream) => Upstream) | null;

interface JsonReport {
  ok: boolean;
  origin: string;
  total: number;
  matched: number;
  checked: Record<string, number>;
  withoutQuery: { count: number; searches: number; first: string } | null;
  failures: {
    kind: string;
    method: string;
    url: string;
    differences: { what: string; expected: string; got: string; offset?: number }[];
  }[];
}

let root: string;
let built: string;
let deployed: string;
let manifest: Manifest;
/** The deployment's public origin: a proxy in front of the preview, the origin the site is built for. */
let origin: string;
let proxy: Server;
let previewPort = 0;
let closePreview: () => Promise<void>;
let fault: Fault = null;
/** The host drops every query string before the preview sees it (a file server's rule). */
let ignoreQueries = false;

/** The deployment's host: passes every request to the preview as sent (Host kept), then applies `fault`. */
function startProxy(): Promise<Server> {
  const server = createServer((req, res) => {
    const upstream = request(
      {
        host: "127.0.0.1",
        port: previewPort,
        method: req.method,
        path: ignoreQueries ? req.url?.split("?")[0] : req.url,
        headers: req.headers,
      },
      (answer) => {
        const parts: Buffer[] = [];
        answer.on("data", (part: Buffer) => parts.push(part));
        answer.on("end", () => {
          const pairs: [string, string][] = [];
          for (let i = 0; i + 1 < answer.rawHeaders.length; i += 2)
            pairs.push([answer.rawHeaders[i] as string, answer.rawHeaders[i + 1] as string]);
          let out: Upstream = { status: answer.statusCode ?? 502, headers: pairs, body: Buffer.concat(parts) };
          if (fault !== null) out = fault(req.method ?? "GET", req.headers, out);
          res.writeHead(
            out.status,
            out.headers.filter(([name]) => !/^(content-length|connection|keep-alive|transfer-encoding)$/i.test(name)).flat(),
          );
          res.end(req.method === "HEAD" ? undefined : out.body);
        });
      },
    );
    upstream.on("error", (error) => res.destroy(error));
    req.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** (Re)starts the preview on the deployed copy: a fresh one, so no page it cached earlier hides a change on disk. */
async function restartPreview(): Promise<void> {
  await closePreview?.();
  const preview = await startPreview({ dir: deployed, port: 0, host: "127.0.0.1" });
  previewPort = Number(new URL(preview.url).port);
  closePreview = () => preview.close();
}

const check = (...args: string[]) => runCli(["check", origin, "--dir", built, ...args]);
const checkJson = async (...args: string[]): Promise<{ code: number; report: JsonReport }> => {
  const run = await check("--json", ...args);
  return { code: run.code, report: JSON.parse(run.stdout) as JsonReport };
};

/** `run` while byte 100 of the deployed page ?limit=7&offset=14 (plain links) is flipped; the page put back after. */
async function withPageByteChanged<T>(run: () => Promise<T>): Promise<T> {
  const path = join(deployed, pagePath(manifest, "plain", 7, 2) as string);
  const original = await readFile(path);
  const changed = Buffer.from(original);
  changed[100] = (changed[100] as number) ^ 1;
  await writeFile(path, changed);
  await restartPreview();
  try {
    return await run();
  } finally {
    await writeFile(path, original);
    await restartPreview();
  }
}

/** The check of `built` against a server on 127.0.0.1 that takes every request and never answers. */
async function checkSilent(...args: string[]): Promise<Awaited<ReturnType<typeof runCli>>> {
  const silent = createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  try {
    return await runCli(["check", `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, "--dir", built, ...args]);
  } finally {
    silent.closeAllConnections();
    silent.close();
  }
}

beforeAll(async () => {
  root = await tempDir("subjekti-check-");
  proxy = await startProxy();
  origin = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  built = join(root, "built");
  deployed = join(root, "deployed");
  // Built for the deployment's origin, so it serves the pre-rendered files themselves.
  await buildSite({ ...FIXTURE_OPTIONS, baseUrl: origin, outDir: built });
  manifest = JSON.parse(await readFile(join(built, MANIFEST_PATH), "utf8")) as Manifest;
  await cp(built, deployed, { recursive: true });
  await restartPreview();
});

afterAll(async () => {
  await closePreview?.();
  await new Promise((resolve) => proxy?.close(resolve));
  await rm(root, { recursive: true, force: true });
});

describe("subjekti check against the preview of the site as built", () => {
  it("passes: every pre-rendered page, the derived sample and the contract's answers match (exit 0)", async () => {
    const run = await check();
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(`^${origin} against ${built} \\(53 subjects\\): \\d+ requests \\(.*22 pre-rendered.*\\) in [\\d.]+ s: all match\\n$`),
    );
  });

  it("--json: one report naming what was checked, by kind", async () => {
    const { code, report } = await checkJson();
    expect(code).toBe(0);
    expect(report).toMatchObject({ ok: true, origin, failures: [] });
    expect(report.matched).toBe(report.total);
    // Pages of limits 7 and 20 in the plain and api forms: 2 × (8 + 3).
    expect(report.checked).toMatchObject({
      "pre-rendered": 22,
      head: 1,
      conditional: 1,
      preflight: 1,
      options: 1,
      redirect: 1,
      "not-found": 1,
      "not-allowed": 1,
      "not-acceptable": 1,
      published: 8,
      download: 6,
      // The API root twice, a subject by id twice, by code, by OIB, both filters, a missing id and OIB, a suffixed list.
      lookup: 10,
      // Seven of any list, six of the first subject's name, town and keys (plan-probes.test.ts).
      search: 13,
      // The first subject's page and the results page of its name.
      page: 2,
    });
    expect(report.checked["derived"]).toBeGreaterThanOrEqual(10);
    expect(Object.values(report.checked).reduce((a, b) => a + b, 0)).toBe(report.total);
  });

  it("--sample 6: six pre-rendered pages (the sample itself: plan-probes.test.ts)", async () => {
    const { code, report } = await checkJson("--sample", "6");
    expect(code).toBe(0);
    expect(report.checked["pre-rendered"]).toBe(6);
  });

  it("--etags: every pre-rendered page answers 304 to its ETag, with the contract's headers: exit 0", async () => {
    const { code, report } = await checkJson("--etags");
    expect(code).toBe(0);
    expect(report.checked["pre-rendered"]).toBe(22);
  });

  it("a site that does not answer in --timeout fails each request with the time", async () => {
    // Every request waits out its timeout: all of them at once, not sixteen at a time.
    const run = await checkSilent("--timeout", "100", "--sample", "4", "--concurrency", "256");
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("answer: expected status 200, got no complete answer in 100 ms");
  });

  it("--json at the deadline: the requests cut unchecked are not counted as matched", async () => {
    // Nothing answers and the timeout outlasts the deadline: every request is cut at the deadline.
    const run = await checkSilent("--json", "--timeout", "600000", "--deadline", "1", "--sample", "4");
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as JsonReport & { deadline: { unchecked: number } };
    expect(report.ok).toBe(false);
    expect(report.failures).toEqual([]);
    expect(report.deadline.unchecked).toBe(report.total);
    expect(report.matched).toBe(0);
  });

  it.each([
    ["--connect", "nowhere"],
    ["--concurrency", "0"],
    ["--sample", "x"],
  ])("%s %s is a usage error (exit 2)", async (option, value) => {
    const run = await check(option, value);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`option '${option}`);
  });

  it("a port nothing listens on: one line naming the origin, what --connect sent to, Node's error and what to look at, in either language", async () => {
    // A port just freed: nothing listens there.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const english = await check("--connect", `127.0.0.1:${port}`);
    expect(english.code).toBe(1);
    expect(english.stderr).toBe(
      `subjekti: ${origin} (connecting to 127.0.0.1:${port}): connect ECONNREFUSED 127.0.0.1:${port}: is the server running, and on this port?\n`,
    );
    const croatian = await check("--connect", `127.0.0.1:${port}`, "--lang", "hr");
    expect(croatian.stderr).toBe(
      `subjekti: ${origin} (spajanjem na 127.0.0.1:${port}): connect ECONNREFUSED 127.0.0.1:${port}: radi li poslužitelj, i to na tim vratima?\n`,
    );
  });

  it("a missing site in --dir is one line and exit 1", async () => {
    const run = await runCli(["check", origin, "--dir", join(root, "nothing")]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^subjekti: .*nothing holds no built site .*: pass --dir/);
  });
});

describe("subjekti check against a deployment changed behind its back", () => {
  it("one byte of the deployed CSV download: exit 1, naming its URLs, the manifest's SHA-256 and the one it got", async () => {
    const download = manifest.downloads?.find((d) => d.format === "csv");
    // The preview sends the stable name from the content-named file its manifest names (static-files.ts): both URLs change.
    const csv = join(deployed, download?.immutablePath ?? "");
    const original = await readFile(csv);
    const changed = Buffer.from(original);
    changed[changed.length - 3] = 0x58;
    await writeFile(csv, changed);
    try {
      const { code, report } = await checkJson();
      expect(code).toBe(1);
      const differences = [{ what: "sha256", expected: download?.sha256, got: expect.stringMatching(/^[0-9a-f]{64}$/) }];
      expect(report.failures).toEqual(
        [`${origin}/downloads/subjekti.csv`, `${origin}${download?.immutablePath}`].map((url) => ({
          kind: "download",
          method: "GET",
          url,
          differences,
        })),
      );
    } finally {
      await writeFile(csv, original);
    }
  });

  it("one byte of one page file: exit 1, naming the page's URL and the first differing byte", async () => {
    const run = await withPageByteChanged(() => check());
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`GET ${origin}/api/subjekti/?limit=7&offset=14 (pre-rendered):\n  body: first difference at byte 100\n`);
    expect(run.stdout).toMatch(/: 1 differ\n$/);
    expect(run.stderr).toMatch(new RegExp(`^subjekti: 1 of \\d+ requests to ${origin} differ from ${built}\\n$`));
  });

  it("--lang hr: one byte of a page file and a header added to the 405, every line of the report in Croatian", async () => {
    fault = (method, _h, a) => (method === "POST" ? { ...a, headers: [...a.headers, ["ETag", '"x"']] } : a);
    try {
      const run = await withPageByteChanged(() => check("--lang", "hr"));
      expect(run.code).toBe(1);
      expect(run.stdout).toContain(
        `GET ${origin}/api/subjekti/?limit=7&offset=14 (unaprijed izrađena stranica):\n  tijelo: prva razlika na bajtu 100\n    očekivano: `,
      );
      expect(run.stdout).toContain(`\n    stiglo:    `);
      expect(run.stdout).toContain(`(nedopuštena metoda (405)):\n  ETag: očekuje se (bez zaglavlja), a stiglo je "x"\n`);
      expect(run.stdout).toMatch(
        new RegExp(
          `\\n${origin} uspoređen s ${built} \\(53 subjekta\\): \\d+ zahtjev[a]? \\(22 unaprijed izrađene stranice, .*, 1 zahtjev HEAD, .*\\) za \\d+,\\d s: 2 se razlikuju\\n$`,
        ),
      );
      // No line of the report left in English.
      expect(run.stdout).not.toMatch(/\b(?:against|requests|differ|pre-rendered|first difference|expected|got)\b/);
      expect(run.stderr).toMatch(new RegExp(`^subjekti: 2 od \\d+ zahtjeva prema ${origin} razlikuje se od ${built}\\n$`));
    } finally {
      fault = null;
    }
  });

  it("the Cache-Control in the deployed manifest: every answer's header named, expected and got (the preflight's no-store still matches)", async () => {
    const path = join(deployed, MANIFEST_PATH);
    const original = await readFile(path, "utf8");
    await writeFile(path, original.replace(JSON.stringify(CACHE_CONTROL), JSON.stringify("no-cache")));
    await restartPreview();
    try {
      const { code, report } = await checkJson();
      expect(code).toBe(1);
      const page = report.failures.find((f) => f.url === `${origin}/api/subjekti/?limit=20&offset=40`);
      expect(page?.differences).toContainEqual({ what: "Cache-Control", expected: CACHE_CONTROL, got: "no-cache" });
      expect(report.failures.map((f) => f.kind)).not.toContain("preflight");
    } finally {
      await writeFile(path, original);
      await restartPreview();
    }
  });

  it("--etags against a deployment of another build (other pages, so other tags): each pre-rendered page 200 where 304 was expected", async () => {
    // The tag lists the deployment's build wrote beside its pages: another build's pages carry other tags.
    const lists = (await readdir(join(deployed, DATA_ROOT), { recursive: true }))
      .filter((file) => file.endsWith(`/${ETAGS_FILE}`))
      .map((file) => join(deployed, DATA_ROOT, file));
    const originals = await Promise.all(lists.map((file) => readFile(file, "utf8")));
    await Promise.all(
      lists.map((file, i) =>
        writeFile(
          file,
          (originals[i] ?? "").replace(/"[^"\n]+"/g, (tag) => `"other-${tag.slice(1)}`),
        ),
      ),
    );
    await restartPreview();
    try {
      const { code, report } = await checkJson("--etags");
      expect(code).toBe(1);
      const pages = report.failures.filter((f) => f.kind === "pre-rendered");
      expect(pages).toHaveLength(22);
      for (const page of pages) expect(page.differences).toContainEqual({ what: "status", expected: "304", got: "200" });
    } finally {
      await Promise.all(lists.map((file, i) => writeFile(file, originals[i] ?? "")));
      await restartPreview();
    }
  });
});

describe("subjekti check against a host that ignores query strings", () => {
  it("fails, and says in one line that the search, the filters and the ordering came back as the path without its query", async () => {
    ignoreQueries = true;
    try {
      const run = await check();
      expect(run.code).toBe(1);
      expect(run.stdout).toContain(
        `(12 of them searching, filtering or ordering) were answered as their path without it, such as GET ${origin}/api/subjekti/?search=a&limit=5: the host does not hand query strings to the router`,
      );
      const { report } = await checkJson();
      const ignored = report.withoutQuery;
      // All 13 but the detail route searched for its own name, which the subject answers either way.
      expect(ignored?.searches).toBe(12);
      // Every derived page and every pre-rendered page past the first of its limit was answered as the bare list too.
      expect(ignored?.count).toBeGreaterThan(30);
      expect(report.failures.filter((f) => f.kind === "search")).toHaveLength(12);
    } finally {
      ignoreQueries = false;
    }
    const { code, report } = await checkJson();
    expect([code, report.withoutQuery]).toEqual([0, null]);
  });
});

describe("subjekti check against a host that answers one rule wrongly", () => {
  const drop = (answer: Upstream, name: string): Upstream => ({
    ...answer,
    headers: answer.headers.filter(([n]) => n.toLowerCase() !== name),
  });
  const cases: { name: string; broken: NonNullable<Fault>; kind: string; difference: { what: string; expected: string; got: string } }[] = [
    {
      name: "POST reaches a static file server's 404",
      broken: (method, _, a) => (method === "POST" ? { ...a, status: 404 } : a),
      kind: "not-allowed",
      difference: { what: "status", expected: "405", got: "404" },
    },
    {
      name: "a catch-all rewrite turns every 404 into a 200",
      broken: (_m, _h, a) => (a.status === 404 ? { ...a, status: 200 } : a),
      kind: "not-found",
      difference: { what: "status", expected: "404", got: "200" },
    },
    {
      name: "a proxy drops Access-Control-Allow-Methods from preflights",
      broken: (method, headers, a) => (method === "OPTIONS" && headers.origin !== undefined ? drop(a, "access-control-allow-methods") : a),
      kind: "preflight",
      difference: { what: "Access-Control-Allow-Methods", expected: "GET, HEAD, OPTIONS", got: "(none)" },
    },
    {
      name: "a proxy adds a charset to every JSON answer",
      broken: (_m, _h, a) => ({
        ...a,
        headers: a.headers.map(([n, v]) => [n, v === "application/json" ? "application/json; charset=utf-8" : v]),
      }),
      kind: "pre-rendered",
      difference: { what: "Content-Type", expected: "application/json", got: "application/json; charset=utf-8" },
    },
    {
      name: "a proxy adds its own Vary: Origin",
      broken: (_m, _h, a) => ({
        ...a,
        headers: a.headers.map(([n, v]) => [n, n.toLowerCase() === "vary" && v === "Accept" ? "Accept, Origin" : v]),
      }),
      kind: "derived",
      difference: { what: "Vary", expected: "Accept", got: "Accept, Origin" },
    },
    {
      name: "a proxy adds its own ETag to the 405",
      broken: (method, _h, a) => (method === "POST" ? { ...a, headers: [...a.headers, ["ETag", '"x"']] } : a),
      kind: "not-allowed",
      difference: { what: "ETag", expected: "(none)", got: '"x"' },
    },
  ];
  it.each(cases)("$name: the $kind check fails with the difference", async ({ broken, kind, difference }) => {
    fault = broken;
    try {
      const { code, report } = await checkJson();
      expect(code).toBe(1);
      const failure = report.failures.find((f) => f.kind === kind);
      expect(failure?.differences).toContainEqual(difference);
    } finally {
      fault = null;
    }
  });

  it("--connect: the requests go to that address with the URL's Host (past the broken host, straight to the preview: exit 0)", async () => {
    fault = (_m, _h, a) => ({ ...a, status: 500 });
    try {
      expect((await check()).code).toBe(1);
      // The preview writes links on the Host it gets: the pre-rendered files match only with the URL's.
      const { code, report } = await checkJson("--connect", `127.0.0.1:${previewPort}`);
      expect(code).toBe(0);
      expect(report.origin).toBe(origin);
    } finally {
      fault = null;
    }
  });

  it("a CDN's added Vary: Accept-Encoding changes no answer: still exit 0", async () => {
    fault = (_m, _h, a) => ({ ...a, headers: a.headers.map(([n, v]) => [n, n.toLowerCase() === "vary" ? `${v}, Accept-Encoding` : v]) });
    try {
      expect((await check()).code).toBe(0);
    } finally {
      fault = null;
    }
  });
});
