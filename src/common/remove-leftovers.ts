/**
 * Removes what stopped processes left: files and directories named `<name>.tmp-<pid>` (and
 * `<name>.tmp-<pid>.<part>`) or `<name>.link-<pid>`, in one directory. Whose temporaries go is the
 * caller's choice: a build starting removes those of dead processes (a live build's are left alone),
 * a build stopped by a signal removes its own.
 */
import { readdirSync, rmSync } from "node:fs";
import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";

const TEMP = /\.(?:tmp|link)-(\d+)(?:\.[^/]*)?$/;

/** Is process `pid` alive (on this machine)? */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, another user's.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Which writers' temporaries to remove: by their process id. */
export type Whose = (pid: number) => boolean;

/** The temporaries of processes that are gone (never this one's). */
export const DEAD: Whose = (pid) => pid !== process.pid && !isAlive(pid);
/** This process's own temporaries. */
export const OWN: Whose = (pid) => pid === process.pid;

/** The process that wrote a temporary named `name`, or null when the name is no temporary's. */
export function writerOf(name: string): number | null {
  const pid = TEMP.exec(name)?.[1];
  return pid === undefined ? null : Number(pid);
}

/** Removes the temporaries in `dir` whose names `belongs` accepts (all by default) and whose writer `whose` accepts (dead ones by default). */
export async function removeLeftovers(dir: string, belongs: (name: string) => boolean = () => true, whose: Whose = DEAD): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const pid = writerOf(name);
    if (pid !== null && belongs(name) && whose(pid)) await rm(join(dir, name), { recursive: true, force: true });
  }
}

/**
 * removeLeftovers, synchronously (for the signal handler, and for a build starting, where a few
 * directory listings cost less than their promises); retried, as another thread may still be
 * writing into a directory being removed.
 */
export function removeLeftoversSync(dir: string, belongs: (name: string) => boolean, whose: Whose): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    if (["ENOENT", "ENOTDIR"].includes((error as NodeJS.ErrnoException).code ?? "")) return;
    throw error;
  }
  for (const name of names) {
    const pid = writerOf(name);
    if (pid !== null && belongs(name) && whose(pid)) removeTreeSync(join(dir, name));
  }
}

/**
 * Removes a tree at once, while writes already in flight may still add files to it: rmSync's own
 * retries only retry the directory's rmdir, never the files that appeared since it listed them,
 * so each try lists again, waiting a little longer each time for the writes to settle.
 */
export function removeTreeSync(path: string): void {
  for (let attempt = 1; ; attempt++) {
    try {
      rmSync(path, { recursive: true, force: true });
      return;
    } catch (error) {
      if (attempt >= 20 || !["ENOTEMPTY", "EBUSY"].includes((error as NodeJS.ErrnoException).code ?? "")) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10 * attempt);
    }
  }
}
