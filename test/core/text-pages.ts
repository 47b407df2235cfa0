/**
 * A derived page as the router used to make it: every chunk decoded to text, split into lines,
 * the records joined and encoded again; pretty-printed by a full parse and JSON.stringify (what
 * Python's json.dumps writes), not by the byte pass. Kept as the oracle the byte-assembled pages
 * are checked against (page-bytes.ts).
 */
import type { ChunkSlice } from "../../src/core/route.ts";
import { PAGE_TAIL, toJson } from "../../src/core/render-page.ts";

/** A derived page's text from the texts of its chunk files, in the order `chunks` names them. */
export function assemblePage(head: string, chunks: readonly ChunkSlice[], texts: readonly string[], indent = 0): string {
  const records: string[] = [];
  chunks.forEach((slice, i) => {
    const lines = (texts[i] ?? "").split("\n", slice.to);
    for (let line = slice.from; line < slice.to; line++) records.push(lines[line] ?? "");
  });
  const page = head + records.join(",") + PAGE_TAIL;
  return indent === 0 ? page : toJson(JSON.parse(page), indent);
}
