/**
 * Stage 4: put a planned site on disk, incrementally and atomically.
 *
 * - A shard directory whose content-named directory already exists is left alone: 0 bytes.
 * - A changed shard is written into `<key>.tmp-<pid>` beside the old one, then renamed into
 *   place; inside it, files whose bytes equal the previous version's are hard-linked, not written.
 * - The manifest is replaced last, by rename: that one atomic step switches readers from the
 *   complete old site to the complete new one. A build killed at any moment leaves the old
 *   manifest pointing at old, untouched directories.
 * - Only then are directories the new manifest does not name removed (and leftovers of killed builds).
 */
import { lstat, mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { DATA_ROOT, MANIFEST_PATH } from "../core/layout.ts";
import { startFileWriters } from "./file-writers.ts";
import { forEachBounded } from "./for-each-bounded.ts";
import type { FilePlan, ShardPlan, SitePlan } from "./plan-site.ts";
import type { RecordArena } from "./render-records.ts";

export interface WriteReport {
  /** Files the site holds. */
  readonly files: number;
  /** Files whose bytes this build wrote. */
  readonly written: number;
  /** Files already holding the right bytes (left alone or hard-linked). */
  readonly unchanged: number;
  /** Files of the previous site that the new one no longer has. */
  readonly removed: number;
  readonly bytesWritten: number;
  readonly bytesRemoved: number;
  /** The files whose bytes this build wrote, as `<shard key>/<name>` (no hash), in no particular order. */
  readonly changed: readonly string[];
}

/** Progress of the write: files settled of the total. */
export type WriteProgress = (done: number, total: number) => void;

/** Directory operations in flight at once (making the temporary shard directories, counting removed files). */
const CONCURRENCY = 64;

interface Tally {
  written: number;
  unchanged: number;
  bytesWritten: number;
  done: number;
}

/** Writes `plan` under `outDir`, touching only files whose bytes change; `arena` renders as it goes. */
export async function writeSite(outDir: string, plan: SitePlan, arena: RecordArena, onProgress?: WriteProgress): Promise<WriteReport> {
  const root = join(outDir, DATA_ROOT);
  await mkdir(root, { recursive: true });
  const previous = await readPreviousManifest(join(outDir, MANIFEST_PATH));
  const total = plan.shards.reduce((sum, shard) => sum + shard.files.length, 1);
  const tally: Tally = { written: 0, unchanged: 0, bytesWritten: 0, done: 0 };
  const changed: string[] = [];
  const settle = (files = 1): void => {
    tally.done += files;
    onProgress?.(tally.done, total);
  };
  onProgress?.(0, total);
  // Every shard's temporary directory first: creating files in a directory made a moment ago was
  // measured ~2x slower (BENCHMARKS.md). Unchanged shards drop theirs.
  await forEachBounded(plan.shards, CONCURRENCY, (shard) => mkdir(tmpDir(root, shard), { recursive: true }));
  const rendering = renderInTurns(arena);
  const shardsWritten: Promise<void>[] = [];
  // Counted here, on the main thread, as each thread reports a file on disk.
  const writers = startFileWriters<{ readonly job: ShardJob; readonly name: string }>({
    onFile({ job, name }, linked, size) {
      if (linked) {
        tally.unchanged += 1;
      } else {
        tally.written += 1;
        tally.bytesWritten += size;
        changed.push(`${job.key}/${name}`);
      }
      settle();
      job.pending -= 1;
      if (job.pending === 0 && job.next === job.files.length) shardsWritten.push(finishShard(job));
    },
  });

  try {
    // Files go round-robin across every shard whose records are ready: file creation is serialised
    // per directory on ext4, so writes spread over directories run in parallel (BENCHMARKS.md).
    const active: ShardJob[] = [];
    let next = 0;
    let turn = 0;
    while (next < plan.shards.length || active.length > 0) {
      for (let shard = plan.shards[next]; shard !== undefined && shard.needsChunks <= arena.renderedChunks; shard = plan.shards[++next]) {
        const job = await openShard(root, shard, previous, plan);
        if (job === null) {
          tally.unchanged += shard.files.length;
          settle(shard.files.length);
        } else {
          active.push(job);
        }
      }
      const waitingFor = plan.shards[next];
      if (active.length === 0) {
        if (waitingFor !== undefined) {
          // Nothing else to write until more records are rendered: send what is batched meanwhile.
          writers.flush();
          await rendering.until(waitingFor.needsChunks);
        }
        continue;
      }
      const at = turn % active.length;
      const job = active[at] as ShardJob;
      const file = job.files[job.next++] as FilePlan;
      job.pending += 1;
      // Plain concatenation: both directories come from join() already, and path.join's normalising
      // was ~0.27 s of main-thread time over 361k files (profile).
      writers.add({ job, name: file.name }, `${job.tmp}/${file.name}`, file.bytes(), job.oldDir === null ? null : `${job.oldDir}/${file.name}`);
      if (job.next < job.files.length) {
        turn = at + 1;
      } else {
        active.splice(at, 1);
      }
      if (!writers.hasRoom) await writers.room();
    }
    await writers.drain();
    await rendering.done;
    await Promise.all(shardsWritten);
  } catch (error) {
    // Readers still see the previous site (its manifest is untouched). Stop the threads first, so
    // that nothing writes into the partial shards while they are removed.
    await writers.close();
    await Promise.allSettled(shardsWritten);
    await removeLeftovers(root);
    throw error;
  } finally {
    await writers.close();
  }

  const manifestBytes = Buffer.from(`${JSON.stringify(plan.manifest(), null, 2)}\n`);
  if (previous.bytes?.equals(manifestBytes) === true) {
    tally.unchanged += 1;
  } else {
    const manifestPath = join(outDir, MANIFEST_PATH);
    await writeFile(`${manifestPath}.tmp-${process.pid}`, manifestBytes);
    await rename(`${manifestPath}.tmp-${process.pid}`, manifestPath);
    tally.written += 1;
    tally.bytesWritten += manifestBytes.length;
  }
  settle();

  const swept = await sweep(root, plan);
  return { files: total, written: tally.written, unchanged: tally.unchanged, bytesWritten: tally.bytesWritten, ...swept, changed };
}

/** A shard being written: its files, how far along, and where. */
interface ShardJob {
  readonly key: string;
  readonly files: readonly FilePlan[];
  /** Files handed to the writers so far. */
  next: number;
  /** Files handed to the writers and not yet on disk. */
  pending: number;
  /** The temporary directory the files go into, and the name it gets when they are all there. */
  readonly tmp: string;
  readonly dir: string;
  /** The previous version of this shard, whose identical files are hard-linked; null if none can match. */
  readonly oldDir: string | null;
}

/** A shard's temporary directory while this process writes it. */
function tmpDir(root: string, shard: ShardPlan): string {
  return join(root, `${shard.key}.tmp-${process.pid}`);
}

/** The job of writing `shard`, or null (and its temporary directory gone) when its directory already exists. */
async function openShard(root: string, shard: ShardPlan, previous: PreviousSite, plan: SitePlan): Promise<ShardJob | null> {
  const dir = join(root, `${shard.key}.${shard.hash()}`);
  const tmp = tmpDir(root, shard);
  if (await isDirectory(dir)) {
    await rm(tmp, { recursive: true, force: true });
    return null;
  }
  const oldHash = previous.dirs[shard.key];
  // Pages hold the count and the origin: when either changed, no old page can match.
  const comparable = oldHash !== undefined && (shard.key.startsWith("records/") || previous.sameHead(plan));
  return { key: shard.key, files: shard.files, next: 0, pending: 0, tmp, dir, oldDir: comparable ? join(root, `${shard.key}.${oldHash}`) : null };
}

/** Renames a shard's temporary directory into place once all of its files are on disk. */
function finishShard(job: ShardJob): Promise<void> {
  const done = rename(job.tmp, job.dir);
  // A failure surfaces through writeSite's final await; this only keeps it from counting as
  // unhandled while the loop is still scheduling.
  done.catch(() => undefined);
  return done;
}

/**
 * Renders the arena chunk by chunk in the background, giving the event loop a turn after each
 * chunk so finished writes can start new ones: the disk works while the CPU renders.
 */
function renderInTurns(arena: RecordArena): { until(chunks: number): Promise<void>; readonly done: Promise<void> } {
  const waiters: { chunks: number; resolve: () => void; reject: (error: unknown) => void }[] = [];
  let failure: { error: unknown } | undefined;
  const wake = (): void => {
    for (let i = waiters.length - 1; i >= 0; i--) {
      const waiter = waiters[i];
      if (waiter !== undefined && waiter.chunks <= arena.renderedChunks) {
        waiters.splice(i, 1);
        waiter.resolve();
      }
    }
  };
  const done = (async () => {
    while (arena.renderedChunks < arena.chunkCount) {
      arena.renderChunk();
      wake();
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  })();
  // Rendering can fail (a previous chunk gone, see build-cache.ts): whoever waits for it fails too.
  done.catch((error: unknown) => {
    failure = { error };
    for (const waiter of waiters.splice(0)) waiter.reject(error);
  });
  return {
    done,
    until: (chunks) =>
      failure !== undefined
        ? Promise.reject(failure.error)
        : chunks <= arena.renderedChunks
          ? Promise.resolve()
          : new Promise<void>((resolve, reject) => waiters.push({ chunks, resolve, reject })),
  };
}

/** Removes the `.tmp-<pid>` shard directories this process left. */
async function removeLeftovers(root: string): Promise<void> {
  const suffix = `.tmp-${process.pid}`;
  const visit = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const abs = join(dir, entry.name);
      if (entry.name.endsWith(suffix)) await rm(abs, { recursive: true, force: true });
      else if (!SHARD_DIR.test(entry.name) && !TMP_DIR.test(entry.name)) await visit(abs);
    }
  };
  await visit(root);
}

