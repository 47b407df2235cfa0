/**
 * The typed hand-offs between the data stages and the build's next ones: the read stage
 * (read/read-blocks.ts) yields ReadItems, the ordering stage (order/order-blocks.ts) turns them
 * into OrderedItems, and the site's chunk stage takes those. A leaf of its own, so no stage
 * imports another to name what it takes.
 */
import type { Message } from "../common/messages/message.ts";
import type { ProblemCollector, Problem, ProblemKind } from "./problems/problems.ts";
import type { SourceFile } from "./sources/source-file.ts";
import type { KnownKeys } from "./rules/block-keys.ts";

/** The valid records of a block, rendered as DRF writes them, with their keys; and the block's problems. */
export interface RenderedBlock {
  /**
   * Each valid record's rendered bytes and a "\n", one after another. A block from the build cache
   * reads them from its file on first use (build-cache.ts): `hash` and the keys come without them.
   */
  readonly bytes: Uint8Array;
  /** The content hash of `bytes`: a records chunk's hash when the block is exactly one chunk. */
  readonly hash: string;
  /** Where each record's bytes end (its "\n" included). */
  readonly ends: Uint32Array;
  readonly ids: Float64Array;
  readonly codes: readonly string[];
  /** Each record's OIB, for the check of two subjects with one OIB ("" for a record held only for its keys). */
  readonly oibs: readonly string[];
  /** Each record's position in its file (index or line). */
  readonly positions: Uint32Array;
  /**
   * A block from the build cache: its keys in compact form, which the checks across records read
   * instead of `codes` and `oibs` (those are made from them on first use).
   */
  readonly known?: KnownKeys;
  /** Errors and warnings of its records (warnings as errors when strict): the first few errors of each kind, every warning. */
  readonly problems: readonly Problem[];
  /** How many more errors of each kind there were (see ProblemCollector.merge). */
  readonly dropped: Readonly<Record<string, number>>;
  /**
   * A block from the build cache: reads its bytes `[start, end)` from its file again, without keeping
   * them (a record's, for the few records a check names).
   */
  readonly reread?: (start: number, end: number) => Uint8Array;
  /** Why the block could not be stored in the build cache, when it was to be and could not (BuildCache.failed). */
  readonly uncached?: Message;
  /**
   * A block stored in the build cache (rendered in this build, or taken from it): the file that
   * holds its rendered bytes, and where they begin there, so that they can be read again
   * (rereadStored) without being kept. At 0, the file is those bytes alone: the site's writer links
   * the block's chunk file to it rather than write them again.
   */
  readonly stored?: { readonly path: string; readonly bytesAt: number };
  /**
   * A block rendered in a record thread: called once nothing reads `bytes` any more (the site's
   * writer, once it has copied them and made the chunk's table), so that their memory takes a later
   * block's (record-threads.ts). Never called, they are left to the GC.
   */
  readonly done?: () => void;
}

/**
 * What the read stage yields, in reading order: each rendered block with its file and the read's
 * problems so far, then once "end" (every block read, the problems not judged yet: a stage may
 * add the rules across records' problems to them before the read's return judges them).
 */
export type ReadItem =
  | { readonly kind: "block"; readonly block: RenderedBlock; readonly file: SourceFile; readonly problems: ProblemCollector }
  | { readonly kind: "end"; readonly problems: ProblemCollector };

/**
 * What the ordering stage yields: the blocks in id order; "restart" when the input turned out not
 * to be in id order after some blocks were handed on, which voids them (every record comes again, sorted).
 */
export type OrderedItem = { readonly kind: "block"; readonly block: RenderedBlock } | { readonly kind: "restart" };

/** What a read found besides the records: counts, warnings, the files and the cache keys. */
export interface ReadSummary {
  /** Records in the list. */
  readonly count: number;
  /** Records whose block came from the build cache, not parsed again. */
  readonly reused: number;
  /** The first few warnings of each kind, and every kind's exact count. */
  readonly warnings: readonly Problem[];
  readonly kinds: readonly ProblemKind[];
  readonly files: readonly string[];
  /** The build cache's keys of the blocks read (stored or found): what the cache keeps. */
  readonly cacheKeys: readonly string[];
}
