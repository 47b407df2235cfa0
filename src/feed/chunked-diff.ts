/**
 * The changes from the previous snapshot to the new one, found from the chunks that can differ
 * when the note of the previous list allows it (list-chunks.ts), else from both snapshots whole.
 * Either way they are the same changes in the same order: the chunked diff is the merge of
 * diff-snapshots.ts run on each gap's byte ranges (ranged reads of the two snapshots), one gap
 * after another; the whole diff stays as the fallback and as the tests' oracle.
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { LineCursor } from "../common/line-cursor.ts";
import { diffSnapshots, type LineChange } from "./diff-snapshots.ts";
import { type ChunkGap, chunkGaps, diffPaths, type ListChunks, offsetsOf, readNote } from "./list-chunks.ts";

/** Where the gaps lie in the two snapshots: the gaps by chunk index, each snapshot's chunk offsets. */
export interface ChunkedDiff {
  readonly gaps: readonly ChunkGap[];
  readonly oldOffsets: readonly number[];
  readonly newOffsets: readonly number[];
}

/** The two snapshots and the new list as the build has it. */
export interface DiffSides {
  /** The verified previous snapshot and its version. */
  readonly oldSnapshot: string;
  readonly oldVersion: string;
  /** The new snapshot and its size. */
  readonly newSnapshot: string;
  readonly newBytes: number;
  /** The new list's chunks and their lengths, when the build keeps a note (it has a cache directory). */
  readonly chunks?: { readonly list: ListChunks; readonly lengths: readonly number[] };
}

/**
 * How the diff of `sides` can be found from chunks: null (counted in diffPaths with the reason)
 * when there is no note of the previous list, or it does not describe the previous snapshot, or the
 * new chunks are not the new snapshot's size.
 */
export async function chunkedDiffOf(sides: DiffSides): Promise<ChunkedDiff | null> {
  const whole = (reason: string): null => {
    diffPaths.whole++;
    diffPaths.reason = reason;
    return null;
  };
  const { chunks } = sides;
  if (chunks === undefined) return whole("no build cache");
  const newOffsets = offsetsOf(chunks.lengths);
  if (newOffsets.at(-1) !== sides.newBytes) return whole("the chunk files are not the new snapshot's size");
  const note = await readNote(chunks.list.noteFile, sides.oldVersion, (await stat(sides.oldSnapshot)).size);
  if (typeof note === "string") return whole(note);
  diffPaths.chunked++;
  diffPaths.reason = "";
  const gaps = chunkGaps(
    note.chunks.map(([hash]) => hash),
    chunks.list.hashes,
  );
  return { gaps, oldOffsets: offsetsOf(note.chunks.map(([, length]) => length)), newOffsets };
}

/** The changes from `oldSnapshot` to `newSnapshot` in id order: of the gaps of `chunked`, or of the snapshots whole when it is null. */
export async function* changesOf(oldSnapshot: string, newSnapshot: string, chunked: ChunkedDiff | null): AsyncGenerator<LineChange> {
  if (chunked === null) {
    yield* diffOf(createReadStream(oldSnapshot), createReadStream(newSnapshot));
    return;
  }
  const { gaps, oldOffsets, newOffsets } = chunked;
  for (const gap of gaps) {
    yield* diffOf(
      range(oldSnapshot, oldOffsets[gap.oldFrom] as number, oldOffsets[gap.oldTo] as number),
      range(newSnapshot, newOffsets[gap.newFrom] as number, newOffsets[gap.newTo] as number),
    );
  }
}

/** The merge diff of two byte streams of id-ordered lines. */
async function* diffOf(before: AsyncIterable<Uint8Array>, after: AsyncIterable<Uint8Array>): AsyncGenerator<LineChange> {
  const [a, b] = await Promise.all([LineCursor.open(before), LineCursor.open(after)]);
  yield* diffSnapshots(a, b);
}

/** Bytes [start, end) of the file at `path` (none when the range is empty: a read stream's end is inclusive). */
async function* range(path: string, start: number, end: number): AsyncGenerator<Uint8Array> {
  if (end <= start) return;
  for await (const bytes of createReadStream(path, { start, end: end - 1 })) yield bytes as Buffer;
}
