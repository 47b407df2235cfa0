/**
 * The changes between two versions of the list, both in id order: a merge of the two streams of
 * rendered record lines, so memory stays flat whatever their size. A record only in the new list,
 * or whose bytes changed, is an upsert; one only in the old list a delete. Equal lines (nearly all)
 * are passed over with one native comparison.
 */
import { recordId } from "./feed-format.ts";
import type { LineCursor } from "../common/line-cursor.ts";

/**
 * A change between two versions: an upsert (`existed`: the id was in the old list, its bytes
 * changed) or a delete, with the record it removes (`old`: valid until the next change is asked
 * for, enough to name it).
 */
export type LineChange =
  | { readonly op: "upsert"; readonly id: number; readonly line: Uint8Array; readonly existed: boolean }
  | { readonly op: "delete"; readonly id: number; readonly old: Uint8Array };

export async function* diffSnapshots(before: LineCursor, after: LineCursor): AsyncGenerator<LineChange> {
  const advance = async (cursor: LineCursor): Promise<void> => {
    if (!cursor.step()) await cursor.more();
  };
  for (;;) {
    const a = before.line;
    const b = after.line;
    if (a === undefined && b === undefined) return;
    if (a !== undefined && b !== undefined && Buffer.compare(a, b) === 0) {
      if (!before.step()) await before.more();
      if (!after.step()) await after.more();
      continue;
    }
    const idA = a === undefined ? Infinity : recordId(a);
    const idB = b === undefined ? Infinity : recordId(b);
    if (idA < idB) {
      yield { op: "delete", id: idA, old: a as Uint8Array };
      await advance(before);
    } else if (idB < idA) {
      yield { op: "upsert", id: idB, line: (b as Uint8Array).slice(), existed: false };
      await advance(after);
    } else {
      yield { op: "upsert", id: idB, line: (b as Uint8Array).slice(), existed: true };
      await advance(before);
      await advance(after);
    }
  }
}
