/**
 * Stages 4 and 7 of a build, chunks -> written records and plan -> written pages: put a site on
 * disk, incrementally and atomically.
 *
 * - A shard directory whose content-named directory already exists is left alone: 0 bytes.
 * - A changed shard is written by a writer thread into `<key>.tmp-<pid>` beside the old one, then
 *   renamed into place; inside it, files whose bytes equal the previous version's are hard-linked,
 *   and a records chunk whose bytes are a file of the build cache already (Chunk.file) is
 *   hard-linked to that file: one copy of the rendered records on disk.
 * - The manifest is replaced last, by rename: that one atomic step switches readers from the
 *   complete old site to the complete new one. A build killed at any moment leaves the old
 *   manifest pointing at old, untouched directories.
 * - Only then are directories the new manifest does not name removed (and leftovers of killed builds).
 * - Every directory is made synchronously. A signal's cleanup (interrupt-cleanup.ts) runs between
 *   two turns of the event loop; a `mkdir` still queued in libuv's thread pool then would make
 *   again, after the cleanup, the temporary it had just removed, and the stopped build would leave it.
 */
import { mkdirSync, renameSync, unlinkSync } from "node:fs";
import { lstat, readdir, rename, rm, writeFile } from "node:fs/promises";
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
import type { Manifest } from "../core/manifest.ts";
import { forEachBounded } from "../common/for-each-bounded.ts";
import { isErrno } from "../common/machine-error.ts";
import { failAt, pauseAt } from "../common/pause-point.ts";
import { cleanUpOnInterrupt } from "../common/interrupt-cleanup.ts";
import { readManifestFile } from "../common/read-site-manifest.ts";
import { isAlive, OWN, removeTreeSync } from "../common/remove-leftovers.ts";
import { forEachItem } from "../common/stage-iterables.ts";
import type {
  Chunk,
  ChunkItem,
  PagesToWrite,
  ShardFile,
  ShardPlan,
  SiteOutput,
  SitePlan,
  SiteWritten,
  WriteProgress,
  WrittenRecords,
} from "./hand-offs.ts";
import type { ChunkFile } from "./read-chunks.ts";
import { readSiteFacts, type SiteChanges, siteChanges } from "./site-changes.ts";
import { recordShard } from "./record-shard.ts";
import { removeShardTemporaries } from "./site-leftovers.ts";
import { type Kept, type ShardWriters, type ShardWritten, startShardWriters } from "./shard-writers.ts";

/** Directory reads in flight at once (counting removed files). */
const CONCURRENCY = 64;
/**
 * Bytes a writer task takes at most (whole files): a shard of large pages goes to the threads in
 * parts. 2 MB, not 8: the parts out at once and the buffers kept for them (shard-writers.ts) are
 * held while the search thread runs beside the pages (some 40 MB of the build's peak at 1M).
 */
const PART_BYTES = 2 * 1024 * 1024;
/** Files of a shard already on disk (spilled) that a writer task links or copies: the parts of a shard of a thousand go to both threads. */
const PLACED_FILES = 100;

/** What a writer task wrote: files [first, first + count) of a shard but those linked (named only when asked). */
interface WrittenPart {
  readonly key: string;
  readonly nameOf: (index: number) => string;
  readonly first: number;
  readonly count: number;
  readonly linked: readonly number[];
}

/** The shards on their way to the writer threads (started at the first), and what they wrote. */
class ShardQueue {
  readonly tally = { written: 0, unchanged: 0, bytesWritten: 0, done: 0 };
  readonly parts: WrittenPart[] = [];
  #writers: ShardWriters | undefined;
  #writing: Promise<void>[] = [];

