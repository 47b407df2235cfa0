#!/usr/bin/env node
// The CLI as `tsc` emitted it into lib/ (`npm run compile`; `prepare` runs it on `npm ci` and
// `npm pack`): plain JavaScript, so start-up and memory pay for no TypeScript loader.
import { existsSync } from "node:fs";

// The package's directory, as a string path (bin/stale-lib.js walks its src/ with it).
const root = `${import.meta.dirname}/..`;
if (!existsSync(`${root}/lib/cli/main.js`)) {
  process.stderr.write("subjekti: lib/ is missing (the compiled CLI): run `npm run compile` in the package's directory\n");
  process.exit(1);
}
const args = process.argv.slice(2);
if (args.length === 1 && ["--help", "-h", "help", "--version", "-V"].includes(args[0])) {
  // The top-level help and the version alone come from text compiled beside the CLI (lib/cli/help-text.js,
  // kept equal to commander's output by a test): Node's start-up and two small modules, where
  // commander and the eight command files it lists would cost Node's start-up again.
  const { HELP, VERSION } = await import("../lib/cli/help-text.js");
  process.stdout.write(args[0] === "--version" || args[0] === "-V" ? `${VERSION}\n` : HELP);
} else {
  // In a checkout (src/ beside lib/) the commands still run lib/: say so when src/ was edited after
  // lib/ was compiled. Loaded here, on a command's road alone: the top-level help and version run no
  // command, and there a contributor's checkout costs what an installed copy does.
  const { libOlderThanSources } = await import("./stale-lib.js");
  if (libOlderThanSources(root))
    process.stderr.write("subjekti: warning: src/ was edited after lib/ was compiled, and lib/ is what runs: `npm run compile` first\n");
  const { main, processIo } = await import("../lib/cli/main.js");
  process.exitCode = await main(args, processIo());
}
