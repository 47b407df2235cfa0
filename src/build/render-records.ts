/**
 * Every record rendered once, as DRF writes it, into one UTF-8 buffer: record i occupies bytes
 * [starts[i], starts[i+1]) including a trailing "\n". Chunk files are plain slices of it; pages
 * copy a slice and turn the separators into commas. One buffer instead of a million strings
 * keeps the heap small (a 1M-subject build must stay under 1 GB).
 *
 * Rendering goes chunk by chunk (`renderChunk`), so the writer can already write the shards whose
 * records are ready while later records are still being rendered: CPU and disk work overlap.
 */
import { createHash } from "node:crypto";
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
  /** Rendered records [from, to) as chunk-file bytes: one record a line. */
  chunkBytes(from: number, to: number): Buffer;
  /** A page's bytes: `head`, rendered records [from, to) joined by commas, `tail`. */
  pageBytes(head: Buffer, from: number, to: number, tail: Buffer): Buffer;
}

const COMMA = 0x2c;
/** A first guess at a record's UTF-8 size for the first chunk (the sample averages ~330 bytes). */
const FIRST_GUESS_BYTES = 512;
/** Headroom over the first chunk's average when sizing the whole buffer. */
const HEADROOM = 1.1;

/**
 * An arena for `subjects` (in id order), nothing rendered yet. It takes the array over: each
 * subject is dropped from it once rendered, so the GC reclaims the parsed objects while pages are
 * written (~290 MB at a million subjects) instead of holding them and the bytes at once.
 */
export function createRecordArena(subjects: (Subject | undefined)[], chunkSize: number): RecordArena {
  const count = subjects.length;
  const starts = new Float64Array(count + 1);
  const hashes: string[] = [];
  let bytes = Buffer.allocUnsafe(Math.max(1024, Math.min(count, chunkSize) * FIRST_GUESS_BYTES));
  let end = 0;
  let rendered = 0;
  /** Moves the rendered bytes into a buffer of `size` bytes. */
  const resize = (size: number): void => {
    const grown = Buffer.allocUnsafe(size);
    bytes.copy(grown, 0, 0, end);
    bytes = grown;
  };

  const slice = (from: number, to: number): Buffer => bytes.subarray(starts[from], starts[to]);

  return {
    count,
    chunkSize,
    chunkCount: Math.ceil(count / chunkSize),
    get renderedChunks() {
      return hashes.length;
    },
    renderChunk() {
      const last = Math.min(count, rendered + chunkSize);
      for (let i = rendered; i < last; i++) {
        const text = renderSubject(subjects[i] as Subject) + "\n";
        subjects[i] = undefined;
        // A UTF-16 unit is at most 3 UTF-8 bytes; grow before writing so nothing is cut off.
        if (end + text.length * 3 > bytes.length) resize(Math.max(Math.ceil(bytes.length * 1.5), end + text.length * 3));
        starts[i] = end;
        end += bytes.write(text, end, "utf8");
      }
      starts[last] = end;
      // After the first chunk its average says how big the whole list is: one allocation, no doubling.
      if (rendered === 0 && last < count) resize(Math.max(bytes.length, Math.ceil((end / last) * count * HEADROOM)));
      hashes.push(contentHash(slice(rendered, last)));
      rendered = last;
    },
    chunkHash(chunk) {
      const hash = hashes[chunk];
      if (hash === undefined) throw new Error(`chunk ${chunk} is not rendered yet`);
      return hash;
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

/** A short content hash (hex) of some bytes or strings. */
export function contentHash(...parts: readonly (string | Uint8Array)[]): string {
  const hash = createHash("sha1");
  for (const part of parts) hash.update(part);
  return hash.digest("hex").slice(0, 16);
}
