/**
 * `npm run bench:lookup`: what a request no pre-rendered file answers costs the request handler:
 * derived pages (20 and 1,000 subjects, compact and with `indent`), one subject by its key (by id
 * `/api/subjekti/<id>/`, by code and by OIB, the filters), a key no subject has, and a
 * pre-rendered page for scale. The handler's own CPU a request, in this process (Node's V8), over
 * the site's files held in memory as a CDN-backed host reaches them (`answerFetch` over
 * `cdnSite`), keys and offsets drawn at random from the source, every target sent once before it
 * is measured (so that its files are in memory); and how many bytes each request read.
 *
 * The site is generated (1M subjects by default) or built from a data directory (`--data data`).
 * With `--before <checkout>` (another copy of this repository, its node_modules in place) the same
 * requests also go to that copy's handler over a site its own build wrote, alternating blocks of
 * requests between the two so that the machine's load weighs on both alike.
 *
 * With `--whole-files`, also over a platform that answers a Range with the whole file.
 *
 *   npm run bench:lookup -- [--count 1000000 | --data data] [--requests 300] [--warm 50] [--before <dir>] [--whole-files]
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import { cpus, loadavg } from "node:os";
import { join, resolve } from "node:path";
import { Command } from "commander";
import { makeSubject } from "./generate-subjects.ts";
import { mulberry32 } from "../src/common/seeded-random.ts";
import { tempDir } from "../test/file-trees.ts";
import { inMemorySite } from "./in-memory-site.ts";
import { printedColumn, printedSoFar, recordBenchmarks, setLabel, writing } from "./benchmarks-table.ts";

const program = new Command("bench-lookup")
  .option("--count <n>", "subjects in the generated site", (t) => Number(t), 1_000_000)
  .option("--data <dir>", "build this data directory instead of a generated list")
  .option("--requests <n>", "requests of each kind measured (after the warm-up)", (t) => Number(t), 300)
  .option("--warm <n>", "requests of each kind to warm up", (t) => Number(t), 50)
  .option("--blocks <n>", "blocks the measured requests are sent in, alternating with --before", (t) => Number(t), 10)
  .option("--before <dir>", "another checkout whose handler and build are measured alongside")
  .option("--whole-files", "also measure this handler over a platform that serves no ranges (every Range answered with the whole file)")
  .parse();
const options = program.opts<{
  count: number;
  data?: string;
  requests: number;
  warm: number;
  blocks: number;
  before?: string;
  wholeFiles?: boolean;
}>();

const ORIGIN = "http://127.0.0.1:8080";
const HERE = resolve(import.meta.dirname, "..");

/** A checkout's handler over the site its own build wrote. */
interface Side {
  readonly name: string;
  send(path: string, headers: Record<string, string>): Promise<Response>;
  bytesRead(): number;
  reset(): void;
}

interface Subjectish {
  readonly id: number;
  readonly jedinstvena_oznaka: string;
  readonly oib: string;
}

async function side(name: string, checkout: string, data: string, out: string, ranges = true): Promise<Side> {
  // Each checkout's own modules: its build and its handler.
  const { buildSite } = (await import(join(checkout, "src/site/build-site.ts"))) as typeof import("../src/site/build-site.ts");
  const { DEFAULT_OPTIONS } = (await import(join(checkout, "src/site/build-options.ts"))) as typeof import("../src/site/build-options.ts");
  const { answerFetch } = (await import(join(checkout, "src/core/answer-request.ts"))) as typeof import("../src/core/answer-request.ts");
  const { cdnSite, ManifestCache } = (await import(join(checkout, "src/core/cdn-site.ts"))) as typeof import("../src/core/cdn-site.ts");
  await buildSite({
    ...DEFAULT_OPTIONS,
    limits: [20],
    forms: ["plain"],
    maxLimit: 1000,
    dataDir: data,
    outDir: out,
    baseUrl: ORIGIN,
    cacheDir: null,
    quiet: true,
    feed: false,
  });
  const memory = inMemorySite(out, ranges);
  const fetchFile = (path: string, range?: { start: number; end: number }): Promise<Response> => memory.fetchFile(path, range);
  const manifests = new ManifestCache();
  return {
    name,
    send: (path, headers) =>
      answerFetch(
        new Request(`${ORIGIN}${path}`, { headers }),
        cdnSite(fetchFile, () => fetchFile(path.slice(1)), manifests),
      ),
    bytesRead: () => memory.bytesRead,
    reset: () => void (memory.bytesRead = 0),
  };
}

