/**
 * A note beside the build cache (the downloads' chunk indexes, the feed's list note): JSON written
 * whole under a temporary name renamed into place, so a reader finds the old note or the new one,
 * never half of one. A note is only an optimisation: a place that cannot be read or written
 * (CANNOT_WRITE, as the build cache itself) keeps none, and the build goes on without it.
 */
import { rmSync } from "node:fs";
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { cleanUpOnInterrupt } from "./interrupt-cleanup.ts";
import { CANNOT_WRITE, isErrno } from "./machine-error.ts";

/** The note in `file` as parsed JSON; else why there is none: missing or unreadable, or not JSON. */
export async function readCacheNote(file: string): Promise<{ readonly json: unknown } | { readonly none: "no note" | "no JSON" }> {
  try {
    return { json: JSON.parse(await readFile(file, "utf8")) };
  } catch (error) {
    if (error instanceof SyntaxError) return { none: "no JSON" };
    if (isErrno(error) && CANNOT_WRITE.has(error.code ?? "")) return { none: "no note" };
    throw error;
  }
}

/** Writes `value` as the note in `file`; a directory that cannot be written keeps none. */
export async function saveCacheNote(file: string, value: unknown): Promise<void> {
  const temp = `${file}.tmp-${process.pid}`;
  const forget = cleanUpOnInterrupt(() => rmSync(temp, { force: true }));
  try {
    await writeFile(temp, JSON.stringify(value));
    await rename(temp, file);
  } catch (error) {
    // The build cache warns about a directory it cannot write.
    if (!isErrno(error) || !CANNOT_WRITE.has(error.code ?? "")) throw error;
    await rm(temp, { force: true });
  } finally {
    forget();
  }
}
