#!/usr/bin/env node
// The CLI as `tsc` emitted it into lib/ (`npm run compile`; `prepare` runs it on `npm ci` and
// `npm pack`): plain JavaScript, so start-up and memory pay for no TypeScript loader.
import { existsSync, readdirSync, statSync } from "node:fs";

// Paths as strings: with a file URL a file, the walk below cost five times its stat calls.
const root = `${import.meta.dirname}/..`;
if (!existsSync(`${root}/lib/cli/main.js`)) {
  process.stderr.write("subjekti: lib/ is missing (the compiled CLI): run `npm run compile` in the package's directory\n");
  process.exit(1);
}
// In a checkout (src/ beside lib/) the commands still run lib/: say so when src/ was edited after
// lib/ was compiled, rather than run yesterday's code in silence. The package ships no src/. Each
// source's own time is read (some 200 stat calls, 2 ms of CPU): an edit in place changes its file's
// time alone, not its folder's or git's index, so no single stamp would see it. Not for the
// top-level help and version, which run no command: there a contributor's checkout costs what an
// installed copy does.
function warnIfStale() {
  if (!existsSync(`${root}/src/cli/main.ts`)) return;
  const compiled = statSync(`${root}/lib/cli/main.js`).mtimeMs;
  /** Whether a source below `dir` was written after lib/; `top`: src/ itself, whose edge function is not compiled (Deno runs it). */
  const edited = (dir, top = false) =>
    readdirSync(dir, { withFileTypes: true }).some((entry) => {
      const path = `${dir}/${entry.name}`;
      if (top && entry.name.startsWith("edge")) return false;
      if (entry.isDirectory()) return edited(path);
      return /\.(ts|mjs)$/.test(entry.name) && statSync(path).mtimeMs > compiled;
    });
  if (edited(`${root}/src`, true))
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
  warnIfStale();
  const { main, processIo } = await import("../lib/cli/main.js");
  process.exitCode = await main(args, processIo());
}
