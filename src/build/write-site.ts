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
import { writeFile as writeFileWithCallback } from "node:fs";
import { link, lstat, mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { promisify } from "node:util";
import { basename, join } from "node:path";
import { DATA_ROOT, MANIFEST_PATH } from "../core/layout.ts";
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
}

/** Progress of the write: files settled of the total. */
export type WriteProgress = (done: number, total: number) => void;

/** File operations in flight at once: enough to keep libuv's threads busy, few enough to bound memory. */
const CONCURRENCY = 64;
/**
 * The callback `fs.writeFile`, promisified: for a small file it is one open, write and close on the
 * thread pool, where fs/promises goes through a FileHandle with a promise per step (measured ~10%
 * faster over 100k page files).
 */
const writeSmallFile = promisify(writeFileWithCallback);
/** Link errors that mean "this file system cannot hard-link here": write the bytes instead. */
const NO_LINK = new Set(["EXDEV", "EPERM", "ENOTSUP", "EMLINK", "EOPNOTSUPP"]);

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
  const settle = (files = 1): void => {
    tally.done += files;
    onProgress?.(tally.done, total);
  };
  onProgress?.(0, total);
  // Every shard's temporary directory first: creating files in a directory made a moment ago was
  // measured ~2x slower (BENCHMARKS.md). Unchanged shards drop theirs.
  await forEachBounded(plan.shards, CONCURRENCY, (shard) => mkdir(tmpDir(root, shard), { recursive: true }));
  const rendering = renderInTurns(arena);
  const pool = createPool(CONCURRENCY);
  const shardsWritten: Promise<void>[] = [];

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
        if (waitingFor !== undefined) await rendering.until(waitingFor.needsChunks);
        continue;
      }
      const at = turn % active.length;
      const job = active[at] as ShardJob;
      const file = job.files[job.next++] as FilePlan;
      job.writes.push((await pool.start(() => writeOne(job, file, tally, settle))).done);
      pool.check();
      if (job.next < job.files.length) {
        turn = at + 1;
      } else {
        active.splice(at, 1);
        shardsWritten.push(finishShard(job));
      }
    }
    await Promise.all(shardsWritten);
    await rendering.done;
  } catch (error) {
    // Readers still see the previous site (its manifest is untouched); drop this build's partial shards.
    await Promise.allSettled(shardsWritten);
    await removeLeftovers(root);
    throw error;
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
  return { files: total, written: tally.written, unchanged: tally.unchanged, bytesWritten: tally.bytesWritten, ...swept };
}

/** A shard being written: its files, how far along, and where. */
interface ShardJob {
  readonly files: readonly FilePlan[];
  next: number;
  readonly writes: Promise<void>[];
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
  return { files: shard.files, next: 0, writes: [], tmp, dir, oldDir: comparable ? join(root, `${shard.key}.${oldHash}`) : null };
}

/** Writes one file of a shard, or hard-links the previous version's when the bytes are the same. */
async function writeOne(job: ShardJob, file: FilePlan, tally: Tally, settle: () => void): Promise<void> {
  const bytes = file.bytes();
  const target = join(job.tmp, file.name);
  if (job.oldDir !== null && (await linkIfSame(join(job.oldDir, file.name), bytes, target))) {
    tally.unchanged += 1;
  } else {
    await writeSmallFile(target, bytes);
    tally.written += 1;
    tally.bytesWritten += bytes.length;
  }
  settle();
}

/** Settles when every file of the shard is written and its directory renamed into place. */
function finishShard(job: ShardJob): Promise<void> {
  const done = Promise.all(job.writes).then(() => rename(job.tmp, job.dir));
  // A failure surfaces through pool.check() and writeSite's final await; this only keeps it from
  // counting as unhandled while the loop is still scheduling.
  done.catch(() => undefined);
  return done;
}

/** Work under way (wrapped, so that awaiting the start does not await the end). */
interface Running {
  readonly done: Promise<void>;
}

interface Pool {
  /** Waits for a free slot and starts `task` in it. */
  start(task: () => Promise<void>): Promise<Running>;
  /** Throws the first failure of a task, so the caller stops scheduling more. */
  check(): void;
}

/** At most `limit` tasks at once; a failed task fails the pool. */
function createPool(limit: number): Pool {
  let active = 0;
  let failure: { error: unknown } | undefined;
  const waiting: (() => void)[] = [];
  const pool: Pool = {
    async start(task) {
      while (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
      pool.check();
      active += 1;
      const run = task().finally(() => {
        active -= 1;
        waiting.shift()?.();
      });
      run.catch((error: unknown) => {
        failure ??= { error };
      });
      return { done: run };
    },
    check() {
      if (failure !== undefined) throw failure.error;
    },
  };
  return pool;
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

/** Hard-links `old` to `target` when `old` holds exactly `bytes`; false when it does not or cannot. */
async function linkIfSame(old: string, bytes: Buffer, target: string): Promise<boolean> {
  const current = await readIfExists(old);
  if (current?.equals(bytes) !== true) return false;
  try {
    await link(old, target);
    return true;
  } catch (error) {
    if (error instanceof Error && NO_LINK.has((error as NodeJS.ErrnoException).code ?? "")) return false;
    throw error;
  }
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
