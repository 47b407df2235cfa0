/**
 * How much history the feed keeps: the last N diffs (`--keep-changes 100`) or the diffs published
 * within a span of the newest one (`--keep-changes 90d`, days of the data's dates, never the clock's).
 */
import type { FeedEntry } from "./feed-format.ts";

export type KeepChanges = { readonly count: number } | { readonly days: number };

export const DEFAULT_KEEP: KeepChanges = { days: 90 };

/** The `--keep-changes` value: `N` diffs or `Nd` days; null when it is neither. */
export function parseKeep(text: string): KeepChanges | null {
  const match = /^(\d{1,6})(d?)$/.exec(text.trim());
  if (match === null || Number(match[1]) === 0) return null;
  return match[2] === "d" ? { days: Number(match[1]) } : { count: Number(match[1]) };
}

/** The entries kept of `history` (oldest first, the newest last and always kept). */
export function keptEntries(history: readonly FeedEntry[], keep: KeepChanges): FeedEntry[] {
  if ("count" in keep) return history.slice(-keep.count);
  const newest = history.at(-1);
  if (newest === undefined) return [];
  const from = Date.parse(newest.published) - keep.days * 86_400_000;
  return history.filter((entry) => Date.parse(entry.published) >= from);
}
