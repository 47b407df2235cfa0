/**
 * The change feed's files and their shapes: what the build writes beside a site and what a mirror
 * (`subjekti sync`) reads. Plain static files under `changes/`, so any file host serves them:
 *
 *   changes/state.json                 the root: the current sequence and version, the snapshot, the history kept
 *   changes/<sequence>.json            one immutable diff per sequence, keyed by id
 *   changes/snapshots/<version>.ndjson the whole list at a version (content-named, immutable)
 *   changes/feed.atom                  the same sequences for people who follow changes in a reader
 *
 * A diff names the version it applies to (`from_version`) and the one it makes (`to_version`), so a
 * client notices a missed or foreign diff. The build writes the diff, then the snapshot, then the
 * state, each under a temporary name renamed into place: a reader never sees a state that points
 * at a missing file.
 */

export const FEED_DIR = "changes";
export const STATE_PATH = `${FEED_DIR}/state.json`;
export const ATOM_PATH = `${FEED_DIR}/feed.atom`;
/** The feed format this code reads and writes. */
export const FEED_FORMAT = 1;

/** A diff's file, relative to the state file. */
export function diffName(sequence: number): string {
  return `${sequence}.json`;
}

/** A snapshot's file, relative to the state file. */
export function snapshotName(version: string): string {
  return `snapshots/${version}.ndjson`;
}

/** One sequence as the state remembers it (enough for the Atom feed and for pruning). */
export interface FeedEntry {
  readonly sequence: number;
  readonly published: string;
  readonly from_version: string | null;
  readonly to_version: string;
  readonly upserts: number;
  readonly deletes: number;
}

export interface FeedState {
  readonly format: number;
  /** The sequence of the current version: +1 for every build whose data changed. */
  readonly sequence: number;
  /** The SHA-256 (hex) of the snapshot: the canonical NDJSON of the whole list. */
  readonly version: string;
  /** When the data of this version was made (ISO 8601, from the data, never the clock). */
  readonly published: string;
  /** Subjects at this version. */
  readonly count: number;
  /** The oldest sequence whose diff is still kept (a mirror at oldest - 1 or later can catch up). */
  readonly oldest: number;
  /** The snapshot: its path relative to this file, hash and size. */
  readonly snapshot: { readonly url: string; readonly sha256: string; readonly bytes: number };
  /** The sequences kept, oldest first. */
  readonly history: readonly FeedEntry[];
}

/** One change of a diff: a record added or changed (`upsert`, with the record), or removed. */
export type FeedChange =
  | { readonly op: "upsert"; readonly id: number; readonly record: unknown }
  | { readonly op: "delete"; readonly id: number };

export interface FeedDiff {
  readonly sequence: number;
  readonly from_version: string | null;
  readonly to_version: string;
  readonly published: string;
  readonly changes: readonly FeedChange[];
}

const HEX64 = /^[0-9a-f]{64}$/;

/** The state in `text`, or why it is not one this code can follow. */
export function parseState(text: string): FeedState | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return "not JSON";
  }
  if (typeof value !== "object" || value === null) return "not a JSON object";
  const s = value as Record<string, unknown>;
  if (s["format"] !== FEED_FORMAT) return `feed format ${String(s["format"])}; this is format ${FEED_FORMAT}`;
  const isCount = (x: unknown): boolean => Number.isSafeInteger(x) && (x as number) >= 0;
  if (!isCount(s["sequence"]) || !isCount(s["count"]) || !isCount(s["oldest"])) return "sequence, count or oldest is not a whole number";
  if (typeof s["version"] !== "string" || !HEX64.test(s["version"])) return "version is not a SHA-256";
  if (typeof s["published"] !== "string") return "published is not a date";
  const snapshot = s["snapshot"] as Record<string, unknown> | null;
  if (
    typeof snapshot !== "object" ||
    snapshot === null ||
    typeof snapshot["url"] !== "string" ||
    typeof snapshot["sha256"] !== "string" ||
    !isCount(snapshot["bytes"])
  )
    return "snapshot is not {url, sha256, bytes}";
  if (!Array.isArray(s["history"])) return "history is not a list";
  return value as FeedState;
}

/** The id of a rendered record line (`{"id":123,…`): every record is rendered with its id first. */
export function recordId(line: Uint8Array): number {
  // `{"id":` is 6 bytes; digits follow up to the comma.
  let id = 0;
  let i = 6;
  for (; i < line.length; i++) {
    const c = line[i] as number;
    if (c < 0x30 || c > 0x39) break;
    id = id * 10 + (c - 0x30);
  }
  if (i === 6 || line[0] !== 0x7b || line[i] !== 0x2c)
    throw new Error(`not a rendered record: ${new TextDecoder().decode(line.subarray(0, 40))}`);
  return id;
}
