/**
 * Stages 4 and 7 of a build, chunks -> written records and plan -> written pages: put a site on
 * disk, incrementally and atomically.
 *
 * - A shard directory whose content-named directory already exists is left alone: 0 bytes.
 * - A changed shard is written by a writer thread into `<key>.tmp-<pid>` beside the old one, then
 *   renamed into place; inside it, files whose bytes equal the previous version's are hard-linked.
 * - The manifest is replaced last, by rename: that one atomic step switches readers from the
 *   complete old site to the complete new one. A build killed at any moment leaves the old
 *   manifest pointing at old, untouched directories.
 * - Only then are directories the new manifest does not name removed (and leftovers of killed builds).
 */
import { lstat, mkdir, readdir, rename, rm, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import {
  CHUNKS_PER_SHARD,
  chunkFileName,
  DATA_ROOT,
  MANIFEST_PATH,
  offsetsFileName,
  shardDirPath,
  shardKeyOf,
  shardTempPath,
  shardTempWriter,
} from "../core/layout.ts";
import { recordTable } from "../core/chunk-keys.ts";
import { forEachBounded } from "../common/for-each-bounded.ts";
import { cleanUpOnInterrupt } from "../common/interrupt-cleanup.ts";
import { readManifestFile } from "../common/read-site-manifest.ts";
import { isAlive, OWN, removeTreeSync } from "../common/remove-leftovers.ts";
import { forEachItem } from "../common/stage-iterables.ts";
import type { Chunk, ChunkItem, ShardFile, ShardPlan, SitePlan, WriteProgress, WriteReport } from "./hand-offs.ts";
import { recordShard } from "./record-shard.ts";
import { removeShardTemporaries } from "./site-leftovers.ts";
import { type ShardWriters, startShardWriters } from "./shard-writers.ts";

/** Directory operations in flight at once (making the temporary shard directories, counting removed files). */
const CONCURRENCY = 64;
/** Bytes a writer task takes at most (whole files): a shard of large pages goes to the threads in parts. */
const PART_BYTES = 8 * 1024 * 1024;

/**
 * Puts a site on disk as its parts become known: the records chunks while the sources are still
 * read (each records shard under its temporary name until the read has succeeded), then the page
 * and docs shards, then the manifest, then the sweep.
 */
export interface SiteWriter {
  /**
   * Takes the records chunks in id order as they come: a records shard is written (under its
   * temporary name) once its chunks are all taken, unless unchanged; a "restart" forgets the chunks
   * taken so far and removes what was written of them. After the last chunk of a read without
   * errors, renames every records shard into place; returns the chunks' hashes and what `chunks`
   * returned (the read's summary).
   */
  writeRecords<R>(chunks: AsyncGenerator<ChunkItem, R>): Promise<{ readonly hashes: readonly string[]; readonly read: R }>;
  /** The file of chunk `chunk` once writeRecords is done, with its hash when an earlier build wrote it. */
  chunkFile(chunk: number): { readonly path: string; readonly check?: string };
  /** Writes the plan's other shards (those not already there), then the manifest (the switch), then removes what it no longer names. */
  write(plan: SitePlan, onProgress?: WriteProgress): Promise<WriteReport>;
  /** After any failure: stops the threads, removes the temporary shards and the directories it made. */
  abort(): Promise<void>;
}

/** A writer for the site in `outDir`, nothing written yet (the previous manifest read). */
export async function openSiteWriter(outDir: string): Promise<SiteWriter> {
  const root = join(outDir, DATA_ROOT);
  const previous = await readPreviousManifest(outDir);
  const tally = { written: 0, unchanged: 0, bytesWritten: 0, done: 0 };
  /** What each writer task wrote: files [first, first + count) of a shard but those linked (named only when asked). */
  const changed: {
    readonly key: string;
    readonly nameOf: (index: number) => string;
    readonly first: number;
    readonly count: number;
    readonly linked: readonly number[];
  }[] = [];
  let writers: ShardWriters | undefined;
  /** The first directory this build made (outDir, the data root or records/), removed on failure; null until it made one. */
  let made: string | undefined | null = null;
  const hashes: string[] = [];
  let group: Chunk[] = [];
  /** Each records shard's directory (final name) and whether this build wrote it; the temporary ones to rename into place. */
  const recordDirs: { readonly dir: string; readonly written: boolean }[] = [];
  const renames: [string, string][] = [];
  /** The shard directories this build put in place that were not there before: removed again if it fails. */
  const placed: string[] = [];
  let writing: Promise<void>[] = [];
  let recordFiles = 0;
  // Stopped by a signal before the switch: the directory this build made goes too (its shards' temporaries go by site-leftovers.ts).
  const forgetMade = cleanUpOnInterrupt(() => {
    if (typeof made === "string") removeTreeSync(made);
  });

  /** Writes `files` into `tmp` in parts (hard-linked from `old` where the bytes are the same), renaming it to `dir` when all are written. */
  const writeShard = async (
    shard: Pick<ShardPlan, "key" | "name">,
    files: Iterable<ShardFile>,
    tmp: string,
    dir: string | null,
    old: string | null,
  ): Promise<{ readonly whole: Promise<void> }> => {
    if (writers === undefined) {
      const started = startShardWriters();
      writers = started;
      // Stopped by a signal: the threads stop writing first (the latest cleanup runs first), so that
      // the temporary shards they write into can be removed.
      cleanUpOnInterrupt(() => void started.close());
    }
    const pool = writers;
    const parts: Promise<void>[] = [];
    let batch: ShardFile[] = [];
    let bytes = 0;
    let sent = 0;
    const send = async (): Promise<void> => {
      await pool.room();
      const part = batch;
      const first = sent;
      [batch, bytes, sent] = [[], 0, sent + part.length];
      const done = pool.write(part, tmp, null, old).then((result) => {
        tally.written += result.written;
        tally.unchanged += result.linked;
        tally.bytesWritten += result.bytesWritten;
        changed.push({ key: shard.key, nameOf: shard.name, first, count: part.length, linked: result.linkedFiles });
      });
      done.catch(() => undefined);
      parts.push(done);
    };
    for (const file of files) {
      batch.push(file);
      bytes += file.bytes.length;
      if (bytes >= PART_BYTES) await send();
    }
    if (batch.length > 0) await send();
    const whole = Promise.all(parts).then(() => (dir === null ? undefined : rename(tmp, dir)));
    // A failure surfaces through the final await (or room()); this only keeps it from counting as unhandled meanwhile.
    whole.catch(() => undefined);
    writing.push(whole);
    return { whole };
  };

  /** The records shard of the chunks in `group`: left alone when its directory exists, else written under its temporary name. */
  const flushGroup = async (): Promise<void> => {
    const first = hashes.length - group.length;
    const chunks = group;
    group = [];
    const shard = recordShard(
      first,
      chunks.map((c) => c.hash),
    );
    const dir = join(root, shardDirPath(shard.key, shard.hash));
    recordFiles += shard.size;
    if (await isDirectory(dir)) {
      recordDirs.push({ dir, written: false });
      tally.unchanged += shard.size;
      return;
    }
    recordDirs.push({ dir, written: true });
    made ??= await mkdir(join(root, "records"), { recursive: true });
    const tmp = join(root, shardTempPath(shard.key, process.pid));
    await mkdir(tmp, { recursive: true });
    const oldHash = previous.dirs[shard.key];
    // Each chunk, then its table of offsets and keys (chunk-keys.ts): the order recordShard names them in.
    const files = chunks.flatMap((chunk, i) => [
      { name: chunkFileName(first + i), bytes: () => chunk.bytes() },
      { name: offsetsFileName(first + i), bytes: () => recordTable(chunk.bytes()) },
    ]);
    await writeShard(shard, lazily(files), tmp, null, oldHash === undefined ? null : join(root, shardDirPath(shard.key, oldHash)));
    renames.push([tmp, dir]);
  };

  const finishWrites = async (): Promise<void> => {
    const all = writing;
    writing = [];
    await Promise.all(all);
  };

  const addChunk = async (chunk: Chunk): Promise<void> => {
    hashes.push(chunk.hash);
    group.push(chunk);
    if (group.length === CHUNKS_PER_SHARD) await flushGroup();
  };
  const dropRecords = async (): Promise<void> => {
    await Promise.allSettled(writing);
    writing = [];
    for (const [tmp] of renames.splice(0)) await rm(tmp, { recursive: true, force: true });
    hashes.length = 0;
    recordDirs.length = 0;
    group = [];
    Object.assign(tally, { written: 0, unchanged: 0, bytesWritten: 0 });
    changed.length = 0;
    recordFiles = 0;
  };
  const endRecords = async (): Promise<void> => {
    if (group.length > 0) await flushGroup();
    await finishWrites();
    for (const [tmp, dir] of renames.splice(0)) {
      await rename(tmp, dir);
      placed.push(dir);
    }
  };

  return {
    async writeRecords(chunks) {
      const read = await forEachItem(chunks, (item) => (item.kind === "chunk" ? addChunk(item.chunk) : dropRecords()));
      await endRecords();
      return { hashes, read };
    },
    chunkFile(chunk) {
      const shard = recordDirs[Math.floor(chunk / CHUNKS_PER_SHARD)];
      if (shard === undefined) throw new Error(`chunk ${chunk} was not written`);
      const path = join(shard.dir, chunkFileName(chunk));
      return shard.written ? { path } : { path, check: hashes[chunk] as string };
    },
    async write(plan, onProgress) {
      const total = plan.shards.reduce((sum, shard) => sum + shard.size, recordFiles + 1);
      const settle = (files: number): void => {
        tally.done += files;
        onProgress?.(tally.done, total);
      };
      settle(recordFiles);
      await mkdir(root, { recursive: true });
      const dirOf = (shard: ShardPlan): string => join(root, shardDirPath(shard.key, shard.hash));
      const tmpOf = (shard: ShardPlan): string => join(root, shardTempPath(shard.key, process.pid));
      const todo: ShardPlan[] = [];
      for (const shard of plan.shards) {
        if (await isDirectory(dirOf(shard))) {
          tally.unchanged += shard.size;
          settle(shard.size);
        } else {
          todo.push(shard);
        }
      }
      // Every shard's temporary directory first: creating files in a directory made a moment ago was
      // measured ~2x slower (BENCHMARKS.md).
      await forEachBounded(todo, CONCURRENCY, (shard) => mkdir(tmpOf(shard), { recursive: true }));
      for (const shard of todo) {
        placed.push(dirOf(shard));
        const oldHash = previous.dirs[shard.key];
        // Pages hold the count and the origin: when either changed, no old page can match.
        const old = oldHash !== undefined && previous.sameHead(plan) ? join(root, shardDirPath(shard.key, oldHash)) : null;
        const { whole } = await writeShard(shard, shard.files(), tmpOf(shard), dirOf(shard), old);
        whole.then(
          () => settle(shard.size),
          () => undefined,
        );
      }
      await finishWrites();
      await writers?.close();

      const manifestBytes = Buffer.from(`${JSON.stringify(plan.manifest, null, 2)}\n`);
      if (previous.bytes?.equals(manifestBytes) === true) {
        tally.unchanged += 1;
      } else {
        const manifestPath = join(outDir, MANIFEST_PATH);
        await writeFile(`${manifestPath}.tmp-${process.pid}`, manifestBytes);
        forgetMade();
        await rename(`${manifestPath}.tmp-${process.pid}`, manifestPath);
        tally.written += 1;
        tally.bytesWritten += manifestBytes.length;
      }
      settle(1);
      forgetMade();

      const swept = await sweep(root, plan);
      const counts = { files: total, written: tally.written, unchanged: tally.unchanged, bytesWritten: tally.bytesWritten, ...swept };
      return {
        ...counts,
        get changed() {
          return changed.flatMap(({ key, nameOf, first, count, linked }) => {
            const kept = new Set(linked);
            return Array.from({ length: count }, (_, i) => i)
              .filter((i) => !kept.has(i))
              .map((i) => `${key}/${nameOf(first + i)}`);
          });
        },
      };
    },
    async abort() {
      // Readers still see the previous site (its manifest is untouched). Stop the threads first, so
      // that nothing writes into the partial shards while they are removed.
      await writers?.close();
      forgetMade();
      if (made !== null && made !== undefined) await rm(made, { recursive: true, force: true });
      // The previous manifest names none of them: the site is left as it was.
      for (const dir of placed.splice(0)) await rm(dir, { recursive: true, force: true });
      removeShardTemporaries(root, OWN);
    },
  };
}

/** Files whose bytes are made as each is taken. */
function* lazily(files: readonly { readonly name: string; bytes(): Uint8Array }[]): Generator<ShardFile> {
  for (const file of files) yield { name: file.name, bytes: file.bytes() };
}

interface PreviousSite {
  readonly bytes: Buffer | undefined;
  readonly dirs: Readonly<Record<string, string>>;
  /** Do the new pages share the old pages' count and origin? */
  sameHead(plan: SitePlan): boolean;
}

/** The previous build's manifest, as far as it can be read (any layout's names directories whose files may be linked); none: no previous site. */
async function readPreviousManifest(outDir: string): Promise<PreviousSite> {
  const { bytes, json } = await readManifestFile(outDir);
  // A manifest we cannot parse names no directory we could reuse; the sweep removes its site.
  if (typeof json !== "object" || json === null) return { bytes: bytes ?? undefined, dirs: {}, sameHead: () => false };
  const old = json as Record<string, unknown>;
  const dirs = typeof old["dirs"] === "object" && old["dirs"] !== null ? (old["dirs"] as Record<string, string>) : {};
  return {
    bytes: bytes ?? undefined,
    dirs,
    sameHead: (plan) => old["count"] === plan.count && old["baseUrl"] === plan.baseUrl,
  };
}

/**
 * Removes everything under the data root that the new manifest does not name. What it counts as
 * removed is what the site no longer has: a file of an old shard version that the new version of
 * the shard also holds was replaced (counted as written or unchanged), not removed, and leftovers
 * of a killed build (`.tmp-<pid>`) were never part of a site. Nothing the new manifest names goes,
 * nor the temporaries of a live process.
 */
async function sweep(root: string, plan: SitePlan): Promise<{ removed: number; bytesRemoved: number }> {
  const dirs = Object.entries(plan.manifest.dirs).map(([key, hash]) => [key, shardDirPath(key, hash)] as const);
  const keep = new Set(dirs.map(([, path]) => path));
  const current = new Map(dirs);
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
      const writer = shardTempWriter(path);
      // Under the output's lock no other build writes here; a live writer's shard is left alone all the same.
      if (writer !== null && writer !== process.pid && isAlive(writer)) continue;
      if (writer === null) {
        // The files the shard's new version holds too were replaced, not removed.
        const now = current.get(shardKeyOf(path) ?? "");
        const stillProduced = new Set(now === undefined ? [] : await readdir(join(root, now)));
        await count(abs, tally, (name) => !stillProduced.has(name));
        // Renamed away first, in one step: a sweep cut short (a signal, a kill) leaves a temporary
        // of this process, which the next build removes, never a shard directory that lacks some
        // of its files while a later build, finding it there, names it again.
        const doomed = `${abs}.tmp-${process.pid}`;
        await rename(abs, doomed);
        await rm(doomed, { recursive: true, force: true });
        continue;
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
