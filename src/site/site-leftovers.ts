/**
 * Every place a build into one output leaves temporaries, in one list: beside the output (a plain
 * site's `<out>.tmp-<pid>` tree and `<out>.link-<pid>` link, the lock's own temporary), inside its
 * data root (`<key>.tmp-<pid>` shards, `manifest.json.tmp-<pid>`), at its root (the crawl files
 * waiting for the switch, `.crawl.tmp-<pid>`; and what versions before it left there and under
 * `sitemaps/`, each crawl file written aside as `.<name>.tmp-<pid>`), in its change feed and its
 * downloads, in its build cache, and the working directories in the system's temporary
 * directory. A build starting removes those of dead processes; a build stopped by a signal
 * removes its own.
 */
import { type Dirent, readdirSync, rmSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { DOWNLOADS_DIR } from "../core/download-files.ts";
import { DATA_ROOT, shardKeyOf } from "../core/layout.ts";
import { CRAWL_TEMP, SITEMAP_PARTS_DIR } from "./docs/sitemap.ts";
import { removeLeftoversSync, type Whose, writerOf } from "../common/remove-leftovers.ts";
import { removeScratchDirs } from "../common/scratch-dir.ts";
import { cacheDirOf } from "../data/read/build-cache.ts";
import { FEED_DIR } from "../feed/feed-format.ts";
import { isErrno } from "../common/machine-error.ts";

/**
 * The temporaries of the crawl files at the root as builds before the crawl files' switch wrote them
 * (each file aside, then renamed): a build of such a version that died left them, and a site
 * carries them on into this version's builds until removed.
 */
const EARLIER_CRAWL_TEMPS = ["sitemap.xml", "robots.txt", "404.html"].map((name) => `.${name}.tmp-`);

/** Removes the temporaries of builds into `outDir` (and of its cache in `cacheDir`) whose process `whose` accepts. */
export function removeBuildLeftovers(outDir: string, cacheDir: string | null, whose: Whose): void {
  const out = resolve(outDir);
  const base = basename(out);
  const beside = [`${base}.tmp-`, `${base}.link-`, `.${base}.lock.tmp-`];
  removeLeftoversSync(dirname(out), (name) => beside.some((prefix) => name.startsWith(prefix)), whose);
  removeShardTemporaries(join(out, DATA_ROOT), whose);
  removeLeftoversSync(out, (name) => name.startsWith(CRAWL_TEMP) || EARLIER_CRAWL_TEMPS.some((prefix) => name.startsWith(prefix)), whose);
  const all = (): boolean => true;
  removeLeftoversSync(join(out, SITEMAP_PARTS_DIR), all, whose);
  removeLeftoversSync(join(out, FEED_DIR), all, whose);
  removeLeftoversSync(join(out, FEED_DIR, "snapshots"), all, whose);
  removeLeftoversSync(join(out, DOWNLOADS_DIR), all, whose);
  if (cacheDir !== null) removeLeftoversSync(cacheDirOf(cacheDir, outDir), all, whose);
  removeScratchDirs(undefined, whose);
}

/** Removes the temporaries under a site's data root whose process `whose` accepts: a walk through the key directories, never into a shard. */
export function removeShardTemporaries(dir: string, whose: Whose): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    if (isErrno(error) && ["ENOENT", "ENOTDIR"].includes(error.code ?? "")) return;
    throw error;
  }
  for (const entry of entries) {
    const writer = writerOf(entry.name);
    const path = join(dir, entry.name);
    if (writer !== null) {
      if (whose(writer)) rmSync(path, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
    } else if (entry.isDirectory() && shardKeyOf(entry.name) === null) {
      removeShardTemporaries(path, whose);
    }
  }
}
