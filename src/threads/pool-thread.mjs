// The thread side of src/threads/worker-pool.ts: answers each `{ id, task }` with `{ id, result }`
// or `{ id, error }`. Plain JavaScript, so an entry that needs no TypeScript starts without a loader.
import { parentPort } from "node:worker_threads";

/**
 * Answers the pool's tasks with `handle`, which returns the result and what to transfer with it.
 * Call it at once in the entry's top level: messages that arrive while a module worker is still
 * evaluating after an `await` were seen to be lost.
 * @param {(task: any) => Promise<{ result: unknown, transfer?: Transferable[] }> | { result: unknown, transfer?: Transferable[] }} handle
 */
export function answerTasks(handle) {
  if (parentPort === null) throw new Error("a pool thread runs as a worker thread (src/threads/worker-pool.ts starts it)");
  const port = parentPort;
  port.on("message", async (/** @type {{ id: number, task: unknown }} */ { id, task }) => {
    try {
      const { result, transfer = [] } = await handle(task);
      port.postMessage({ id, result }, transfer);
    } catch (error) {
      // Plain fields: structured clone keeps an Error's message but not its code or path.
      const { message, stack, code, path, syscall } = /** @type {NodeJS.ErrnoException} */ (error);
      port.postMessage({ id, error: { message: message ?? String(error), stack, code, path, syscall } });
    }
  });
}