const root = await tempDir("subjekti-bench-lookup-");
try {
  let data: string;
  let subjects: Subjectish[];
  if (options.data === undefined) {
    data = join(root, "data");
    await mkdir(data);
    const lines: string[] = [];
    subjects = [];
    for (let i = 0; i < options.count; i++) {
      const subject = makeSubject(5, i);
      subjects.push({ id: subject.id, jedinstvena_oznaka: subject.jedinstvena_oznaka, oib: subject.oib });
      lines.push(JSON.stringify(subject));
    }
    await writeFile(join(data, "subjekti.ndjson"), lines.join("\n") + "\n");
  } else {
    data = resolve(options.data);
    subjects = [];
  }
  const sides: Side[] = [];
  if (options.before !== undefined) sides.push(await side("before", resolve(options.before), data, join(root, "before")));
  sides.push(await side(options.before === undefined ? "handler" : "after", HERE, data, join(root, "after")));
  // The same files from a platform that answers every Range with the whole file.
  if (options.wholeFiles === true) sides.push(await side("after, no ranges", HERE, data, join(root, "after-whole"), false));
  if (subjects.length === 0) {
    // The list as the site holds it: every subject's keys, from the first side's chunks through a page of all.
    const first = sides[0] as Side;
    for (let offset = 0; ; offset += 1000) {
      const page = (await (await first.send(`/api/subjekti/?limit=1000&offset=${offset}`, {})).json()) as {
        results: Subjectish[];
        next: string | null;
      };
      subjects.push(...page.results.map(({ id, jedinstvena_oznaka, oib }) => ({ id, jedinstvena_oznaka, oib })));
      if (page.next === null) break;
    }
  }
  const count = subjects.length;
  const random = mulberry32(7);
  const pick = (): Subjectish => subjects[Math.floor(random() * count)] as Subjectish;
  const at = (limit: number, offset: number): number => Math.max(0, Math.min(offset, count - limit));
  const INDENT = { Accept: "application/json; indent=2" };
  const kinds: [string, () => string, Record<string, string>, number][] = [
    [
      "pre-rendered page, limit 20 (for scale)",
      () => `/api/subjekti/?limit=20&offset=${20 * Math.floor(random() * Math.floor(count / 20))}`,
      {},
      200,
    ],
    ["derived, `limit=20&offset=7` (20 subjects)", () => `/api/subjekti/?limit=20&offset=${at(20, 7)}`, {}, 200],
    ["derived, `limit=1000&offset=500`", () => `/api/subjekti/?limit=1000&offset=${at(1000, 500)}`, {}, 200],
    ["derived, `limit=1000&offset=500`, `indent=2`", () => `/api/subjekti/?limit=1000&offset=${at(1000, 500)}`, INDENT, 200],
    ["derived, limit 20 at a random offset", () => `/api/subjekti/?limit=20&offset=${Math.floor(random() * (count - 20)) | 1}`, {}, 200],
    [
      "derived, limit 1000 at a random offset",
      () => `/api/subjekti/?limit=1000&offset=${Math.floor(random() * (count - 1000)) | 1}`,
      {},
      200,
    ],
    ["one subject by id: /api/subjekti/<id>/", () => `/api/subjekti/${pick().id}/`, {}, 200],
    ["by code: ?jedinstvena_oznaka=<code>", () => `/api/subjekti/?jedinstvena_oznaka=${pick().jedinstvena_oznaka}`, {}, 200],
    ["by OIB: ?oib=<oib>", () => `/api/subjekti/?oib=${pick().oib}`, {}, 200],
    [
      "an id no subject has (past the last)",
      () => `/api/subjekti/${10 * ((subjects.at(-1) as Subjectish).id + 1) + Math.floor(random() * 1000)}/`,
      {},
      404,
    ],
  ];
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
  process.stdout.write(
    `\n${count.toLocaleString("en")} subjects, ${options.requests} requests of each kind after ${options.warm} to warm up, Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? "?"}), load ${load}\n\n`,
  );
  const names = sides.map((s) => s.name);
  process.stdout.write(
    `| request | ${names.map((n) => `${n}: handler CPU a request`).join(" | ")} | ${names.map((n) => `${n}: bytes read a request`).join(" | ")} |\n`,
  );
  process.stdout.write(`|---|${names.map(() => "--:").join("|")}|${names.map(() => "--:").join("|")}|\n`);
  for (const [name, target, headers, status] of kinds) {
    // The same targets for every side, each sent once unmeasured first: the files they read are
    // then in memory, so no side's figure counts a first read from disk.
    const targets = Array.from({ length: options.requests }, () => target());
    const send = async (s: Side, path: string): Promise<void> => {
      const response = await s.send(path, headers);
      if (response.status !== status) throw new Error(`${s.name}, ${name}: ${path} answered ${response.status}`);
      await response.arrayBuffer();
    };
    const cpu = sides.map(() => 0);
    const bytes = sides.map(() => 0);
    for (const s of sides) {
      for (let i = 0; i < options.warm; i++) await send(s, targets[i % targets.length] as string);
      for (const path of targets) await send(s, path);
    }
    for (const s of sides) s.reset();
    const perBlock = Math.ceil(options.requests / options.blocks);
    for (let sent = 0; sent < options.requests; sent += perBlock) {
      const block = targets.slice(sent, sent + perBlock);
      // Alternating blocks, each side first in turn.
      const order = (sent / perBlock) % 2 === 0 ? sides.map((_, i) => i) : sides.map((_, i) => sides.length - 1 - i);
      for (const i of order) {
        const s = sides[i] as Side;
        const start = process.cpuUsage();
        for (const path of block) await send(s, path);
        const used = process.cpuUsage(start);
        cpu[i] = (cpu[i] as number) + used.user + used.system;
      }
    }
    sides.forEach((s, i) => (bytes[i] = s.bytesRead()));
    const ms = cpu.map((c) => `${(c / 1000 / options.requests).toFixed(3)} ms`);
    const read = bytes.map((b) => Math.round(b / options.requests).toLocaleString("en"));
    process.stdout.write(`| ${name} | ${ms.join(" | ")} | ${read.join(" | ")} |\n`);
  }
} finally {
  await rm(root, { recursive: true, force: true });
}

