/**
 * An ETag changes exactly when the bytes it names do. One record of a built site is edited and the
 * site rebuilt in place; then every answer of the site is asked again on two hosts — the edge
 * handler in-process (the core over the built files, as Netlify and Cloudflare run it) and the
 * preview over real HTTP (the handler `subjekti serve` runs too, with the downloads) — and the
 * tags that changed are exactly those of the answers that show the record: the pages holding it
 * (pre-rendered and derived, compact and pretty-printed), its subject, the list filtered by its
 * OIB, the downloads and the published files that name the downloads' hashes. Every other answer
 * keeps its tag, and its old tag is answered with a 304. Where nginx is installed, nginx in front
 * of `subjekti serve` is the third host (the pre-rendered pages and the downloads sent by nginx
 * itself, with the tags its generated configuration holds). Out of `npm run test:unit` (named
 * .slow.test.ts): the preview and nginx run as real servers.
 */
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PUBLISHED_PATHS } from "../../src/core/published-files.ts";
import { useTempDir } from "../file-trees.ts";
import { edgeHost, type Host, previewHost } from "../hosts/hosts.ts";
import { NGINX, nginxHost, REQUIRE_NGINX } from "../hosts/nginx-host.ts";
import { build, readManifest } from "./built-site.ts";

const work = useTempDir();
interface Subject {
  readonly id: number;
  readonly oib: string;
  readonly naziv_subjekta: string;
}
const sample = (JSON.parse(await readFile("data/subjekti.json", "utf8")) as Subject[]).slice(0, 300).toSorted((a, b) => a.id - b.id);
/** The record edited: position 45 in id order. */
const EDITED = 45;
const edited = sample[EDITED] as Subject;
const otherOib = sample.find((s) => s.oib !== edited.oib)?.oib ?? "";
const LIMITS = [20, 100];
const PRETTY = { Accept: "application/json; indent=2" };

/** Every answer asked: a name, the target and the request headers. */
interface Ask {
  readonly name: string;
  readonly target: string;
  readonly headers?: Readonly<Record<string, string>>;
}

function pageAsks(): Ask[] {
  const asks: Ask[] = [{ name: "/api/subjekti/", target: "/api/subjekti/" }];
  for (const form of ["", "format=api&"]) {
    for (const limit of LIMITS) {
      for (let offset = 0; offset < sample.length; offset += limit) {
        asks.push({ name: `page ${form}limit=${limit}&offset=${offset}`, target: `/api/subjekti/?${form}limit=${limit}&offset=${offset}` });
      }
    }
  }
  // Derived pages: a limit no file holds, and pre-rendered ones asked pretty-printed.
  for (let offset = 0; offset < sample.length; offset += 7)
    asks.push({ name: `page limit=7&offset=${offset}`, target: `/api/subjekti/?limit=7&offset=${offset}` });
  for (let offset = 0; offset < sample.length; offset += 20)
    asks.push({ name: `pretty limit=20&offset=${offset}`, target: `/api/subjekti/?limit=20&offset=${offset}`, headers: PRETTY });
  return asks;
}

const ASKS: readonly Ask[] = [
  ...pageAsks(),
  ...sample.map((s) => ({ name: `subject ${s.id}`, target: `/api/subjekti/${s.id}/` })),
  { name: "oib of the edited", target: `/api/subjekti/?oib=${edited.oib}` },
  { name: "another oib", target: `/api/subjekti/?oib=${otherOib}` },
  ...PUBLISHED_PATHS.map((path) => ({ name: `published ${path}`, target: path })),
];

/** What the edit must change: the answers that show the record, and the files that name the downloads' hashes. */
function expectedChanges(downloads: readonly string[]): string[] {
  const holds = (limit: number, offset: number): boolean => offset <= EDITED && EDITED < offset + limit;
  const pages = pageAsks().filter((ask) => {
    const [, limit, offset] = /limit=(\d+)&offset=(\d+)/.exec(ask.target) ?? [];
    return limit === undefined ? holds(20, 0) : holds(Number(limit), Number(offset));
  });
  return [
    ...pages.map((ask) => ask.name),
    `subject ${edited.id}`,
    "oib of the edited",
    // The data package, the catalogue and the landing page give each download's size and hash.
    "published /",
    "published /datapackage.json",
    "published /catalog.ttl",
    "published /catalog.jsonld",
    ...downloads.map((path) => `download ${path}`),
  ].toSorted();
}

interface Seen {
  readonly status: number;
  readonly etag: string;
  /** The body's SHA-256. */
  readonly bytes: string;
  /** The status when asked again with the tag of the previous build (`If-None-Match`), if there was one. */
  readonly revalidated?: number;
  /** Sent by nginx from a file (its marker header), not by the handler. */
  readonly byNginx: boolean;
  /** An error's head and the start of its body, to tell which server refused. */
  readonly error?: string;
}

