/**
 * `bench bad-sources`: a source of millions of bad items validates in bounded memory. A JSON
 * array of `--items` items that are not records is validated in this process as `subjekti
 * validate` does; what the problem collector promises is checked: the exact count of the one
 * kind, at most five problems kept, and this process's peak RSS under `--ceiling-mb`.
 */
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { DataError, forEachItem, orderBlocks, readBlocks, resolveReadOptions } from "./from-src.ts";
import { fmt, type Report, table } from "./parts.ts";

export type BadSourcesOptions = { items: number; ceilingMb: number; threads: string };

/** `[1,1,…,1]`, written in pieces of 10,000. */
async function writeBadArray(path: string, count: number): Promise<void> {
  const out = createWriteStream(path);
  out.write("[");
  for (let written = 0; written < count; written += 10_000) {
    const n = Math.min(10_000, count - written);
    if (!out.write(`${written > 0 ? "," : ""}${"1,".repeat(n - 1)}1`)) await once(out, "drain");
  }
  out.end("]");
  await once(out, "finish");
}

/** The array written, then read, ordered and validated to the end. */
export async function run({ items, ceilingMb, threads }: BadSourcesOptions): Promise<Report> {
  const dir = await mkdtemp(join(tmpdir(), "subjekti-bad-sources-"));
  try {
    await writeBadArray(join(dir, "bad.json"), items);
    const bytes = (await stat(join(dir, "bad.json"))).size;
    const rssBefore = process.resourceUsage().maxRSS / 1024;
    const started = performance.now();
    let error: DataError | undefined;
    try {
      const read = { dataDir: dir, strict: false, threads: threads === "auto" ? ("auto" as const) : Number(threads) };
      const blocks = orderBlocks(() => readBlocks(resolveReadOptions(read)));
      await forEachItem(blocks, () => undefined);
    } catch (e) {
      if (!(e instanceof DataError)) throw e;
      error = e;
    }
    const seconds = (performance.now() - started) / 1000;
    const peakMb = process.resourceUsage().maxRSS / 1024;
    const counted = error?.kinds.reduce((sum, k) => sum + k.count, 0) ?? 0;
    const kept = error?.problems.length ?? 0;
    const failures = [
      ...(counted === items ? [] : [`counted ${counted} problems, expected ${items}`]),
      ...(kept <= 5 ? [] : [`kept ${kept} problems, expected at most 5`]),
      ...(peakMb <= ceilingMb ? [] : [`peak RSS ${fmt(peakMb, 0)} MB is over the ${ceilingMb} MB ceiling`]),
    ];
    const n = (x: number): string => x.toLocaleString("en-US");
    const header = ["items:", "file:", "kinds:", "counted:", "kept:", "time:", "peak RSS (before reading):", "ceiling:"];
    const cells = [
      n(items),
      `${fmt(bytes / 1e6)} MB`,
      error?.kinds.length ?? 0,
      n(counted),
      kept,
      `${fmt(seconds)} s`,
      `${fmt(peakMb, 0)} MB (${fmt(rssBefore, 0)} MB)`,
      `${ceilingMb} MB`,
    ];
    const figure =
      `**${fmt(seconds)} s, ${fmt(peakMb, 0)} MB** peak, ${counted === items ? "counted exactly" : `counted ${n(counted)}`}, ` +
      `${kept} kept (ceiling ${ceilingMb} MB)${failures.length === 0 ? "" : `; **failed**: ${failures.join("; ")}`}`;
    const row = { key: `bad-sources-${items}`, table: "Other commands", what: `${n(items)} bad items validated`, figure };
    return { text: table(header, [cells]), failures, rows: [row] };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
