/**
 * A diff read from another site (or directory), validated and written again by us: its header
 * must be the one its state's history names, each change a line in the shape the build writes
 * (ids in order, each record a JSON object whose id is the change's), its counts the history's.
 * What is written is our own serialisation of what was read, never the bytes as they came: a
 * diff carried from a hostile site could otherwise hold anything (`<html><script>…`) for years.
 */
import { LineCursor } from "../common/line-cursor.ts";
import { readDiff } from "./apply-diff.ts";
import { type FeedEntry, FeedShapeError } from "./feed-format.ts";
import { HashedWriter } from "./hashed-writer.ts";

const decoder = new TextDecoder("utf-8", { fatal: true });

/** The first line of a diff, up to its changes' opening bracket: the build's serialisation of its header. */
export function diffHeader(head: Pick<FeedEntry, "sequence" | "published" | "to_version"> & { readonly from_version: string }): string {
  return `{"sequence":${head.sequence},"from_version":"${head.from_version}","to_version":"${head.to_version}","published":"${head.published}","changes":[`;
}

/** Validates the diff in `chunks` against its history entry and writes it again into `path`; why not, when it is not that diff. */
export async function copyDiff(chunks: AsyncIterable<Uint8Array>, entry: FeedEntry, path: string): Promise<string | undefined> {
  if (entry.from_version === null) return "the first sequence has no diff";
  const out = new HashedWriter(path);
  const encoder = new TextEncoder();
  const lines = await LineCursor.open(chunks).catch(async (error: unknown) => {
    await out.destroy();
    throw error;
  });
  try {
    const { head, changes } = await readDiff(lines);
    if (
      head.sequence !== entry.sequence ||
      head.from_version !== entry.from_version ||
      head.to_version !== entry.to_version ||
      head.published !== entry.published
    )
      return "its header is not the one the state's history names";
    out.add(encoder.encode(diffHeader({ ...entry, from_version: entry.from_version })));
    let upserts = 0;
    let deletes = 0;
    for await (const change of changes) {
      if (!Number.isSafeInteger(change.id)) return `the id ${change.id} is not a safe integer`;
      const comma = upserts + deletes === 0 ? "" : ",";
      if (change.op === "delete") {
        deletes++;
        out.add(encoder.encode(`${comma}\n{"op":"delete","id":${change.id}}`));
      } else {
        upserts++;
        const record: unknown = JSON.parse(decoder.decode(change.line));
        if (typeof record !== "object" || record === null || Array.isArray(record))
          return `the change for id ${change.id} holds no JSON object`;
        out.add(encoder.encode(`${comma}\n{"op":"upsert","id":${change.id},"record":`));
        out.add(change.line);
        out.add(encoder.encode("}"));
      }
      if (out.full) await out.flush();
    }
    if (upserts !== entry.upserts || deletes !== entry.deletes)
      return `it holds ${upserts} upserts and ${deletes} deletes, where the state's history says ${entry.upserts} and ${entry.deletes}`;
    out.add(encoder.encode("\n]}\n"));
    await out.end();
    return undefined;
  } catch (error) {
    // A record that is not JSON (SyntaxError) or not UTF-8 (TypeError, from the fatal decoder).
    if (error instanceof FeedShapeError || error instanceof SyntaxError || error instanceof TypeError) return error.message.slice(0, 200);
    throw error;
  } finally {
    await out.destroy();
    // What follows the closing line is never read: the body is let go of here.
    await lines.close();
  }
}
