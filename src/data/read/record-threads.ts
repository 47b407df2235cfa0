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
  // The text buffers the threads gave back: a block's text is copied into one, not into fresh memory
  // (at 1M, a thousand buffers of some 330 KB, each zeroed and faulted in, then left to the threads' GC).
  const spares: ArrayBuffer[] = [];
  return {
    async render(task) {
      // A copy with a buffer of its own, to transfer (a Buffer's slice() would be a view of the reader's).
      const bytes = copyInto(spares, task.text.bytes);
      const { block, text } = await pool.run({ ...task, text: { ...task.text, bytes } }, [bytes.buffer]);
      if (spares.length < count * IN_FLIGHT) spares.push(text);
      return block;
    },
    room: () => pool.room(),
    close: () => pool.close(),
  };
}

/** `text` copied into a spare buffer large enough (taken from `spares`), else into a new one with room for a slightly larger text. */
function copyInto(spares: ArrayBuffer[], text: Uint8Array): Uint8Array<ArrayBuffer> {
  const at = spares.findIndex((spare) => spare.byteLength >= text.length);
  const buffer = at < 0 ? new ArrayBuffer(text.length + (text.length >> 3)) : (spares.splice(at, 1)[0] as ArrayBuffer);
  const bytes = new Uint8Array(buffer, 0, text.length);
  bytes.set(text);
  return bytes;
}
