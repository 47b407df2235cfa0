/**
 * The readers' contract: what every source reader (read-json-array, read-ndjson, read-csv,
 * read-xlsx, read-ods) hands on, and what the read stage and the record threads take. A leaf of
 * its own, so a reader, the renderer and the build cache share it without importing each other.
 */
import { CHUNK_SIZE } from "../../core/layout.ts";
import type { FormNote } from "./spreadsheet-forms.ts";

/** What a reader knows of a record besides its value, for the problems JSON.parse would hide. */
export interface RecordSource {
  /** Keys the record's text names at its top level, counted as written (a repeated key counts twice). */
  readonly keys?: number;
  /** The record's text, read only when the record has a problem. */
  readonly text?: (position: number) => string;
}

/** Records read from the sources: JSON arrays hand over whole blocks, NDJSON and CSV records one by one. */
export interface RecordSink {
  /**
   * A block of consecutive records of a JSON array, its text valid only during the call: the sink
   * takes it whole (knows it from the previous build, or parses it itself, here or in a thread).
   */
  block(block: SourceBlock, text: BlockText): void;
  /**
   * A record's parsed value with its position (array index, line, or row), what its text tells
   * besides, and the spreadsheet forms it was read from.
   */
  record(value: unknown, position: number, source?: RecordSource, notes?: readonly FormNote[]): void;
  /**
   * Consecutive lines of an NDJSON file (`block.first`: the first's line number; `block.hash`: of
   * their bytes, blank lines included), if the sink takes them so: it takes them from the build
   * cache when it knows them, else calls `parse`, which hands each line's record to `record` at
   * once and answers false when a line was not JSON (its problem pushed: such lines are never stored).
   */
  lines?(block: SourceBlock, parse: (record: RecordSink["record"]) => boolean): void;
  /** Settles when the sink can take more blocks: the reader waits for it between read chunks. */
  ready?(): Promise<void>;
  /** Where blocks of a JSON array lay when a build last split them, by their first index (several files may have one at an index). */
  readonly spans?: ReadonlyMap<number, readonly BlockSpan[]>;
  /**
   * A block whose bytes in the file are those of `span`, not split again: true when the sink holds
   * that block (in the build cache) and took it; false, and the reader splits its bytes as any others.
   */
  known?(span: BlockSpan): boolean;
  /** Where a block just split lay in its file, for the next build. */
  span?(span: BlockSpan): void;
}

/**
 * Where a block of a JSON array lay in its file: from just after the comma that ended the block
 * before it to the comma that ends it (whitespace included), the hash of those bytes but that last
 * comma (`raw`) and the line breaks in them, and the block they split into (`hash`: SourceBlock's,
 * made of `raw`). The same bytes after the same comma split into the same block: a rebuild that
 * finds them there again need not scan them.
 */
export interface BlockSpan extends SourceBlock {
  readonly length: number;
  readonly raw: string;
  readonly lines: number;
}

/**
 * Consecutive records of one file, as a build cache knows them: where, how many, and a hash of
 * their text, or, for a JSON array's block with a span (BlockSpan), of its bytes in the file.
 */
export interface SourceBlock {
  readonly first: number;
  readonly count: number;
  readonly hash: string;
}

/**
 * Records per block: small enough that an edit re-reads little, large enough to parse in bulk.
 * A chunk's size on purpose: in one sorted file each chunk is then exactly one block, whose
 * rendered bytes it takes over without a copy (chunk-records.ts).
 */
export const BLOCK_RECORDS = CHUNK_SIZE;

/**
 * Consecutive elements' bytes joined by commas, with where each starts (in the text and in the
 * file). The bytes are the splitter's own buffer, valid only during the `block` call.
 */
export interface BlockText {
  /** The array index of the first element. */
  readonly first: number;
  readonly bytes: Uint8Array;
  /** Element k is bytes [starts[k], starts[k+1] - 1), the last one up to the end. */
  readonly starts: readonly number[];
  /** The file line each element starts on. */
  readonly lines: readonly number[];
  /** Each element's keys at its top level, counted as written (a key named twice counts twice). */
  readonly keys: readonly number[];
}
