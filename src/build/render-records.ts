/**
 * Every record rendered once, as DRF would write it, into one UTF-8 buffer: record i occupies
 * bytes [starts[i], starts[i+1]) including a trailing "\n". Chunk files are plain slices of it;
 * pages copy a slice and turn the separators into commas. One buffer instead of a million
 * strings keeps the heap small (the 1M-subject build must stay under 1 GB).
 */
import { createHash } from "node:crypto";
import { renderSubject, type Subject } from "../core/render-page.ts";

export interface RecordArena {
  readonly count: number;
  readonly bytes: Buffer;
  /** Byte offset where record i starts; `starts[count]` is the end of the last record. */
  readonly starts: Float64Array;
}

const COMMA = 0x2c;

/** Renders each subject once (in the given order) into one buffer. */
export function renderRecords(subjects: readonly Subject[]): RecordArena {
  const starts = new Float64Array(subjects.length + 1);
  let bytes = Buffer.allocUnsafe(Math.max(1024, subjects.length * 512));
  let end = 0;
  subjects.forEach((subject, i) => {
    const text = renderSubject(subject) + "\n";
    // A UTF-16 unit is at most 3 UTF-8 bytes; grow before writing so nothing is cut off.
    if (end + text.length * 3 > bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(bytes.length * 2, end + text.length * 3));
      bytes.copy(grown, 0, 0, end);
      bytes = grown;
    }
    starts[i] = end;
    end += bytes.write(text, end, "utf8");
  });
  starts[subjects.length] = end;
  return { count: subjects.length, bytes: bytes.subarray(0, end), starts };
}

/** Records [from, to) as chunk-file bytes: one rendered record a line. */
export function chunkBytes(arena: RecordArena, from: number, to: number): Buffer {
  return arena.bytes.subarray(arena.starts[from], arena.starts[to]);
}

/** A page's bytes: `head`, records [from, to) joined by commas, `tail`. */
export function pageBytes(head: Buffer, arena: RecordArena, from: number, to: number, tail: Buffer): Buffer {
  const body = chunkBytes(arena, from, to);
  const recordsLength = Math.max(0, body.length - 1);
  const page = Buffer.allocUnsafe(head.length + recordsLength + tail.length);
  head.copy(page, 0);
  body.copy(page, head.length, 0, recordsLength);
  for (let i = from + 1; i < to; i++) page[head.length + (arena.starts[i] ?? 0) - (arena.starts[from] ?? 0) - 1] = COMMA;
  tail.copy(page, head.length + recordsLength);
  return page;
}

/** A short content hash (hex) of some bytes or strings. */
export function contentHash(...parts: readonly (string | Uint8Array)[]): string {
  const hash = createHash("sha1");
  for (const part of parts) hash.update(part);
  return hash.digest("hex").slice(0, 16);
}

