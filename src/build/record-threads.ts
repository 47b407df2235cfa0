/**
 * Threads that parse, validate and render the blocks of large JSON arrays (render-block.ts), so a
 * build's heaviest CPU work runs on every core while the main thread scans, hashes and writes.
 * Blocks go round the threads; at most IN_FLIGHT per thread are out at once, which bounds the
 * memory of block texts waiting their turn.
 */
import { Worker } from "node:worker_threads";
import type { BlockTask, RenderedBlock } from "./render-block.ts";

export interface RecordThreads {
  /** Renders a block in a thread; its text is copied, so the caller may reuse its buffer at once. */
  render(task: BlockTask): Promise<RenderedBlock>;
  /** Settles when fewer than the bound of blocks are out. */
  ready(): Promise<void>;
  /** Stops the threads (pending blocks fail). */
  close(): Promise<void>;
}

/** Blocks out per thread at once: enough to keep it busy while the main thread scans the next. */
const IN_FLIGHT = 4;
const ENTRY = new URL("./record-thread.mjs", import.meta.url);

interface Pending {
  readonly resolve: (block: RenderedBlock) => void;
  readonly reject: (error: Error) => void;
}

/** Starts `count` record threads. */
export function startRecordThreads(count: number): RecordThreads {
  const pending = new Map<number, Pending>();
  let nextId = 0;
  let failure: Error | undefined;
  let waiting: (() => void)[] = [];
  const fail = (error: Error): void => {
    failure ??= error;
    for (const p of pending.values()) p.reject(failure);
    pending.clear();
    for (const wake of waiting.splice(0)) wake();
  };
  const threads = Array.from({ length: count }, () => {
    // No execArgv: the thread registers tsx itself; the parent's `--import tsx` would load it twice.
    const worker = new Worker(ENTRY, { execArgv: [] });
    worker.on("message", (message: { id: number; block?: RenderedBlock; error?: string }) => {
      const p = pending.get(message.id);
      if (p === undefined) return;
      pending.delete(message.id);
      if (message.block !== undefined) p.resolve(message.block);
      else p.reject(new Error(`a record thread failed: ${message.error ?? "unknown error"}`));
      if (pending.size < count * IN_FLIGHT) for (const wake of waiting.splice(0)) wake();
    });
    worker.on("error", (error) => fail(error));
    worker.on("exit", (code) => {
      if (code !== 0) fail(new Error(`a record thread exited with code ${code}`));
    });
    return worker;
  });

  return {
    render(task) {
      if (failure !== undefined) return Promise.reject(failure);
      const id = nextId++;
      const thread = threads[id % threads.length] as Worker;
      // A copy with a buffer of its own, to transfer (a Buffer's slice() would be a view of the reader's).
      const bytes = new Uint8Array(task.text.bytes);
      return new Promise<RenderedBlock>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        try {
          thread.postMessage({ id, task: { ...task, text: { ...task.text, bytes } } }, [bytes.buffer]);
        } catch (error) {
          pending.delete(id);
          reject(error as Error);
        }
      });
    },
    ready() {
      if (failure !== undefined || pending.size < count * IN_FLIGHT) return Promise.resolve();
      return new Promise<void>((resolve) => waiting.push(resolve));
    },
    async close() {
      waiting = [];
      await Promise.all(threads.map((t) => t.terminate()));
    },
  };
}