interface PreviousSite {
  readonly bytes: Buffer | undefined;
  readonly dirs: Readonly<Record<string, string>>;
  /** Do the new pages share the old pages' count and origin? */
  sameHead(plan: SitePlan): boolean;
}

/** The previous build's manifest, as far as it can be read; an unreadable one means no previous site. */
async function readPreviousManifest(path: string): Promise<PreviousSite> {
  const none: PreviousSite = { bytes: undefined, dirs: {}, sameHead: () => false };
  const bytes = await readIfExists(path);
  if (bytes === null) return none;
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString("utf8"));
  } catch {
    // A manifest we cannot parse names no directory we could reuse; the sweep removes its site.
    return { ...none, bytes };
  }
  if (typeof value !== "object" || value === null) return { ...none, bytes };
  const old = value as Record<string, unknown>;
  const dirs = typeof old["dirs"] === "object" && old["dirs"] !== null ? (old["dirs"] as Record<string, string>) : {};
  return {
    bytes,
    dirs,
    sameHead: (plan) => old["count"] === plan.count && old["baseUrl"] === plan.baseUrl,
  };
}

/**
 * Removes everything under the data root that the new manifest does not name. What it counts as
 * removed is what the site no longer has: a file of an old shard version that the new version of
 * the shard also holds was replaced (counted as written or unchanged), not removed, and leftovers
 * of a killed build (`.tmp-<pid>`) were never part of a site.
 */
