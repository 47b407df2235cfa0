// A record thread (see record-threads.ts): parses, validates and renders the blocks of a JSON
// array it is sent. Plain JS so it starts the same under the CLI, tsx and vitest: it registers
// tsx itself, then loads the TypeScript that does the work.
import { parentPort } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const loading = import("./render-block.ts");

// Listening at once, not after an `await` of the import: messages that arrive while a module
// worker is still evaluating its top level were seen to be lost.
parentPort.on("message", async ({ id, task }) => {
  try {
    const { renderJsonBlock } = await loading;
    const block = renderJsonBlock(task);
    const transfer = [block.bytes.buffer, block.ends.buffer, block.ids.buffer, block.positions.buffer];
    parentPort.postMessage({ id, block }, transfer);
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