async function askAll(host: Host, asks: readonly Ask[], previous?: ReadonlyMap<string, Seen>): Promise<Map<string, Seen>> {
  const seen = new Map<string, Seen>();
  for (const ask of asks) {
    const headers = { Host: "testserver", ...ask.headers };
    const answer = await host.send("GET", ask.target, headers);
    const old = previous?.get(ask.name)?.etag;
    const revalidated = old === undefined ? undefined : (await host.send("GET", ask.target, { ...headers, "If-None-Match": old })).status;
    const byNginx = answer.headers["x-subjekti-source"] !== undefined;
    seen.set(ask.name, {
      status: answer.status,
      etag: answer.headers["etag"] ?? "",
      bytes: createHash("sha256").update(answer.body).digest("hex"),
      byNginx,
      ...(revalidated === undefined ? {} : { revalidated }),
      ...(answer.status < 400 ? {} : { error: `${JSON.stringify(answer.headers)} ${answer.body.toString("latin1").slice(0, 300)}` }),
    });
  }
  return seen;
}

/** The downloads as the preview serves them: stable and content-named paths. */
async function downloadAsks(dir: string): Promise<Ask[]> {
  const downloads = (await readManifest(dir)).downloads ?? [];
  return downloads
    .flatMap((d) => [d.path, d.immutablePath])
    .map((path) => ({ name: `download ${path}`, target: path.startsWith("/") ? path : `/${path}` }));
}

describe("ETags change exactly when the bytes do", () => {
  it(
    "one record edited and rebuilt in place: only its pages, its subject, its OIB's list, the downloads and the files naming them change tag, on every host",
    { timeout: 240_000 },
    async () => {
      const data = join(work.path, "data");
      await mkdir(data);
      const dir = join(work.path, "site");
      await writeFile(join(data, "subjekti.json"), JSON.stringify(sample));
      await build(data, dir, { limits: LIMITS, forms: ["plain", "api"], downloads: ["ndjson", "csv"] });

      const before = await collect(dir);
      await writeFile(
        join(data, "subjekti.json"),
        JSON.stringify(sample.map((s, i) => (i === EDITED ? { ...s, naziv_subjekta: `${s.naziv_subjekta} (novo ime)` } : s))),
      );
      await build(data, dir, { limits: LIMITS, forms: ["plain", "api"], downloads: ["ndjson", "csv"] });
      const after = await collect(dir, before);

      const downloadPaths = [...(before["preview"]?.keys() ?? [])]
        .filter((name) => name.startsWith("download "))
        .map((name) => name.slice("download ".length));
      // The content-named downloads are other paths after the edit: compare the stable ones.
      const stable = downloadPaths.filter((path) => after["preview"]?.has(`download ${path}`));
      expect(stable.length).toBeGreaterThan(0);
      for (const [hostName, seenBefore] of Object.entries(before)) {
        const seenAfter = after[hostName] ?? new Map<string, Seen>();
        const changed: string[] = [];
        for (const [name, was] of seenBefore) {
          const now = seenAfter.get(name);
          if (now === undefined) continue;
          expect(was.status, `${hostName} ${name} ${was.error ?? ""}`).toBe(200);
          expect(was.etag, `${hostName} ${name}`).toMatch(/^"[^"]+"$/);
          // The rule itself: the tag changed if and only if the bytes did.
          expect(now.etag !== was.etag, `${hostName} ${name}: tag changed ⟺ bytes changed`).toBe(now.bytes !== was.bytes);
          // A client or CDN holding the old bytes is told they are current, or sent the new ones.
          expect(now.revalidated, `${hostName} ${name} asked with its old tag`).toBe(now.etag === was.etag ? 304 : 200);
          if (now.etag !== was.etag) changed.push(name);
        }
        expect(changed.toSorted(), hostName).toEqual(expectedChanges(hostName === "edge" ? [] : stable));
      }
      // One tag per answer, whichever host gives it.
      for (const hostName of Object.keys(after).filter((name) => name !== "edge")) {
        for (const [name, seen] of after["edge"] ?? []) expect(after[hostName]?.get(name)?.etag, `${hostName} ${name}`).toBe(seen.etag);
      }
      expect(after["edge"]?.size).toBe(ASKS.length);
      // nginx sent the pre-rendered pages its map names itself (every page but the first as a next
      // link names it, `/api/subjekti/`, the published files), with the tags of the lists the build wrote.
      if (WITH_NGINX)
        expect([...(after["nginx"]?.values() ?? [])].filter((seen) => seen.byNginx)).toHaveLength(
          2 * (14 + 2) + 1 + PUBLISHED_PATHS.length,
        );
    },
  );
});

type Seens = Record<string, Map<string, Seen>>;
const WITH_NGINX = NGINX !== null || REQUIRE_NGINX;

/** Every answer on each host, each asked again with its tag of `previous` when given. */
async function collect(dir: string, previous?: Seens): Promise<Seens> {
  const edge = edgeHost(dir);
  const preview = await previewHost(dir);
  const nginx = WITH_NGINX ? await nginxHost(dir, await mkdtemp(join(work.path, "nginx-"))) : null;
  try {
    const downloads = await downloadAsks(dir);
    const seen: Seens = {
      edge: await askAll(edge, ASKS, previous?.["edge"]),
      preview: await askAll(preview, [...ASKS, ...downloads], previous?.["preview"]),
    };
    if (nginx !== null) seen["nginx"] = await askAll(nginx, [...ASKS, ...downloads], previous?.["nginx"]);
    return seen;
  } finally {
    await Promise.all([edge.stop(), preview.stop(), nginx?.stop()]);
  }
}
