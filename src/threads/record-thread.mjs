// A record thread (see record-threads.ts): parses, validates and renders the blocks of a JSON
// array it is sent. Plain JS, so the same entry runs from lib/ (what ships: `tsc` emits
// render-block.js beside it, and plain Node loads that) and from src/ (vitest, tsx scripts: only
// render-block.ts sits beside it, so the thread registers tsx first). tsx is a development
// dependency: the compiled CLI never reaches that branch.
import { existsSync } from "node:fs";
import { answerTasks } from "./pool-thread.mjs";

const loading = existsSync(new URL("../data/order/render-block.ts", import.meta.url))
  ? import("tsx/esm/api").then(({ register }) => {
      register();
      return import("../data/order/render-block.ts");
    })
  : import("../data/order/render-block.js");

answerTasks(async (task) => {
  const { renderJsonBlock } = await loading;
  const block = renderJsonBlock(task);
  return { result: block, transfer: [block.bytes.buffer, block.ends.buffer, block.ids.buffer, block.positions.buffer] };
});
