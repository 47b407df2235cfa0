/**
 * `bench search-stage`: the search stage alone, without the build around it: `planSearch` of the
 * compiled lib/ of this checkout and of each `--before`, in turn, over a built site's chunk files
 * (`--site`, or the set of `--size` built once by this checkout) into an empty spill directory. Each
 * run is a node process of its own under GNU time, so its peak RSS is the stage's (and Node's); the
 * stage's wall and CPU are read around the call. Each run's shards (key and hash) are compared with
 * this checkout's first run's; `--hashes <file>` writes those, to compare two runs' bytes (`diff`).
 */
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { compiledSides } from "./checkout.ts";
import type { StageOptions } from "./read-stage.ts";
import { BENCH, dataset, dropNote, fmt, inTurn, label, log, medians, measureNode, type Report, startFresh, table } from "./parts.ts";

export type SearchStageOptions = StageOptions & { site?: string; hashes?: string };

/** The stage in a process (argv: the lib's file URL, the site, the spill directory), printing one JSON line. */
const STAGE = `import { readFileSync } from "node:fs";
import { join } from "node:path";
const [lib, site, spill] = process.argv.slice(1);
const { planSearch } = await import(lib + "/site/search/plan-search.js");
const { chunkPath, CHUNK_SIZE } = await import(lib + "/core/layout.js");
const manifest = JSON.parse(readFileSync(join(site, "_subjekti/manifest.json"), "utf8"));
const [count, cpu, started] = [manifest.count ?? manifest.total, process.cpuUsage(), performance.now()];
const shards = planSearch(count, CHUNK_SIZE, (chunk) => ({ path: join(site, chunkPath(manifest, chunk)) }), spill);
const [used, wall] = [process.cpuUsage(cpu), (performance.now() - started) / 1000];
const hashes = shards.map((shard) => shard.key + " " + shard.hash);
console.log(JSON.stringify({ count, wall, user: used.user / 1e6, system: used.system / 1e6, hashes }));`;

type Stage = { count: number; wall: number; user: number; system: number; cpu: number; peakMb: number; faults: number; hashes: string[] };

const cells = (r: Stage): string[] =>
  [r.wall, r.user, r.system, r.cpu].map((s) => `${fmt(s, 2)} s`).concat(`${fmt(r.peakMb, 0)} MB`, fmt(r.faults, 0));
// Minor page faults (the process's, GNU time's %R): nearly the same run to run, so an A/B measure while the machine is loaded.
const HEADER = ["stage wall:", "stage user:", "stage sys:", "process CPU:", "peak RSS:", "minor faults:"];

export async function run(options: SearchStageOptions): Promise<Report> {
  const sides = await compiledSides(options.before);
  const scratch = options.scratch ?? join(BENCH, `search-stage-${process.pid}`);
  const spill = join(scratch, "spill");
  const site = options.site ?? join(scratch, "site");
  const runs = sides.map(() => [] as Stage[]);
  const lines: string[][] = [];
  let differ = 0;
  let dropped = options.dropCaches;
  try {
    if (options.site === undefined) {
      const data = await dataset(options.size, options.seed);
      log(`building ${data} into ${site}…`);
      await measureNode([join(sides[0]?.dir ?? "", "bin/subjekti.js"), "build", "--data", data, "--out", site, "--no-cache", "--quiet"]);
    }
    for (let round = 0; round < options.rounds; round++) {
      for (const side of inTurn(sides, round)) {
        await rm(spill, { recursive: true, force: true });
        dropped = startFresh(options.dropCaches) && dropped;
        const measured = await measureNode(["--input-type=module", "-e", STAGE, pathToFileURL(join(side.dir, "lib")).href, site, spill]);
        const r: Stage = {
          ...(JSON.parse(measured.stdout) as Stage),
          cpu: measured.cpuSeconds,
          peakMb: measured.rssMb,
          faults: measured.minorFaults,
        };
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
  const self = runs[0]?.[0] as Stage;
  if (options.hashes !== undefined) await writeFile(options.hashes, self.hashes.map((line) => `${line}\n`).join(""));
  const med = runs.map((r) => medians(r));
  const size = label(self.count);
  const drop = dropNote(options.dropCaches, dropped);
  const medianLines = med.map((m, i) => [sides[i]?.name ?? "", ...cells(m)]);
  const text =
    `${size} subjects (${options.site ?? `seed ${options.seed}, built by ${sides[0]?.name}`}), in turn, rounds: ${options.rounds}${drop}\n\n` +
    `${table(["round", "checkout", ...HEADER, "shards:", "against this checkout's first run"], lines)}\n\n` +
    `Medians:\n\n${table(["checkout", ...HEADER], medianLines)}`;
  const figure = (m: Stage): string =>
    `${fmt(m.user, 2)} s user CPU, ${fmt(m.wall, 2)} s wall, ${fmt(m.peakMb, 0)} MB peak, ${fmt(m.faults, 0)} minor faults`;
  const against = med.slice(1).map((m, i) => `; ${sides[i + 1]?.name}: ${figure(m)}`);
  const same = sides.length === 1 ? "" : differ === 0 ? ", every shard's hash the same" : `, **${differ} shard hashes differ**`;
  const what = `${size}, the search stage alone (planSearch over a built site's chunk files, a process a run), medians of ${options.rounds}${drop}`;
  const figures = `**${figure(med[0] as Stage)}**${against.join("")}${same}`;
  return { text, rows: [{ key: `search-stage-${size.toLowerCase()}`, table: "Builds", what, figure: figures }] };
}
