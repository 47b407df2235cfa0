/**
 * `bench search-stage`: the search stage alone, without the build around it: `planSearch` of a
 * checkout's compiled lib/ over a built site's chunk files (its manifest names them) into an empty
 * spill directory, for this checkout compiled and each `--before` in turn, `--rounds` rounds. Each
 * run is a node process of its own (so its peak RSS is the stage's alone, Node's ~40 MB with it),
 * under GNU time; the stage's wall and CPU are its own, read around the call. Each run's shards
 * (key and hash) are compared with this checkout's first run's: the same bytes, or how many differ;
 * `--hashes <file>` writes this checkout's, a line a shard, to compare two runs (`diff`). The site
 * is `--site`, or the generated set of `--size` built once by this checkout into the scratch.
 */
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { compiledSides } from "./checkout.ts";
import type { StageOptions } from "./read-stage.ts";
import { BENCH, dataset, fmt, inTurn, label, log, medians, measureNode, type Report, startFresh, table } from "./parts.ts";

export type SearchStageOptions = StageOptions & { site?: string; hashes?: string };

/** The stage in a process: argv the lib's file URL, the site and the spill directory; prints one JSON line. */
const STAGE = `
import { readFileSync } from "node:fs";
import { join } from "node:path";
const [lib, site, spill] = process.argv.slice(1);
const { planSearch } = await import(lib + "/site/search/plan-search.js");
const { chunkPath, CHUNK_SIZE } = await import(lib + "/core/layout.js");
const manifest = JSON.parse(readFileSync(join(site, "_subjekti/manifest.json"), "utf8"));
const count = manifest.count ?? manifest.total;
if (typeof count !== "number") throw new Error("the manifest names no count");
const [cpu, started] = [process.cpuUsage(), performance.now()];
const shards = planSearch(count, CHUNK_SIZE, (chunk) => ({ path: join(site, chunkPath(manifest, chunk)) }), spill);
const used = process.cpuUsage(cpu);
const wall = (performance.now() - started) / 1000;
const hashes = shards.map((shard) => shard.key + " " + shard.hash);
console.log(JSON.stringify({ count, wall, user: used.user / 1e6, system: used.system / 1e6, hashes }));
`;

type Stage = { count: number; wall: number; user: number; system: number; cpu: number; peakMb: number; hashes: string[] };

const cells = (r: Stage): string[] => [r.wall, r.user, r.system, r.cpu].map((s) => `${fmt(s, 2)} s`).concat(`${fmt(r.peakMb, 0)} MB`);
const HEADER = ["stage wall:", "stage user:", "stage sys:", "process CPU:", "peak RSS:"];

export async function run(options: SearchStageOptions): Promise<Report> {
  const sides = await compiledSides(options.before);
  const scratch = options.scratch ?? join(BENCH, `search-stage-${process.pid}`);
  await rm(scratch, { recursive: true, force: true });
  const runs = sides.map(() => [] as Stage[]);
  const lines: string[][] = [];
  let differ = 0;
  try {
    let site = options.site;
    if (site === undefined) {
      const data = await dataset(options.size, options.seed);
      site = join(scratch, "site");
      log(`building ${data} into ${site}…`);
      await measureNode([join(sides[0]?.dir ?? "", "bin/subjekti.js"), "build", "--data", data, "--out", site, "--no-cache", "--quiet"]);
    }
    for (let round = 0; round < options.rounds; round++) {
      for (const side of inTurn(sides, round)) {
        const spill = join(scratch, "spill");
        await rm(spill, { recursive: true, force: true });
        startFresh(options.dropCaches);
        const measured = await measureNode(["--input-type=module", "-e", STAGE, pathToFileURL(join(side.dir, "lib")).href, site, spill]);
        const r: Stage = { ...(JSON.parse(measured.stdout) as Stage), cpu: measured.cpuSeconds, peakMb: measured.rssMb };
        runs[sides.indexOf(side)]?.push(r);
        const first = runs[0]?.[0]?.hashes ?? r.hashes;
        const other = r.hashes.filter((hash, i) => hash !== first[i]).length + Math.abs(r.hashes.length - first.length);
        differ += other;
        lines.push([String(round + 1), side.name, ...cells(r), String(r.hashes.length), other === 0 ? "the same" : `**${other} differ**`]);
        log(`round ${round + 1}, ${side.name}: ${cells(r).join(", ")}`);
      }
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  const [self] = runs[0] as [Stage];
  if (options.hashes !== undefined) await writeFile(options.hashes, self.hashes.map((line) => `${line}\n`).join(""));
  const med = runs.map((r) => medians(r));
  const size = label(self.count);
  const dropped = options.dropCaches ? ", the page cache dropped before each" : "";
  const text =
    `${size} subjects (${options.site ?? `seed ${options.seed}, built by ${sides[0]?.name}`}), each checkout in turn, rounds: ${options.rounds}${dropped}\n\n` +
    `${table(["round", "checkout", ...HEADER, "shards:", "against this checkout's first run"], lines)}\n\nMedians:\n\n` +
    table(
      ["checkout", ...HEADER],
      med.map((m, i) => [sides[i]?.name ?? "", ...cells(m)]),
    );
  const figure = (m: Stage): string => `${fmt(m.user, 2)} s user CPU, ${fmt(m.wall, 2)} s wall, ${fmt(m.peakMb, 0)} MB peak`;
  const against = med.slice(1).map((m, i) => `; ${sides[i + 1]?.name}: ${figure(m)}`);
  const same = sides.length === 1 ? "" : differ === 0 ? ", every shard's hash the same" : `, **${differ} shard hashes differ**`;
  const what = `${size}, the search stage alone (planSearch over a built site's chunk files, a process a run), medians of ${options.rounds}${dropped}`;
  const key = `search-stage-${size.toLowerCase()}`;
  return { text, rows: [{ key, table: "Builds", what, figure: `**${figure(med[0] as Stage)}**${against.join("")}${same}` }] };
}
