/**
 * A site of plain files for hosts that cannot route (`subjekti build --links files`): GitHub
 * Pages, an S3 bucket, any file server. Its layout is its public paths, so the host needs no
 * configuration at all:
 *
 *   <out>/api/subjekti/index.json              the entry page: page 0 of the entry limit
 *   <out>/api/subjekti/<limit>/<offset>.json   every page of each pre-rendered limit
 *   <out>/api/subjekti/id/<id ÷ 1000>/<id>.json  every subject, as its detail route answers it
 *
 * Stable public paths cannot be content-named, so the switch between builds is one level up:
 * `<out>` is a symbolic link to a sibling directory `<out>.<hash>` holding one complete build.
 * A build writes the new tree into `<out>.tmp-<pid>` (hard-linking every page whose bytes did not
 * change from the current tree), renames it to `<out>.<hash>`, and replaces the link by rename:
 * one atomic step, so a file server rooted at `<out>` serves the complete old site or the
 * complete new one, and a killed build leaves the old one. Then the old tree is removed.
 * Uploaders (aws s3 sync, rsync with a trailing slash, a Pages artifact) read through the link.
 */
import { mkdirSync } from "node:fs";
import { link, lstat, readdir, readFile, readlink, rename, rm, rmdir, symlink, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import {
  buildFileLinks,
  entryLimit,
  FILE_ENTRY_PATH,
  FILE_PAGES_DIR,
  filePagePath,
  fileSubjectPagePath,
  fileSubjectPath,
  SUBJECTS_PER_DIR,
} from "../core/file-links.ts";
import { subjectPage } from "../core/html/subject-page.ts";
import { readSubject } from "../core/html/subject-view.ts";
import { DEFAULT_LIMIT } from "../core/request/read-query.ts";
import { PAGE_TAIL, renderPageHead } from "../core/render-page.ts";
import { msg } from "../common/messages/message.ts";
import { failure } from "../common/messages/translate.ts";
import { VERSION } from "../core/version.ts";
import { contentHash } from "../common/content-hash.ts";
import { forEachBounded } from "../common/for-each-bounded.ts";
import { forEachItem } from "../common/stage-iterables.ts";
import { pauseAt } from "../common/pause-point.ts";
import { makeScratchDir, type ScratchDir } from "../common/scratch-dir.ts";
import { CHUNK_SIZE } from "../core/layout.ts";
import { type ChunkFile, type PageBytes, pagesFromChunkFiles } from "./read-chunks.ts";
import { FirstUrls, LISTED_URLS } from "./site-changes.ts";
import type { ChunkItem, PagesToWrite, SiteOutput, SiteWritten, WriteProgress, WrittenRecords } from "./hand-offs.ts";
import { isErrno } from "../common/machine-error.ts";

export interface PlainSiteOptions {
  readonly outDir: string;
  readonly baseUrl: string;
  readonly limits: readonly number[];
}

/** File operations in flight at once. */
const CONCURRENCY = 64;
const TAIL = Buffer.from(PAGE_TAIL);
const NOTHING = Buffer.alloc(0);
/** A rendered record's id, at its start. */
const ID = /^\{"id":([0-9]+),/;
const VERSION_NAME = /\.[0-9a-f]{16}$/;

/** Where `outDir` is, and the build tree its link points to now (null when there is none yet). */
interface PlainOut {
  readonly out: string;
  readonly parent: string;
  readonly base: string;
  readonly current: string | null;
}

/**
 * Reads `outDir` as a site of plain files: absent, an empty directory, or the link a previous
 * build made. Anything else is refused before a byte is written, so nothing of the user's is replaced.
 */
export async function readPlainOut(outDir: string): Promise<PlainOut> {
  const out = resolve(outDir);
  const [parent, base] = [dirname(out), basename(out)];
  const stat = await lstat(out).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw error;
  });
  if (stat === null) return { out, parent, base, current: null };
  if (stat.isSymbolicLink()) {
    const target = await readlink(out);
    if (target.startsWith(`${base}.`) && VERSION_NAME.test(target) && !target.includes("/")) return { out, parent, base, current: target };
  } else if (stat.isDirectory() && (await readdir(out)).length === 0) {
    return { out, parent, base, current: null };
  }
  throw failure("OUT_NOT_PLAIN", msg("error.out-not-plain", { out: outDir, base }));
}

/** Is `outDir` the link a build with `--links files` made (so a routed build must not write into its tree)? */
export async function isPlainOut(outDir: string): Promise<boolean> {
  const out = resolve(outDir);
  const stat = await lstat(out).catch(() => null);
  if (stat?.isSymbolicLink() !== true) return false;
  const target = await readlink(out);
  return target.startsWith(`${basename(out)}.`) && VERSION_NAME.test(target);
}

/**
 * The plain site's records stage: each chunk written into `dir` as file c (chunk c; the pages are
 * cut from them, they are not published), again from the first after a "restart". Returns the
 * chunks' hashes and what `chunks` returned.
 */
