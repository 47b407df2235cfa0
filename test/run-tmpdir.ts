/**
 * vitest's global setup: the whole run's temporary files under one directory of its own (TMPDIR,
 * which os.tmpdir() and every process the tests spawn read), removed when the run ends, so a run
 * leaves nothing in the machine's temporary directory whatever a test forgets or a failed one
 * leaves. What was left is still said, in one line, so a test that forgets its own is seen.
 *
 * The fast rings (SUBJEKTI_UNIT=1) put that directory in memory (/dev/shm) where the machine has
 * one: their builds write and remove thousands of small files, which on a disk cost the kernel
 * several times the build's own CPU (a journalled file system; on the 2-core machine, whose /tmp
 * is ext4 mounted with discard, 3.4 s of system time against 0.3 s in memory for one build of 931
 * files). `npm test` keeps the system's temporary directory: its data-heavy files are large, and
 * a build on a real disk stays tested.
 */
import { mkdtemp, readdir, rm, statfs } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * What the fast rings' temporary files need at once, with room to spare: their peak was about
 * 100 MB (/dev/shm's use sampled through a run). A smaller /dev/shm (a container's is 64 MB unless
 * it is given more) would fill, so the run takes the system's temporary directory instead.
 */
const MEMORY_NEEDED = 1 << 30;

/** The run's directory: in memory for the fast rings where /dev/shm has the room, else in the system's temporary directory. */
async function runDirectory(): Promise<string> {
  if (process.env["SUBJEKTI_UNIT"] === "1") {
    try {
      const shm = await statfs("/dev/shm");
      if (shm.bavail * shm.bsize >= MEMORY_NEEDED) return await mkdtemp("/dev/shm/subjekti-run-");
    } catch {
      // No /dev/shm, or none this user may write into: the system's, as `npm test`.
    }
  }
  return mkdtemp(join(tmpdir(), "subjekti-run-"));
}

export async function setup(): Promise<() => Promise<void>> {
  // vitest calls a global setup once for the run and once more for each project that extends the
  // root config (vitest.config.ts): the first call's directory is the run's.
  if (process.env["SUBJEKTI_RUN_TMPDIR"] !== undefined) return async () => undefined;
  const dir = await runDirectory();
  process.env["TMPDIR"] = dir;
  process.env["SUBJEKTI_RUN_TMPDIR"] = dir;
  return async () => {
    const left = await readdir(dir);
    if (left.length > 0) {
      const byPrefix = new Map<string, number>();
      for (const name of left) {
        const prefix = name.replace(/-[^-]*$/, "");
        byPrefix.set(prefix, (byPrefix.get(prefix) ?? 0) + 1);
      }
      process.stderr.write(
        `temporary entries the tests left (removed with the run's directory): ${[...byPrefix].map(([prefix, n]) => `${prefix} ${n}`).join(", ")}\n`,
      );
    }
    await rm(dir, { recursive: true, force: true });
    delete process.env["SUBJEKTI_RUN_TMPDIR"];
  };
}
