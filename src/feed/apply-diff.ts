/**
 * A diff applied to a mirror's NDJSON: the local records and the diff's changes, both in id order,
 * merged as two streams (flat memory whatever their size). The diff is read line by line in the
 * shape the build writes it (a header line, then one change a line), keeping each record's bytes as
 * they were rendered; the result is verified by its hash against the diff's `to_version` by the caller.
 */
import { recordId } from "./feed-format.ts";

export interface DiffHead {
  readonly sequence: number;
  readonly from_version: string | null;
  readonly to_version: string;
  readonly published: string;
}

export type RawChange = { readonly op: "upsert"; readonly id: number; readonly line: Uint8Array } | { readonly op: "delete"; readonly id: number };

/** What applying changed: records added, removed, and changed in place. */
export interface Tally {
  added: number;
  removed: number;
  changed: number;
}

const decoder = new TextDecoder();
const UPSERT = /^\{"op":"upsert","id":(\d+),"record":/;
const DELETE = /^\{"op":"delete","id":(\d+)\},?$/;

/** The diff's header and its changes, from its lines; throws on a line out of that shape or out of id order. */
export async function readDiff(lines: AsyncIterable<Uint8Array>): Promise<{ head: DiffHead; changes: AsyncGenerator<RawChange> }> {
  const iterator = lines[Symbol.asyncIterator]();
  const first = await iterator.next();
  const headText = first.done ? "" : decoder.decode(first.value);
  if (!headText.endsWith('"changes":[')) throw new Error("not a diff: its first line is not a header");
  const head = JSON.parse(`${headText}]}`) as DiffHead;
  async function* changes(): AsyncGenerator<RawChange> {
    let last = -1;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      const line = next.value;
      const text = decoder.decode(line.subarray(0, Math.min(line.length, 64)));
      if (text === "]}") return;
      let change: RawChange;
      const upsert = UPSERT.exec(text);
      const del = upsert === null ? DELETE.exec(text) : null;
      if (upsert !== null) {
        const end = line[line.length - 1] === 0x2c ? line.length - 2 : line.length - 1;
        const record = line.slice(upsert[0].length, end);
        change = { op: "upsert", id: Number(upsert[1]), line: record };
        if (recordId(record) !== change.id) throw new Error(`a change for id ${change.id} holds the record of another id`);
      } else if (del !== null) {
        change = { op: "delete", id: Number(del[1]) };
      } else {
        throw new Error(`not a change line: ${text}`);
      }
      if (change.id <= last) throw new Error(`changes out of id order at id ${change.id}`);
      last = change.id;
      yield change;
    }
    throw new Error("the diff ends before its closing line");
  }
  return { head, changes: changes() };
}

/** The mirror's lines with the changes applied, in id order; `tally` counts what happened. */
export async function* applyChanges(local: AsyncIterable<Uint8Array>, changes: AsyncIterable<RawChange>, tally: Tally): AsyncGenerator<Uint8Array> {
  const records = local[Symbol.asyncIterator]();
  const edits = changes[Symbol.asyncIterator]();
  let record = await records.next();
  let edit = await edits.next();
  while (!record.done || !edit.done) {
    const idR = record.done ? Infinity : recordId(record.value);
    const idE = edit.done ? Infinity : edit.value.id;
    if (idR < idE) {
      yield record.value as Uint8Array;
      record = await records.next();
      continue;
    }
    const change = edit.value as RawChange;
    if (change.op === "upsert") {
      if (idR === idE) tally.changed++;
      else tally.added++;
      yield change.line;
    } else if (idR === idE) {
      tally.removed++;
    }
    if (idR === idE) record = await records.next();
    edit = await edits.next();
  }
}
