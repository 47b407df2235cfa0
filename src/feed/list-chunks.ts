/**
 * The list's chunks as the feed's diff needs them: which byte ranges of the two versions can differ.
 * The list is the chunk files joined (chunk c: the records at positions [c*CHUNK_SIZE, (c+1)*CHUNK_SIZE),
 * one a line, in id order), and the build knows each chunk's content hash. Where chunk i of the old
 * list and chunk i of the new one have the same hash they hold the same bytes, so the same ids: every
 * record before it, in either list, has a smaller id, every one after it a larger id. The merge of
 * the two lists by id (diff-snapshots.ts) passes over that chunk line by line, and what it yields
 * before the chunk depends only on the records before it. So the diff of the whole lists is the
 * diffs of the gaps between index-identical chunks, in order: an edit of one record reads one
 * chunk of each version (some 290 KB) instead of both snapshots whole (572 MB at a million).
 *
 * The old list's chunks come from a small note the feed stage keeps of the list it published (its
 * version, each chunk's hash and byte length), beside the build cache as the downloads keep their
 * chunk indexes. The note is an optimisation: none, one that cannot be read or written, or one of
 * another list, and the diff reads both snapshots whole.
 */
import { stat } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { readCacheNote, saveCacheNote } from "../common/cache-note.ts";
import { removeLeftovers } from "../common/remove-leftovers.ts";

/** What the build hands the feed of the new list's chunks: their hashes in order, each one's file, and where the note goes. */
export interface ListChunks {
  readonly hashes: readonly string[];
  /** The file of chunk `chunk`: its bytes are the list's at that chunk. */
  path(chunk: number): string;
  /** The note's file (beside the build cache). */
  readonly noteFile: string;
}

/** A chunk of a published list: its content hash and its length in bytes. */
export type NoteChunk = readonly [hash: string, bytes: number];

/** The note of a published list: its version (the SHA-256 of its bytes) and its chunks in order. */
export interface ListNote {
  readonly version: string;
  readonly chunks: readonly NoteChunk[];
}

/** A run of chunks that may differ: old chunks [oldFrom, oldTo) against new chunks [newFrom, newTo). */
export interface ChunkGap {
  readonly oldFrom: number;
  readonly oldTo: number;
  readonly newFrom: number;
  readonly newTo: number;
}

/** Which way each diff was found (for the tests, read as patch-search.ts's searchPaths): from the chunks, or the snapshots whole and why. */
export const diffPaths = { chunked: 0, whole: 0, reason: "" };

/**
 * The gaps between the chunks with the same hash at the same index in `old` and `now`, in order:
 * between two such indices the same range of both; after the last, the rest of each (the lists'
 * chunk counts may differ). Empty gaps are left out.
 */
export function chunkGaps(old: readonly string[], now: readonly string[]): ChunkGap[] {
  const gaps: ChunkGap[] = [];
  let from = 0;
  const shared = Math.min(old.length, now.length);
  for (let i = 0; i < shared; i++) {
    if (old[i] !== now[i]) continue;
    if (from < i) gaps.push({ oldFrom: from, oldTo: i, newFrom: from, newTo: i });
    from = i + 1;
  }
  if (from < old.length || from < now.length) gaps.push({ oldFrom: from, oldTo: old.length, newFrom: from, newTo: now.length });
  return gaps;
}

/** Each chunk file's length in bytes, in order. */
export async function chunkLengths(chunks: ListChunks): Promise<number[]> {
  return Promise.all(chunks.hashes.map(async (_, chunk) => (await stat(chunks.path(chunk))).size));
}

/** The byte offset of each chunk's start, and the end of the last: `lengths.length + 1` numbers. */
export function offsetsOf(lengths: readonly number[]): number[] {
  const offsets = [0];
  for (const length of lengths) offsets.push((offsets.at(-1) as number) + length);
  return offsets;
}

/**
 * The note in `file` when it describes the list of `version` whose snapshot is `bytes` long; else
 * null with the reason (none, unreadable, another list, lengths that do not add up).
 */
export async function readNote(file: string, version: string, bytes: number): Promise<ListNote | string> {
  // A temporary of the note that a killed build left (a stopped one removes its own).
  await removeLeftovers(dirname(file), (name) => name.startsWith(`${basename(file)}.`));
  const read = await readCacheNote(file);
  if ("none" in read) return read.none === "no JSON" ? "the note is no JSON" : "no note";
  const { json } = read;
  if (!isNote(json)) return "the note is not one";
  if (json.version !== version) return "the note is of another list";
  if (json.chunks.reduce((sum, [, length]) => sum + length, 0) !== bytes) return "the note's lengths are not the snapshot's size";
  return json;
}

/** Writes the note under a temporary name renamed into place; a directory that cannot be written keeps none. */
export async function saveNote(file: string, note: ListNote): Promise<void> {
  await saveCacheNote(file, note);
}

function isNote(value: unknown): value is ListNote {
  if (typeof value !== "object" || value === null) return false;
  const { version, chunks } = value as Record<string, unknown>;
  return (
    typeof version === "string" &&
    /^[0-9a-f]{64}$/.test(version) &&
    Array.isArray(chunks) &&
    chunks.every(
      (c) => Array.isArray(c) && c.length === 2 && typeof c[0] === "string" && Number.isSafeInteger(c[1]) && (c[1] as number) > 0,
    )
  );
}
