/**
 * Threads that parse, validate and render the blocks of large JSON arrays (the module the read
 * stage names: render-block.ts, whose `answerTask` threads/module-thread.mjs calls), so a
 * build's heaviest CPU work runs on every core while the main thread scans, hashes and writes.
 * At most IN_FLIGHT blocks per thread are out at once, which bounds the memory of block texts
 * waiting their turn.
 */
import type { RenderedBlock } from "../hand-offs.ts";
import type { BlockTask, ThreadAnswer } from "./render-block.ts";
import { startWorkerPool, type WorkerPool } from "../../threads/worker-pool.ts";
import { SpareBuffers } from "../../common/spare-buffers.ts";

export interface RecordThreads extends Pick<WorkerPool<BlockTask, ThreadAnswer>, "room" | "close"> {
  /** Renders a block in a thread; its text is copied, so the caller may reuse its buffer at once. */
  render(task: BlockTask): Promise<RenderedBlock>;
}

/** Blocks out per thread at once: enough to keep it busy while the main thread scans the next. */
const IN_FLIGHT = 4;
const ENTRY = new URL("../../threads/module-thread.mjs", import.meta.url);

/** Starts `count` record threads running `module` (the URL of its .ts source; its .js when compiled). */
export function startRecordThreads(count: number, module: URL): RecordThreads {
  const pool = startWorkerPool<BlockTask, ThreadAnswer>(ENTRY, count, IN_FLIGHT, { module: module.href });
  const buffers = new TextBuffers();
  const rendered = new RenderedBuffers();
  return {
    async render(task) {
      // A copy with a buffer of its own, to transfer (a Buffer's slice() would be a view of the reader's).
      const bytes = buffers.copy(task.text.bytes);
      const into = rendered.take();
      const transfer = into === undefined ? [bytes.buffer] : [bytes.buffer, into];
      const { block, text } = await pool.run({ ...task, text: { ...task.text, bytes }, ...(into === undefined ? {} : { into }) }, transfer);
      buffers.give(text);
      return { ...block, done: rendered.giver(block.bytes.buffer as ArrayBuffer) };
    },
    room: () => pool.room(),
    close: () => {
      // The read is over: blocks written from now on leave their buffers to the GC.
      rendered.close();
      return pool.close();
    },
  };
}

/** The most bytes of text buffers kept between blocks: twice the most out at once at 1M (20 of some 370 KB). */
const SPARE_BYTES = 16 << 20;

/**
 * The text buffers the threads gave back, each taken again for a later block's text, so that a
 * text is copied into memory already faulted in, not into a fresh buffer (a thousand of some
 * 370 KB at 1M, each zeroed and faulted in, then left to the GC). Every buffer given back is
 * kept (up to SPARE_BYTES): the blocks of one read chunk (a dozen at 1M) go out at once, beyond
 * the IN_FLIGHT a thread the pool's room waits for, and keeping only that many made some 400
 * fresh buffers at 1M. As many are kept as were ever out at once, so they stay bounded by it.
 */
export class TextBuffers {
  readonly #spares = new SpareBuffers(SPARE_BYTES);
  /** Buffers made, not taken from the spares (for the tests). */
  made = 0;

  /** `text` copied into the smallest spare that holds it (no longer a spare), else into a new buffer an eighth larger. */
  copy(text: Uint8Array): Uint8Array<ArrayBuffer> {
    let buffer = this.#spares.fitting(text.length);
    if (buffer === undefined) {
      buffer = new ArrayBuffer(text.length + (text.length >> 3));
      this.made++;
    }
    const bytes = new Uint8Array(buffer, 0, text.length);
    bytes.set(text);
    return bytes;
  }

  /** A buffer a thread gave back (nothing else holds it): kept for a later text, unless the spares are full. */
  give(buffer: ArrayBuffer): void {
    this.#spares.give(buffer);
  }
}

/**
 * The buffers of rendered blocks given back once nothing reads them (RenderedBlock.done: the site's
 * writer has copied the chunk and made its table), each sent with a later block's task for the thread to
 * render into. A fresh buffer a block (a thousand of some 290 KB at 1M) was external memory that
 * V8 counts toward the main thread's old generation while the block waits for its records shard
 * (ten chunks), so that a heap of some 15 MB took a mark-compact every 20 to 30 MB of them (the
 * main thread's mark-compacts at 1M 25 and 29, now 21 and 24; at 100k 7, now 3: not quiet). As
 * many are kept as come back (up to SPARE_BYTES), so they stay bounded by the blocks out at once.
 */
export class RenderedBuffers {
  readonly #spares = new SpareBuffers(SPARE_BYTES);
  #closed = false;

  /** A buffer given back, for the next task (no longer a spare), or none. */
  take(): ArrayBuffer | undefined {
    return this.#spares.pop();
  }

  /** What gives `buffer` back, once: a second call does nothing. */
  giver(buffer: ArrayBuffer): () => void {
    let given = false;
    return () => {
      if (given || this.#closed || buffer.byteLength === 0) return;
      // Not kept (the spares full): a later call may keep it still.
      given = this.#spares.give(buffer);
    };
  }

  /** No more buffers kept: those kept go, and those given back later are left to the GC. */
  close(): void {
    this.#closed = true;
    this.#spares.clear();
  }
}
