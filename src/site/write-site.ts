/**
 * Stage 4: put a planned site on disk, incrementally and atomically.
 *
 * - A shard directory whose content-named directory already exists is left alone: 0 bytes.
 * - A changed shard is written by a writer thread into `<key>.tmp-<pid>` beside the old one, then
 *   renamed into place; inside it, files whose bytes equal the previous version's are hard-linked.
 * - The manifest is replaced last, by rename: that one atomic step switches readers from the
 *   complete old site to the complete new one. A build killed at any moment leaves the old
 *   manifest pointing at old, untouched directories.
 * - Only then are directories the new manifest does not name removed (and leftovers of killed builds).
 */
import { availableParallelism } from "node:os";
import { lstat, mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { DATA_ROOT, MANIFEST_PATH, shardDirPath, shardKeyOf, shardTempPath, shardTempWriter } from "../core/layout.ts";
import { forEachBounded } from "./for-each-bounded.ts";
import type { ShardPlan, SitePlan } from "./plan-site.ts";
import type { RecordArena } from "./record-arena.ts";
import { startWorkerPool, type WorkerPool } from "./worker-pool.ts";

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
/**
 * Writer threads: one per core, which on the 2-core machine measured wrote 361k files on tmpfs in
 * ~2.6 s against ~6 s for 64 callback writes in flight (BENCHMARKS.md). Capped because bytes in
 * flight grow with threads and more than 8 were never measured.
 */
const MAX_WRITERS = 8;
/** Shards a writer thread may have out: one being written, one waiting while the main thread assembles the next. */
const SHARDS_PER_WRITER = 2;
const WRITER_ENTRY = new URL("./shard-writer-thread.mjs", import.meta.url);

/**
 * A whole shard for a writer thread: file i is `buffer[ends[i-1] ?? 0, ends[i])`, named `names[i]`,
 * written into `tmp` (hard-linked from `old` when that version holds the same bytes), after which
 * `tmp` is renamed to `dir`. Writing in threads with synchronous fs calls keeps the main thread's
 * cost per file near nothing: the callback `fs.writeFile` cost it ~25 µs a file (BENCHMARKS.md).
 */
export interface ShardTask {
  readonly buffer: ArrayBuffer;
  readonly names: readonly string[];
  readonly ends: readonly number[];
  readonly tmp: string;
  readonly dir: string;
  readonly old: string | null;
}

/** What a writer thread did with a shard. */
export interface ShardWritten {
  readonly written: number;
  readonly linked: number;
  readonly bytesWritten: number;
  /** The files (by index) hard-linked from the old version; every other one was written. */
  readonly linkedFiles: readonly number[];
}

/** A shard's file: its name and bytes. */
export interface ShardFile {
  readonly name: string;
  readonly bytes: Uint8Array;
}

export interface ShardWriters extends Pick<WorkerPool<ShardTask, ShardWritten>, "hasRoom" | "room" | "close"> {
  /** Writes `files` into `tmp` in a thread (hard-linked from `old` where the bytes are the same), then renames `tmp` to `dir`. */
  write(files: readonly ShardFile[], tmp: string, dir: string, old: string | null): Promise<ShardWritten>;
}

/**
 * Starts the shard writer threads (the build's and the benchmark probe's): `threads` defaults to
 * one per core. A shard's bytes travel in a buffer that comes back with the answer and is reused:
 * a fresh buffer a shard cost the kernel ~30% more time in page faults (300k subjects).
 */
export function startShardWriters(threads = Math.min(MAX_WRITERS, availableParallelism())): ShardWriters {
  const count = Math.max(1, threads);
  const pool = startWorkerPool<ShardTask, ShardWritten & { readonly buffer: ArrayBuffer }>(WRITER_ENTRY, count, SHARDS_PER_WRITER);
  const free: ArrayBuffer[] = [];
  return {
    async write(files, tmp, dir, old) {
      const ends: number[] = [];
      let size = 0;
      for (const file of files) ends.push((size += file.bytes.length));
      const fits = free.findIndex((b) => b.byteLength >= size);
      const buffer = fits >= 0 ? (free.splice(fits, 1)[0] as ArrayBuffer) : new ArrayBuffer(size);
      const view = new Uint8Array(buffer);
      for (const [i, file] of files.entries()) view.set(file.bytes, i === 0 ? 0 : ends[i - 1]);
      const { buffer: back, ...written } = await pool.run({ buffer, names: files.map((f) => f.name), ends, tmp, dir, old }, [buffer]);
      // As many kept as can be out at once, the largest: every later shard then fits one.
      free.push(back);
      free.sort((a, b) => b.byteLength - a.byteLength).splice(count * SHARDS_PER_WRITER);
      return written;
    },
    get hasRoom() {
      return pool.hasRoom;
    },
    room: () => pool.room(),
    close: () => pool.close(),
  };
}

/** Writes `plan` under `outDir`, touching only files whose bytes change; `arena` renders as it goes. */
export async function writeSite(outDir: string, plan: SitePlan, arena: RecordArena, onProgress?: WriteProgress): Promise<WriteReport> {
  const root = join(outDir, DATA_ROOT);
  await mkdir(root, { recursive: true });
  const previous = await readPreviousManifest(join(outDir, MANIFEST_PATH));
  const total = plan.shards.reduce((sum, shard) => sum + shard.files.length, 1);
  const tally = { written: 0, unchanged: 0, bytesWritten: 0, done: 0 };
  const changed: string[] = [];
  const settle = (files: number): void => {
    tally.done += files;
    onProgress?.(tally.done, total);
  };
  onProgress?.(0, total);
  // Every shard's temporary directory first: creating files in a directory made a moment ago was
  // measured ~2x slower (BENCHMARKS.md). Unchanged shards drop theirs.
  await forEachBounded(plan.shards, CONCURRENCY, (shard) => mkdir(tmpDir(root, shard), { recursive: true }));
  const writers = startShardWriters();
  const writing: Promise<void>[] = [];
  try {
    // Shards come in the order their records become ready: the arena renders the chunks a shard
    // needs, then the shard goes to a thread, which writes it while the next is rendered.
    for (const shard of plan.shards) {
      while (arena.renderedChunks < shard.needsChunks) arena.renderChunk();
      const dir = join(root, shardDirPath(shard.key, shard.hash()));
      const tmp = tmpDir(root, shard);
      if (await isDirectory(dir)) {
        await rm(tmp, { recursive: true, force: true });
        tally.unchanged += shard.files.length;
        settle(shard.files.length);
        continue;
      }
      const oldHash = previous.dirs[shard.key];
      // Pages hold the count and the origin: when either changed, no old page can match.
      const comparable = oldHash !== undefined && (shard.key.startsWith("records/") || previous.sameHead(plan));
      await writers.room();
      const files = shard.files.map((f) => ({ name: f.name, bytes: f.bytes() }));
      const done = writers.write(files, tmp, dir, comparable ? join(root, shardDirPath(shard.key, oldHash)) : null).then((result) => {
        tally.written += result.written;
        tally.unchanged += result.linked;
        tally.bytesWritten += result.bytesWritten;
        const linked = new Set(result.linkedFiles);
        for (const [i, file] of files.entries()) if (!linked.has(i)) changed.push(`${shard.key}/${file.name}`);
        settle(shard.files.length);
      });
      // A failure surfaces through the final await (or room()); this only keeps it from counting as unhandled meanwhile.
      done.catch(() => undefined);
      writing.push(done);
    }
    await Promise.all(writing);
  } catch (error) {
    // Readers still see the previous site (its manifest is untouched). Stop the threads first, so
    // that nothing writes into the partial shards while they are removed.
    await writers.close();
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
  settle(1);

  const swept = await sweep(root, plan);
  return { files: total, written: tally.written, unchanged: tally.unchanged, bytesWritten: tally.bytesWritten, ...swept, changed };
}

/** A shard's temporary directory while this process writes it. */
function tmpDir(root: string, shard: ShardPlan): string {
  return join(root, shardTempPath(shard.key, process.pid));
}

/** Removes the `.tmp-<pid>` shard directories this process left. */
async function removeLeftovers(root: string): Promise<void> {
  const visit = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const abs = join(dir, entry.name);
      const writer = shardTempWriter(entry.name);
      if (writer === process.pid) await rm(abs, { recursive: true, force: true });
      else if (writer === null && shardKeyOf(entry.name) === null) await visit(abs);
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
  const keep = new Set(plan.shards.map((s) => shardDirPath(s.key, s.hash())));
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
      if (shardTempWriter(path) === null) {
        const stillProduced = new Set((names.get(shardKeyOf(path) ?? "") ?? []).map((f) => f.name));
        await count(abs, tally, (name) => !stillProduced.has(name));
      }
      await rm(abs, { recursive: true, force: true });
    }
  };
  await visit(root, "");
  return tally;
}

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
