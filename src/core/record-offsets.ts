/**
 * Where each record of a records chunk starts, written by the build beside the chunk
 * (`<chunk>.offsets`), so that a derived page or a subject is cut from the chunk's bytes without
 * searching them for line breaks: `n + 1` little-endian 32-bit byte offsets for a chunk of `n`
 * records, record `i` being the bytes from offset `i` up to the "\n" before offset `i + 1`. A
 * page of records `from` to `to` needs offsets `from` to `to` alone (a byte range of the table).
 * The records' keys follow the offsets in the same file (chunk-keys.ts), for a lookup by id or code.
 */

/** Bytes of one offset in the table. */
export const OFFSET_BYTES = 4;
const NEWLINE = 0x0a;

/** The offsets table of a chunk's bytes (each record a line; the last line's "\n" may be missing). */
export function recordOffsets(chunk: Uint8Array): Uint8Array {
  const starts: number[] = [0];
  for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, at + 1)) starts.push(at + 1);
  // A last line without its "\n" ends one byte past the file, as if it had one.
  if (chunk.length > 0 && chunk[chunk.length - 1] !== NEWLINE) starts.push(chunk.length + 1);
  if (chunk.length === 0) starts.length = 0;
  const table = new Uint8Array(starts.length * OFFSET_BYTES);
  const view = new DataView(table.buffer);
  for (let i = 0; i < starts.length; i++) view.setUint32(i * OFFSET_BYTES, starts[i] as number, true);
  return table;
}

/**
 * The offsets table of a chunk whose lines are known to end at `ends` (each just past its "\n": a
 * rendered block's, data/hand-offs.ts), without searching its bytes; null when `ends` are not
 * that for `chunk` (rising, each after a "\n", the last at its end), and the bytes must be searched.
 * The same table recordOffsets makes of such a chunk: a rendered record is one line of JSON.
 */
export function offsetsOfEnds(chunk: Uint8Array, ends: Uint32Array): Uint8Array | null {
  const n = ends.length;
  if (n === 0 || ends[n - 1] !== chunk.length) return null;
  const table = new Uint8Array((n + 1) * OFFSET_BYTES);
  const view = new DataView(table.buffer);
  let last = 0;
  for (let i = 0; i < n; i++) {
    const end = ends[i] as number;
    if (end <= last || chunk[end - 1] !== NEWLINE) return null;
    view.setUint32((i + 1) * OFFSET_BYTES, end, true);
    last = end;
  }
  return table;
}

/** Offset `index` of a table (or of a byte range of one that starts at its offset 0 of the range). */
export function offsetAt(table: Uint8Array, index: number): number {
  const at = index * OFFSET_BYTES;
  return (
    ((table[at] as number) | ((table[at + 1] as number) << 8) | ((table[at + 2] as number) << 16) | ((table[at + 3] as number) << 24)) >>> 0
  );
}

/**
 * A run of consecutive records as bytes of their chunk: `bytes` holds them as the file does (each
 * followed by its "\n", the last one's possibly cut off), `ends[k]` where record k's "\n" is.
 */
export interface RecordRun {
  readonly bytes: Uint8Array;
  readonly ends: readonly number[];
}

/**
 * Records `from` to `to` (exclusive) of a chunk: `offsets` holds the table's entries `from` to
 * `to` (inclusive), `chunk` the chunk's bytes starting at offset `from`'s byte (the whole chunk
 * when `base` is 0 and the range was not read alone).
 */
export function recordRun(chunk: Uint8Array, offsets: Uint8Array, base: number, records: number): RecordRun {
  const first = offsetAt(offsets, 0);
  const ends: number[] = new Array<number>(records);
  for (let k = 0; k < records; k++) ends[k] = offsetAt(offsets, k + 1) - 1 - first;
  const start = first - base;
  return { bytes: chunk.subarray(start, Math.min(chunk.length, start + offsetAt(offsets, records) - first)), ends };
}

/** How the core reads a site file's bytes through its host; null when the file is missing. */
export interface ByteReader {
  /** The whole file. */
  bytes(path: string): Promise<Uint8Array | null>;
  /** Bytes `start` to `end` (exclusive; fewer when the file ends before) of the file, where the host reads a range without the rest; absent: the whole file is read and cut. */
  range?(path: string, start: number, end: number): Promise<Uint8Array | null>;
}

/**
 * Records `from` to `to` (exclusive) of the chunk at `chunkPath`; null when a file is missing.
 * Where the host reads ranges, through the chunk's offsets table at `offsetsPath`: the table's
 * entries for those records, then their bytes alone. Elsewhere the chunk is read whole (as one
 * file: on a platform a file read costs more than the search) and its lines found by the typed
 * array's own search for line breaks.
 */
export async function readRecordRun(
  read: ByteReader,
  chunkPath: string,
  offsetsPath: string,
  from: number,
  to: number,
): Promise<RecordRun | null> {
  const records = Math.max(0, to - from);
  if (read.range !== undefined) {
    const offsets = await read.range(offsetsPath, from * OFFSET_BYTES, (from + records + 1) * OFFSET_BYTES);
    if (offsets === null || offsets.length < (records + 1) * OFFSET_BYTES) return null;
    const start = offsetAt(offsets, 0);
    // The last line's "\n" may lie one byte past the file: the range reads up to its end.
    const chunk = await read.range(chunkPath, start, offsetAt(offsets, records));
    return chunk === null ? null : recordRun(chunk, offsets, start, records);
  }
  const chunk = await read.bytes(chunkPath);
  return chunk === null ? null : linesRun(chunk, from, records);
}

/** Records `from` to `from + records` of a chunk's bytes, their lines found by searching for line breaks. */
export function linesRun(chunk: Uint8Array, from: number, records: number): RecordRun | null {
  let start = 0;
  for (let line = 0; line < from; line++) {
    const end = chunk.indexOf(NEWLINE, start);
    if (end === -1) return null;
    start = end + 1;
  }
  const ends: number[] = new Array<number>(records);
  let at = start;
  for (let k = 0; k < records; k++) {
    if (at > chunk.length) return null;
    let end = chunk.indexOf(NEWLINE, at);
    if (end === -1) end = chunk.length;
    ends[k] = end - start;
    at = end + 1;
  }
  return { bytes: chunk.subarray(start, Math.min(chunk.length, at)), ends };
}