async function sweep(root: string, plan: SitePlan): Promise<{ removed: number; bytesRemoved: number }> {
  const keep = new Set(plan.shards.map((s) => `${s.key}.${s.hash()}`));
  const names = new Map(plan.shards.map((s) => [s.key, s.files]));
  const ancestors = new Set<string>();
  for (const path of keep) {
    for (let i = path.indexOf("/"); i >= 0; i = path.indexOf("/", i + 1)) ancestors.add(path.slice(0, i));
  }
  const tally = { removed: 0, bytesRemoved: 0 };
  const visit = async (dir: string, rel: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
      const abs = join(dir, entry.name);
      if (keep.has(path) || path === "manifest.json") continue;
      if (entry.isDirectory() && ancestors.has(path)) {
        await visit(abs, path);
        continue;
      }
      if (!TMP_DIR.test(path)) {
        const stillProduced = new Set((names.get(SHARD_DIR.exec(path)?.[1] ?? "") ?? []).map((f) => f.name));
        await count(abs, tally, (name) => !stillProduced.has(name));
      }
      await rm(abs, { recursive: true, force: true });
    }
  };
  await visit(root, "");
  return tally;
}

/** A shard directory's path: its key, then `.<hash>`. */
const SHARD_DIR = /^(.*)\.[0-9a-f]{16}$/;
/** A shard being written (`<key>.tmp-<pid>`), or left by a killed build. */
const TMP_DIR = /\.tmp-\d+$/;

/** Adds the files under `path` that `isGone` accepts (and their bytes) to the tally. */
async function count(path: string, tally: { removed: number; bytesRemoved: number }, isGone: (name: string) => boolean): Promise<void> {
  const stat = await lstat(path);
  if (!stat.isDirectory()) {
    if (isGone(basename(path))) {
      tally.removed += 1;
      tally.bytesRemoved += stat.size;
    }
    return;
  }
  const entries = await readdir(path);
  await forEachBounded(entries, CONCURRENCY, (name) => count(join(path, name), tally, isGone));
}

/** A file's bytes, or null when there is no such file. */
async function readIfExists(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch (error) {
    if (isErrno(error, "ENOENT")) return null;
    throw error;
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isDirectory();
  } catch (error) {
    if (isErrno(error, "ENOENT")) return false;
    throw error;
  }
}

function isErrno(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}