  /**
   * Writes a shard into `tmp` in parts (hard-linked from `old` where the bytes are the same),
   * renaming it to `dir` when all are written: its `files` sent to the threads PART_BYTES at a time,
   * or, when they wait in a directory already (a spilled shard's), that directory's files linked or
   * copied by the threads PLACED_FILES at a time, no byte of them passing through this thread (the
   * search's order files are 4 bytes a subject each, 40 MB at ten million). Files the shard's
   * producer says are `kept` are linked from where they are, unread.
   */
  async write(
    shard: Pick<ShardPlan, "key" | "name" | "size" | "kept">,
    files: Iterable<ShardFile> | { readonly dir: string },
    tmp: string,
    dir: string | null,
    old: string | null,
  ): Promise<{ readonly whole: Promise<void> }> {
    const pool = this.#start();
    const parts: Promise<void>[] = [];
    if ("dir" in files) {
      for (let first = 0; first < shard.size; first += PLACED_FILES) {
        const names = Array.from({ length: Math.min(PLACED_FILES, shard.size - first) }, (_, i) => shard.name(first + i));
        await pool.room();
        parts.push(this.#part(shard, first, names.length, pool.place(names, files.dir, tmp, null, old, keptOf(shard, names))));
      }
      return this.#whole(parts, tmp, dir);
    }
    let batch: ShardFile[] = [];
    let bytes = 0;
    let sent = 0;
    const send = async (): Promise<void> => {
      await pool.room();
      const part = batch;
      const first = sent;
      [batch, bytes, sent] = [[], 0, sent + part.length];
      const kept = keptOf(
        shard,
        part.map((f) => f.name),
      );
      parts.push(this.#part(shard, first, part.length, pool.write(part, tmp, null, old, kept)));
      // Copied into the task's buffer as the write started: the pages' buffers go back to be rendered into again (read-chunks.ts).
      for (const file of part) file.done?.();
    };
    for (const file of files) {
      batch.push(file);
      bytes += file.bytes.length;
      if (bytes >= PART_BYTES) await send();
    }
    if (batch.length > 0) await send();
    return this.#whole(parts, tmp, dir);
  }

  /** A part on its way: what it wrote is tallied, and its files remembered for the changes, once it is done. */
  #part(shard: Pick<ShardPlan, "key" | "name">, first: number, count: number, writing: Promise<ShardWritten>): Promise<void> {
    const done = writing.then((result) => {
      this.tally.written += result.written;
      this.tally.unchanged += result.linked;
      this.tally.bytesWritten += result.bytesWritten;
      this.parts.push({ key: shard.key, nameOf: shard.name, first, count, linked: result.linkedFiles });
    });
    done.catch(() => undefined);
    return done;
  }

  /** The shard once all its parts are written: `tmp` renamed to `dir` (unless null). */
  #whole(parts: readonly Promise<void>[], tmp: string, dir: string | null): { readonly whole: Promise<void> } {
    const whole = Promise.all(parts).then(() => (dir === null ? undefined : rename(tmp, dir)));
    // A failure surfaces through the final await (or room()); this only keeps it from counting as unhandled meanwhile.
    whole.catch(() => undefined);
    this.#writing.push(whole);
    return { whole };
  }

  /** Waits for every shard given so far. */
  async finish(): Promise<void> {
    const all = this.#writing;
    this.#writing = [];
    await Promise.all(all);
  }

  /** Forgets what was written so far (a restart of the records), once every write has settled. */
  async forget(): Promise<void> {
    await Promise.allSettled(this.#writing);
    this.#writing = [];
    Object.assign(this.tally, { written: 0, unchanged: 0, bytesWritten: 0 });
    this.parts.length = 0;
  }

  async close(): Promise<void> {
    await this.#writers?.close();
  }

  /** The files this build wrote, as `<shard key>/<name>`, named one at a time (a full build of ten million subjects writes a million). */
  *changed(): Generator<string> {
    for (const { key, nameOf, first, count, linked } of this.parts) {
      const kept = new Set(linked);
      for (let i = 0; i < count; i++) if (!kept.has(i)) yield `${key}/${nameOf(first + i)}`;
    }
  }

  #start(): ShardWriters {
    if (this.#writers === undefined) {
      const started = startShardWriters();
      this.#writers = started;
      // Stopped by a signal: the threads stop writing first (the latest cleanup runs first), so that
      // the temporary shards they write into can be removed.
      cleanUpOnInterrupt(() => void started.close());
    }
    return this.#writers;
  }
}

/**
 * Puts a routed site on disk as its parts become known: the records chunks while the sources are
 * still read (each records shard under its temporary name until the read has succeeded), then the
 * page, docs and key lookups' shards, then the search's (their thread ran meanwhile), then the
 * manifest (the switch), then the sweep.
 */
