/**
 * The build's stage for crawlers and lost visitors: `sitemap.xml` (its parts under `sitemaps/`
 * past 50,000 URLs), `robots.txt` and `404.html` (the branded page Netlify, Cloudflare's assets and
 * serve-handler answer for a path no file holds), plain files at the site's root beside the
 * downloads. The ids come from the records chunks, each line starting `{"id":<n>,`. Each file whose
 * bytes change is written under a temporary name while the build waits for its search thread, and
 * renamed into place with the switch (CrawlFiles): a build that fails or is stopped leaves the
 * previous site's files as they were. Parts a smaller list no longer has are removed.
 */
import { mkdirSync, renameSync, rmSync } from "node:fs";
import { readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { contentHash } from "../../common/content-hash.ts";
import { cleanUpOnInterrupt } from "../../common/interrupt-cleanup.ts";
import { removeTreeSync } from "../../common/remove-leftovers.ts";
import { tableIds } from "../../core/chunk-keys.ts";
import { readBuildNote, writeBuildNote } from "../build-notes.ts";
import { notFoundPage } from "../../core/html/not-found-page.ts";
import { subjectPagePath } from "../../core/html/subject-view.ts";
import {
  CRAWL_TEMP,
  robotsTxt,
  SITEMAP_PARTS_DIR,
  SITEMAP_URLS,
  sitemapIndex,
  type SitemapUrl,
  urlSetOnBase,
  UrlSetBytes,
} from "./sitemap.ts";

/** What the stage needs of the build. */
export interface CrawlFacts {
  readonly baseUrl: string;
  /** The records chunks: how many, and where each is. */
  readonly chunks: number;
  chunkPath(chunk: number): string;
  /**
   * The chunk's table of offsets and keys (chunk-keys.ts), where the site has one: the ids are read
   * from there (some 20 bytes a record), not from the chunk (its records read again whole: the
   * whole list, 1.7 GB at five million subjects).
   */
  tablePath?(chunk: number): string;
  /**
   * Each chunk's content hash, and the file where this stage notes what each sitemap part was made
   * of (beside the site's build cache): a part whose chunks' ids, ranges and shape are those noted,
   * its file still the one written then, is not made again. Without it every part is made and
   * compared with the file on disk.
   */
  readonly previous?: { readonly hashes: readonly string[]; readonly stateFile: string };
}

const ID_START = Buffer.from('{"id":');

/** What the stage did, in the write report's terms. */
export type CrawlReport = Readonly<Tally>;

/** The stage's count of files, as it goes. */
interface Tally {
  files: number;
  written: number;
  unchanged: number;
  bytesWritten: number;
}

/** What a part was made of (a hash of its shape and its chunks' ids and ranges) and the file it was written to. */
interface PartNote {
  readonly made: string;
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
}

/**
 * The stage's notes: by a chunk's hash, its number of ids and a hash of them (a renamed record
 * changes its chunk's hash, not its ids: the part holding it is not made again); each part's note by its name.
 */
interface CrawlNotes {
  readonly version: 2;
  readonly ids: Record<string, readonly [count: number, hash: string]>;
  readonly parts: Record<string, PartNote>;
}

/** A run of ids of one chunk in a part: the chunk's ids [from, to). */
interface Run {
  readonly chunk: number;
  readonly from: number;
  readonly to: number;
}

/**
 * The stage in the build's steps: `prepare` renders every file whose bytes change into a temporary
 * directory at the site's root (`.crawl.tmp-<pid>`), the site's own files untouched, while the build
 * waits for the search thread; `switchIn` renames them into place in the switch's own synchronous
 * step; `finish` then removes the parts a smaller list no longer has and writes the notes; a failed
 * build's `discard` removes the temporaries (a stopped one's go by its signal's cleanup, a killed
 * one's by the next build: site-leftovers.ts).
 */
export interface CrawlFiles {
  /** Renders and writes the files that change under temporary names; once. */
  prepare(): Promise<void>;
  /** Renames the prepared files into place, the parts before the index that names them (synchronous: one step with the switch). */
  switchIn(): void;
  /** After switchIn: the parts no longer named removed, the notes written; what the stage did. */
  finish(): Promise<CrawlReport>;
  /** After a failure: the temporaries removed, once prepare has settled. */
  discard(): Promise<void>;
}

/** The stage over the site in `outDir`, not yet started. */
export function crawlFiles(outDir: string, facts: CrawlFacts): CrawlFiles {
  const tally: Tally = { files: 0, written: 0, unchanged: 0, bytesWritten: 0 };
  const temp = join(outDir, `${CRAWL_TEMP}${process.pid}`);
  // Each file written: where it waits, and its place in the site, in the order they are renamed.
  const moves: [from: string, to: string][] = [];
  let unregister: (() => void) | null = null;
  /** The bytes put at `name` in `dir` (under a temporary name, unless the file there holds them already): where they lie now. */
  const put = async (dir: string, name: string, content: string | Buffer): Promise<string> => {
    const bytes = typeof content === "string" ? Buffer.from(content) : content;
    tally.files += 1;
    if (await holds(join(dir, name), bytes)) {
      tally.unchanged += 1;
      return join(dir, name);
    }
    if (unregister === null) {
      // Made synchronously: a signal's cleanup between two turns finds it made or not, never queued in the thread pool.
      mkdirSync(temp, { recursive: true });
      unregister = cleanUpOnInterrupt(() => removeTreeSync(temp));
    }
    const temporary = join(temp, name);
    await writeFile(temporary, bytes);
    moves.push([temporary, join(dir, name)]);
    tally.written += 1;
    tally.bytesWritten += bytes.length;
    return temporary;
  };
  const partsDir = join(outDir, SITEMAP_PARTS_DIR);
  let prepared: Promise<Prepared> | null = null;
  return {
    prepare() {
      prepared ??= prepareFiles(outDir, facts, tally, put);
      return prepared.then(() => undefined);
    },
    switchIn() {
      if (moves.some(([, to]) => dirname(to) === partsDir)) mkdirSync(partsDir, { recursive: true });
      for (const [from, to] of moves.splice(0)) renameSync(from, to);
      if (unregister !== null) rmSync(temp, { recursive: true, force: true });
      unregister?.();
      unregister = null;
    },
    async finish() {
      if (prepared === null) throw new Error("the crawl files were not prepared");
      const { written, notes } = await prepared;
      const old = await readdir(partsDir).catch(() => []);
      for (const name of old) if (!written.has(name)) await rm(join(partsDir, name), { force: true });
      if (written.size === 0) await rm(partsDir, { recursive: true, force: true });
      if (facts.previous !== undefined) writeBuildNote(facts.previous.stateFile, notes);
      return tally;
    },
    async discard() {
      await prepared?.catch(() => undefined);
      moves.length = 0;
      await rm(temp, { recursive: true, force: true });
      unregister?.();
      unregister = null;
    },
  };
}

/** What prepare made: the parts' names, and the notes to write once they are in place. */
interface Prepared {
  readonly written: ReadonlySet<string>;
  readonly notes: CrawlNotes;
}

/** Puts `content` at `name` in `dir` as the stage does (counted; under a temporary name when it changes): where its bytes lie. */
type Put = (dir: string, name: string, content: string | Buffer) => Promise<string>;

/** The stage's files, each given to `put`; the parts' notes made of what was put. */
async function prepareFiles(outDir: string, facts: CrawlFacts, tally: Tally, put: Put): Promise<Prepared> {
  const { previous } = facts;
  const before = previous === undefined ? null : await readBuildNote(previous.stateFile, isCrawlNotes);
  // Gone before any file is written: a stage cut short leaves parts that no note describes.
  if (previous !== undefined) await rm(previous.stateFile, { force: true });
  const notes: CrawlNotes = { version: 2, ids: {}, parts: {} };
  // The ids of the chunks read for the part being made (a chunk's count, when no note has it, is read too).
  const read = new Map<number, number[]>();
  const idsOf = async (chunk: number): Promise<number[]> => {
    let ids = read.get(chunk);
    if (ids === undefined) read.set(chunk, (ids = await readIds(facts, chunk)));
    return ids;
  };
  // Each chunk's ids' hash, by its index, for the parts' notes.
  const idsHashes: string[] = [];
  const countOf = async (chunk: number): Promise<number> => {
    const hash = previous?.hashes[chunk];
    if (hash === undefined) return (await idsOf(chunk)).length;
    let noted = before?.ids[hash];
    if (noted === undefined) {
      const ids = await idsOf(chunk);
      noted = [ids.length, contentHash(ids.join(","))];
    }
    notes.ids[hash] = noted;
    idsHashes[chunk] = noted[1];
    return noted[0];
  };
  // Every part's bytes are written into the one buffer this keeps (sitemap.ts), each put before the next is made.
  const urlSet = new UrlSetBytes(facts.baseUrl);
  /**
   * A part's URL set: `/` first in the first, then each run's pages (a page's path is safe XML
   * text: letters, digits and slashes). Its bytes are urlSet's, until the next part is rendered.
   */
  const render = async (runs: readonly Run[], root: boolean): Promise<Buffer> => {
    urlSet.open(root);
    for (const { chunk, from, to } of runs) {
      const ids = await idsOf(chunk);
      for (let k = from; k < to; k++) urlSet.add(subjectPagePath(ids[k] as number));
    }
    return urlSet.close();
  };
  // No lastmod: the pages change with records whose dates the build does not keep, and a sitemap that
  // changes only with the list's ids is rewritten only then.
  // One part's URLs at a time (50,000): the whole list's, held at once, grew with the count (some
  // 120 bytes a subject, 600 MB at five million) and made this stage the build's peak.
  const partsDir = join(outDir, SITEMAP_PARTS_DIR);
  // A part noted is made again when how a part is written changed (the namespace, the base URL, the
  // pages' paths): the shape is a part of one page written by what writes the parts.
  const shape = urlSetOnBase(facts.baseUrl, false, [subjectPagePath(1)]);
  const written = new Set<string>();
  const parts: SitemapUrl[] = [];
  let runs: Run[] = [];
  let size = 1;
  const writePart = async (): Promise<void> => {
    const name = `subjekti-${parts.length + 1}.xml`;
    const root = parts.length === 0;
    const made =
      previous === undefined
        ? null
        : contentHash(shape, root ? "\n/" : "", ...runs.map((r) => `\n${idsHashes[r.chunk]}:${r.from}:${r.to}`));
    const path = join(partsDir, name);
    const noted = before?.parts[name];
    if (made !== null && noted?.made === made && (await isFile(path, noted))) {
      tally.files += 1;
      tally.unchanged += 1;
      notes.parts[name] = noted;
    } else {
      // A file renamed into place keeps its inode, size and time: the note taken where it waits holds there.
      const at = await put(partsDir, name, await render(runs, root));
      if (made !== null) {
        const { ino, size: bytes, mtimeMs } = await stat(at);
        notes.parts[name] = { made, ino, size: bytes, mtimeMs };
      }
    }
    written.add(name);
    parts.push({ loc: `${facts.baseUrl}/${SITEMAP_PARTS_DIR}/${name}` });
    // The last run's chunk may go on in the next part; the others are done with.
    const last = runs.at(-1)?.chunk;
    for (const chunk of read.keys()) if (chunk !== last) read.delete(chunk);
    runs = [];
    size = 0;
  };
  for (let chunk = 0; chunk < facts.chunks; chunk++) {
    const count = await countOf(chunk);
    for (let from = 0; from < count; ) {
      // A full part is written only once a URL past it comes: a list of 50,000 URLs is one urlset, not an index of one.
      if (size === SITEMAP_URLS) await writePart();
      const to = Math.min(count, from + SITEMAP_URLS - size);
      runs.push({ chunk, from, to });
      size += to - from;
      from = to;
    }
  }
  if (parts.length === 0) {
    await put(outDir, "sitemap.xml", await render(runs, true));
  } else {
    await writePart();
    await put(outDir, "sitemap.xml", sitemapIndex(parts));
  }
  await put(outDir, "robots.txt", robotsTxt(facts.baseUrl));
  await put(outDir, "404.html", notFoundPage());
  return { written, notes };
}

/** Does the file at `path` hold these bytes already (a file of another size is not read)? */
async function holds(path: string, bytes: Buffer): Promise<boolean> {
  const size = await stat(path).then(
    (s) => s.size,
    () => -1,
  );
  const old = size === bytes.length ? await readFile(path).catch(() => null) : null;
  return old !== null && old.equals(bytes);
}

/** Are these the notes of this version of the stage? */
function isCrawlNotes(json: unknown): json is CrawlNotes {
  const notes = json as Partial<CrawlNotes> | null;
  return (
    typeof notes === "object" && notes !== null && notes.version === 2 && typeof notes.ids === "object" && typeof notes.parts === "object"
  );
}

/** Is the file at `path` still the one the note describes (the same inode, size and time)? */
async function isFile(path: string, note: PartNote): Promise<boolean> {
  const now = await stat(path).catch(() => null);
  return now !== null && now.isFile() && now.ino === note.ino && now.size === note.size && now.mtimeMs === note.mtimeMs;
}

/** The ids of chunk `chunk`: from its table when the site has one of its shape, else from its records. */
async function readIds(facts: CrawlFacts, chunk: number): Promise<number[]> {
  const path = facts.chunkPath(chunk);
  if (facts.tablePath !== undefined) {
    const [table, { size }] = await Promise.all([readFile(facts.tablePath(chunk)), stat(path)]);
    const ids = tableIds(table, size);
    if (ids !== null) return ids;
  }
  return chunkIds(await readFile(path));
}

/** The ids of a chunk's records, read from each line's start (the start compared byte by byte: a Buffer made a line cost more than the rest). */
export function chunkIds(bytes: Uint8Array): number[] {
  const ids: number[] = [];
  let start = 0;
  while (start < bytes.length) {
    let end = bytes.indexOf(0x0a, start);
    if (end < 0) end = bytes.length;
    if (startsWithId(bytes, start)) {
      let id = 0;
      for (let i = start + ID_START.length; i < end && bytes[i]! >= 0x30 && bytes[i]! <= 0x39; i++) id = id * 10 + bytes[i]! - 0x30;
      ids.push(id);
    }
    start = end + 1;
  }
  return ids;
}

/** Whether the line at `start` begins `{"id":`. */
function startsWithId(bytes: Uint8Array, start: number): boolean {
  if (start + ID_START.length > bytes.length) return false;
  for (let i = 0; i < ID_START.length; i++) if (bytes[start + i] !== ID_START[i]) return false;
  return true;
}
