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
  // The tail within the span: a history is a run of consecutive sequences, even where the data's
  // dates went back (SOURCE_DATE_EPOCH set by hand), so an entry dated out of the span ends it.
  let start = history.length - 1;
  while (start > 0 && Date.parse((history[start - 1] as FeedEntry).published) >= from) start--;
  return history.slice(start);
}
