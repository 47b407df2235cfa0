/**
 * The feed stage of a build: after the site is written, the new list's canonical NDJSON (the
 * rendered records, one a line, in id order: the chunk files joined) is hashed into the dataset's
 * version. When it differs from the previous version, the sequence goes up by one and the build
 * writes, in this order, each under a temporary name renamed into place:
 *   1. the diff from the previous snapshot (a merge of two id-ordered streams: flat memory; only
 *      the chunks that can differ when the note of the previous list allows, chunked-diff.ts);
 *   2. the new snapshot (content-named);
 *   3. the state, then the Atom feed;
 * and only then removes the diffs and snapshots no longer kept, and notes the list's chunks for the
 * next build's diff (list-chunks.ts). A build killed anywhere leaves a state whose files all exist.
 * The same data again changes nothing.
 */
import { existsSync } from "node:fs";
import { copyFile, link, mkdir, readdir, rename, rm, writeFile } from "node:fs/promises";
import { pauseAt } from "../common/pause-point.ts";
import { join } from "node:path";
import {
  ATOM_PATH,
  diffName,
  FEED_DIR,
  FEED_FORMAT,
  type FeedEntry,
  type FeedState,
  keptDiffs,
  snapshotName,
  STATE_PATH,
} from "./feed-format.ts";
import { diffHeader } from "./copy-diff.ts";
import { changesOf, chunkedDiffOf } from "./chunked-diff.ts";
import type { LineChange } from "./diff-snapshots.ts";
import { chunkLengths, type ListChunks, saveNote } from "./list-chunks.ts";
import { atomFeed } from "./atom-feed.ts";
import { type ChangeNames, NameCollector, namedRecent } from "./change-names.ts";
import { type KeepChanges, keptEntries } from "./keep-changes.ts";
import type { PreviousFeed } from "./read-previous.ts";
import { HashedWriter, writeHashed } from "./hashed-writer.ts";
import { removeLeftovers } from "../common/remove-leftovers.ts";
import { isErrno } from "../common/machine-error.ts";

export interface FeedInput {
  /** The site's directory (through a plain site's link). */
  readonly outDir: string;
  /** The canonical NDJSON of the new list, as byte chunks in order (each may be reused once the next is asked for: HashedWriter copies). */
  records(): AsyncIterable<Uint8Array>;
  readonly count: number;
  readonly published: Date;
  readonly previous: PreviousFeed | null;
  readonly keep: KeepChanges;
  /** The public origin, for the Atom feed's links. */
  readonly baseUrl: string;
  /**
   * The list's bytes as the build has them already: their SHA-256 (the version), size, and the
   * content-named NDJSON download holding them, if one was written. The snapshot is then a hard link
   * to that file (the same bytes under a second name, neither copied nor hashed again).
   */
  readonly list?: { readonly sha256: string; readonly bytes: number; readonly file: string | null };
  /**
   * The new list's chunks (their hashes, files, and the note's file beside the build cache), when
   * the build has a cache: the diff then reads only the chunks that can differ from the previous
   * list's, as its note names them, and the list published is noted for the next build.
   */
  readonly chunks?: ListChunks;
}

export interface FeedReport {
  readonly sequence: number;
  readonly version: string;
  /** Did this build add a sequence? */
  readonly changed: boolean;
  /** This build started a new feed (no previous state). */
  readonly started: boolean;
  readonly upserts: number;
  readonly deletes: number;
  /** Of the upserts, the subjects that were not in the previous version (the rest changed). */
  readonly added: number;
  /** The new diff's size in bytes (0 when none was written). */
  readonly diffBytes: number;
}

/**
 * A build with the feed off removes the feed an earlier build left: its state would otherwise go on
 * naming a version the site no longer holds, and a mirror would be told "nothing changed" when the
 * data did. The state goes first, so a reader finds either the old whole feed or no state at all.
 * Returns whether there was one.
 */
export async function removeFeed(outDir: string): Promise<boolean> {
  const dir = join(outDir, FEED_DIR);
  if (!existsSync(join(outDir, STATE_PATH))) {
    await rm(dir, { recursive: true, force: true });
    return false;
  }
  await rm(join(outDir, STATE_PATH), { force: true });
  await rm(dir, { recursive: true, force: true });
  return true;
}

