/**
 * How far a change feed read from elsewhere is trusted to reach: what `build --previous` and
 * `subjekti sync` accept of a site before refusing it in one line. A site is input, so every
 * dimension has a bound: the bytes of each file (the state, a diff, the snapshot), how many
 * sequences a state names, how large a sequence may grow, how many diffs one sync applies, and
 * time (an overall deadline, and a floor on the rate once a body has had time to start).
 */

/** The largest state.json read: a history entry is about 300 bytes pretty-printed, so MAX_HISTORY of them and room. */
export const MAX_STATE_BYTES = 64 * 1024 * 1024;
/** The most sequences a state may remember (a build every five minutes for a year is 105,120; the default keeps 90 days). */
export const MAX_HISTORY = 200_000;
/**
 * The largest sequence (2^48): a build a second for eight million years, and far enough below
 * Number.MAX_SAFE_INTEGER (2^53 − 1) that every sequence after it is still exact.
 */
export const MAX_SEQUENCE = 2 ** 48;
/** The largest snapshot a state may name (the list at 10M subjects is about 4 GB); its own stated size is enforced to the byte. */
export const MAX_SNAPSHOT_BYTES = 64 * 1024 ** 3;
/** The most subjects a state or a diff may count. */
export const MAX_COUNT = 2 ** 40;

/** The largest diff read: a diff holds the records it upserts and a short line per change, so twice its list and room. */
export function maxDiffBytes(snapshotBytes: number): number {
  return 2 * snapshotBytes + 64 * 1024 * 1024;
}

export interface FeedLimits {
  /** The whole reading of a site (every request and body), in milliseconds. */
  readonly deadlineMs: number;
  /** A body slower than `minRate` bytes a second on average, once `graceMs` have passed since its headers, is refused (a byte every two seconds held a build 90 s). */
  readonly minRate: number;
  readonly graceMs: number;
  /** The most diffs one sync applies; further behind, the snapshot is taken (each diff rewrites the whole copy). */
  readonly maxSteps: number;
}

export const DEFAULT_LIMITS: FeedLimits = {
  deadlineMs: 30 * 60_000,
  minRate: 16 * 1024,
  graceMs: 15_000,
  maxSteps: 1000,
};
