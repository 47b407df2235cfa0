/** How much history the feed keeps: always a run of consecutive sequences ending at the newest, which a state must be. */
import { describe, expect, it } from "vitest";
import type { FeedEntry } from "../../src/feed/feed-format.ts";
import { keptEntries, parseKeep } from "../../src/feed/keep-changes.ts";

const day = (n: number): string => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString();
const history = (days: number[]): FeedEntry[] =>
  days.map((d, i) => ({
    sequence: i + 1,
    published: day(d),
    from_version: i === 0 ? null : String(i).repeat(64).slice(0, 64),
    to_version: String(i + 1)
      .repeat(64)
      .slice(0, 64),
    upserts: 1,
    deletes: 0,
  }));

describe("keptEntries", () => {
  it.each<[string, number[], ReturnType<typeof parseKeep>, number[]]>([
    ["the last 2 of 4 -> sequences 3, 4", [0, 1, 2, 3], { count: 2 }, [3, 4]],
    ["10 days of dates 0, 5, 20, 25 -> sequences 3, 4", [0, 5, 20, 25], { days: 10 }, [3, 4]],
    [
      "10 days where a date went back in the middle (0, 22, 5, 25): the tail stops at the old date -> sequence 4",
      [0, 22, 5, 25],
      { days: 10 },
      [4],
    ],
    ["10 days where the newest went back (20, 25, 3): later dates are within its span -> all", [20, 25, 3], { days: 10 }, [1, 2, 3]],
  ])("%s", (_name, days, keep, sequences) => {
    expect(keptEntries(history(days), keep as NonNullable<typeof keep>).map((e) => e.sequence)).toEqual(sequences);
  });
});
