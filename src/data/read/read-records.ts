/**
 * The read as every command does it (build, validate, export): the warnings the maintainer
 * accepted (problems/known-problems.ts), the sources read and rendered (read-blocks.ts), put in
 * id order (order/order-blocks.ts), and, once the read has ended, its warnings judged against the
 * accepted ones. Composed here once, so the commands differ only in what they do with the records.
 */
import type { OrderedItem, ReadSummary } from "../hand-offs.ts";
import { orderBlocks } from "../order/order-blocks.ts";
import {
  judgeDataError,
  judgeWarnings,
  type JudgedWarnings,
  type KnownProblems,
  readKnownProblems,
  readUnder,
} from "../problems/known-problems.ts";
import { DataError } from "../problems/problems.ts";
import type { ResolvedReadOptions } from "../read-options.ts";
import type { BuildCache } from "./build-cache.ts";
import { readBlocks } from "./read-blocks.ts";

/** What a read returns once judged: its summary, with the new warnings apart from the known. */
export type JudgedRead = ReadSummary & JudgedWarnings;

/** How a command reads, beyond the read options. */
export interface ReadHow {
  /** The build cache the blocks are taken from and stored in. */
  readonly cache?: BuildCache;
  /** False for a taker that cannot take records back: every record then goes through the sort from the start. */
  readonly restart?: boolean;
  /** False: the accepted warnings are not read, and every warning is the read's own. */
  readonly known?: boolean;
}

/**
 * The records of `options.dataDir` in id order, their warnings judged when the read ends (with
 * --strict, a new warning then stops it). The accepted warnings are read before anything else,
 * so a baseline that cannot be read stops the command before a record is.
 */
export async function readRecords(options: ResolvedReadOptions, how: ReadHow = {}): Promise<AsyncGenerator<OrderedItem, JudgedRead>> {
  const known = how.known === false ? null : await readKnownProblems(options.dataDir);
  // Under a baseline every warning is kept, so each can be judged.
  const read = readUnder(known, options);
  return judged(
    orderBlocks(() => readBlocks(read, how.cache), how.restart ?? true),
    known,
    options.strict,
  );
}

async function* judged(
  ordered: AsyncGenerator<OrderedItem, ReadSummary>,
  known: KnownProblems | null,
  strict: boolean,
): AsyncGenerator<OrderedItem, JudgedRead> {
  let summary: ReadSummary;
  try {
    summary = yield* ordered;
  } catch (error) {
    // The baseline applies whatever else is wrong: an error's report leaves the accepted warnings out too.
    throw error instanceof DataError ? judgeDataError(known, strict, error) : error;
  }
  return { ...summary, ...judgeWarnings(known, strict, summary) };
}
