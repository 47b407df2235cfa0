/**
 * A diff applied to a mirror's NDJSON: the local records and the diff's changes, both in id order,
 * merged as two streams (flat memory whatever their size). The diff is read line by line in the
 * shape the build writes it (a header line, then one change a line), keeping each record's bytes as
 * they were rendered; the result is verified by its hash against the diff's `to_version` by the caller.
 */
import { FeedShapeError, recordId } from "./feed-format.ts";
import type { NameCollector } from "./change-names.ts";
import type { HashedWriter } from "./hashed-writer.ts";
import type { LineCursor } from "../common/line-cursor.ts";

const NEWLINE = new Uint8Array([0x0a]);

export interface DiffHead {
  readonly sequence: number;
  readonly from_version: string | null;
  readonly to_version: string;
  readonly published: string;
}

export type RawChange =
  | { readonly op: "upsert"; readonly id: number; readonly line: Uint8Array }
  | { readonly op: "delete"; readonly id: number };

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
export async function readDiff(lines: LineCursor): Promise<{ head: DiffHead; changes: AsyncGenerator<RawChange> }> {
  const headText = lines.line === undefined ? "" : decoder.decode(lines.line);
  if (!headText.endsWith('"changes":[')) throw new FeedShapeError("not a diff: its first line is not a header");
  let head: DiffHead;
  try {
    head = JSON.parse(`${headText}]}`) as DiffHead;
  } catch {
    throw new FeedShapeError("not a diff: its header is not JSON");
  }
  await lines.next();
  async function* changes(): AsyncGenerator<RawChange> {
    let last = -1;
    for (; lines.line !== undefined; await lines.next()) {
      const line = lines.line;
      const text = decoder.decode(line.subarray(0, Math.min(line.length, 64)));
      if (text === "]}") return;
      let change: RawChange;
      const upsert = UPSERT.exec(text);
      const del = upsert === null ? DELETE.exec(text) : null;
      if (upsert !== null) {
        const end = line[line.length - 1] === 0x2c ? line.length - 2 : line.length - 1;
        const record = line.slice(upsert[0].length, end);
        change = { op: "upsert", id: Number(upsert[1]), line: record };
        if (recordId(record) !== change.id) throw new FeedShapeError(`a change for id ${change.id} holds the record of another id`);
      } else if (del !== null) {
        change = { op: "delete", id: Number(del[1]) };
      } else {
        throw new FeedShapeError(`not a change line: ${JSON.stringify(text)}`);
      }
      if (change.id <= last) throw new FeedShapeError(`changes out of id order at id ${change.id}`);
      last = change.id;
      yield change;
    }
    throw new FeedShapeError("the diff ends before its closing line");
  }
  return { head, changes: changes() };
}

/** The mirror's lines with the changes applied, in id order, into `out`; `tally` counts what happened, `names` names the first few. */
export async function applyChanges(
  local: LineCursor,
  changes: AsyncIterable<RawChange>,
  tally: Tally,
  out: HashedWriter,
  names?: NameCollector,
): Promise<void> {
  /** The local line into the output, then the next one. */
  const keep = async (): Promise<void> => {
    out.add(local.line as Uint8Array);
    out.add(NEWLINE);
    if (out.full) await out.flush();
    if (!local.step()) await local.more();
  };
  for await (const change of changes) {
    while (local.line !== undefined && recordId(local.line) < change.id) await keep();
    const replaces = local.line !== undefined && recordId(local.line) === change.id;
    if (change.op === "upsert") {
      if (replaces) tally.changed++;
      else tally.added++;
      names?.add(replaces ? "changed" : "added", change.id, change.line);
      out.add(change.line);
      out.add(NEWLINE);
    } else if (replaces) {
      tally.removed++;
      names?.add("removed", change.id, local.line as Uint8Array);
    }
    if (replaces && !local.step()) await local.more();
  }
  while (local.line !== undefined) await keep();
}
