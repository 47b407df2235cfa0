/**
 * Notes a stage leaves beside the site's build cache for the next build (the sitemap's parts, the
 * records' chunk hashes): an optimisation only, so a note that cannot be read is none, and one
 * that cannot be written costs the next build the work it would have spared.
 */
import { readFile, rename, rm, writeFile } from "node:fs/promises";

/** The note in `file` as `accept` takes it, or null (missing, unreadable, or not accepted). */
export async function readBuildNote<T>(file: string, accept: (json: unknown) => json is T): Promise<T | null> {
  try {
    const json: unknown = JSON.parse(await readFile(file, "utf8"));
    return accept(json) ? json : null;
  } catch {
    return null;
  }
}

/** Writes `note` to `file` whole (under a temporary name, then renamed); a failure is left silent. */
export async function writeBuildNote(file: string, note: unknown): Promise<void> {
  const temporary = `${file}.tmp-${process.pid}`;
  try {
    await writeFile(temporary, JSON.stringify(note));
    await rename(temporary, file);
  } catch {
    await rm(temporary, { force: true }).catch(() => undefined);
  }
}