async function writeChunkFiles<R>(dir: string, chunks: AsyncGenerator<ChunkItem, R>): Promise<WrittenRecords<R>> {
  const hashes: string[] = [];
  const read = await forEachItem(chunks, async (item) => {
    if (item.kind === "restart") hashes.length = 0;
    else await writeFile(join(dir, String(hashes.push(item.chunk.hash) - 1)), item.chunk.bytes());
  });
  return { hashes, read };
}

/**
 * A site of plain files as a build's output: the chunks wait in a temporary directory (chunk c in
 * file c: they are not published) while the pages are cut from them; the directory goes when the
 * build is done.
 */
export class PlainSiteWriter implements SiteOutput {
  readonly plans = false;
  readonly #options: PlainSiteOptions;
  readonly #scratch: ScratchDir;
  #hashes: readonly string[] = [];

  static async open(options: PlainSiteOptions): Promise<PlainSiteWriter> {
    return new PlainSiteWriter(options, await makeScratchDir("chunks"));
  }

  private constructor(options: PlainSiteOptions, scratch: ScratchDir) {
    this.#options = options;
    this.#scratch = scratch;
  }

  async writeRecords<R>(chunks: AsyncGenerator<ChunkItem, R>): Promise<WrittenRecords<R>> {
    const written = await writeChunkFiles(this.#scratch.path, chunks);
    this.#hashes = written.hashes;
    return written;
  }

  chunkFile(chunk: number): ChunkFile {
    return { path: join(this.#scratch.path, String(chunk)) };
  }

  write({ count }: PagesToWrite, onProgress?: WriteProgress): Promise<SiteWritten> {
    const pages = pagesFromChunkFiles((chunk) => this.chunkFile(chunk), CHUNK_SIZE);
    return writePlainSite(this.#options, { count, hashes: this.#hashes, pages }, onProgress);
  }

  async abort(): Promise<void> {
    // A failed write removes its own temporary tree; the link still names the previous one.
  }

  close(): Promise<void> {
    return this.#scratch.remove();
  }
}

/** The records a plain site's pages are cut from: their count, their chunks' hashes, and the pages' bytes. */
export interface PlainRecords {
  readonly count: number;
  readonly hashes: readonly string[];
  readonly pages: PageBytes;
}

/** Writes the pages of `records` as plain files under `outDir` (see above). */
export async function writePlainSite(options: PlainSiteOptions, records: PlainRecords, onProgress?: WriteProgress): Promise<SiteWritten> {
  const where = await readPlainOut(options.outDir);
  const { count, hashes } = records;
  const tmp = join(where.parent, `${where.base}.tmp-${process.pid}`);
  const old = where.current === null ? null : join(where.parent, where.current);
  const entry = entryLimit(options.limits, DEFAULT_LIMIT);
  const pages = options.limits.map((limit) => ({ limit, count: Math.max(1, Math.ceil(count / limit)) }));
  // Every page of the list, the entry, and each subject's JSON file and its page for people.
  const total = pages.reduce((sum, p) => sum + p.count, 1 + 2 * count);
  const tally = { written: 0, unchanged: 0, bytesWritten: 0, done: 0 };
  const changed: string[] = [];
  const paths = new Set<string>([FILE_ENTRY_PATH]);

  /** Writes `bytes` at `path` in the new tree, hard-linked from the current tree when it holds the same bytes. */
  const put = async (path: string, bytes: Uint8Array): Promise<void> => {
    paths.add(path);
    if (old !== null && (await linkIfSame(join(old, path), bytes, join(tmp, path)))) {
      tally.unchanged += 1;
    } else {
      await writeFile(join(tmp, path), bytes);
      tally.written += 1;
      tally.bytesWritten += bytes.length;
      changed.push(path);
    }
    onProgress?.(++tally.done, total);
  };

  /** A subject's page for people (core/html/subject-page.ts), beside its JSON: a plain host cannot derive it. */
  const putSubjectPage = async (record: Buffer): Promise<void> => {
    const subject = readSubject(JSON.parse(record.toString("utf8")));
    if (subject === null) throw new Error(`a record the build rendered is not a subject: ${record.toString("utf8", 0, 80)}`);
    const path = fileSubjectPagePath(subject.id);
    const dir = dirname(path);
    makeDir(dir);
    const paths = { page: `/${path}`, json: `/${fileSubjectPath(subject.id)}` };
    await put(path, Buffer.from(subjectPage(subject, { baseUrl: options.baseUrl, downloads: [], paths })));
  };
  // Made synchronously, each once: a signal's cleanup runs between two turns of the event loop, and a
  // `mkdir` still queued in libuv's thread pool would make the removed temporary tree again after it.
  const made = new Set<string>();
  const makeDir = (dir: string): void => {
    if (made.has(dir)) return;
    mkdirSync(join(tmp, dir), { recursive: true });
    made.add(dir);
  };

  await rm(tmp, { recursive: true, force: true });
  try {
    for (const { limit } of pages) makeDir(join(FILE_PAGES_DIR, String(limit)));
    onProgress?.(0, total);
    for (const { limit, count: pageCount } of pages) {
      const indices = Array.from({ length: pageCount }, (_, page) => page);
      await forEachBounded(indices, CONCURRENCY, (page) => {
        const from = page * limit;
        const to = Math.min(count, from + limit);
        const head = Buffer.from(renderPageHead(count, buildFileLinks(options.baseUrl, limit, from, count)));
        const bytes = records.pages(head, from, to, TAIL);
        return page === 0 && limit === entry
          ? Promise.all([put(filePagePath(limit, 0), bytes), put(FILE_ENTRY_PATH, bytes)])
          : put(filePagePath(limit, from), bytes);
      });
    }
    // Each subject's own file: a page of one record without its envelope is the record's bytes.
    for (let first = 0; first < count; first += SUBJECTS_PER_DIR) {
      const positions = Array.from({ length: Math.min(SUBJECTS_PER_DIR, count - first) }, (_, k) => first + k);
      await forEachBounded(positions, CONCURRENCY, async (position) => {
        const bytes = records.pages(NOTHING, position, position + 1, NOTHING);
        const path = fileSubjectPath(Number(ID.exec(bytes.toString("latin1", 0, 32))?.[1]));
        const dir = dirname(path);
        makeDir(dir);
        await put(path, bytes);
        await putSubjectPage(bytes);
      });
    }
  } catch (error) {
    await rm(tmp, { recursive: true, force: true });
    throw error;
  }
  await pauseAt("site-pages-written");

  // Everything the bytes depend on names the tree: a build of the same data and options is the same tree.
  const name = `${where.base}.${contentHash(VERSION, "\nfiles\n", options.baseUrl, "\n", JSON.stringify(options.limits), `\n${count}\n`, ...hashes)}`;
  if (name === where.current) {
    await rm(tmp, { recursive: true, force: true });
  } else {
    // A tree of that name not linked now is a killed build's: its bytes are the same, but replace it whole.
    await rm(join(where.parent, name), { recursive: true, force: true });
    await rename(tmp, join(where.parent, name));
    const next = `${where.out}.link-${process.pid}`;
    await rm(next, { force: true });
    await symlink(name, next, "junction");
    // An empty directory (a fresh checkout's placeholder) cannot be replaced by rename: it goes first.
    if (where.current === null)
      await rmdir(where.out).catch((error: NodeJS.ErrnoException) => (error.code === "ENOENT" ? undefined : Promise.reject(error)));
    await rename(next, where.out);
  }
  await pauseAt("site-switched");

  const removed = { removed: 0, bytesRemoved: 0 };
  for (const entryName of await readdir(where.parent)) {
    if (entryName === name || !entryName.startsWith(`${where.base}.`)) continue;
    const rest = entryName.slice(where.base.length);
    const isOurs = /^\.[0-9a-f]{16}$/.test(rest) || rest === `.tmp-${process.pid}` || rest === `.link-${process.pid}`;
    if (!isOurs) continue;
    if (entryName === where.current) await countGone(join(where.parent, entryName), "", paths, removed);
    await rm(join(where.parent, entryName), { recursive: true, force: true });
  }
  const urls = new FirstUrls(LISTED_URLS);
  for (const path of changed) urls.add(`${options.baseUrl}/${path}`);
  const changes = { ...urls.done(), tags: [] };
  return {
    files: total,
    written: tally.written,
    unchanged: tally.unchanged,
    bytesWritten: tally.bytesWritten,
    ...removed,
    changed,
    changes,
  };
}

/** Hard-links `old` to `target` when `old` holds exactly `bytes`; false when it does not or cannot. */
async function linkIfSame(old: string, bytes: Uint8Array, target: string): Promise<boolean> {
  let current: Buffer;
  try {
    current = await readFile(old);
  } catch (error) {
    if (isErrno(error, "ENOENT")) return false;
    throw error;
  }
  if (!current.equals(bytes)) return false;
  try {
    await link(old, target);
    return true;
  } catch (error) {
    // A file system that cannot hard-link here: the bytes are written instead.
    if (isErrno(error) && ["EXDEV", "EPERM", "ENOTSUP", "EMLINK", "EOPNOTSUPP"].includes(error.code ?? "")) return false;
    throw error;
  }
}

/** Adds the files of the old tree under `dir` that the new tree does not hold (and their bytes) to `tally`. */
async function countGone(
  dir: string,
  rel: string,
  keep: ReadonlySet<string>,
  tally: { removed: number; bytesRemoved: number },
): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
    if (entry.isDirectory()) {
      await countGone(join(dir, entry.name), path, keep, tally);
    } else if (!keep.has(path)) {
      tally.removed += 1;
      tally.bytesRemoved += (await lstat(join(dir, entry.name))).size;
    }
  }
}
