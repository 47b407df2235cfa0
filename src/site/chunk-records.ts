/**
 * Stage 2: the rendered records, in id order, cut into records chunks of CHUNK_SIZE (the chunk
 * files' bytes: each record a line). Each chunk is handed on as soon as it is whole, with its
 * content hash, and dropped: nothing here holds more than one chunk's records.
 *
 * In one sorted file each reader block is exactly one chunk (BLOCK_RECORDS is CHUNK_SIZE): the
 * chunk is the block, its hash the block's, and a block from the build cache is not even read
 * unless the chunk's shard must be written. Elsewhere (several files, a block with invalid
 * records) records are copied into a chunk of their own.
 */
import { contentHash } from "../common/content-hash.ts";
import type { RenderedBlock } from "../data/order/render-block.ts";

/** A records chunk: its records' rendered bytes, one a line, and their content hash. */
export interface Chunk {
  readonly hash: string;
  /** The bytes (a cached block's are read from the build cache on first use). */
  bytes(): Uint8Array;
}

/** Takes the next chunk, in id order; the chunker waits for it. */
export type ChunkTaker = (chunk: Chunk) => Promise<void>;

/** Records [from, to) of a block: part of a chunk. */
interface Part {
  readonly block: RenderedBlock;
  readonly from: number;
  readonly to: number;
}

/** Cuts rendered blocks in id order into chunks of `chunkSize` records for `take`. */
export class Chunker {
  readonly #chunkSize: number;
  readonly #take: ChunkTaker;
  #parts: Part[] = [];
  #filled = 0;

  constructor(chunkSize: number, take: ChunkTaker) {
    this.#chunkSize = chunkSize;
    this.#take = take;
  }

  /** Takes a block's records (in id order after those taken before). */
  async add(block: RenderedBlock): Promise<void> {
    const n = block.ends.length;
    for (let k = 0; k < n; ) {
      const m = Math.min(n - k, this.#chunkSize - this.#filled);
      this.#parts.push({ block, from: k, to: k + m });
      this.#filled += m;
      k += m;
      if (this.#filled === this.#chunkSize) await this.#flush();
    }
  }

  /** Hands on the last, partial chunk. */
  async end(): Promise<void> {
    if (this.#filled > 0) await this.#flush();
  }

  async #flush(): Promise<void> {
    const parts = this.#parts;
    this.#parts = [];
    this.#filled = 0;
    await this.#take(chunkOf(parts));
  }
}

/** The chunk of `parts`: a whole block as it is, anything else copied. */
function chunkOf(parts: readonly Part[]): Chunk {
  const [only] = parts;
  if (parts.length === 1 && only !== undefined && only.from === 0 && only.to === only.block.ends.length) {
    const { block } = only;
    return { hash: block.hash, bytes: () => block.bytes };
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
