/**
 * `bench feed`: the change feed's cost and a mirror's catch-up at one size (default 1M). A full
 * build makes the feed's first state; one record is renamed and the site rebuilt, alternately with
 * the feed and with `--no-feed`, `--repeat` times each; then `subjekti sync` takes the snapshot,
 * the site is rebuilt after one more rename, and `sync` applies that one diff.
 */
import type { ChildProcess } from "node:child_process";
import { mkdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { generateFile } from "../generate-subjects.ts";
import { BENCH, CLI, fmt, label, log, type Measured, measureNode, type Report, startServer, stopServer, table } from "./parts.ts";

export type FeedOptions = { size: number; repeat: number };

/** The builds and the syncs, in turn. */
export async function run(options: FeedOptions): Promise<Report> {
  const work = join(BENCH, `feed-${process.pid}`);
  const out = join(work, "site");
  const measured: [string, Measured, number | undefined][] = [];
  const note = (what: string, m: Measured, diff?: number): void => {
    measured.push([what, m, diff]);
    log(`${what}: ${fmt(m.seconds, 2)} s, ${fmt(m.rssMb, 0)} MB`);
  };
  /** The data directory with record `edit` renamed (a fresh name each time), written whole. */
  const data = async (edit?: number): Promise<string> => {
    await mkdir(join(work, "data"), { recursive: true });
    const file = join(work, "data", "subjekti.json");
    await generateFile({ count: options.size, seed: "feed", format: "json", ...(edit === undefined ? {} : { edit }) }, `${file}.tmp`);
    await rename(`${file}.tmp`, file);
    return join(work, "data");
  };
  const build = (dir: string, extra: string[] = []): Promise<Measured> =>
    measureNode([...CLI, "build", "--data", dir, "--out", out, "--cache-dir", join(work, "cache"), "--quiet", "--json", ...extra]);
  const diffBytes = (m: Measured): number => (JSON.parse(m.stdout) as { feed: { diffBytes: number } | null }).feed?.diffBytes ?? 0;
  let preview: ChildProcess | undefined;
  try {
    note("full build, the feed's first state", await build(await data()));
    // Alternating, so a noisy machine weighs on both alike. The edits move along the list.
    for (let i = 0; i < options.repeat; i++) {
      for (const feed of [true, false]) {
        const m = await build(await data(Math.floor(options.size / 2) + i * 2 + (feed ? 0 : 1)), feed ? [] : ["--no-feed"]);
        note(`one record renamed, ${feed ? "with the feed" : "--no-feed"}`, m, feed ? diffBytes(m) : undefined);
      }
    }
    // A mirror: the snapshot, then one diff.
    const started = await startServer([...CLI, "preview", "--dir", out, "--port", "0"], /http:\/\/[\d.]+:\d+/);
    preview = started.child;
    const url = started.match[0];
    const mirror = join(work, "mirror.ndjson");
    note("sync, first run (the snapshot)", await measureNode([...CLI, "sync", url, mirror]));
    const m = await build(await data(3));
    note("one more record renamed, with the feed", m, diffBytes(m));
    note("sync, one diff applied and verified", await measureNode([...CLI, "sync", url, mirror]));
  } finally {
    if (preview !== undefined) await stopServer(preview);
    await rm(work, { recursive: true, force: true });
  }
  const figures = (prefix: string): string =>
    `**${measured
      .filter(([what]) => what.startsWith(prefix))
      .map(([, m]) => `${fmt(m.seconds, 2)} s (${fmt(m.rssMb, 0)} MB)`)
      .join(", ")}**`;
  const set = label(options.size);
  return {
    text: `${options.size} subjects\n\n${table(
      ["command", "wall:", "peak RSS:", "diff:"],
      measured.map(([what, m, diff]) => [what, `${fmt(m.seconds, 2)} s`, `${fmt(m.rssMb, 0)} MB`, diff === undefined ? "" : `${diff} B`]),
    )}`,
    rows: [
      ["full", "full build with the change feed (its first state)", figures("full build")],
      ["one-renamed", "one record renamed, with the feed / `--no-feed`", `${figures("one record renamed, with")} / ${figures("one record renamed, --no-feed")}, alternating`], // prettier-ignore
      ["sync", "`subjekti sync` applying one diff", `${figures("sync, one diff")} (first run, the snapshot: ${figures("sync, first run").replace(/\*/g, "")})`], // prettier-ignore
    ].map(([suffix, what, figure]) => ({
      key: `feed-${set.toLowerCase()}-${suffix}`,
      table: "Builds",
      what: `${set}, ${what}`,
      figure: figure as string,
    })),
  };
}
