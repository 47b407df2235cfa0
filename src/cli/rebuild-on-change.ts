/**
 * `preview --watch`: rebuild the site when a file under the data directory changes, with the
 * options the site was built with (read from its manifest), atomically as every build. The
 * preview follows the new manifest by itself; a rebuild that fails prints its problems and leaves
 * the last good site served. Saves come in bursts (an editor writes a temporary file, renames
 * it), so changes are gathered for a moment; a change during a rebuild queues one more.
 */
import { watch } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { terminalLines } from "../common/terminal-text.ts";
import { MANIFEST_PATH } from "../core/layout.ts";
import { readManifest } from "../core/manifest.ts";
import { SubjektiError } from "../core/subjekti-error.ts";
import { sayFailure, type Translator } from "../common/messages/message.ts";
import { DataError } from "../data/problems/problems.ts";
import { type BuildOptions, DEFAULT_OPTIONS } from "../site/build-options.ts";
import type { Io } from "./io.ts";
import type { ProblemOutput } from "./problems-output.ts";

/** How long changes are gathered before a rebuild. */
const SETTLE_MS = 150;

export interface Watching {
  /** Settles after the rebuild in progress (if any) is done. */
  close(): Promise<void>;
}

/** The options the site in `outDir` was built with, for `dataDir`; the defaults where it has no manifest. */
async function optionsOf(dataDir: string, outDir: string): Promise<BuildOptions> {
  const text = await readFile(join(outDir, MANIFEST_PATH), "utf8").catch(() => null);
  const state = text === null ? null : readManifest(text);
  const manifest = state !== null && "manifest" in state ? state.manifest : null;
  return {
    ...DEFAULT_OPTIONS,
    dataDir,
    outDir,
    quiet: true,
    baseUrl: manifest?.baseUrl ?? "http://localhost:8080",
    ...(manifest === null ? {} : { limits: manifest.limits, forms: manifest.forms, maxLimit: manifest.maxLimit, cacheControl: manifest.cacheControl }),
    // The change feed is the published builds' history: a preview's saves are not sequences of it.
    feed: false,
  };
}

export function rebuildOnChange(dataDir: string, outDir: string, io: Io, problems: ProblemOutput, tr: Translator): Watching {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  const rebuild = async (): Promise<void> => {
    const { buildSite } = await import("../site/build-site.ts");
    const { summarise } = await import("../site/build-report.ts");
    try {
      // A build of the same output run by hand meanwhile is waited for, not refused: the watcher rebuilds after it.
      const report = await buildSite({ ...(await optionsOf(dataDir, outDir)), wait: true }, undefined, (line) => io.stderr.write(`subjekti preview: ${tr.say(line)}\n`));
      io.stdout.write(`subjekti preview: ${tr.text("summary.rebuilt", { summary: summarise(report, { outDir }, tr) })}\n`);
    } catch (error) {
      if (error instanceof DataError) await problems.print(error.problems, error.kinds);
      else if (error instanceof SubjektiError) io.stderr.write(terminalLines([`subjekti: ${sayFailure(error, tr)}`]));
      else throw error;
      io.stderr.write(`subjekti preview: ${tr.text("summary.rebuild-failed")}\n`);
    }
  };
  const start = (): void => {
    if (running !== undefined) {
      again = true;
      return;
    }
    running = rebuild().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        start();
      }
    });
  };
  const watcher = watch(dataDir, { recursive: true }, () => {
    clearTimeout(timer);
    timer = setTimeout(start, SETTLE_MS);
  });
  io.stdout.write(`subjekti preview: ${tr.text("summary.watching", { dir: dataDir })}\n`);
  return {
    async close() {
      clearTimeout(timer);
      watcher.close();
      await running;
    },
  };
}