// `--write`: the headline rows into BENCHMARKS.md, read back from the table printed above.
if (writing) {
  const printed = printedSoFar();
  const set = setLabel(Number(/^([\d,]+) subjects/m.exec(printed)?.[1]?.replace(/,/g, "")));
  const after = options.before === undefined ? 0 : 1;
  // The printed columns: each side's CPU, then each side's bytes read.
  const sides = 1 + after + (options.wholeFiles === true ? 1 : 0);
  const figure = (names: readonly string[], bytes = false): string =>
    `**${printedColumn(printed, names, after)} ms** handler CPU` +
    (bytes ? `, **${printedColumn(printed, names, sides + after)} bytes** read` : "") +
    (options.before === undefined
      ? ""
      : ` (before, same run: ${printedColumn(printed, names, 0)} ms${bytes ? `, ${printedColumn(printed, names, sides)} bytes` : ""})`);
  await recordBenchmarks([
    {
      key: `lookup-${set.toLowerCase()}-derived`,
      table: "Serving",
      what: `derived page (handler alone, \`answerFetch\` over \`cdnSite\`, ${set}): 20 subjects / 1,000 / 1,000 with \`indent=2\``,
      figure: figure([
        "derived, `limit=20&offset=7` (20 subjects)",
        "derived, `limit=1000&offset=500`",
        "derived, `limit=1000&offset=500`, `indent=2`",
      ]),
    },
    {
      key: `lookup-${set.toLowerCase()}-by-key`,
      table: "Serving",
      what: `one subject by its key, ${set}: by id / code / OIB`,
      figure: figure(["one subject by id: /api/subjekti/<id>/", "by code: ?jedinstvena_oznaka=<code>", "by OIB: ?oib=<oib>"], true),
    },
  ]);
}
