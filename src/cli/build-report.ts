/** What a build tells the maintainer: a progress bar on a terminal, and always a one-line summary. */
import type { FeedReport } from "../feed/write-feed.ts";
import type { BuildReport } from "../site/build-outcome.ts";
import type { WriteProgress } from "../site/hand-offs.ts";
import { formatProblem } from "../data/problems/problems.ts";
import type { Message, Translator } from "../common/messages/message.ts";
import { ENGLISH } from "../common/messages/translate.ts";

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
  readonly update: WriteProgress;
  done(): void;
}

/** A bar on `out` when it is a terminal (`unit` done of total, rate, time left, in `tr`'s language); nothing otherwise. */
export function progressBar(
  out: Output,
  now: () => number = Date.now,
  unit: "files" | "requests" = "files",
  tr: Translator = ENGLISH,
): ProgressBar | undefined {
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
      const figures = tr.text("progress.bar", { done, total, unit, rate: Math.round(rate), eta: left.toFixed(0) });
      out.write(`\r[${"#".repeat(filled)}${".".repeat(WIDTH - filled)}] ${figures} `);
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

/** What the summary line states. */
type Summarised = Pick<
  BuildReport,
  | "count"
  | "reused"
  | "files"
  | "written"
  | "unchanged"
  | "removed"
  | "bytesWritten"
  | "bytesRemoved"
  | "seconds"
  | "warnings"
  | "kinds"
  | "feed"
>;

/** The one-line summary every build prints. */
export function summarise(report: Summarised, options: { readonly outDir: string }, tr: Translator = ENGLISH): string {
  return tr.text("summary.built", {
    count: report.count,
    reused: report.reused,
    out: options.outDir,
    files: report.files,
    written: report.written,
    writtenBytes: formatBytes(report.bytesWritten),
    unchanged: report.unchanged,
    removed: report.removed,
    removedBytes: formatBytes(report.bytesRemoved),
    seconds: report.seconds,
  });
}

/** What changed in subjects since the last build, as the change feed measured it. */
export function feedLine(feed: FeedReport, tr: Translator = ENGLISH): string {
  if (feed.started) return tr.text("summary.feed-started", { sequence: feed.sequence });
  if (!feed.changed) return tr.text("summary.feed-unchanged", { sequence: feed.sequence });
  return tr.text("summary.feed-changes", {
    added: feed.added,
    removed: feed.deletes,
    changed: feed.upserts - feed.added,
    sequence: feed.sequence,
    diff: formatBytes(feed.diffBytes),
  });
}

/** Prints the summary line, and the change feed's. */
export function printBuildReport(report: Summarised, options: { readonly outDir: string }, out: Output, tr: Translator = ENGLISH): void {
  out.write(`${summarise(report, options, tr)}\n`);
  if (report.feed !== undefined) out.write(`${feedLine(report.feed, tr)}\n`);
}

/**
 * The build's own warnings, not a record's: what the published description lacks, the build cache
 * it could not write, the search thread out of its heap. Printed on stderr, and in `--json`'s `notes`.
 */
export function buildNotes(report: BuildReport): Message[] {
  return [...report.notes, report.cacheWarning, report.searchWarning].filter((note) => note !== undefined);
}

/**
 * The one JSON report of `subjekti build --json`: the counts, the warnings as objects (the fields
 * of a problem line, plus the line itself) with each kind's count, the build's own warnings (their
 * key and English line), the timings, and what changed (site-changes.ts).
 */
export function jsonReport(report: BuildReport, options: { readonly outDir: string; readonly baseUrl: string }): string {
  return `${JSON.stringify(
    {
      out: options.outDir,
      baseUrl: options.baseUrl,
      count: report.count,
      reused: report.reused,
      files: report.files,
      written: report.written,
      unchanged: report.unchanged,
      removed: report.removed,
      bytesWritten: report.bytesWritten,
      bytesRemoved: report.bytesRemoved,
      seconds: report.seconds,
      timings: report.timings,
      // The first few warnings of each kind, as the summary prints them, and every kind's exact count.
      warnings: report.warnings.map((problem) => ({ ...problem, message: formatProblem(problem) })),
      warningKinds: report.kinds.map(({ severity, field, expected, count }) => ({
        severity,
        ...(field === undefined ? {} : { field }),
        expected,
        count,
      })),
      changed: report.changes,
      overLimits: report.overLimits.map((over) => ENGLISH.say(over)),
      notes: buildNotes(report).map((note) => ({ key: note.key, message: ENGLISH.say(note) })),
      downloads: report.downloads,
      feed: report.feed ?? null,
    },
    null,
    2,
  )}\n`;
}
