// A pool thread that answers with a module named by whoever starts it (workerData.module, a file
// URL of its TypeScript source, whose `answerTask(task)` returns `{ result, transfer }`): so the
// threads room starts record threads without importing what they run. Plain JS, so the same entry
// runs from lib/ (what ships: `tsc` emits the module as .js beside where its .ts was, and plain
// Node loads that) and from src/ (vitest, tsx scripts: the .ts is there, so the thread registers
// tsx first). tsx is a development dependency: the compiled CLI never reaches that branch.
import { existsSync } from "node:fs";
import { workerData } from "node:worker_threads";
import { answerTasks } from "./pool-thread.mjs";

const source = new URL(/** @type {{ module: string }} */ (workerData).module);
const loading = existsSync(source)
  ? import("tsx/esm/api").then(({ register }) => {
      register();
      return import(source.href);
    })
  : import(source.href.replace(/\.ts$/, ".js"));

answerTasks(async (task) => (await loading).answerTask(task));
