/**
 * Stage 2 of a build, blocks -> id order: every record the read stage yields, handed on in id
 * order, in flat memory whatever the list's length, with the rules across records checked on the
 * way (check-sequence.ts).
 *
 * Input in id order (the usual case) streams: each block is handed on as it is read. At the first
 * record that does not follow its predecessor the read stops. A lower id means input out of id
 * order: this stage decides to start again, says so ("restart": what was handed on is void), and
 * reads the records again through an external merge sort (sort-records.ts: runs on disk). A
 * duplicate, or a code not rising, is an error: the records are read again, sorted, to locate
 * every broken rule, and the read throws DataError.
 */
import { tmpdir } from "node:os";
import { contentHash } from "../../common/content-hash.ts";
import { leave } from "../../common/stage-iterables.ts";
import type { OrderedItem, ReadItem, ReadSummary } from "../hand-offs.ts";
import { SequenceCheck } from "../rules/check-sequence.ts";
import type { SourceFile } from "../sources/source-file.ts";
import { createRecordSorter } from "./sort-records.ts";

/** A read from the start (the read stage's blocks): this stage may need the records twice. */
export type ReadFromStart = () => AsyncGenerator<ReadItem, ReadSummary>;

/**
 * Yields every record of `read` in id order, and returns the read's summary; throws DataError
 * listing every problem (after yielding some records, perhaps). With `restart` false (a taker that
 * cannot take records back) the records go through the sort from the start.
 */
export async function* orderBlocks(read: ReadFromStart, restart = true): AsyncGenerator<OrderedItem, ReadSummary> {
  if (!restart) return yield* sorted(read, false);
  const sequence = new SequenceCheck();
  /** Whether the read stopped at an id lower than the one before (else at a broken rule across records). */
  let descends = false;
  const blocks = read();
  try {
    for (let next = await blocks.next(); ; next = await blocks.next()) {
      if (next.done === true) return next.value;
      const item = next.value;
      if (item.kind === "end") continue;
      const broken = sequence.firstBreak(item.block);
      if (broken >= 0) {
        descends = sequence.descends(item.block.ids[broken] ?? 0);
        break;
      }
      // Past the first error the read fails: the rest is read only for its problems.
      if (item.problems.errors === 0) yield { kind: "block", block: item.block };
    }
  } finally {
    // Stops the read when it was left early (here, or by the next stage).
    await leave(blocks);
  }
  if (!descends) return yield* sorted(read, true);
  yield { kind: "restart" };
  return yield* sorted(read, false);
}

/**
 * Reads every block into an external sort; then, before the read's problems are judged, hands the
 * sorted records on, checking the rules across records against the previous record. When one is
 * broken it reads again, locating (`locate`: every broken rule is found; nothing is handed on).
 * With an error in a record the read fails anyway: only the rules across records are still checked.
 */
async function* sorted(read: ReadFromStart, locate: boolean): AsyncGenerator<OrderedItem, ReadSummary> {
  const sorter = createRecordSorter({ dir: tmpdir() });
  const files: SourceFile[] = [];
  const numbers = new Map<SourceFile, number>();
  let broken = false;
  const blocks = read();
  try {
    for (let next = await blocks.next(); ; next = await blocks.next()) {
      if (next.done === true) {
        if (locate) throw new Error("a rule across records was broken, but locating found none");
        return next.value;
      }
      const item = next.value;
      if (item.kind === "block") {
        let number = numbers.get(item.file);
        if (number === undefined) numbers.set(item.file, (number = files.push(item.file) - 1));
        await sorter.add(item.block, number);
        continue;
      }
      const sequence = new SequenceCheck();
      const locating = locate || item.problems.errors > 0;
      for await (const batch of sorter.sorted()) {
        if (locating) {
          sequence.locate(batch, files, item.problems);
        } else if (sequence.firstBreak(batch) >= 0) {
          broken = true;
          break;
        } else {
          // OIBs are checked as the records are read (read-blocks.ts), not here.
          yield { kind: "block", block: { ...batch, hash: contentHash(batch.bytes), oibs: [], problems: [], dropped: {} } };
        }
      }
      if (locating) sequence.finish(files, item.problems);
      if (broken) break;
    }
  } finally {
    await leave(blocks);
    await sorter.close();
  }
  return yield* sorted(read, true);
}
