/**
 * What searching costs, on a built site (`subjekti build`, e.g. of `npm run generate` data):
 *
 *   tsx scripts/bench-search.ts query --site dist [--requests 200]
 *   tsx scripts/bench-search.ts build --site dist
 *
 * `query`: the handler's own CPU and the bytes it reads for each class of query, through
 * `answerFetch` over `cdnSite` with the site's files in memory, a Range answered with its bytes
 * alone as Netlify's CDN may (a fresh host a request, so nothing a request read is kept for the
 * next but the manifest). The terms are drawn from the site's own names. `build`: the search stage
 * alone (site/plan-search.ts) over the site's chunk files: its CPU, time, memory and files.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { cpus, loadavg } from "node:os";
import { Command } from "commander";
import { answerFetch } from "../src/core/answer-request.ts";
import { cdnSite, ManifestCache } from "../src/core/cdn-site.ts";
import { chunkPath, DATA_ROOT, MANIFEST_PATH, shardDirPath } from "../src/core/layout.ts";
import type { Manifest } from "../src/core/manifest.ts";
import { mulberry32 } from "../src/common/seeded-random.ts";
import { planSearch } from "../src/site/plan-search.ts";
import { inMemorySite } from "./in-memory-site.ts";

const ORIGIN = "http://testserver";
const program = new Command()
  .name("bench-search")
  .argument("<what>", "query or build")
  .requiredOption("--site <dir>", "a built site")
  .option("--requests <n>", "requests of each class", "200")
  .option("--no-ranges", "the host answers every Range with the whole file")
  .option("--write", "build: put the search files planned into the site (replacing its own), to query them");
program.parse();
const [what] = program.args;
const options = program.opts<{ site: string; requests: string; ranges: boolean; write?: boolean }>();
const site = resolve(options.site);
const manifest = JSON.parse(readFileSync(join(site, MANIFEST_PATH), "utf8")) as Manifest;

if (what === "build") {
  const before = process.cpuUsage();
  const started = performance.now();
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const shards = planSearch(manifest.count, manifest.chunkSize, (chunk) => ({ path: join(site, chunkPath(manifest, chunk) ?? "") }));
  let files = 0;
  let bytes = 0;
  let largest = 0;
  for (const shard of shards)
    for (const file of shard.files()) {
      files++;
      bytes += file.bytes.length;
      largest = Math.max(largest, file.bytes.length);
    }
  peak = Math.max(peak, process.memoryUsage().rss);
  clearInterval(timer);
  if (options.write === true) {
    // Dev only: the shards under their keys and hashes, the manifest naming them instead of the site's own search files.
    const dirs: Record<string, string> = Object.fromEntries(Object.entries(manifest.dirs).filter(([key]) => !key.startsWith("search/")));
    for (const shard of shards) {
      const dir = join(site, DATA_ROOT, shardDirPath(shard.key, shard.hash));
      mkdirSync(dir, { recursive: true });
      for (const file of shard.files()) writeFileSync(join(dir, file.name), file.bytes);
      dirs[shard.key] = shard.hash;
    }
    writeFileSync(join(site, MANIFEST_PATH), JSON.stringify({ ...manifest, dirs }));
  }
  const cpu = process.cpuUsage(before);
  process.stdout.write(
    `${manifest.count.toLocaleString("en")} subjects: the search stage took ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU, ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s wall, peak RSS ${(peak / 2 ** 20).toFixed(0)} MiB; ` +
      `${files.toLocaleString("en")} files, ${(bytes / 2 ** 20).toFixed(1)} MiB, the largest ${(largest / 2 ** 20).toFixed(1)} MiB\n`,
  );
  process.exit(0);
}

// The terms: words of the site's names and towns, from records drawn at random.
const memory = inMemorySite(site, options.ranges);
const fetchFile = (path: string, range?: { start: number; end: number }): Promise<Response> => memory.fetchFile(path, range);
const manifests = new ManifestCache();
const send = async (path: string): Promise<string> => {
  const response = await answerFetch(
    new Request(`${ORIGIN}${path}`),
    cdnSite(fetchFile, () => fetchFile(path.slice(1)), manifests),
  );
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
  return response.text();
};
const random = mulberry32(11);
const below = (n: number): number => Math.floor(random() * n);
const names: string[] = [];
for (let i = 0; i < 200; i++) {
  const page = JSON.parse(await send(`/api/subjekti/?limit=50&offset=${below(Math.max(1, manifest.count - 50))}`)) as {
    results: { naziv_subjekta: string; institucija_grad: string }[];
  };
  for (const r of page.results) names.push(r.naziv_subjekta, r.institucija_grad);
}
const FOLD: Record<string, string> = { č: "c", ć: "c", đ: "d", š: "s", ž: "z", Č: "C", Ć: "C", Đ: "D", Š: "S", Ž: "Z" };
const fold = (text: string): string => text.replace(/[čćđšžČĆĐŠŽ]/g, (c) => FOLD[c] ?? c);
const wordsOf = (name: string): string[] => name.split(" ").filter((w) => /\p{L}{2}/u.test(w));
const word = (): string => {
  for (;;) {
    const words = wordsOf(names[below(names.length)] ?? "");
    if (words.length > 0) return words[below(words.length)] as string;
  }
};
const q = (text: string): string => encodeURIComponent(text.toLowerCase());
const classes: [string, () => string][] = [
  [
    "one or two letters",
    () => {
      const w = fold(word());
      const at = below(w.length - 1);
      return `/api/subjekti/?search=${q(w.slice(at, at + 1 + below(2)))}`;
    },
  ],
  [
    "one word or part of one",
    () => {
      const w = word();
      if (w.length <= 3 || below(2) === 0) return `/api/subjekti/?search=${q(w)}`;
      const at = below(w.length - 3);
      return `/api/subjekti/?search=${q(w.slice(at, at + 3 + below(w.length - at - 2)))}`;
    },
  ],
  [
    "two words without diacritics",
    () => {
      for (;;) {
        const words = wordsOf(names[below(names.length)] ?? "");
        if (words.length < 2) continue;
        const a = below(words.length);
        const b = (a + 1 + below(words.length - 1)) % words.length;
        return `/api/subjekti/?search=${q(fold(`${words[a] ?? ""} ${words[b] ?? ""}`))}`;
      }
    },
  ],
  ["a word with ordering=naziv_subjekta at offset 400", () => `/api/subjekti/?search=${q(word())}&ordering=naziv_subjekta&offset=400`],
];
const requests = Number(options.requests);
process.stdout.write(
  `\n${manifest.count.toLocaleString("en")} subjects, ${requests} requests a class (each sent once unmeasured first), ranges ${options.ranges ? "served" : "not served"}, Node ${process.version}, ${cpus().length} cores, load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}\n\n| class | mean CPU | max CPU | mean bytes read | max bytes read | example |\n|---|--:|--:|--:|--:|---|\n`,
);
for (const [name, target] of classes) {
  const targets = Array.from({ length: requests }, target);
  for (const path of targets) await send(path);
  const cpu: number[] = [];
  const bytes: number[] = [];
  for (const path of targets) {
    memory.bytesRead = 0;
    const start = process.cpuUsage();
    await send(path);
    const used = process.cpuUsage(start);
    cpu.push((used.user + used.system) / 1000);
    bytes.push(memory.bytesRead);
  }
  const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
  const worst = cpu.indexOf(Math.max(...cpu));
  process.stdout.write(
    `| ${name} | ${mean(cpu).toFixed(2)} ms | ${Math.max(...cpu).toFixed(2)} ms | ${Math.round(mean(bytes)).toLocaleString("en")} | ${Math.max(...bytes).toLocaleString("en")} | \`${decodeURIComponent(targets[worst] ?? "")}\` (the slowest) |\n`,
  );
}
