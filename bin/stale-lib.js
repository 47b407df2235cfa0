// Whether a checkout's lib/ is older than its sources: what bin/subjekti.js warns of before a
// command, and what the process tests (test/cli-entry.ts) choose the sources by, so that neither
// runs yesterday's code in silence. Each source's own time is read (some 200 stat calls, 2 ms of
// CPU): an edit in place changes its file's time alone, not its folder's or git's index, so no
// single stamp would see it. Paths as strings: with a file URL a file, the walk cost five times
// its stat calls.
import { existsSync, readdirSync, statSync } from "node:fs";

/** Whether a source below `dir` was written after `compiled`; `top`: src/ itself, whose edge function is not compiled (Deno runs it). */
function editedAfter(dir, compiled, top = false) {
  return readdirSync(dir, { withFileTypes: true }).some((entry) => {
    const path = `${dir}/${entry.name}`;
    if (top && entry.name.startsWith("edge")) return false;
    if (entry.isDirectory()) return editedAfter(path, compiled);
    return /\.(ts|mts|mjs)$/.test(entry.name) && statSync(path).mtimeMs > compiled;
  });
}

/**
 * Whether the checkout at `root` has a source under src/ written after lib/cli/main.js was: false
 * for the package, which ships no src/, and for a checkout never compiled (its lib/ is missing).
 */
export function libOlderThanSources(root) {
  if (!existsSync(`${root}/src/cli/main.ts`) || !existsSync(`${root}/lib/cli/main.js`)) return false;
  return editedAfter(`${root}/src`, statSync(`${root}/lib/cli/main.js`).mtimeMs, true);
}
