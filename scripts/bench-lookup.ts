/**
 * `npm run bench:lookup`: what one subject by its key costs the request handler, on a generated
 * site (1M subjects by default): by id (`/api/subjekti/<id>/`), by code and by OIB (the filters),
 * a key no subject has, and a pre-rendered page for scale. The handler's own CPU a request, in
 * this process (Node's V8), over the site's files held in memory as a CDN-backed host reaches
 * them (`answerFetch` over `cdnSite`), keys drawn at random from the source; and how many bytes
 * each request read from the site.
 *
 *   npm run bench:lookup -- [--count 1000000] [--requests 2000]
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import { cpus } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { makeSubject } from "./generate-subjects.ts";
import { answerFetch } from "../src/core/answer-request.ts";
import { cdnSite, ManifestCache } from "../src/core/cdn-site.ts";
import { DEFAULT_OPTIONS } from "../src/site/build-options.ts";
import { buildSite } from "../src/site/build-site.ts";
import { mulberry32 } from "../src/common/seeded-random.ts";
import { tempDir } from "../test/_tree.ts";
import { inMemorySite } from "./in-memory-site.ts";

const program = new Command("bench-lookup")
  .option("--count <n>", "subjects in the generated site", (t) => Number(t), 1_000_000)
  .option("--requests <n>", "requests of each kind (after 200 to warm up)", (t) => Number(t), 2000)
  .parse();
const { count, requests } = program.opts<{ count: number; requests: number }>();

const ORIGIN = "http://127.0.0.1:8080";
const root = await tempDir("subjekti-bench-lookup-");
try {
  const data = join(root, "data");
  await mkdir(data);
  const lines: string[] = [];
  for (let i = 0; i < count; i++) lines.push(JSON.stringify(makeSubject(5, i)));
  await writeFile(join(data, "subjekti.ndjson"), lines.join("\n") + "\n");
  const site = join(root, "site");
  await buildSite({ ...DEFAULT_OPTIONS, limits: [20], forms: ["plain"], dataDir: data, outDir: site, baseUrl: ORIGIN, cacheDir: null, quiet: true, feed: false });

  const memory = inMemorySite(site);
  const fetchFile = (path: string): Promise<Response> => memory.fetchFile(path);
  const manifests = new ManifestCache();
  const random = mulberry32(7);
  const pick = (): { id: number; jedinstvena_oznaka: string; oib: string } => makeSubject(5, Math.floor(random() * count));
  const kinds: [string, () => string, number][] = [
    ["pre-rendered page, limit 20 (for scale)", () => `/api/subjekti/?limit=20&offset=${20 * Math.floor(random() * (count / 20))}`, 200],
    ["one subject by id: /api/subjekti/<id>/", () => `/api/subjekti/${pick().id}/`, 200],
    ["by code: ?jedinstvena_oznaka=<code>", () => `/api/subjekti/?jedinstvena_oznaka=${pick().jedinstvena_oznaka}`, 200],
    ["by OIB: ?oib=<oib>", () => `/api/subjekti/?oib=${pick().oib}`, 200],
    ["an id no subject has (past the last)", () => `/api/subjekti/${10 * count + Math.floor(random() * 1000)}/`, 404],
  ];
  process.stdout.write(`\n${count.toLocaleString("en")} subjects, ${requests} requests of each kind, Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? "?"})\n\n`);
  process.stdout.write("| request | handler CPU a request | bytes read a request |\n|---|--:|--:|\n");
  for (const [name, target, status] of kinds) {
    const send = async (): Promise<void> => {
      const path = target();
      const response = await answerFetch(new Request(`${ORIGIN}${path}`), cdnSite(fetchFile, () => fetchFile(path.slice(1)), manifests));
      if (response.status !== status) throw new Error(`${name}: ${path} answered ${response.status}`);
      await response.arrayBuffer();
    };
    for (let i = 0; i < 200; i++) await send();
    memory.bytesRead = 0;
    const start = process.cpuUsage();
    for (let i = 0; i < requests; i++) await send();
    const used = process.cpuUsage(start);
    const ms = (used.user + used.system) / 1000 / requests;
    process.stdout.write(`| ${name} | ${ms.toFixed(3)} ms | ${Math.round(memory.bytesRead / requests).toLocaleString("en")} |\n`);
  }
} finally {
  await rm(root, { recursive: true, force: true });
}
