#!/usr/bin/env node
// The CLI as `tsc` emitted it into lib/ (`npm run compile`; `prepare` runs it on `npm ci` and
// `npm pack`): plain JavaScript, so start-up and memory pay for no TypeScript loader.
import { existsSync } from "node:fs";

if (!existsSync(new URL("../lib/cli.js", import.meta.url))) {
  process.stderr.write("subjekti: lib/ is missing (the compiled CLI): run `npm run compile` in the package's directory\n");
  process.exit(1);
}
const { main, processIo } = await import("../lib/cli.js");
process.exitCode = await main(process.argv.slice(2), processIo());