export async function writeFeed(input: FeedInput): Promise<FeedReport> {
  const dir = join(input.outDir, FEED_DIR);
  await mkdir(join(dir, "snapshots"), { recursive: true });
  // What builds killed before left (a half-written snapshot can be hundreds of megabytes).
  await removeLeftovers(dir);
  await removeLeftovers(join(dir, "snapshots"));
  const temp = (name: string): string => join(dir, `${name}.tmp-${process.pid}`);
  const { previous } = input;
  const snapshotTemp = temp("snapshot");
  try {
    const { sha256: version, bytes } = await snapshotOf(input, snapshotTemp);
    if (previous !== null && previous.state.version === version) {
      await rm(snapshotTemp, { force: true });
      // The same data: a feed read from elsewhere is carried over as it was.
      let state = previous.state;
      if (!previous.inPlace) {
        const oldest = await carry(previous, dir);
        state = { ...previous.state, oldest: Math.max(oldest, previous.state.oldest) };
        await writeState(input.outDir, state, input.baseUrl);
      }
      // The same data: only the diffs the state does not name go (the snapshots are the last build's choice).
      await sweepDiffs(dir, state);
      await noteList(input.chunks, version, input.chunks === undefined ? [] : await chunkLengths(input.chunks));
      return { sequence: previous.state.sequence, version, changed: false, started: false, upserts: 0, deletes: 0, added: 0, diffBytes: 0 };
    }
    const sequence = (previous?.state.sequence ?? 0) + 1;
    // A feed read from elsewhere first: its files, and how far back its diffs really reach.
    const carried = previous === null || previous.inPlace ? 0 : await carry(previous, dir);
    const published = input.published.toISOString();
    let entry: FeedEntry = {
      sequence,
      published,
      from_version: previous?.state.version ?? null,
      to_version: version,
      upserts: input.count,
      deletes: 0,
    };
    let diffBytes = 0;
    let added = input.count;
    const lengths = input.chunks === undefined ? [] : await chunkLengths(input.chunks);
    if (previous !== null) {
      // 1. The diff: from the previous snapshot to the new one, of the chunks that can differ when the note allows.
      const sides = { oldSnapshot: previous.snapshot, oldVersion: previous.state.version, newSnapshot: snapshotTemp, newBytes: bytes };
      const chunked = await chunkedDiffOf(input.chunks === undefined ? sides : { ...sides, chunks: { list: input.chunks, lengths } });
      const counts = await writeDiff(
        changesOf(previous.snapshot, snapshotTemp, chunked),
        { sequence, published, from_version: previous.state.version, to_version: version },
        temp(diffName(sequence)),
      );
      diffBytes = counts.bytes;
      entry = { ...entry, upserts: counts.upserts, deletes: counts.deletes, added: counts.added, names: counts.names };
      added = counts.added;
      await rename(temp(diffName(sequence)), join(dir, diffName(sequence)));
      await pauseAt("feed-diff-written");
    }
    // 2. The snapshot.
    await rename(snapshotTemp, join(dir, snapshotName(version)));
    await pauseAt("feed-snapshot-placed");
    const history = namedRecent(keptEntries([...(previous?.state.history ?? []), entry], input.keep));
    // The first sequence has no diff (a mirror starts from the snapshot): it is never "kept".
    const withDiffs = history.filter((e) => e.from_version !== null && e.sequence >= carried);
    const oldest = withDiffs[0]?.sequence ?? sequence + 1;
    const state: FeedState = {
      format: FEED_FORMAT,
      sequence,
      version,
      published,
      count: input.count,
      oldest,
      snapshot: { url: snapshotName(version), sha256: version, bytes },
      history,
    };
    // 3. The state, then the Atom feed.
    await writeState(input.outDir, state, input.baseUrl);
    await pauseAt("feed-state-written");
    await prune(dir, state, previous?.state.version);
    await noteList(input.chunks, version, lengths);
    return {
      sequence,
      version,
      changed: true,
      started: previous === null,
      upserts: entry.upserts,
      deletes: entry.deletes,
      added,
      diffBytes,
    };
  } finally {
    await rm(snapshotTemp, { force: true });
  }
}

/** The new snapshot at `path`: the NDJSON download linked when there is one, else the records written; its SHA-256 and size. */
async function snapshotOf(input: FeedInput, path: string): Promise<{ sha256: string; bytes: number }> {
  const { list } = input;
  if (list?.file === undefined || list.file === null) return writeHashed(input.records(), path);
  try {
    await link(list.file, path);
    return { sha256: list.sha256, bytes: list.bytes };
  } catch (error) {
    // A file system that cannot hard-link here: the bytes are written instead.
    if (!(isErrno(error) && ["EXDEV", "EPERM", "ENOTSUP", "EMLINK", "EOPNOTSUPP"].includes(error.code ?? ""))) throw error;
    return writeHashed(input.records(), path);
  }
}

