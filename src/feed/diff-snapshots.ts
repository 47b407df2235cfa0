/**
 * The changes between two versions of the list, both in id order: a merge of the two streams of
 * rendered record lines, so memory stays flat whatever their size. A record only in the new list,
 * or whose bytes changed, is an upsert; one only in the old list a delete.
 */
import { recordId } from "./feed-format.ts";

/** A change between two versions: an upsert (`existed`: the id was in the old list, its bytes changed) or a delete. */
export type LineChange = { readonly op: "upsert"; readonly id: number; readonly line: Uint8Array; readonly existed: boolean } | { readonly op: "delete"; readonly id: number };

export async function* diffSnapshots(before: AsyncIterable<Uint8Array>, after: AsyncIterable<Uint8Array>): AsyncGenerator<LineChange> {
  const old = before[Symbol.asyncIterator]();
  const now = after[Symbol.asyncIterator]();
  let a = await old.next();
  let b = await now.next();
  while (!a.done || !b.done) {
    const idA = a.done ? Infinity : recordId(a.value);
    const idB = b.done ? Infinity : recordId(b.value);
    if (idA < idB) {
      yield { op: "delete", id: idA };
      a = await old.next();
    } else if (idB < idA) {
      yield { op: "upsert", id: idB, line: (b.value as Uint8Array).slice(), existed: false };
      b = await now.next();
    } else {
      if (!sameBytes(a.value as Uint8Array, b.value as Uint8Array)) yield { op: "upsert", id: idB, line: (b.value as Uint8Array).slice(), existed: true };
      a = await old.next();
      b = await now.next();
    }
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
