/**
 * Threads that parse, validate and render the blocks of large JSON arrays (the module the read
 * stage names: render-block.ts, whose `answerTask` threads/module-thread.mjs calls), so a
 * build's heaviest CPU work runs on every core while the main thread scans, hashes and writes.
 * At most IN_FLIGHT blocks per thread are out at once, which bounds the memory of block texts
 * waiting their turn.
 */
import type { RenderedBlock } from "../hand-offs.ts";
import type { BlockTask } from "./render-block.ts";
import { startWorkerPool, type WorkerPool } from "../../threads/worker-pool.ts";

export interface RecordThreads extends Pick<WorkerPool<BlockTask, RenderedBlock>, "room" | "close"> {
  /** Renders a block in a thread; its text is copied, so the caller may reuse its buffer at once. */
  render(task: BlockTask): Promise<RenderedBlock>;
}

/** Blocks out per thread at once: enough to keep it busy while the main thread scans the next. */
const IN_FLIGHT = 4;
const ENTRY = new URL("../../threads/module-thread.mjs", import.meta.url);

/** Starts `count` record threads running `module` (the URL of its .ts source; its .js when compiled). */
export function startRecordThreads(count: number, module: URL): RecordThreads {
  const pool = startWorkerPool<BlockTask, RenderedBlock>(ENTRY, count, IN_FLIGHT, { module: module.href });
  return {
    render(task) {
      // A copy with a buffer of its own, to transfer (a Buffer's slice() would be a view of the reader's).
      const bytes = new Uint8Array(task.text.bytes);
      return pool.run({ ...task, text: { ...task.text, bytes } }, [bytes.buffer]);
    },
    room: () => pool.room(),
    close: () => pool.close(),
  };
}