/** The note of the list just published (version `version`), for the next build's diff; none without a build cache. */
async function noteList(chunks: ListChunks | undefined, version: string, lengths: readonly number[]): Promise<void> {
  if (chunks === undefined) return;
  await saveNote(chunks.noteFile, { version, chunks: chunks.hashes.map((hash, chunk) => [hash, lengths[chunk] as number]) });
}

/** Streams the diff's JSON into `path`: the header's fields, then `changes` (in id order). */
async function writeDiff(
  changes: AsyncIterable<LineChange>,
  head: { sequence: number; published: string; from_version: string; to_version: string },
  path: string,
): Promise<{ upserts: number; deletes: number; added: number; bytes: number; names: ChangeNames }> {
  const out = new HashedWriter(path);
  const encoder = new TextEncoder();
  const write = (text: string): void => out.add(encoder.encode(text));
  const { sequence, from_version, to_version, published } = head;
  write(diffHeader({ sequence, from_version, to_version, published }));
  let upserts = 0;
  let deletes = 0;
  let added = 0;
  // The first few of each kind by name, for the Atom feed's readers.
  const names = new NameCollector();
  try {
    for await (const change of changes) {
      const comma = upserts + deletes === 0 ? "" : ",";
      if (change.op === "delete") {
        deletes++;
        names.add("removed", change.id, change.old);
        write(`${comma}\n{"op":"delete","id":${change.id}}`);
      } else {
        upserts++;
        if (!change.existed) added++;
        names.add(change.existed ? "changed" : "added", change.id, change.line);
        write(`${comma}\n{"op":"upsert","id":${change.id},"record":`);
        out.add(change.line);
        write("}");
      }
      if (out.full) await out.flush();
    }
  } catch (error) {
    await out.destroy();
    throw error;
  }
  write("\n]}\n");
  await out.end();
  return { upserts, deletes, added, bytes: out.bytes, names: names.names };
}

/**
 * Brings a feed read from elsewhere into `dir`: its snapshot and its kept diffs (each validated and
 * written again when it was read), newest first (the state is written after). A diff the source no
 * longer has ends the history there: the sequence after it is the oldest a mirror can follow from,
 * which is returned.
 */
async function carry(previous: PreviousFeed, dir: string): Promise<number> {
  const snapshot = join(dir, snapshotName(previous.state.version));
  await copyFile(previous.snapshot, `${snapshot}.tmp-${process.pid}`);
  await rename(`${snapshot}.tmp-${process.pid}`, snapshot);
  for (const { sequence } of keptDiffs(previous.state).toReversed()) {
    const copy = previous.diff(sequence);
    if (copy === null) return sequence + 1;
    const path = join(dir, diffName(sequence));
    await copyFile(copy, `${path}.tmp-${process.pid}`);
    await rename(`${path}.tmp-${process.pid}`, path);
  }
  return previous.state.oldest;
}

/** The state, then the Atom feed made from it, each renamed into place. */
async function writeState(outDir: string, state: FeedState, baseUrl: string): Promise<void> {
  for (const [path, text] of [
    [STATE_PATH, `${JSON.stringify(state, null, 2)}\n`],
    [ATOM_PATH, atomFeed(state, baseUrl)],
  ] as const) {
    await writeFile(join(outDir, `${path}.tmp-${process.pid}`), text);
    await rename(join(outDir, `${path}.tmp-${process.pid}`), join(outDir, path));
  }
}

/**
 * Removes what the state does not name: every diff but those from `oldest` to the sequence (a
 * previous site's junk, or diffs past a sequence it claimed, go too), and snapshots but the current
 * one and the previous (a mirror that read the previous state a moment ago may still fetch it).
 */
async function prune(dir: string, state: FeedState, previousVersion: string | undefined): Promise<void> {
  await sweepDiffs(dir, state);
  const keep = new Set([`${state.version}.ndjson`, `${previousVersion ?? ""}.ndjson`]);
  for (const name of await readdir(join(dir, "snapshots"))) {
    if (!keep.has(name)) await rm(join(dir, "snapshots", name), { force: true });
  }
}

/** Removes every diff in `dir` that the state does not name (a previous site's junk, or diffs past a sequence it claimed). */
async function sweepDiffs(dir: string, state: FeedState): Promise<void> {
  const named = new Set(keptDiffs(state).map((entry) => diffName(entry.sequence)));
  for (const name of await readdir(dir)) {
    if (/^\d+\.json$/.test(name) && !named.has(name)) await rm(join(dir, name), { force: true });
  }
}
