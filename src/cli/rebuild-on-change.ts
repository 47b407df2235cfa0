/**
 * `preview --watch`: rebuild the site when a file under the data directory changes, with the
 * options the site was built with (read from its manifest), atomically as every build. The
 * preview follows the new manifest by itself; a rebuild prints its warnings as `build` does, and
 * one that fails prints its problems and leaves the last good site served. Saves come in bursts (an editor writes a temporary file, renames
 * it), so changes are gathered for a moment; a change during a rebuild queues one more.
 *
 * Each directory is watched on its own, not the tree at once: Node's recursive watch on Linux
 * follows files, and a file replaced by a rename (how editors and the tests save) went unwatched
 * after its first save. A directory's own watch sees every entry written, renamed or removed.
 */
import { existsSync, type FSWatcher, readdirSync, watch } from "node:fs";
import { join } from "node:path";
import { readManifestFile } from "../common/read-site-manifest.ts";
import { terminalLines } from "../common/terminal-text.ts";
import { SubjektiError } from "../core/errors.ts";
import type { Translator } from "../common/messages/message.ts";
import { sayFailure } from "../common/messages/translate.ts";
import { DataError } from "../data/problems/problems.ts";
import type { BuildOptions } from "../site/build-options.ts";
import type { feedLine, summarise } from "./build-report.ts";
import { STATE_PATH } from "../feed/feed-format.ts";
import type { buildSite } from "../site/build-site.ts";
import type { Io } from "./io.ts";
import type { ProblemOutput } from "./problems-output.ts";

/** How long changes are gathered before a rebuild. */
const SETTLE_MS = 150;

export interface Watching {
  /** Settles after the rebuild in progress (if any) is done. */
  close(): Promise<void>;
}

/**
 * The options the site in `outDir` was built with, for `dataDir`; the defaults where it has no
 * manifest. The change feed goes on as the site's own: a save whose data changed is a sequence, as
 * `build` makes one, so a mirror syncing from the preview hears of every change (with the feed off,
 * the state kept its sequence while the pages changed, and sync said nothing had). A site built
 * with --no-feed stays without one. SOURCE_DATE_EPOCH dates the data as it does for `build`.
 */
async function optionsOf(dataDir: string, outDir: string, env: Io["env"]): Promise<BuildOptions> {
  // A site this version cannot read is rebuilt with the defaults, as a missing one.
  const { state } = await readManifestFile(outDir).catch(() => ({ state: null }));
  const manifest = state !== null && "manifest" in state ? state.manifest : null;
  const feed = manifest === null || existsSync(join(outDir, STATE_PATH));
  const options = { dataDir, outDir, feed, sourceDateEpoch: env["SOURCE_DATE_EPOCH"] };
  if (manifest === null) return options;
  const { baseUrl, limits, forms, maxLimit, cacheControl } = manifest;
  return { ...options, baseUrl, limits, forms, maxLimit, cacheControl };
}

/** `dir` and every directory under it, hidden ones skipped (as the sources are found). */
function directoriesUnder(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    // Gone meanwhile (or never there): nothing to watch; the rebuild says what is missing.
    return [];
  }
  const below = entries.filter((e) => e.isDirectory() && !e.name.startsWith(".")).flatMap((e) => directoriesUnder(join(dir, e.name)));
  return [dir, ...below];
}

/** What the watcher rebuilds with and reports to: the build and its summary line (build-site.ts, build-report.ts), the output. */
export interface RebuildWith {
  readonly io: Io;
  readonly problems: ProblemOutput;
  readonly buildSite: typeof buildSite;
  readonly summarise: typeof summarise;
  readonly feedLine: typeof feedLine;
  /** The language the watcher speaks. */
  readonly tr: Translator;
}

/** Rebuilds `outDir` from `dataDir` on every change under it, until closed. */
export function rebuildOnChange(
  dataDir: string,
  outDir: string,
  { io, problems, buildSite, summarise, feedLine, tr }: RebuildWith,
): Watching {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let feedOffSaid = false;
  const rebuild = async (): Promise<void> => {
    try {
      // A build of the same output run by hand meanwhile is waited for, not refused: the watcher rebuilds after it.
      const options = await optionsOf(dataDir, outDir, io.env);
      const report = await buildSite({ ...options, wait: true }, undefined, (line) =>
        io.stderr.write(`subjekti preview: ${tr.say(line)}\n`),
      );
      // The warnings as `build` prints them (under a baseline, the new ones in full and the known ones counted), so a mistyped OIB never goes live unsaid.
      const all = problems.all;
      if (report.known !== undefined) problems.all = true;
      await problems.print(report.warnings, report.kinds);
      problems.all = all;
      problems.printKnown(report.known);
      io.stdout.write(`subjekti preview: ${tr.text("summary.rebuilt", { summary: summarise(report, { outDir }, tr) })}\n`);
      // What the change feed made of it, as `build` says; or, once, that a site built without a feed has none to follow.
      if (report.feed !== undefined) io.stdout.write(`subjekti preview: ${feedLine(report.feed, tr)}\n`);
      else if (!feedOffSaid) io.stdout.write(`subjekti preview: ${tr.text("summary.watch-feed-off", { out: outDir })}\n`);
      feedOffSaid ||= report.feed === undefined;
    } catch (error) {
      if (error instanceof DataError) await problems.printError(error);
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
  const watchers = new Map<string, FSWatcher>();
  const changed = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      follow();
      start();
    }, SETTLE_MS);
  };
  /** Watches the directories there are now: new ones added, removed ones let go. */
  const follow = (): void => {
    const now = new Set(directoriesUnder(dataDir));
    for (const [dir, watcher] of watchers) {
      if (now.has(dir)) continue;
      watcher.close();
      watchers.delete(dir);
    }
    for (const dir of now) {
      if (watchers.has(dir)) continue;
      try {
        const watcher = watch(dir, changed);
        // A directory removed while watched: let it go; its parent's watch saw the removal.
        watcher.on("error", () => {
          watcher.close();
          if (watchers.get(dir) === watcher) watchers.delete(dir);
        });
        watchers.set(dir, watcher);
      } catch {
        // Removed between the listing and the watch: the parent's watch saw it.
      }
    }
  };
  follow();
  // A data directory that is not there fails here, as the watch of the whole tree did.
  if (!watchers.has(dataDir)) watchers.set(dataDir, watch(dataDir, changed));
  io.stdout.write(`subjekti preview: ${tr.text("summary.watching", { dir: dataDir })}\n`);
  return {
    async close() {
      clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
      await running;
    },
  };
}
