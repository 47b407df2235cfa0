/**
 * `bench lookup`: what a request no pre-rendered file answers costs the request handler: derived
 * pages (20 and 1,000 subjects, compact and with `indent`), one subject by its key (by id, by code
 * and by OIB), a key no subject has, and a pre-rendered page for scale. The handler's own CPU a
 * request in this process (`answerFetch` over `cdnSite`, the site's files in memory as a CDN-backed
 * host reaches them), keys and offsets drawn at random, every target sent once before it is
 * measured; and the bytes each request read. The site is generated (`--count`) or built from
 * `--data`. `--before <checkout>` sends the same requests to that checkout's handler over a site
 * its own build wrote, in alternating blocks; `--whole-files` adds a host that serves no ranges.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { MeasuredRow } from "../benchmarks-table.ts";
import { makeSubject } from "../generate-subjects.ts";
import { mulberry32, tempDir } from "./from-src.ts";
import { fmt, inMemorySite, label, type Report, ROOT, table } from "./parts.ts";

export interface LookupOptions {
  readonly count: number;
  readonly data?: string;
  readonly requests: number;
  readonly warm: number;
  readonly blocks: number;
  readonly before?: string;
  readonly wholeFiles?: boolean;
}

const ORIGIN = "http://127.0.0.1:8080";

/** A checkout's handler over the site its own build wrote. */
interface Side {
  readonly name: string;
  send(path: string, headers: Record<string, string>): Promise<Response>;
  readonly memory: { bytesRead: number };
}

interface Keys {
  readonly id: number;
  readonly jedinstvena_oznaka: string;
  readonly oib: string;
}

async function side(name: string, checkout: string, data: string, out: string, ranges = true): Promise<Side> {
  // Each checkout's own modules: its build and its handler (paths as of this checkout's layout).
  const src = (path: string): Promise<unknown> => import(join(checkout, "src", path));
  const { buildSite } = (await src("site/build-site.ts")) as typeof import("../../src/site/build-site.ts");
  const { DEFAULT_OPTIONS } = (await src("site/build-options.ts")) as typeof import("../../src/site/build-options.ts");
  const { answerFetch } = (await src("core/answer-request.ts")) as typeof import("../../src/core/answer-request.ts");
  const { cdnSite, ManifestCache } = (await src("core/cdn-site.ts")) as typeof import("../../src/core/cdn-site.ts");
  const options = { ...DEFAULT_OPTIONS, limits: [20], forms: ["plain" as const], maxLimit: 1000, dataDir: data, outDir: out };
  await buildSite({ ...options, baseUrl: ORIGIN, cacheDir: null, quiet: true, feed: false });
  const memory = inMemorySite(out, ranges);
  const fetchFile = (path: string, range?: { start: number; end: number }): Promise<Response> => memory.fetchFile(path, range);
  const manifests = new ManifestCache();
  const send = (path: string, headers: Record<string, string>) =>
    answerFetch(
      new Request(`${ORIGIN}${path}`, { headers }),
      cdnSite(fetchFile, () => fetchFile(path.slice(1)), manifests),
    );
  return { name, send, memory };
}

/** The requests measured: a name, a target drawn anew each time, headers, the status expected, and the row key it is part of. */
function kinds(subjects: readonly Keys[]): [string, () => string, Record<string, string>, number][] {
  const count = subjects.length;
  const random = mulberry32(7);
  const pick = (): Keys => subjects[Math.floor(random() * count)] as Keys;
  const at = (limit: number, offset: number): number => Math.max(0, Math.min(offset, count - limit));
  const indent = { Accept: "application/json; indent=2" };
  const list = "/api/subjekti/";
  return [
    [
      "pre-rendered page, limit 20 (for scale)",
      () => `${list}?limit=20&offset=${20 * Math.floor(random() * Math.floor(count / 20))}`,
      {},
      200,
    ],
    ["derived, `limit=20&offset=7` (20 subjects)", () => `${list}?limit=20&offset=${at(20, 7)}`, {}, 200],
    ["derived, `limit=1000&offset=500`", () => `${list}?limit=1000&offset=${at(1000, 500)}`, {}, 200],
    ["derived, `limit=1000&offset=500`, `indent=2`", () => `${list}?limit=1000&offset=${at(1000, 500)}`, indent, 200],
    ["derived, limit 20 at a random offset", () => `${list}?limit=20&offset=${Math.floor(random() * (count - 20)) | 1}`, {}, 200],
    ["derived, limit 1000 at a random offset", () => `${list}?limit=1000&offset=${Math.floor(random() * (count - 1000)) | 1}`, {}, 200],
    ["one subject by id: /api/subjekti/<id>/", () => `${list}${pick().id}/`, {}, 200],
    ["by code: ?jedinstvena_oznaka=<code>", () => `${list}?jedinstvena_oznaka=${pick().jedinstvena_oznaka}`, {}, 200],
    ["by OIB: ?oib=<oib>", () => `${list}?oib=${pick().oib}`, {}, 200],
    [
      "an id no subject has (past the last)",
      () => `${list}${10 * ((subjects.at(-1)?.id ?? 0) + 1) + Math.floor(random() * 1000)}/`,
      {},
      404,
    ],
  ];
}

