/**
 * Notes a stage leaves beside the site's build cache for the next build (the sitemap's parts): an
 * optimisation only, so a note that cannot be read is none, and one that cannot be written costs
 * the next build the work it would have spared.
 */
import { renameSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";

/** The note in `file` as `accept` takes it, or null (missing, unreadable, or not accepted). */
export async function readBuildNote<T>(file: string, accept: (json: unknown) => json is T): Promise<T | null> {
  try {
    const json: unknown = JSON.parse(await readFile(file, "utf8"));
    return accept(json) ? json : null;
  } catch {
    return null;
  }
}

/**
 * Writes `note` to `file` whole (under a temporary name, then renamed); a failure is left silent.
 * Synchronously, so that a signal, answered between two turns of the event loop, never stops it
 * between the two and leaves the temporary beside the cache (a note is a few KB).
 */
export function writeBuildNote(file: string, note: unknown): void {
  const temporary = `${file}.tmp-${process.pid}`;
  try {
    writeFileSync(temporary, JSON.stringify(note));
    renameSync(temporary, file);
  } catch {
    rmSync(temporary, { force: true });
  }
}
