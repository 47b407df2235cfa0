/**
 * Every record rendered once, as DRF writes it, into one UTF-8 buffer: record i occupies bytes
 * [starts[i], starts[i+1]) including a trailing "\n". Chunk files are plain slices of it; pages
 * copy a slice and turn the separators into commas. One buffer instead of a million strings
 * keeps the heap small (a 1M-subject build must stay under 1 GB).
 *
 * Rendering goes chunk by chunk (`renderChunk`), so the writer can already write the shards whose
 * records are ready while later records are still being rendered: CPU and disk work overlap.
 *
 * On a rebuild with a build cache, records that were not parsed again come as the previous
 * build's rendered bytes (`Reuse`): a chunk whose records all sit where they sat before is not
 * even read, just given its old hash, and its bytes are fetched only if a changed shard needs them.
 */
import { type PreviousRecords, StaleCacheError } from "./build-cache.ts";
import { contentHash } from "./content-hash.ts";
import { renderSubject, type Subject } from "../core/render-page.ts";

export interface RecordArena {
  readonly count: number;
  readonly chunkSize: number;
  readonly chunkCount: number;
  /** Chunks rendered so far (from the first). */
  readonly renderedChunks: number;
  /** Renders the next chunk and hashes it. */
  renderChunk(): void;
  /** The content hash of a rendered chunk. */
  chunkHash(chunk: number): string;
  /** The size in bytes of a rendered chunk's file. */
  chunkLength(chunk: number): number;
  /** Rendered records [from, to) as chunk-file bytes: one record a line. */
  chunkBytes(from: number, to: number): Buffer;
  /** A page's bytes: `head`, rendered records [from, to) joined by commas, `tail`. */
  pageBytes(head: Buffer, from: number, to: number, tail: Buffer): Buffer;
}

/** Records whose rendered bytes come from the previous build instead of a Subject. */
export interface Reuse {
  /** For each record (id order): its index in the previous list, or -1 when it has a Subject. */
  readonly from: Int32Array;
  readonly previous: PreviousRecords;
}

const COMMA = 0x2c;
const LINE_FEED = 0x0a;
/** A first guess at a record's UTF-8 size for the first chunk (the sample averages ~330 bytes). */
const FIRST_GUESS_BYTES = 512;
/** Headroom over the first chunk's average when sizing the whole buffer. */
const HEADROOM = 1.1;

/** One chunk of the previous list, split into its records' lines. */
interface OldChunk {
  readonly chunk: number;
  readonly bytes: Buffer;
  /** Line k is bytes [lines[k], lines[k+1]), its "\n" included. */
  readonly lines: Uint32Array;
}

function splitLines(chunk: number, bytes: Buffer): OldChunk {
  const lines: number[] = [0];
  for (let at = bytes.indexOf(LINE_FEED); at !== -1; at = bytes.indexOf(LINE_FEED, at + 1)) lines.push(at + 1);
  return { chunk, bytes, lines: Uint32Array.from(lines) };
}

/**
 * An arena for `subjects` (in id order), nothing rendered yet. It takes the array over: each
 * subject is dropped from it once rendered, so the GC reclaims the parsed objects while pages are
 * written (~290 MB at a million subjects) instead of holding them and the bytes at once.
 */