/** The sides, the site's keys, every kind measured; the derived pages and the keys' rows. */
export async function benchLookup(options: LookupOptions): Promise<Report> {
  const root = await tempDir("subjekti-bench-lookup-");
  try {
    let data = resolve(options.data ?? join(root, "data"));
    const subjects: Keys[] = [];
    if (options.data === undefined) {
      await mkdir(data);
      const lines: string[] = [];
      for (let i = 0; i < options.count; i++) {
        const subject = makeSubject(5, i);
        subjects.push({ id: subject.id, jedinstvena_oznaka: subject.jedinstvena_oznaka, oib: subject.oib });
        lines.push(JSON.stringify(subject));
      }
      await writeFile(join(data, "subjekti.ndjson"), `${lines.join("\n")}\n`);
    }
    const sides: Side[] = [];
    if (options.before !== undefined) sides.push(await side("before", resolve(options.before), data, join(root, "before")));
    sides.push(await side(options.before === undefined ? "handler" : "after", ROOT, data, join(root, "after")));
    if (options.wholeFiles === true) sides.push(await side("after, no ranges", ROOT, data, join(root, "whole"), false));
    // A data directory's keys: the list as the site holds it, through pages of 1,000.
    for (let offset = 0; subjects.length === offset && options.data !== undefined; offset += 1000) {
      const page = (await (await (sides[0] as Side).send(`/api/subjekti/?limit=1000&offset=${offset}`, {})).json()) as { results: Keys[] };
      subjects.push(...page.results);
    }
    const measured = new Map<string, { ms: number[]; bytes: number[] }>();
    for (const [name, target, headers, status] of kinds(subjects)) {
      const targets = Array.from({ length: options.requests }, target);
      const send = async (s: Side, path: string): Promise<void> => {
        const response = await s.send(path, headers);
        if (response.status !== status) throw new Error(`${s.name}, ${name}: ${path} answered ${response.status}`);
        await response.arrayBuffer();
      };
      // Every target sent once unmeasured first: the files it reads are then in memory on every side.
      for (const s of sides) {
        for (let i = 0; i < options.warm; i++) await send(s, targets[i % targets.length] as string);
        for (const path of targets) await send(s, path);
        s.memory.bytesRead = 0;
      }
      const cpu = sides.map(() => 0);
      const perBlock = Math.ceil(options.requests / options.blocks);
      for (let sent = 0; sent < options.requests; sent += perBlock) {
        // Alternating blocks, each side first in turn.
        const order = (sent / perBlock) % 2 === 0 ? sides.keys() : [...sides.keys()].reverse();
        for (const i of order) {
          const start = process.cpuUsage();
          for (const path of targets.slice(sent, sent + perBlock)) await send(sides[i] as Side, path);
          const used = process.cpuUsage(start);
          cpu[i] = (cpu[i] ?? 0) + used.user + used.system;
        }
      }
      measured.set(name, {
        ms: cpu.map((c) => c / 1000 / options.requests),
        bytes: sides.map((s) => s.memory.bytesRead / options.requests),
      });
    }
    const names = sides.map((s) => s.name);
    const text =
      `${subjects.length.toLocaleString("en")} subjects, ${options.requests} requests of each kind after ${options.warm} to warm up\n\n` +
      table(
        ["request", ...names.map((n) => `${n}: handler CPU a request:`), ...names.map((n) => `${n}: bytes read a request:`)],
        [...measured].map(([name, m]) => [
          name,
          ...m.ms.map((ms) => `${fmt(ms, 3)} ms`),
          ...m.bytes.map((b) => Math.round(b).toLocaleString("en")),
        ]),
      );
    return { text, rows: lookupRows(label(subjects.length), measured, options.before !== undefined) };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

function lookupRows(set: string, measured: Map<string, { ms: number[]; bytes: number[] }>, before: boolean): MeasuredRow[] {
  const after = before ? 1 : 0;
  const column = (names: readonly string[], side: number, of: "ms" | "bytes"): string =>
    names
      .map((name) =>
        of === "ms" ? fmt(measured.get(name)?.ms[side] ?? NaN, 3) : Math.round(measured.get(name)?.bytes[side] ?? NaN).toLocaleString("en"),
      )
      .join(" / ");
  const figure = (names: readonly string[], bytes = false): string =>
    `**${column(names, after, "ms")} ms** handler CPU` +
    (bytes ? `, **${column(names, after, "bytes")} bytes** read` : "") +
    (before ? ` (before, same run: ${column(names, 0, "ms")} ms${bytes ? `, ${column(names, 0, "bytes")} bytes` : ""})` : "");
  return [
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
  ];
}
