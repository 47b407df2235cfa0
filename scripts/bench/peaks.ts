/**
 * `bench peaks`: how the full build grows with the list. Each size (1M, 5M, 10M by default) of the
 * seeded generator's set is built once by this checkout compiled, every default on (the pages, the
 * records, the key and search indexes, the downloads, the change feed), into an empty site with an
 * empty build cache, one size after another in one run; each build's peak RSS, CPU (user + system,
 * and the two apart), what it wrote and wall are printed with their ratios to the smallest size's,
 * in one table and one row.
 *
 * The sets are generated once and kept (parts.ts `dataset`: .bench/data/ or $SUBJEKTI_BENCH_DATA,
 * by size, seed and generator), so a second run builds at once.
 */
import { freemem, loadavg } from "node:os";
import { mkdir, rm } from "node:fs/promises";
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
  type Report,
  startFresh,
  table,
  writtenFiles,
} from "./parts.ts";

export type PeaksOptions = { sizes: number[]; seed: string; dropCaches: boolean };

const count = (n: number): string => n.toLocaleString("en");
/** What a build wrote, and the system time it cost a GB (the machine's price: docs/search.md, "What the machine charges a build"). */
const writtenGb = (m: Measured): string => `${fmt(m.writtenMb / 1024, 2)} GB`;
const systemPerGb = (m: Measured): string => `${fmt(m.systemSeconds / (m.writtenMb / 1024), 2)} s`;

export async function run(options: PeaksOptions): Promise<Report> {
  const sizes = [...options.sizes].sort((a, b) => a - b);
  // Generated first, so that no build runs beside the generator.
  const sets = [];
  for (const size of sizes) sets.push(await dataset(size, options.seed));
  const cli = compiledThis();
  const tmp = join(BENCH, `peaks-${process.pid}`);
  const measured: { size: number; run: Measured; load: number; free: number }[] = [];
  let dropped = options.dropCaches;
  try {
    await rm(tmp, { recursive: true, force: true });
    for (const [i, size] of sizes.entries()) {
      // Each size into its own directory, all removed at the end: on ext4 a file made soon after
      // many were deleted costs the kernel more (it passes over the recently freed inodes), so a
      // site removed just before the next build inflated that build's system time.
      const into = join(tmp, label(size));
      await mkdir(into, { recursive: true });
      dropped = startFresh(options.dropCaches) && dropped;
      const load = loadavg()[0] ?? 0;
      const free = freemem() / 2 ** 30;
      log(`${label(size)}: full build, every default on…`);
      const args = ["build", "--data", sets[i] as string, "--out", join(into, "site"), "--cache-dir", join(into, "cache"), "--quiet"];
      measured.push({ size, run: await measureNode([...cli, ...args]), load, free });
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  const [base] = measured as [(typeof measured)[number]];
  const times = (value: number, of: number): string => `${fmt(value / of, 2)}×`;
  const rows = measured.map(({ size, run, load, free }) => [
    label(size),
    `${fmt(run.rssMb, 0)} MB`,
    `${fmt(run.cpuSeconds)} s`,
    `${fmt(run.userSeconds)} s`,
    `${fmt(run.systemSeconds)} s`,
    `${fmt(run.seconds)} s`,
    count(run.minorFaults),
    count(writtenFiles(run.stdout).files),
    writtenGb(run),
    systemPerGb(run),
    times(run.rssMb, base.run.rssMb),
    times(run.cpuSeconds, base.run.cpuSeconds),
    times(run.userSeconds, base.run.userSeconds),
    times(run.systemSeconds, base.run.systemSeconds),
    times(run.minorFaults, base.run.minorFaults),
    times(run.writtenMb, base.run.writtenMb),
    times(run.seconds, base.run.seconds),
    fmt(load),
    `${fmt(free)} GB`,
  ]);
  const of = label(base.size);
  const text =
    `### Full builds of ${sizes.map(label).join(", ")}, every default on\n\n` +
    `\`subjekti build --data <set, generate-subjects --seed ${options.seed}> --out <empty> --cache-dir <empty> --quiet\`, this checkout compiled, ` +
    "one build a size, one after another, each into its own directory (all removed at the end), `sync` before each" +
    dropNote(options.dropCaches, dropped) +
    "; peak RSS, CPU (user + system, and each apart) and minor page faults from GNU time; load: the 1-minute average as each began; free: the memory free as each began. " +
    "The system time is apart because on a virtual machine it holds the host's price for memory the guest touches for the first time " +
    "(each new page of the files written), which need not grow in proportion to the bytes (BENCHMARKS.md, the machine's price for new memory). " +
    "The page faults are each a page of memory the build touched for the first time: what it asked of memory, whatever the machine charged for it. " +
    "Written: what the build gave the file system to write (GNU time's file system outputs: each page it dirtied, the site, the build cache and the scratch files), " +
    "every byte of which the page cache holds as a new page; system a GB: the system time over it, the price the machine asked for each GB, " +
    "which on this virtual machine rises with the memory a build takes that was free for more than a few seconds (BENCHMARKS.md).\n\n" +
    table(
      [
        "set",
        "peak RSS:",
        "CPU:",
        "user:",
        "system:",
        "wall:",
        "page faults:",
        "files:",
        "written:",
        "system a GB:",
        `peak ÷ ${of}:`,
        `CPU ÷ ${of}:`,
        `user ÷ ${of}:`,
        `system ÷ ${of}:`,
        `faults ÷ ${of}:`,
        `written ÷ ${of}:`,
        `wall ÷ ${of}:`,
        "load:",
        "free:",
      ],
      rows,
    );
  const each = (value: (m: Measured) => string): string => measured.map(({ size, run }) => `${label(size)} ${value(run)}`).join(", ");
  const ratios = (value: (m: Measured) => number): string =>
    measured
      .slice(1)
      .map(({ size, run }) => `${label(size)}/${of} ${times(value(run), value(base.run))}`)
      .join(", ");
  const figure =
    `**peak ${each((m) => `${fmt(m.rssMb, 0)} MB`)} (${ratios((m) => m.rssMb)})**; ` +
    `CPU (user+sys) ${each((m) => `${fmt(m.cpuSeconds)} s`)} (${ratios((m) => m.cpuSeconds)}; user ${ratios((m) => m.userSeconds)}, ` +
    `system ${ratios((m) => m.systemSeconds)}); page faults ${ratios((m) => m.minorFaults)}; ` +
    `written ${each(writtenGb)} (${ratios((m) => m.writtenMb)}), system time a GB written ${each(systemPerGb)}; wall ${each((m) => `${fmt(m.seconds)} s`)}`;
  return {
    text,
    rows: [
      {
        key: `peaks-${sizes.map((size) => label(size).toLowerCase()).join("-")}`,
        table: "Builds",
        what:
          `${sizes.map(label).join(" / ")}, full build, every default on, one run (generate-subjects --seed ${options.seed}, compiled` +
          `${dropNote(options.dropCaches, dropped)}): peak RSS, CPU, wall`,
        figure,
      },
    ],
  };
}
