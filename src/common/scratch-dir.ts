/**
 * Working directories in the system's temporary directory (the external sort's runs, a plain
 * site's chunks, a copy of the previous change feed), named `subjekti-<pid>-<kind>-XXXXXX` so that
 * the next command can tell whose they are: removed when their stage ends, when a signal stops the
 * command (interrupt-cleanup.ts), and, after a `kill -9` or a power cut, by the next build or
 * export, which removes those of processes no longer alive.
 */
import { readdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cleanUpOnInterrupt } from "./interrupt-cleanup.ts";
import { DEAD, removeTreeSync, type Whose } from "./remove-leftovers.ts";
import { isErrno } from "./machine-error.ts";

const SCRATCH = /^subjekti-(\d+)-/;

/** A working directory of this process, and how to remove it. */
export interface ScratchDir {
  readonly path: string;
  remove(): Promise<void>;
}

/** Makes a working directory for `kind` (a word: "sort", "chunks", "feed") under `parent` (the system's temporary directory by default). */
export async function makeScratchDir(kind: string, parent: string = tmpdir()): Promise<ScratchDir> {
  const path = await mkdtemp(join(parent, `subjekti-${process.pid}-${kind}-`));
  const unregister = cleanUpOnInterrupt(() => removeTreeSync(path));
  return {
    path,
    async remove() {
      await rm(path, { recursive: true, force: true });
      unregister();
    },
  };
}

/** Removes the working directories under `parent` whose process `whose` accepts (by default: those no longer alive). */
export function removeScratchDirs(parent: string = tmpdir(), whose: Whose = DEAD): void {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch (error) {
    if (isErrno(error, "ENOENT")) return;
    throw error;
  }
  for (const name of names) {
    const pid = SCRATCH.exec(name)?.[1];
    if (pid === undefined || !whose(Number(pid))) continue;
    try {
      removeTreeSync(join(parent, name));
    } catch (error) {
      // Another user's, in a shared temporary directory (the sticky bit): theirs to remove.
      if (!(isErrno(error) && ["EACCES", "EPERM"].includes(error.code ?? ""))) throw error;
    }
  }
}
