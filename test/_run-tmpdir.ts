/**
 * vitest's global setup: the whole run's temporary files under one directory of its own (TMPDIR,
 * which os.tmpdir() and every process the tests spawn read), removed when the run ends, so a run
 * leaves nothing in the machine's temporary directory whatever a test forgets or a failed one
 * leaves. What was left is still said, in one line, so a test that forgets its own is seen.
 */
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export async function setup(): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), "subjekti-run-"));
  process.env["TMPDIR"] = dir;
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
  };
}
