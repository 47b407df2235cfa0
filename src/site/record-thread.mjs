// A record thread (see record-threads.ts): parses, validates and renders the blocks of a JSON
// array it is sent. Plain JS so it starts the same under the CLI, tsx and vitest: it registers
// tsx itself, then loads the TypeScript that does the work.
import { register } from "tsx/esm/api";
import { answerTasks } from "./pool-thread.mjs";

register();
const loading = import("./render-block.ts");

answerTasks(async (task) => {
  const { renderJsonBlock } = await loading;
  const block = renderJsonBlock(task);
  return { result: block, transfer: [block.bytes.buffer, block.ends.buffer, block.ids.buffer, block.positions.buffer] };
});
