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

import { type ChangeNames, isChangeNames } from "./change-names.ts";
import { MAX_COUNT, MAX_HISTORY, MAX_SEQUENCE, MAX_SNAPSHOT_BYTES } from "./feed-limits.ts";

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
  /** Of the upserts, the subjects new in this version (the rest changed); absent in entries written before it was kept. */
  readonly added?: number;
  /** The first few subjects added, removed and changed, by name, for people (change-names.ts); the newest entries only. */
  readonly names?: ChangeNames;
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
/** The one form the build writes a date in (`Date.toISOString`): V8's `Date.parse` takes far more (`"(<anything>) Nov 20 2026"`). */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Is `text` a date as the build writes one, and a real one (no February 30)? */
export function isIsoDate(text: unknown): text is string {
  return typeof text === "string" && ISO_DATE.test(text) && new Date(text).toISOString() === text;
}

const isVersion = (x: unknown): x is string => typeof x === "string" && HEX64.test(x);
const isWhole = (x: unknown, min: number, max: number): x is number =>
  Number.isSafeInteger(x) && (x as number) >= min && (x as number) <= max;
const isObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

/** One history entry, made afresh from `value`, or why it is not one. */
function parseEntry(value: unknown, at: number): FeedEntry | string {
  const where = `history[${at}]`;
  if (!isObject(value)) return `${where} is not an object`;
  const { sequence, published, from_version, to_version, upserts, deletes } = value;
  if (!isWhole(sequence, 1, MAX_SEQUENCE)) return `${where}.sequence is not a whole number from 1 to ${MAX_SEQUENCE}`;
  if (!isIsoDate(published)) return `${where}.published is not a date such as 2026-01-31T12:00:00.000Z`;
  if (from_version !== null && !isVersion(from_version)) return `${where}.from_version is neither null nor a SHA-256`;
  if (from_version === null && sequence !== 1) return `${where} has no from_version but is not the first sequence`;
  if (!isVersion(to_version)) return `${where}.to_version is not a SHA-256`;
  // A sequence is added only when the list changed: a diff from a version to itself is no step.
  if (from_version === to_version) return `${where} goes from a version to itself`;
  if (!isWhole(upserts, 0, MAX_COUNT) || !isWhole(deletes, 0, MAX_COUNT)) return `${where}: upserts or deletes is not a count`;
  const { added, names } = value;
  if (added !== undefined && !isWhole(added, 0, upserts)) return `${where}.added is not a count up to its upserts`;
  if (names !== undefined && !isChangeNames(names)) return `${where}.names is not {added, removed, changed}, each a few names`;
  return {
    sequence,
    published,
    from_version,
    to_version,
    upserts,
    deletes,
    ...(added === undefined ? {} : { added }),
    // Made afresh, as every value of a state read from elsewhere.
    ...(names === undefined ? {} : { names: { added: [...names.added], removed: [...names.removed], changed: [...names.changed] } }),
  };
}

/**
 * The state in `text`, validated in every field and made afresh (nothing else of the text is
 * kept), or why it is not one this code can follow: a state read from another site is input, and
 * its values reach the next state, the Atom feed and the file names the build writes.
 */
export function parseState(text: string): FeedState | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return "not JSON";
  }
  if (!isObject(value)) return "not a JSON object";
  const s = value;
  if (s["format"] !== FEED_FORMAT) return `feed format ${JSON.stringify(s["format"])?.slice(0, 20)}; this is format ${FEED_FORMAT}`;
  const { sequence, count, oldest, version, published, snapshot, history } = s;
  if (!isWhole(sequence, 1, MAX_SEQUENCE)) return `sequence is not a whole number from 1 to ${MAX_SEQUENCE}`;
  if (!isWhole(count, 0, MAX_COUNT)) return "count is not a count";
  if (!isWhole(oldest, 1, sequence + 1)) return `oldest is not a whole number from 1 to the sequence after ${sequence}`;
  if (!isVersion(version)) return "version is not a SHA-256";
  if (!isIsoDate(published)) return "published is not a date such as 2026-01-31T12:00:00.000Z";
  if (!isObject(snapshot) || snapshot["url"] !== snapshotName(version) || snapshot["sha256"] !== version)
    return `snapshot is not {url: "${snapshotName("<version>")}", sha256: the version, bytes}`;
  const bytes = snapshot["bytes"];
  if (!isWhole(bytes, 0, MAX_SNAPSHOT_BYTES)) return `snapshot.bytes is not a size up to ${MAX_SNAPSHOT_BYTES}`;
  if (!Array.isArray(history) || history.length === 0 || history.length > MAX_HISTORY)
    return `history is not a list of 1 to ${MAX_HISTORY} entries`;
  const entries: FeedEntry[] = [];
  for (const [at, item] of history.entries()) {
    const entry = parseEntry(item, at);
    if (typeof entry === "string") return entry;
    const before = entries.at(-1);
    if (before !== undefined && (entry.sequence !== before.sequence + 1 || entry.from_version !== before.to_version))
      return `history[${at}] does not follow the entry before it (sequence ${before.sequence + 1} from version ${before.to_version.slice(0, 16)}…)`;
    entries.push(entry);
  }
  const last = entries.at(-1) as FeedEntry;
  if (last.sequence !== sequence || last.to_version !== version || last.published !== published)
    return "the last history entry is not the state's sequence, version and date";
  const first = entries[0] as FeedEntry;
  if (oldest <= sequence && (oldest < first.sequence || entries[oldest - first.sequence]?.from_version === null))
    return `oldest ${oldest} names a diff the history does not`;
  return {
    format: FEED_FORMAT,
    sequence,
    version,
    published,
    count,
    oldest,
    snapshot: { url: snapshotName(version), sha256: version, bytes },
    history: entries,
  };
}

/** The sequences whose diffs the state names, oldest first (none when `oldest` is past the sequence). */
export function keptDiffs(state: FeedState): readonly FeedEntry[] {
  return state.history.filter((entry) => entry.sequence >= state.oldest);
}

/** A line of a diff or snapshot that is not in the shape the build writes. */
export class FeedShapeError extends Error {}

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
    throw new FeedShapeError(`not a rendered record: ${JSON.stringify(new TextDecoder().decode(line.subarray(0, 40)))}`);
  return id;
}
