/** Test helpers over directory trees: snapshots to compare sites byte for byte. */
import { mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { forEachBounded } from "../src/common/for-each-bounded.ts";

/** How many files a snapshot (and the unchanged-build test's identities) reads at once: enough to keep the disk busy, few enough for any limit on open files. */
export const READ_BATCH = 64;

/** Every file under `dir` (relative path, `/`-separated) -> its bytes as base64; {} when `dir` is missing. */
export async function snapshotTree(dir: string): Promise<Record<string, string>> {
  // The walk first (names sorted, depth first), then the files read READ_BATCH at a time, kept in the
  // walk's order: read one after another, a site's thousand files were most of a snapshot's time.
  const files: { readonly path: string; readonly abs: string }[] = [];
  const visit = async (abs: string, rel: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(abs, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) await visit(join(abs, entry.name), path);
      else files.push({ path, abs: join(abs, entry.name) });
    }
  };
  await visit(dir, "");
  const bytes = new Map<string, string>();
  await forEachBounded(files, READ_BATCH, async (file) => void bytes.set(file.path, (await readFile(file.abs)).toString("base64")));
  const tree: Record<string, string> = {};
  for (const file of files) tree[file.path] = bytes.get(file.path) as string;
  return tree;
}

/** A fresh temporary directory (tests never touch the repo's dist/). */
export function tempDir(prefix = "subjekti-test-"): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/**
 * A fresh, empty site directory alone in a fresh temporary directory: what a test keeps beside it
 * (a build's cache, a download's chunk index, as a build keeps them beside its output) is its own.
 * Beside a `tempDir()` is the run's directory, shared by every test file running at once: an index
 * written there by another file was read as this one's.
 */
export async function siteDir(): Promise<string> {
  const dir = join(await tempDir(), "site");
  await mkdir(dir);
  return dir;
}

/** A temporary directory made before this file's tests and removed after them: `dir.path` inside a test. */
export function useTempDir(): { readonly path: string } {
  let path: string | undefined;
  beforeAll(async () => {
    path = await tempDir();
  });
  afterAll(() => (path === undefined ? undefined : rm(path, { recursive: true, force: true })));
  return {
    get path() {
      if (path === undefined) throw new Error("the temporary directory is made before the tests run");
      return path;
    },
  };
}

/**
 * A built site's tree for comparing two builds: the content-named downloads left out. A rebuild
 * keeps the previous build's beside its own (a client midway through one still finds it), which a
 * fresh build never had; the stable downloads beside them carry the bytes.
 */
export async function siteTree(dir: string): Promise<Record<string, string>> {
  const tree = await snapshotTree(dir);
  for (const path of Object.keys(tree)) if (/^downloads\/subjekti-[0-9a-f]{64}\./.test(path)) delete tree[path];
  return tree;
}