export function createRecordArena(subjects: (Subject | undefined)[], chunkSize: number, reuse?: Reuse): RecordArena {
  const count = subjects.length;
  const chunkCount = Math.ceil(count / chunkSize);
  const starts = new Float64Array(count + 1);
  const hashes: string[] = [];
  /** Whether a chunk's bytes are in the buffer; a chunk kept by hash only is fetched when needed. */
  const present = new Uint8Array(chunkCount);
  let bytes = Buffer.allocUnsafe(Math.max(1024, Math.min(count, chunkSize) * FIRST_GUESS_BYTES));
  let end = 0;
  let rendered = 0;
  let old: OldChunk | undefined;
  /** Moves the buffer's bytes into one of at least `size` bytes. */
  const reserve = (size: number): void => {
    if (size <= bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(size, Math.ceil(bytes.length * 1.5)));
    bytes.copy(grown, 0, 0, end);
    bytes = grown;
  };
  const append = (text: string | Buffer): void => {
    // A UTF-16 unit is at most 3 UTF-8 bytes; grow before writing so nothing is cut off.
    reserve(end + (typeof text === "string" ? text.length * 3 : text.length));
    end += typeof text === "string" ? bytes.write(text, end, "utf8") : text.copy(bytes, end);
  };
  /** The previous build's rendered bytes of its record `k`, "\n" included. */
  const oldRecord = (previous: PreviousRecords, k: number): Buffer => {
    const chunk = Math.floor(k / chunkSize);
    if (old?.chunk !== chunk) old = splitLines(chunk, previous.chunkBytes(chunk));
    const line = k - chunk * chunkSize;
    return old.bytes.subarray(old.lines[line], old.lines[line + 1]);
  };
  /** Records [first, last) of `chunk` all sit where they sat in the previous list, whose chunk ended there too. */
  const unchanged = (chunk: number, first: number, last: number): boolean => {
    if (reuse === undefined || Math.min(reuse.previous.count, (chunk + 1) * chunkSize) !== last) return false;
    for (let i = first; i < last; i++) if (reuse.from[i] !== i) return false;
    return true;
  };
  /** Puts a chunk kept by hash into the buffer, from the previous site's file. */
  const fetch = (chunk: number): void => {
    if (present[chunk] === 1 || reuse === undefined) return;
    const first = chunk * chunkSize;
    const last = Math.min(count, first + chunkSize);
    const file = reuse.previous.chunkBytes(chunk);
    const at = starts[first] ?? 0;
    if (file.length !== (starts[last] ?? 0) - at) throw new StaleCacheError(`chunk ${chunk} has another size`);
    reserve(at + file.length);
    file.copy(bytes, at);
    const lines = splitLines(chunk, file).lines;
    if (lines.length !== last - first + 1) throw new StaleCacheError(`chunk ${chunk} has another number of records`);
    for (let i = first + 1; i < last; i++) starts[i] = at + (lines[i - first] ?? 0);
    present[chunk] = 1;
  };
  const slice = (from: number, to: number): Buffer => {
    for (let c = Math.floor(from / chunkSize); c * chunkSize < to; c++) fetch(c);
    return bytes.subarray(starts[from], starts[to]);
  };

  return {
    count,
    chunkSize,
    chunkCount,
    get renderedChunks() {
      return hashes.length;
    },
    renderChunk() {
      const chunk = hashes.length;
      const last = Math.min(count, rendered + chunkSize);
      starts[rendered] = end;
      if (reuse !== undefined && unchanged(chunk, rendered, last)) {
        // Not even read: its old hash stands for it, and `fetch` brings the bytes if a page needs them.
        end += reuse.previous.chunkLength(chunk);
        hashes.push(reuse.previous.chunkHash(chunk));
      } else {
        for (let i = rendered; i < last; i++) {
          starts[i] = end;
          const subject = subjects[i];
          if (subject !== undefined) {
            append(renderSubject(subject) + "\n");
            subjects[i] = undefined;
          } else if (reuse !== undefined) {
            append(oldRecord(reuse.previous, reuse.from[i] ?? 0));
          } else {
            throw new Error(`record ${i} has neither a subject nor a previous rendering`);
          }
        }
        present[chunk] = 1;
      }
      starts[last] = end;
      // After the first chunk its average says how big the whole list is: one allocation, no doubling.
      if (rendered === 0 && last < count) reserve(Math.max(bytes.length, Math.ceil((end / last) * count * HEADROOM)));
      if (present[chunk] === 1) hashes.push(contentHash(bytes.subarray(starts[rendered], end)));
      rendered = last;
    },
    chunkHash(chunk) {
      const hash = hashes[chunk];
      if (hash === undefined) throw new Error(`chunk ${chunk} is not rendered yet`);
      return hash;
    },
    chunkLength(chunk) {
      if (chunk >= hashes.length) throw new Error(`chunk ${chunk} is not rendered yet`);
      return (starts[Math.min(count, (chunk + 1) * chunkSize)] ?? 0) - (starts[chunk * chunkSize] ?? 0);
    },
    chunkBytes: slice,
    pageBytes(head, from, to, tail) {
      const body = slice(from, to);
      const recordsLength = Math.max(0, body.length - 1);
      const page = Buffer.allocUnsafe(head.length + recordsLength + tail.length);
      head.copy(page, 0);
      body.copy(page, head.length, 0, recordsLength);
      const base = head.length - (starts[from] ?? 0) - 1;
      for (let i = from + 1; i < to; i++) page[base + (starts[i] ?? 0)] = COMMA;
      tail.copy(page, head.length + recordsLength);
      return page;
    },
  };
}
