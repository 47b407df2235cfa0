/**
 * `bench search`: what a search costs the handler, on a built site (`subjekti build` of `npm run
 * generate` data): for each class of query, its own CPU and the bytes it reads, through
 * `answerFetch` over `cdnSite` with the site's files in memory, a Range answered with its bytes
 * alone as Netlify's CDN may (a fresh host a request, so nothing a request read is kept for the next
 * but the manifest). The terms are drawn from the site's own names.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { answerFetch, cdnSite, ManifestCache, MANIFEST_PATH, type Manifest, mulberry32 } from "./from-src.ts";
import { fmt, label, memoryFiles, type Report, table } from "./parts.ts";

export type SearchOptions = { site: string; requests: number; ranges: boolean; tries: number };

const ORIGIN = "http://testserver";
/** The slowest requests of each class listed one by one. */
const WORST_SHOWN = 5;

/** Each class of query, measured in turn. */
export async function run(options: SearchOptions): Promise<Report> {
  const site = resolve(options.site);
  const manifest = JSON.parse(readFileSync(join(site, MANIFEST_PATH), "utf8")) as Manifest;
  // The terms: words of the site's names and towns, from records drawn at random.
  const memory = memoryFiles(site, options.ranges);
  const manifests = new ManifestCache();
  const send = async (path: string): Promise<string> => {
    const site = cdnSite(memory.fetchFile, () => memory.fetchFile(path.slice(1)), manifests);
    const response = await answerFetch(new Request(`${ORIGIN}${path}`), site);
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
  const lines: (string | number)[][] = [];
  const worst: (string | number)[][] = [];
  for (const [name, target] of classes) {
    const targets = Array.from({ length: options.requests }, target);
    for (const path of targets) await send(path);
    const cpu: number[] = [];
    const bytes: number[] = [];
    for (const path of targets) {
      // The least of `tries` sends: each is the same work (a fresh host, nothing kept), so the least
      // is the request's own cost, where one send on a loaded machine also carries the others'.
      let least = Infinity;
      for (let t = 0; t < Math.max(1, options.tries); t++) {
        memory.bytesRead = 0;
        const start = process.cpuUsage();
        await send(path);
        const used = process.cpuUsage(start);
        least = Math.min(least, (used.user + used.system) / 1000);
      }
      cpu.push(least);
      bytes.push(memory.bytesRead);
    }
    const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
    const slowest = decodeURIComponent(targets[cpu.indexOf(Math.max(...cpu))] ?? "");
    lines.push([name, fmt(mean(cpu), 2), fmt(Math.max(...cpu), 2), Math.round(mean(bytes)), Math.max(...bytes), `\`${slowest}\``]);
    // The few slowest of the class, each with what it read: a single slow request is the limit a host sets.
    const bySlowness = Array.from(cpu.keys()).sort((i, j) => (cpu[j] as number) - (cpu[i] as number));
    for (const i of bySlowness.slice(0, WORST_SHOWN))
      worst.push([name, fmt(cpu[i] as number, 2), bytes[i] as number, `\`${decodeURIComponent(targets[i] ?? "")}\``]);
  }
  const header = ["class", "mean CPU ms:", "max CPU ms:", "mean bytes read:", "max bytes read:", "the slowest"];
  const tries = options.tries > 1 ? `, each request's CPU the least of ${options.tries} sends` : "";
  const about = `${label(manifest.count)} subjects, ${options.requests} requests a class (each sent once first${tries}), ranges ${options.ranges ? "served" : "not"}`;
  const worstHeader = ["class", "CPU ms:", "bytes read:", "query"];
  const worstTable = `the ${WORST_SHOWN} slowest of each class\n\n${table(worstHeader, worst)}`;
  return { text: `${about}\n\n${table(header, lines)}\n\n${worstTable}`, rows: [] };
}
