/**
 * `bench peers`: our full build against a general static-site generator writing the same
 * pre-rendered pages from the same list. The peer is Eleventy (3.1.2 by default; installed on
 * demand into the tools' cache by scripts/install-cached.sh, never a dependency of the project).
 *
 * What both write, for a list of N subjects: the pages our build pre-renders with its defaults
 * (`--limits 20 --forms plain,api`: the paged list, N/20 pages, in the two link forms, without
 * `format` in their links and with `format=api`), and the record chunks a subject's own answer is
 * read from (N/1,000 files of 1,000 records; our build pre-renders no file a subject). The Eleventy
 * project is as small as Eleventy allows: the set as one global JSON data file (hard-linked), and a
 * JavaScript template a kind of file that paginates over it and returns the page's JSON
 * (`count`, `next`, `previous`, `results`, as DRF's limit-offset pages) or the chunk's lines.
 * The bytes differ (Eleventy writes each record as the generator wrote it; we render it to the
 * API's fields and write the key and search indexes, the downloads and the change feed besides);
 * the number and kind of pages are the same, and checked: a run whose counts differ fails.
 *
 * Ours is measured twice: every default on (what `subjekti build` does), and with
 * `--downloads none --no-feed` (the nearest the CLI comes to the pages and records alone). Each
 * build starts from an empty output (and, for ours, an empty build cache), `sync` before it (and the
 * page cache dropped, with `--drop-caches`: parts.ts startFresh); the
 * three alternate over `--repeat` rounds; CPU is user + system, from GNU time, as the peak RSS.
 */
import { execFileSync } from "node:child_process";
import { link, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { compiledThis } from "./checkout.ts";
import {
  BENCH,
  dataset,
  dropNote,
  fmt,
  label,
  log,
  type Measured,
  measureNode,
  medians,
  type Report,
  ROOT,
  startFresh,
  table,
} from "./parts.ts";

export type PeersOptions = { sizes: number[]; seed: string; eleventy: string; repeat: number; dropCaches: boolean };

/** The page size and the forms our build pre-renders by default (src/site/build-options.ts DEFAULT_OPTIONS). */
const LIMIT = 20;
const FORMS = ["plain", "api"] as const;
/** Records a chunk file (src/core/layout.ts CHUNK_SIZE). */
const CHUNK = 1000;
/** The origin our build writes into links when given none (DEFAULT_BASE_URL). */
const ORIGIN = "http://localhost:8080";

const count = (n: number): string => n.toLocaleString("en");

/** The Eleventy template that writes the list's pages of `form`: `pages/<form>/20/<page>.json`. */
const pageTemplate = (
  form: string,
): string => `// The list's pages, ${LIMIT} subjects each, links ${form === "plain" ? "without format" : `with format=${form}`} (written by scripts/bench/peers.ts).
const LIMIT = ${LIMIT};
const link = (offset) =>
  "${ORIGIN}/api/subjekti/?" + [${form === "plain" ? "" : `"format=${form}", `}"limit=" + LIMIT, ...(offset > 0 ? ["offset=" + offset] : [])].join("&");
export const data = {
  pagination: { data: "subjekti", size: LIMIT },
  permalink: (data) => \`pages/${form}/\${LIMIT}/\${data.pagination.pageNumber}.json\`,
  eleventyExcludeFromCollections: true,
};
export function render({ pagination, subjekti }) {
  const offset = pagination.pageNumber * LIMIT;
  const count = subjekti.length;
  const next = offset + LIMIT < count ? link(offset + LIMIT) : null;
  const previous = offset > 0 ? link(Math.max(0, offset - LIMIT)) : null;
  return JSON.stringify({ count, next, previous, results: pagination.items });
}
`;

/** The Eleventy template that writes the record chunks: `records/<chunk>.ndjson`. */
const chunkTemplate = `// The records, ${CHUNK} a file, a line each (written by scripts/bench/peers.ts).
export const data = {
  pagination: { data: "subjekti", size: ${CHUNK} },
  permalink: (data) => \`records/\${data.pagination.pageNumber}.ndjson\`,
  eleventyExcludeFromCollections: true,
};
export const render = ({ pagination }) => pagination.items.map((record) => JSON.stringify(record)).join("\\n") + "\\n";
`;

/** Only the bench's JavaScript templates are read; nothing else is processed or copied. */
const config = `export const config = { templateFormats: ["11ty.js"], dir: { input: ".", data: "_data" } };
`;

/** Writes the Eleventy project for `data` (the set's directory) into `dir`. */
export async function eleventyProject(dir: string, data: string): Promise<void> {
  await mkdir(join(dir, "_data"), { recursive: true });
  await link(join(data, "subjekti.json"), join(dir, "_data/subjekti.json"));
  await writeFile(join(dir, "eleventy.config.mjs"), config);
  for (const form of FORMS) await writeFile(join(dir, `${form}.11ty.js`), pageTemplate(form));
  await writeFile(join(dir, "records.11ty.js"), chunkTemplate);
}

/** Files under `dir` whose names end in `suffix`. */
async function filesEnding(dir: string, suffix: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile() && e.name.endsWith(suffix) && e.name !== "manifest.json").length;
}