export class SiteWriter implements SiteOutput {
  readonly plans = true;
  readonly #outDir: string;
  readonly #root: string;
  readonly #previous: PreviousSite;
  /** The previous site's facts, for the changes (site-changes.ts). */
  readonly #before: string | null;
  readonly #shards = new ShardQueue();
  /** The first directory this build made (outDir, the data root or records/), removed on failure; null until it made one. */
  #made: string | undefined | null = null;
  readonly #forgetMade: () => void;
  readonly #hashes: string[] = [];
  #group: Chunk[] = [];
  /** Each records shard's directory (final name) and whether this build wrote it; the temporary ones to rename into place. */
  readonly #recordDirs: { readonly dir: string; readonly written: boolean }[] = [];
  readonly #renames: [string, string][] = [];
  /** The shard directories this build put in place that were not there before: removed again if it fails. */
  readonly #placed: string[] = [];
  #recordFiles = 0;

  /** A writer for the site in `outDir`, nothing written yet (the previous manifest read). */
  static async open(outDir: string): Promise<SiteWriter> {
    const before = await readSiteFacts(outDir);
    return new SiteWriter(outDir, await readPreviousManifest(outDir), before);
  }

  private constructor(outDir: string, previous: PreviousSite, before: string | null) {
    this.#outDir = outDir;
    this.#root = join(outDir, DATA_ROOT);
    this.#previous = previous;
    this.#before = before;
    // Stopped by a signal before the switch: the directory this build made goes too (its shards' temporaries go by site-leftovers.ts).
    this.#forgetMade = cleanUpOnInterrupt(() => {
      if (typeof this.#made === "string") removeTreeSync(this.#made);
    });
  }

  /**
   * Takes the records chunks in id order as they come: a records shard is written (under its
   * temporary name) once its chunks are all taken, unless unchanged; a "restart" forgets the chunks
   * taken so far and removes what was written of them. After the last chunk of a read without
   * errors, renames every records shard into place.
   */
  async writeRecords<R>(chunks: AsyncGenerator<ChunkItem, R>): Promise<WrittenRecords<R>> {
    const read = await forEachItem(chunks, (item) => (item.kind === "chunk" ? this.#addChunk(item.chunk) : this.#dropRecords()));
    if (this.#group.length > 0) await this.#flushGroup();
    await this.#shards.finish();
    for (const [tmp, dir] of this.#renames.splice(0)) {
      await rename(tmp, dir);
      this.#placed.push(dir);
    }
    return { hashes: this.#hashes, read };
  }

  /** The file of chunk `chunk` once writeRecords is done, with its hash when an earlier build wrote it. */
  chunkFile(chunk: number): ChunkFile {
    const shard = this.#recordDirs[Math.floor(chunk / CHUNKS_PER_SHARD)];
    if (shard === undefined) throw new Error(`chunk ${chunk} was not written`);
    const path = join(shard.dir, chunkFileName(chunk));
    return shard.written ? { path } : { path, check: this.#hashes[chunk] as string };
  }

  /**
   * Writes the plan's other shards (those not already there): those planned at once, then, once
   * they are written, those of the plan's rest (the search's, whose thread ran meanwhile); then the
   * manifest (the switch); then removes what it no longer names.
   */
  async write({ plan, switchAlong, meanwhile }: PagesToWrite, onProgress?: WriteProgress): Promise<SiteWritten> {
    if (plan === null) throw new Error("a routed site is written from its plan");
    const { tally } = this.#shards;
    // The rest's files join the total when they are known: till then the total counts the shards at hand.
    let total = plan.shards.reduce((sum, shard) => sum + shard.size, this.#recordFiles + 1);
    const settle = (files: number): void => {
      tally.done += files;
      onProgress?.(tally.done, total);
    };
    settle(this.#recordFiles);
    await this.#writeShards(plan.shards, plan, settle);
    // Its failure surfaces at its await below; a failure of the rest first leaves it to the caller's cleanup, which awaits it.
    const aside = meanwhile?.();
    aside?.catch(() => undefined);
    await pauseAt("site-awaiting-search");
    const rest = await plan.rest();
    total = rest.shards.reduce((sum, shard) => sum + shard.size, total);
    await this.#writeShards(rest.shards, plan, settle);
    await this.#shards.close();
    await aside;
    await pauseAt("site-pages-written");
    failAt("site-pages-written");
    await this.#switchTo(rest.manifest, switchAlong);
    await pauseAt("site-switched");
    settle(1);
    const swept = await sweep(this.#root, rest.manifest);
    const shards = this.#shards;
    const before = this.#before;
    let changes: SiteChanges | undefined;
    return {
      files: total,
      written: tally.written,
      unchanged: tally.unchanged,
      bytesWritten: tally.bytesWritten,
      ...swept,
      get changed() {
        return [...shards.changed()];
      },
      // The files and URLs changed are named only when asked (build --json): a full build of ten
      // million subjects changes a million files.
      get changes() {
        return (changes ??= siteChanges(before, rest.manifest, shards.changed()));
      },
    };
  }

  async abort(): Promise<void> {
    // Readers still see the previous site (its manifest is untouched). Stop the threads first, so
    // that nothing writes into the partial shards while they are removed.
    await this.#shards.close();
    this.#forgetMade();
    if (this.#made !== null && this.#made !== undefined) await rm(this.#made, { recursive: true, force: true });
    // The previous manifest names none of them: the site is left as it was.
    for (const dir of this.#placed.splice(0)) await rm(dir, { recursive: true, force: true });
    removeShardTemporaries(this.#root, OWN);
  }

  async close(): Promise<void> {
    // Nothing kept apart: the site is its own directory.
  }

  async #addChunk(chunk: Chunk): Promise<void> {
    this.#hashes.push(chunk.hash);
    this.#group.push(chunk);
    if (this.#group.length === CHUNKS_PER_SHARD) await this.#flushGroup();
  }

  async #dropRecords(): Promise<void> {
    await this.#shards.forget();
    for (const [tmp] of this.#renames.splice(0)) await rm(tmp, { recursive: true, force: true });
    this.#hashes.length = 0;
    this.#recordDirs.length = 0;
    this.#group = [];
    this.#recordFiles = 0;
  }

  /** The records shard of the chunks in the group: left alone when its directory exists, else written under its temporary name. */
  async #flushGroup(): Promise<void> {
    const first = this.#hashes.length - this.#group.length;
    const chunks = this.#group;
    this.#group = [];
    const shard = recordShard(
      first,
      chunks.map((c) => c.hash),
    );
    const dir = join(this.#root, shardDirPath(shard.key, shard.hash));
    this.#recordFiles += shard.size;
    if (await isDirectory(dir)) {
      this.#recordDirs.push({ dir, written: false });
      this.#shards.tally.unchanged += shard.size;
      return;
    }
    this.#recordDirs.push({ dir, written: true });
    this.#made ??= mkdirSync(join(this.#root, "records"), { recursive: true });
    const tmp = join(this.#root, shardTempPath(shard.key, process.pid));
    mkdirSync(tmp, { recursive: true });
    const oldHash = this.#previous.dirs[shard.key];
    // Each chunk, then its table of offsets and keys (chunk-keys.ts): the order recordShard names them in.
    // A chunk whose bytes are a file already (the build cache's, Chunk.file) is linked to it: one copy of its bytes on disk.
    const files = chunks.flatMap((chunk, i) => [
      chunk.file === undefined
        ? { name: chunkFileName(first + i), bytes: () => chunk.bytes() }
        : { name: chunkFileName(first + i), bytes: () => NO_BYTES, from: chunk.file },
      // Its table last: once the writer has copied it (and the chunk, before it), the chunk's bytes go back (Chunk.done).
      {
        name: offsetsFileName(first + i),
        bytes: () => recordTable(chunk.bytes(), chunk.ends),
        ...(chunk.done ? { done: chunk.done } : {}),
      },
    ]);
    const old = oldHash === undefined ? null : join(this.#root, shardDirPath(shard.key, oldHash));
    await this.#shards.write(shard, lazily(files), tmp, null, old);
    this.#renames.push([tmp, dir]);
  }

  /** Every shard of `shards` not already there, written beside the old version and renamed into place. */
  async #writeShards(shards: readonly ShardPlan[], plan: SitePlan, settle: (files: number) => void): Promise<void> {
    const root = this.#root;
    mkdirSync(root, { recursive: true });
    const dirOf = (shard: ShardPlan): string => join(root, shardDirPath(shard.key, shard.hash));
    const tmpOf = (shard: ShardPlan): string => join(root, shardTempPath(shard.key, process.pid));
    const todo: ShardPlan[] = [];
    for (const shard of shards) {
      if (await isDirectory(dirOf(shard))) {
        this.#shards.tally.unchanged += shard.size;
        settle(shard.size);
      } else {
        todo.push(shard);
      }
    }
    // Every shard's temporary directory first: creating files in a directory made a moment ago was
    // measured ~2x slower (BENCHMARKS.md).
    for (const shard of todo) mkdirSync(tmpOf(shard), { recursive: true });
    for (const shard of todo) {
      this.#placed.push(dirOf(shard));
      const oldHash = this.#previous.dirs[shard.key];
      // Pages hold the count and the origin: when either changed, no old page can match.
      const old = oldHash !== undefined && this.#previous.sameHead(plan) ? join(root, shardDirPath(shard.key, oldHash)) : null;
      const files = shard.dir === undefined ? shard.files() : { dir: shard.dir };
      const { whole } = await this.#shards.write(shard, files, tmpOf(shard), dirOf(shard), old);
      whole.then(
        () => settle(shard.size),
        () => undefined,
      );
    }
    await this.#shards.finish();
  }

  /**
   * The manifest replaced by one rename (unless its bytes are the same): readers switch from the old
   * site to the new. `along` (the downloads' stable names) is renamed in the same synchronous run:
   * a signal's handler runs between two turns of the event loop, never between these renames, so a
   * stopped build has switched all of them or none.
   */
  async #switchTo(manifest: Manifest, along: (() => void) | undefined): Promise<void> {
    const { tally } = this.#shards;
    const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
    const manifestPath = join(this.#outDir, MANIFEST_PATH);
    const same = this.#previous.bytes?.equals(manifestBytes) === true;
    if (!same) await writeFile(`${manifestPath}.tmp-${process.pid}`, manifestBytes);
    this.#forgetMade();
    if (!same) renameSync(`${manifestPath}.tmp-${process.pid}`, manifestPath);
    along?.();
    if (same) {
      tally.unchanged += 1;
    } else {
      tally.written += 1;
      tally.bytesWritten += manifestBytes.length;
    }
  }
}

/** Which of a task's files (`names`) the shard's producer vouches for, if any. */
function keptOf(shard: Pick<ShardPlan, "kept">, names: readonly string[]): Kept | undefined {
  const { kept } = shard;
  if (kept === undefined) return undefined;
  const files = names.flatMap((name, i) => (kept.names.has(name) ? [i] : []));
  return files.length === 0 ? undefined : { from: kept.dir, files };
}

const NO_BYTES = new Uint8Array(0);

/** Files whose bytes are made as each is taken. */
function* lazily(
  files: readonly { readonly name: string; bytes(): Uint8Array; readonly from?: string; readonly done?: () => void }[],
): Generator<ShardFile> {
  for (const file of files) {
    const done = file.done === undefined ? {} : { done: file.done };
    yield file.from === undefined
      ? { name: file.name, bytes: file.bytes(), ...done }
      : { name: file.name, bytes: NO_BYTES, from: file.from, ...done };
  }
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
async function sweep(root: string, manifest: Manifest): Promise<{ removed: number; bytesRemoved: number }> {
  const dirs = Object.entries(manifest.dirs).map(([key, hash]) => [key, shardDirPath(key, hash)] as const);
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
        // A shard's directory of files, else (a file put there by hand) whatever it is.
        if (entry.isDirectory()) await removeShardDir(doomed);
        else await rm(doomed, { recursive: true, force: true });
        continue;
      }
      await rm(abs, { recursive: true, force: true });
    }
  };
  await visit(root, "");
  return tally;
}

/**
 * Removes the directory `dir` of an old shard version: its files unlinked by name as its listing
 * types them, anything else in it by rm. fs.rm's recursion looks at each entry (lstat) before it
 * unlinks it, each a round trip of the thread pool. An edit at a million subjects removes the old
 * versions of the eleven shards it changed (some 9,000 files, most of them the search's), the
 * build's last step before the site is written: eleven such directories of the site (11,006
 * files) went in 108-289 ms so against 262-569 ms by rm (four rounds each, in turn, not quiet).
 */
async function removeShardDir(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isFile() || entry.isSymbolicLink()) unlinkSync(path);
    else await rm(path, { recursive: true, force: true });
  }
  await rm(dir, { recursive: true, force: true });
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
  // A file the new version holds too is not looked at (an edit's changed shards hold the same names: no lstat a file).
  const entries = await readdir(path, { withFileTypes: true });
  const looked = entries.filter((entry) => !entry.isFile() || isGone(entry.name));
  await forEachBounded(looked, CONCURRENCY, (entry) => count(join(path, entry.name), tally, isGone));
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isDirectory();
  } catch (error) {
    if (isErrno(error, "ENOENT")) return false;
    throw error;
  }
}
