/**
 * `bench search`: what a search costs the handler, on a built site (`subjekti build` of `npm run
 * generate` data): for each class of query, its own CPU and the bytes it reads, through
 * `answerFetch` over `cdnSite` with the site's files in memory, a Range answered with its bytes
 * alone as Netlify's CDN may (a fresh host a request, so nothing a request read is kept for the next
 * but the manifest). The terms are drawn from the site's own names. With `--before`, another
 * commit's compiled handler answers each request too, the two in turn, and every answer of the two
 * is compared byte for byte.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { checkoutOf } from "./checkout.ts";
import { answerFetch, cdnSite, ManifestCache, MANIFEST_PATH, type Manifest, mulberry32 } from "./from-src.ts";
import { fmt, label, log, memoryFiles, type Report, table } from "./parts.ts";

export type SearchOptions = {
  site: string;
  requests: number;
  ranges: boolean;
  tries: number;
  before?: string;
  /** Only the classes whose name holds this text. */
  only?: string;
  /** A file of requests (a path a line) measured as a class of their own, in place of the drawn classes' when `only` is not given. */
  paths?: string;
  /** The seed of the draw (another seed, other requests). */
  seed: number;
  /** The slowest requests of each class listed one by one. */
  worst: number;
};

const ORIGIN = "http://testserver";
/** Requests measured by name besides the classes: the slowest known of their kind. */
const NAMED = ["/api/subjekti/?search=g&ordering=institucija_grad,-datum_postanka&offset=20000"];
/** The list's order fields, each ascending or (`-`) descending in the class of several fields. */
const ORDER_FIELDS = ["id", "naziv_subjekta", "institucija_grad", "datum_postanka", "jedinstvena_oznaka"];

/** A handler that answers a path: this checkout's, or another commit's. */
interface Handler {
  readonly name: string;
  send(path: string): Promise<string>;
}

/** What one request cost on each handler: the least CPU of its sends, the bytes and reads of one. */
interface Cost {
  readonly cpu: number;
  readonly bytes: number;
  readonly reads: number;
}

