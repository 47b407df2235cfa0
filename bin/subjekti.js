#!/usr/bin/env node
// The CLI as `tsc` emitted it into lib/ (`npm run compile`; `prepare` runs it on `npm ci` and
// `npm pack`): plain JavaScript, so start-up and memory pay for no TypeScript loader.
import { existsSync, readdirSync, statSync } from "node:fs";

if (!existsSync(new URL("../lib/cli/main.js", import.meta.url))) {
  process.stderr.write("subjekti: lib/ is missing (the compiled CLI): run `npm run compile` in the package's directory\n");
  process.exit(1);
}
// In a checkout (src/ beside lib/) the commands still run lib/: say so when src/ was edited after
// lib/ was compiled, rather than run yesterday's code in silence. The package ships no src/.
const src = new URL("../src/", import.meta.url);
if (existsSync(new URL("cli/main.ts", src))) {
  const compiled = statSync(new URL("../lib/cli/main.js", import.meta.url)).mtimeMs;
  // The edge function is not compiled (Deno runs it): its edits do not make lib/ stale.
  const edited = readdirSync(src, { recursive: true }).some(
    (name) => /\.(ts|mjs)$/.test(name) && !name.startsWith("edge") && statSync(new URL(name, src)).mtimeMs > compiled,
  );
  if (edited)
    process.stderr.write("subjekti: warning: src/ was edited after lib/ was compiled, and lib/ is what runs: `npm run compile` first\n");
}
const args = process.argv.slice(2);
if (args.length === 1 && ["--help", "-h", "help", "--version", "-V"].includes(args[0])) {
  // The top-level help and the version alone come from text compiled beside the CLI (lib/cli/help-text.js,
  // kept equal to commander's output by a test): Node's start-up and two small modules, where
  // commander and the eight command files it lists would cost Node's start-up again.
  const { HELP, VERSION } = await import("../lib/cli/help-text.js");
  process.stdout.write(args[0] === "--version" || args[0] === "-V" ? `${VERSION}\n` : HELP);
} else {
  const { main, processIo } = await import("../lib/cli/main.js");
  process.exitCode = await main(args, processIo());
}
