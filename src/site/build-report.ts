/** What a build tells the maintainer: a progress bar on a terminal, and always a one-line summary. */
import type { BuildOptions } from "./build-options.ts";
import type { BuildReport, ProgressListener } from "./build-site.ts";

/** A stream the bar can draw on: a TTY or not. */
interface Output {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

/** Builds shorter than this never show a bar, so quick rebuilds stay quiet. */
const BAR_DELAY_MS = 1000;
const REDRAW_MS = 100;
const WIDTH = 30;

export interface ProgressBar {
  readonly update: ProgressListener;
  done(): void;
}

/** A bar on `out` when it is a terminal (files done of total, rate, time left); nothing otherwise. */
export function progressBar(out: Output, now: () => number = Date.now): ProgressBar | undefined {
  if (out.isTTY !== true) return undefined;
  const started = now();
  // The rate counts from the first file settled: reading and validating come before any file.
  let first: { at: number; done: number } | undefined;
  let drawn = 0;
  let shown = false;
  return {
    update(done, total) {
      const t = now();
      first ??= { at: t, done };
      if (t - started < BAR_DELAY_MS || (t - drawn < REDRAW_MS && done < total)) return;
      drawn = t;
      shown = true;
      const rate = t > first.at ? (done - first.done) / ((t - first.at) / 1000) : 0;
      const left = rate > 0 ? (total - done) / rate : 0;
      const filled = total > 0 ? Math.round((WIDTH * done) / total) : WIDTH;
      out.write(
        `\r[${"#".repeat(filled)}${".".repeat(WIDTH - filled)}] ${done}/${total} files  ${Math.round(rate)}/s  ${left.toFixed(0)}s left `,
      );
    },
    done() {
      if (shown) out.write("\r\x1b[2K");
    },
  };
}

/** `12345 bytes` as a person reads it. */
export function formatBytes(bytes: number): string {
  const units = ["B", "KB", "MB", "GB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

/** The one-line summary every build prints. */
export function summarise(report: BuildReport, options: Pick<BuildOptions, "outDir">): string {
  return (
    `built ${report.count} subjects${report.reused > 0 ? ` (${report.reused} unchanged, from the build cache)` : ""} into ${options.outDir}/: ${report.files} files, ` +
    `${report.written} written (${formatBytes(report.bytesWritten)}), ${report.unchanged} unchanged, ` +
    `${report.removed} removed (${formatBytes(report.bytesRemoved)}) in ${report.seconds.toFixed(2)}s`
  );
}

/** Prints the summary line. */
export function printBuildReport(report: BuildReport, options: Pick<BuildOptions, "outDir">, out: Output): void {
  out.write(`${summarise(report, options)}\n`);
}
