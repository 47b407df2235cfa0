/**
 * Every record, validated and rendered, handed on in id order, in flat memory whatever the list's
 * length, with the rules across records checked on the way (check-sequence.ts).
 *
 * Input in id order (the usual case) streams: each block is handed on as it is read. At the first
 * record that does not follow its predecessor the read stops. A lower id means input out of id
 * order: the taker is told to start again, and the records are read again through an external
 * merge sort (sort-records.ts: runs on disk). A duplicate, or a code not rising, is an error: the
 * records are read again, sorted, to locate every broken rule, and the read throws DataError.
 */
import { tmpdir } from "node:os";
import { SequenceCheck } from "../rules/check-sequence.ts";
import type { BuildCache } from "./build-cache.ts";
import { contentHash } from "../../common/content-hash.ts";
import { type ReadOptions, type ReadSummary, streamRecords } from "./read-records.ts";
import type { RenderedBlock } from "./render-block.ts";
import { createRecordSorter } from "./sort-records.ts";
import type { SourceFile } from "../sources/source-file.ts";

/** Takes the records in id order. */
export interface InOrderTaker {
  /** The next records, in id order after those taken before; the read waits for it. */
  take(records: RenderedBlock): Promise<void>;
  /**
   * The records taken so far are void (the input is out of id order): every record comes again,
   * sorted. A taker without it gets the records through the sort from the start.
   */
  restart?(): Promise<void>;
}

/** Reads every record in id order into `taker`; throws DataError listing every problem (after taking some records, perhaps). */
export async function readInIdOrder(read: ReadOptions, taker: InOrderTaker, cache?: BuildCache): Promise<ReadSummary> {
  if (taker.restart === undefined) return await readSorted(read, taker, cache, false);
  const sequence = new SequenceCheck();
  /** Whether the read stopped at an id lower than the one before (else at a broken rule across records). */
  let descends = false;
  const streamed = await streamRecords(read, {
    async take(block, _file, problems) {
      const broken = sequence.firstBreak(block);
      if (broken >= 0) {
        descends = sequence.descends(block.ids[broken] ?? 0);
        return false;
      }
      // Past the first error the read fails: the rest is read only for its problems.
      if (problems.errors === 0) await taker.take(block);
      return true;
    },
  }, cache);
  if (!streamed.stopped) return streamed.summary;
  if (!descends) return await readSorted(read, taker, cache, true);
  await taker.restart();
  return await readSorted(read, taker, cache, false);
}

/**
 * Reads every block into an external sort; then, before the read's problems are judged, hands the
 * sorted records on, checking the rules across records against the previous record. When one is
 * broken it reads again, locating (`locate`: every broken rule is found; nothing is handed on).
 * With an error in a record the read fails anyway: only the rules across records are still checked.
 */
async function readSorted(read: ReadOptions, taker: InOrderTaker, cache: BuildCache | undefined, locate: boolean): Promise<ReadSummary> {
  const sorter = createRecordSorter({ dir: tmpdir() });
  const files: SourceFile[] = [];
  const numbers = new Map<SourceFile, number>();
  let broken = false;
  try {
    const outcome = await streamRecords(read, {
      async take(block, file) {
        let number = numbers.get(file);
        if (number === undefined) numbers.set(file, (number = files.push(file) - 1));
        await sorter.add(block, number);
        return true;
      },
      async end(problems) {
        const sequence = new SequenceCheck();
        const locating = locate || problems.errors > 0;
        for await (const batch of sorter.sorted()) {
          if (locating) {
            sequence.locate(batch, files, problems);
          } else if (sequence.firstBreak(batch) >= 0) {
            broken = true;
            return;
          } else {
            // OIBs are checked as the records are read (read-records.ts), not here.
            await taker.take({ ...batch, hash: contentHash(batch.bytes), oibs: [], problems: [], dropped: {} });
          }
        }
        if (locating) sequence.finish(files, problems);
      },
    }, cache);
    if (outcome.stopped) throw new Error("a read that takes every block stopped");
    if (locate) throw new Error("a rule across records was broken, but locating found none");
    if (!broken) return outcome.summary;
  } finally {
    await sorter.close();
  }
  return await readSorted(read, taker, cache, true);
}