/** What a site holds of the compared kinds: the list pages of each form, and the record chunks. */
async function kinds(site: string, layout: "ours" | "eleventy"): Promise<number[]> {
  const pages = (form: string): string =>
    layout === "ours" ? join(site, "_subjekti/pages", form, String(LIMIT)) : join(site, "pages", form);
  const chunks = layout === "ours" ? join(site, "_subjekti/records") : join(site, "records");
  return [...(await Promise.all(FORMS.map((form) => filesEnding(pages(form), ".json")))), await filesEnding(chunks, ".ndjson")];
}

type Contender = { name: string; run: (out: string, tmp: string) => Promise<Measured>; layout: "ours" | "eleventy" };

export async function run(options: PeersOptions): Promise<Report> {
  const eleventy = execFileSync(join(ROOT, "scripts/install-cached.sh"), ["@11ty/eleventy", options.eleventy, "cmd.cjs"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();
  const cli = compiledThis();
  const tmp = join(BENCH, `peers-${process.pid}`);
  const parts: Report[] = [];
  const failures: string[] = [];
  let dropped = options.dropCaches;
  try {
    for (const size of options.sizes) {
      const data = await dataset(size, options.seed);
      await rm(tmp, { recursive: true, force: true });
      const project = join(tmp, "eleventy");
      await eleventyProject(project, data);
      const ours = (extra: string[]) => (out: string, scratch: string) =>
        measureNode([...cli, "build", "--data", data, "--out", out, "--cache-dir", join(scratch, "cache"), "--quiet", ...extra]);
      const contenders: Contender[] = [
        { name: "subjekti build, every default", run: ours([]), layout: "ours" },
        { name: "subjekti build --downloads none --no-feed", run: ours(["--downloads", "none", "--no-feed"]), layout: "ours" },
        {
          name: `Eleventy ${options.eleventy}`,
          run: (out) => measureNode([eleventy, "--input=.", `--output=${out}`, "--quiet"], project),
          layout: "eleventy",
        },
      ];
      const runs = contenders.map(() => [] as Measured[]);
      const held = contenders.map(() => [] as number[]);
      for (let round = 0; round < options.repeat; round++) {
        const order = round % 2 === 0 ? contenders : [...contenders].reverse();
        for (const one of order) {
          const [out, scratch] = [join(tmp, "out"), join(tmp, "scratch")];
          await Promise.all([rm(out, { recursive: true, force: true }), rm(scratch, { recursive: true, force: true })]);
          await mkdir(scratch, { recursive: true });
          dropped = startFresh(options.dropCaches) && dropped;
          log(`${label(size)}, round ${round + 1}: ${one.name}…`);
          const i = contenders.indexOf(one);
          runs[i]?.push(await one.run(out, scratch));
          held[i] = await kinds(out, one.layout);
          if (one.layout === "eleventy") {
            const page = JSON.parse(await readFile(join(out, "pages/api", String(LIMIT), "1.json"), "utf8")) as {
              count: number;
              results: unknown[];
            };
            if (page.count !== size || page.results.length !== Math.min(LIMIT, size - LIMIT))
              failures.push(`${one.name}: page 1 is not a page of ${LIMIT} of ${size}`);
          }
          await Promise.all([rm(out, { recursive: true, force: true }), rm(scratch, { recursive: true, force: true })]);
        }
      }
      const expected = [...FORMS.map(() => Math.ceil(size / LIMIT)), Math.ceil(size / CHUNK)];
      for (const [i, one] of contenders.entries())
        if (held[i]?.join() !== expected.join())
          failures.push(
            `${label(size)}, ${one.name}: wrote ${held[i]?.join(" / ")} list pages (plain / api) / chunks, not ${expected.join(" / ")}`,
          );
      parts.push(report(size, { ...options, dropped }, contenders, runs, expected));
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  return { text: parts.map((p) => p.text).join("\n\n"), rows: parts.flatMap((p) => p.rows), failures };
}

/** The table and row of one size: each contender's medians, and Eleventy's wall and CPU as multiples of ours. */
function report(
  size: number,
  options: PeersOptions & { dropped: boolean },
  contenders: readonly Contender[],
  runs: readonly Measured[][],
  expected: readonly number[],
): Report {
  const at = runs.map((r): Measured => ({ ...medians(r), rssMb: Math.max(...r.map((m) => m.rssMb)), stdout: "" }));
  const [ours, lean, peer] = at as [Measured, Measured, Measured];
  const times = (a: number, b: number): string => `${fmt(a / b, 2)}×`;
  const set = label(size);
  const rounds = options.repeat > 1 ? `, medians of ${options.repeat} rounds, alternating` : "";
  const text =
    `### ${set}: our build against Eleventy ${options.eleventy}, the same pages\n\n` +
    `Each writes ${count(expected[0] ?? 0)} list pages of ${LIMIT} in each of the two link forms (without \`format\`, with \`format=api\`) and ` +
    `${count(expected[2] ?? 0)} record chunks of ${CHUNK} from one set (generate-subjects --seed ${options.seed}); ours also writes its indexes ` +
    `(and, by default, the downloads and the change feed). Empty output each build, \`sync\` before each${dropNote(options.dropCaches, options.dropped)}; CPU is user + system${rounds}.\n\n` +
    table(
      ["build", "wall:", "CPU:", "peak RSS:", "wall ÷ ours:", "CPU ÷ ours:"],
      contenders.map((one, i) => {
        const m = at[i] as Measured;
        return [
          one.name,
          `${fmt(m.seconds)} s`,
          `${fmt(m.cpuSeconds)} s`,
          `${fmt(m.rssMb, 0)} MB`,
          times(m.seconds, ours.seconds),
          times(m.cpuSeconds, ours.cpuSeconds),
        ];
      }),
    );
  const spent = (m: Measured): string => `${fmt(m.seconds)} s wall, ${fmt(m.cpuSeconds)} s CPU, ${fmt(m.rssMb, 0)} MB`;
  return {
    text,
    rows: [
      {
        key: `peers-${set.toLowerCase()}-eleventy`,
        table: "Other commands",
        what: `${set}, the same pre-rendered pages (${count(2 * (expected[0] ?? 0))} list pages in two link forms, ${count(expected[2] ?? 0)} record chunks): our full build against Eleventy ${options.eleventy}${rounds}`,
        figure:
          `**ours ${spent(ours)}** (pages and records alone, \`--downloads none --no-feed\`: ${spent(lean)}) against Eleventy ${spent(peer)}: ` +
          `Eleventy takes ${times(peer.seconds, ours.seconds)} our wall, ${times(peer.cpuSeconds, ours.cpuSeconds)} our CPU ` +
          `(${times(peer.seconds, lean.seconds)}, ${times(peer.cpuSeconds, lean.cpuSeconds)} of the lean build's)`,
      },
    ],
  };
}
