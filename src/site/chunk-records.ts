/**
 * Stage 3 of a build, id order -> chunks: the rendered records, in id order, cut into records
 * chunks of CHUNK_SIZE (the chunk files' bytes: each record a line). Each chunk is handed on as
 * soon as it is whole, with its content hash, and dropped: nothing here holds more than one
 * chunk's records.
 *
 * In one sorted file each reader block is exactly one chunk (BLOCK_RECORDS is CHUNK_SIZE): the
 * chunk is the block, its hash the block's, and a block from the build cache is not even read
 * unless the chunk's shard must be written; a block the cache holds (stored in this build, or
 * taken from it) names its bytes file, which the chunk file is linked to. Elsewhere (several files,
 * a block with invalid records, records out of id order) records are copied into a chunk of their own.
 */
import { contentHash } from "../common/content-hash.ts";
import { leave } from "../common/stage-iterables.ts";
import type { OrderedItem, RenderedBlock } from "../data/hand-offs.ts";
import type { Chunk, ChunkItem } from "./hand-offs.ts";

/** Records [from, to) of a block: part of a chunk. */
interface Part {
  readonly block: RenderedBlock;
  readonly from: number;
  readonly to: number;
}

/**
 * Yields the records of `ordered` cut into chunks of `chunkSize` (the last one partial), each as
 * soon as it is whole; passes a "restart" on (the chunks yielded before are void, and so is a
 * partial one); returns what `ordered` returns.
 */
export async function* chunkRecords<R>(ordered: AsyncGenerator<OrderedItem, R>, chunkSize: number): AsyncGenerator<ChunkItem, R> {
  let parts: Part[] = [];
  let filled = 0;
  try {
    for (let next = await ordered.next(); ; next = await ordered.next()) {
      if (next.done === true) {
        if (filled > 0) yield { kind: "chunk", chunk: chunkOf(parts) };
        return next.value;
      }
      const item = next.value;
      if (item.kind === "restart") {
        [parts, filled] = [[], 0];
        yield item;
        continue;
      }
      const { block } = item;
      const n = block.ends.length;
      for (let k = 0; k < n; ) {
        const m = Math.min(n - k, chunkSize - filled);
        parts.push({ block, from: k, to: k + m });
        filled += m;
        k += m;
        if (filled === chunkSize) {
          const chunk = chunkOf(parts);
          [parts, filled] = [[], 0];
          yield { kind: "chunk", chunk };
        }
      }
    }
  } finally {
    await leave(ordered);
  }
}

/** The chunk of `parts`: a whole block as it is, anything else copied. */
function chunkOf(parts: readonly Part[]): Chunk {
  const [only] = parts;
  if (parts.length === 1 && only !== undefined && only.from === 0 && only.to === only.block.ends.length) {
    const { block } = only;
    const { stored } = block;
    const file = stored !== undefined && stored.bytesAt === 0 ? { file: stored.path } : {};
    const done = block.done === undefined ? {} : { done: block.done };
    return { hash: block.hash, bytes: () => block.bytes, ends: block.ends, ...file, ...done };
  }
  const views = parts.map(({ block, from, to }) => block.bytes.subarray(from === 0 ? 0 : block.ends[from - 1], block.ends[to - 1]));
  const bytes = Buffer.allocUnsafeSlow(views.reduce((sum, v) => sum + v.length, 0));
  let at = 0;
  for (const view of views) {
    bytes.set(view, at);
    at += view.length;
  }
  return { hash: contentHash(bytes), bytes: () => bytes };
}
