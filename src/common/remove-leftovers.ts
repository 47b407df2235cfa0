/**
 * Removes what killed processes left: files named `<name>.tmp-<pid>` (and `<name>.tmp-<pid>.<part>`)
 * whose process is gone, in one directory. A live process's temporaries (another build's, this
 * one's) are left alone.
 */
import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";

const TEMP = /\.tmp-(\d+)(?:\.[^/]*)?$/;

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

/** Removes the dead processes' temporaries in `dir` whose names `belongs` accepts (all by default). */
export async function removeLeftovers(dir: string, belongs: (name: string) => boolean = () => true): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const pid = TEMP.exec(name)?.[1];
    if (pid !== undefined && belongs(name) && Number(pid) !== process.pid && !isAlive(Number(pid))) await rm(join(dir, name), { recursive: true, force: true });
  }
}