/** Each class of query, measured in turn. */
export async function run(options: SearchOptions): Promise<Report> {
  const site = resolve(options.site);
  const manifest = JSON.parse(readFileSync(join(site, MANIFEST_PATH), "utf8")) as Manifest;
  const memory = memoryFiles(site, options.ranges);
  let reads = 0;
  const fetchFile: typeof memory.fetchFile = (path, range) => {
    reads++;
    return memory.fetchFile(path, range);
  };
  const handler = (name: string, fetch: typeof answerFetch, cdn: typeof cdnSite, Cache: typeof ManifestCache): Handler => {
    const manifests = new Cache();
    return {
      name,
      async send(path) {
        const site = cdn(fetchFile, () => fetchFile(path.slice(1)), manifests);
        const response = await fetch(new Request(`${ORIGIN}${path}`), site);
        if (response.status !== 200) throw new Error(`${path} answered ${response.status} (${name})`);
        return response.text();
      },
    };
  };
  const handlers: Handler[] = [handler("now", answerFetch, cdnSite, ManifestCache)];
  if (options.before !== undefined) {
    const { dir, revision } = await checkoutOf(options.before);
    const lib = join(dir, "lib/core");
    const answer = (await import(join(lib, "answer-request.js"))) as { answerFetch: typeof answerFetch };
    const cdn = (await import(join(lib, "cdn-site.js"))) as { cdnSite: typeof cdnSite; ManifestCache: typeof ManifestCache };
    handlers.push(handler(revision, answer.answerFetch, cdn.cdnSite, cdn.ManifestCache));
  }
  const [now] = handlers as [Handler];
  const send = (path: string): Promise<string> => now.send(path);
  // The terms: words of the site's names and towns, from records drawn at random.
  const random = mulberry32(options.seed);
  const below = (n: number): number => Math.floor(random() * n);
  const names: string[] = [];
  for (let i = 0; i < 200; i++) {
    const page = JSON.parse(await send(`/api/subjekti/?limit=50&offset=${below(Math.max(1, manifest.count - 50))}`)) as {
      results: { naziv_subjekta: string; institucija_grad: string; datum_postanka: string }[];
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
  const letters = (): string => {
    const w = fold(word());
    const at = below(w.length - 1);
    return w.slice(at, at + 1 + below(2));
  };
  /** An ordering of one to three fields, each ascending or not, with a search or filters or neither, at an offset up to the count. */
  const deepOrder = async (): Promise<string> => {
    const ordering = Array.from({ length: 1 + below(3) }, () => `${below(2) === 0 ? "-" : ""}${ORDER_FIELDS[below(ORDER_FIELDS.length)]}`);
    const params = [`ordering=${ordering.join(",")}`];
    const kind = below(5);
    if (kind === 1) params.push(`search=${q(letters())}`);
    if (kind === 2) params.push(`search=${q(word())}`);
    if (kind === 3) params.push(below(2) === 0 ? `razina=lokalna` : `status_subjekta=${below(2) === 0}`);
    if (kind === 4) params.push(`search=${q(letters())}`, `datum_postanka__gte=${1950 + below(70)}-01-01`);
    const path = `/api/subjekti/?${params.join("&")}`;
    const { count } = JSON.parse(await send(`${path}&limit=1`)) as { count: number };
    return `${path}&offset=${below(count)}`;
  };
  const classes: [string, () => string | Promise<string>][] = [
    ["one or two letters", () => `/api/subjekti/?search=${q(letters())}`],
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
    ["one to three order fields at any offset, a search, filters or neither", deepOrder],
  ];
  const failures: string[] = [];
  /** A request's cost on each handler, the handlers in turn: the least CPU of `tries` sends each. */
  const measure = async (path: string): Promise<Cost[]> => {
    const costs = handlers.map(() => ({ cpu: Infinity, bytes: 0, reads: 0 }));
    for (let t = 0; t < Math.max(1, options.tries); t++) {
      // The least of `tries` sends: each is the same work (a fresh host, nothing kept), so the least
      // is the request's own cost, where one send on a loaded machine also carries the others'.
      for (const [h, handler] of handlers.entries()) {
        memory.bytesRead = 0;
        reads = 0;
        const start = process.cpuUsage();
        await handler.send(path);
        const used = process.cpuUsage(start);
        const cost = costs[h] as { cpu: number; bytes: number; reads: number };
        cost.cpu = Math.min(cost.cpu, (used.user + used.system) / 1000);
        cost.bytes = memory.bytesRead;
        cost.reads = reads;
      }
    }
    return costs;
  };
  const lines: (string | number)[][] = [];
  const worst: (string | number)[][] = [];
  const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
  const measured = async (name: string, targets: readonly string[]): Promise<void> => {
    // Each sent once first, by every handler: their answers must be the same bytes.
    for (const path of targets) {
      const answers = await Promise.all(handlers.map((h) => h.send(path)));
      if (answers.some((a) => a !== answers[0])) failures.push(`${path}: ${handlers.map((h) => h.name).join(" and ")} answer differently`);
    }
    const costs: Cost[][] = [];
    for (const path of targets) costs.push(await measure(path));
    for (const [h, handler] of handlers.entries()) {
      const cpu = costs.map((c) => (c[h] as Cost).cpu);
      const bytes = costs.map((c) => (c[h] as Cost).bytes);
      const slowest = decodeURIComponent(targets[cpu.indexOf(Math.max(...cpu))] ?? "");
      lines.push([
        name,
        handler.name,
        fmt(mean(cpu), 2),
        fmt(Math.max(...cpu), 2),
        Math.round(mean(bytes)),
        Math.max(...bytes),
        `\`${slowest}\``,
      ]);
    }
    // The few slowest of the class (on this checkout), each with what it read: a single slow request is the limit a host sets.
    const ownCpu = costs.map((c) => (c[0] as Cost).cpu);
    const bySlowness = Array.from(ownCpu.keys()).sort((i, j) => (ownCpu[j] as number) - (ownCpu[i] as number));
    for (const i of bySlowness.slice(0, options.worst)) {
      const each = costs[i] as Cost[];
      const cells = each.map((c) => `${fmt(c.cpu, 2)} ms, ${c.bytes} B in ${c.reads} reads`);
      worst.push([name, ...cells, `\`${decodeURIComponent(targets[i] ?? "")}\``]);
    }
  };
  const listed =
    options.paths === undefined
      ? []
      : readFileSync(options.paths, "utf8")
          .split("\n")
          .map((line) => line.trim())
          .filter((line) => line.startsWith("/"));
  const drawn = options.only !== undefined || options.paths === undefined;
  for (const [name, target] of drawn ? classes : []) {
    if (options.only !== undefined && !name.includes(options.only)) continue;
    const targets: string[] = [];
    for (let i = 0; i < options.requests; i++) targets.push(await target());
    log(`bench search: ${name}…`);
    await measured(name, targets);
  }
  if (listed.length > 0) await measured(`listed in ${options.paths ?? ""}`, listed);
  if (drawn) await measured("named", NAMED);
  const header = ["class", "handler", "mean CPU ms:", "max CPU ms:", "mean bytes read:", "max bytes read:", "the slowest"];
  const tries = options.tries > 1 ? `, each request's CPU the least of ${options.tries} sends` : "";
  const turns = handlers.length > 1 ? `, ${handlers.map((h) => h.name).join(" and ")} in turn, their answers compared` : "";
  const about = `${label(manifest.count)} subjects, ${options.requests} requests a class (each sent once first${tries}${turns}), ranges ${options.ranges ? "served" : "not"}`;
  const worstHeader = ["class", ...handlers.map((h) => h.name), "query"];
  const worstTable = `the ${options.worst} slowest of each class (on ${now.name}), CPU and what each read\n\n${table(worstHeader, worst)}`;
  return { text: `${about}\n\n${table(header, lines)}\n\n${worstTable}`, rows: [], failures };
}
