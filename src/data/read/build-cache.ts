/**
 * The build cache: each block of a JSON array (read-json-array.ts), rendered, kept under a key
 * made of everything its rendering depends on: the code's version, --strict, the field-length bound, the block's first
 * index and the hash of its text (or of its bytes in the file, which the reader hashes anyway: see
 * read-json-array.ts). A rebuild looks each block up whole; a block whose key is stored
 * is not parsed again, whatever the site in dist/ is, and wherever the file is (its problems are
 * given the file's name as they are read).
 *
 * Two files a block, so the cache is read and written block by block: a record thread stores the
 * block it rendered itself, and a build never holds the cache as a whole. Each file is written
 * under a temporary name and renamed, its bytes first, its head last, so a killed build leaves
 * whole blocks or none (bytes with no head are never read); one that cannot be read back (cut
 * short, another format, its bytes file gone or changed) is a miss. Blocks with errors are never
 * stored.
 *
 * One copy of the rendered bytes: a block's bytes file is exactly its records chunk file in the
 * site (in one sorted file each block is a chunk: site/chunk-records.ts), and the site's writer
 * hard-links the chunk file to it rather than write the bytes again (copies it where it cannot
 * link: the cache on another file system). The bytes file is then the site's file too: its head
 * names its length and modification time as written, so a chunk file changed in place behind the
 * build's back (even to the same length) makes its block a miss, never the next site's bytes. A
 * file replaced (written anew, renamed over) leaves the other name on the old bytes.
 *
 * It lives outside the site (default node_modules/.cache/subjekti/, one directory per output
 * directory), because everything in the site is published. After a build, blocks the build did
 * not use are removed, so the cache holds one version of the data. A block's head (`<key>.block`):
 * a 4-byte header length, the header as JSON (count, byte length, hash and modification time of
 * the rendered bytes, the keys' facts, problems), padding to 8 bytes, then ids (float64), positions
 * (uint32), record ends (uint32), OIBs (float64), code ends (uint32) and the codes' bytes one after
 * another; its bytes (`<key>.bytes`): the rendered records, each a line. The keys are read as they
 * lie, numbers and bytes (rules/block-keys.ts): no string a record.
 */
import { createHash } from "node:crypto";
import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writevSync,
} from "node:fs";
import { open, readdir, rm } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { VERSION } from "../../core/version.ts";
import { contentHash } from "../../common/content-hash.ts";
import { forEachBounded } from "../../common/for-each-bounded.ts";
import { readInto } from "../../common/read-into.ts";
import { CANNOT_WRITE, isErrno, isFull, realMkdirError } from "../../common/machine-error.ts";
import { type Message, msg } from "../../common/messages/message.ts";
import type { Problem } from "../problems/problems.ts";
import type { BlockSpan, SourceBlock } from "../sources/record-sink.ts";
import type { RenderedBlock } from "../hand-offs.ts";
import type { SourceFile } from "../sources/source-file.ts";
import { codesOf, isCompact, type KnownKeys, knownKeysOf, oibTextsOf } from "../rules/block-keys.ts";

/** Bumped whenever a block file's layout (or the spans') changes: another format is a miss. */
const FORMAT = 8;
/** Bytes read at once for a block's header and keys (about 30 KB for 1,000 records); more when they are longer. */
const HEAD_BYTES = 64 * 1024;
const SUFFIX = ".block";
/** The block's rendered bytes, alone: the very bytes of its records chunk file, which the site's writer links to this file. */
const BYTES_SUFFIX = ".bytes";

/** The stored blocks of one site. */
export interface BuildCache {
  /** The block of `file` stored under `key`, or undefined. */
  read(key: string, file: SourceFile): RenderedBlock | undefined;
  /**
   * Where a block rendered under `key` is to be stored (by whoever renders it: storeBlock), its two
   * files' path but their suffixes; undefined once the cache cannot be written.
   */
  fileOf(key: string): string | undefined;
  /** Takes the line of a store that failed (storeBlock's answer): nothing more is stored, and the build goes on without. */
  failed(line: Message): void;
  /** Why the cache could not be used or written (the first reason), if it could not. */
  readonly warning: Message | undefined;
  /** Removes every stored block but `keys` (those the build just used), and keeps where this build's blocks lay (keepSpan). */
  keepOnly(keys: Iterable<string>): Promise<void>;
  /**
   * Where each block lay when the last build split it (see BlockSpan), by its first index, whatever
   * its file: a block is known by its bytes, as the cache knows it, not by its file's name.
   */
  spans(): ReadonlyMap<number, readonly BlockSpan[]>;
  /** Keeps where a block lay, for the next build (written by keepOnly, at the build's end). */
  keepSpan(span: BlockSpan): void;
  /**
   * Reads ahead, beside the build, the heads of the blocks stored under `keys` (in the order the
   * read will ask for them; once a build): `read` then finds them in the page cache. Read when the
   * read reached each, a cold cache's 1,000 blocks at a million subjects held the main thread about
   * 0.4 s, one disk's wait at a time.
   */
  prefetch(keys: readonly string[]): void;
  /**
   * The cache's directory held nothing when it was opened (a cold build): no block is there but
   * those this build stores, so a read asks the disk only for those, and the read stage knows
   * every block is parsed.
   */
  readonly empty: boolean;
}

/** Block heads read ahead at once: enough to keep the disk busy, few enough to leave the thread pool to the read. */
const PREFETCH_READERS = 4;

/** Where the blocks of each file lay, as the last build split them: beside the cache's directory, one file. */
interface SpansFile {
  readonly format: number;
  readonly version: string;
  readonly spans: readonly BlockSpan[];
}

interface Header {
  readonly format: number;
  readonly count: number;
  readonly length: number;
  readonly hash: string;
  /**
   * The bytes file's modification time as it was written (nanoseconds, as text): that file is the
   * site's chunk file too (hard-linked), so one changed in place behind the build's back, even to
   * the same length, is a miss.
   */
  readonly bytesMtime: string;
  /** Bytes of the codes (after the code ends). */
  readonly codesLength: number;
  /** KnownKeys's facts. */
  readonly rising: boolean;
  readonly highestCode: string;
  readonly problems: readonly Problem[];
  readonly dropped: Readonly<Record<string, number>>;
}

/** The key a block is stored under: everything its rendered records and problems depend on but the file's name. */
export function blockKey(strict: boolean, maxFieldLength: number, block: SourceBlock): string {
  return contentHash(VERSION, "\n", strict ? "strict" : "", "\n", String(maxFieldLength), "\n", String(block.first), "\n", block.hash);
}

/** The directory that holds the cache of the site in `outDir`: one per output directory, so two sites never share one. */
export function cacheDirOf(cacheDir: string, outDir: string): string {
  return join(cacheDir, createHash("sha1").update(resolve(outDir)).digest("hex").slice(0, 16));
}

/**
 * The cache of the site in `outDir` (its directory made if missing). The cache is an optimisation:
 * a directory it cannot make or write (read-only, full, not a directory) is a warning, and the build
 * goes on reading every block.
 */
export function openBuildCache(cacheDir: string, outDir: string): BuildCache {
  const dir = cacheDirOf(cacheDir, outDir);
  const pathOf = (key: string): string => join(dir, key);
  let warning: Message | undefined;
  const fail = (line: Message): void => {
    warning ??= line;
  };
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    const real = realMkdirError(dir, error);
    if (!isErrno(real) || !CANNOT_WRITE.has(real.code ?? "")) throw real;
    fail(cacheLine(real));
  }
  // Read once: a directory that cannot be read is taken as not empty, and every read asks the disk, as before.
  let empty = false;
  try {
    empty = readdirSync(dir).length === 0;
  } catch {
    // Not a directory, or not readable: the warning above (or the first read) says so.
  }
  /**
   * In an empty cache, the keys given out to store under (fileOf): only those can be read back. A
   * miss asked of the disk was a failed open a block, 0.2 s of the main thread at a million subjects
   * (the record threads making files in the same directory meanwhile).
   */
  const given = new Set<string>();
  let previousSpans: Map<number, BlockSpan[]> | undefined;
  let prefetching = false;
  // Keyed by place and bytes: two files holding the same block at one place keep it once.
  const spans = new Map<string, BlockSpan>();
  const spansPath = `${dir}.spans.json`;
  return {
    spans() {
      if (previousSpans === undefined) {
        previousSpans = new Map();
        for (const span of readSpans(spansPath)) {
          const at = previousSpans.get(span.first);
          if (at === undefined) previousSpans.set(span.first, [span]);
          else at.push(span);
        }
      }
      return previousSpans;
    },
    keepSpan: (span) => void spans.set(`${span.first} ${span.raw}`, span),
    prefetch(keys) {
      if (prefetching) return;
      prefetching = true;
      // Only warms the page cache: a block missing or unreadable here is read (or missed) as always.
      void readAhead(keys.map((key) => `${pathOf(key)}${SUFFIX}`)).catch(() => undefined);
    },
    fileOf(key) {
      if (warning !== undefined) return undefined;
      if (empty) given.add(key);
      return pathOf(key);
    },
    empty,
    failed: fail,
    get warning() {
      return warning;
    },
    read(key, file) {
      if (empty && !given.has(key)) return undefined;
      try {
        return readBlock(pathOf(key), file);
      } catch (error) {
        // A block missing (or going) is a miss: it is parsed again from its source.
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw error;
      }
    },
    async keepOnly(keys) {
      if (warning === undefined) {
        try {
          writeSpans(spansPath, { format: FORMAT, version: VERSION, spans: [...spans.values()] });
        } catch (error) {
          if (!isErrno(error) || !CANNOT_WRITE.has(error.code ?? "")) throw error;
          fail(cacheLine(error));
        }
      }
      const keep = new Set(Array.from(keys, (key) => [`${key}${SUFFIX}`, `${key}${BYTES_SUFFIX}`]).flat());
      const names = await readdir(dir).catch(() => [] as string[]);
      await Promise.all(
        names
          .filter((name) => !keep.has(name))
          .map((name) =>
            rm(join(dir, name), { force: true }).catch((error: unknown) => {
              if (!isErrno(error) || !CANNOT_WRITE.has(error.code ?? "")) throw error;
              fail(cacheLine(error));
            }),
          ),
      );
    },
  };
}

/**
 * Reads the first HEAD_BYTES of each file, PREFETCH_READERS at a time, into one scratch buffer:
 * the bytes only warm the page cache, so the readers may overwrite each other's.
 */
async function readAhead(paths: readonly string[]): Promise<void> {
  const scratch = Buffer.allocUnsafeSlow(HEAD_BYTES);
  await forEachBounded(paths, PREFETCH_READERS, async (path) => {
    const file = await open(path, "r").catch(() => null);
    if (file === null) return;
    try {
      await file.read(scratch, 0, HEAD_BYTES, 0);
    } finally {
      await file.close();
    }
  });
}

/** The spans the last build kept (none when its file is missing, unreadable, or of another format or version). */
function readSpans(path: string): readonly BlockSpan[] {
  try {
    const json = JSON.parse(readFileSync(path, "utf8")) as Partial<SpansFile>;
    return json.format === FORMAT && json.version === VERSION && Array.isArray(json.spans) ? json.spans : [];
  } catch (error) {
    if (error instanceof SyntaxError || (isErrno(error) && error.code === "ENOENT")) return [];
    throw error;
  }
}

/** Writes the spans file whole or not at all (a temporary renamed). */
function writeSpans(path: string, spans: SpansFile): void {
  // `.tmp-<pid>.<part>`: a name remove-leftovers.ts knows, so a killed build's temporaries are found.
  const tmp = `${path}.tmp-${process.pid}.${Math.random().toString(36).slice(2)}`;
  try {
    writeFileSync(tmp, JSON.stringify(spans));
    renameSync(tmp, path);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}

/** The warning for a cache that cannot be written: where, why, that the build goes on without it, and what to do. */
function cacheLine(error: NodeJS.ErrnoException): Message {
  return msg("warning.cache-unwritable", { where: error.path ?? "", code: error.code ?? "", full: isFull(error.code) });
}

/**
 * Stores a rendered block under `file` (BuildCache.fileOf; synchronously: it runs in a record
 * thread, beside the rendering): where its bytes lie (`stored`: the bytes file, which the site's
 * writer links as the block's chunk file), or, for a store the machine refuses (a full disk, a
 * read-only one), the line saying why (`uncached`, for BuildCache.failed).
 */
export function storeBlock(file: string, block: RenderedBlock): Pick<RenderedBlock, "stored" | "uncached" | "known"> {
  // Keys the compact form cannot hold (none valid): the block is not stored, and parsed again next time.
  if (!isCompact(block.codes, block.oibs)) return {};
  // Its compact keys go on with the block too, as they will come from the cache next time: the checks across records read them, not the strings.
  const known = knownKeysOf(block.ids, block.codes, block.oibs);
  try {
    writeBlock(file, block, known);
    return { stored: { path: `${file}${BYTES_SUFFIX}`, bytesAt: 0 }, known };
  } catch (error) {
    if (!isErrno(error) || !CANNOT_WRITE.has(error.code ?? "")) throw error;
    // The cache's directory is what the user can act on, not the block's temporary name.
    return { uncached: cacheLine(Object.assign(error, { path: dirname(file) })) };
  }
}

/**
 * Writes the block's two files, each under a temporary name renamed into place: its rendered bytes
 * (`<file>.bytes`) first, then its head (`<file>.block`), which names their length, hash and
 * modification time. A killed build leaves a head only beside its bytes; bytes alone, with no head,
 * are never read (and the next sweep removes them).
 */
function writeBlock(file: string, block: RenderedBlock, known: KnownKeys): void {
  const bytesMtime = writeWhole(`${file}${BYTES_SUFFIX}`, [block.bytes]);
  const header: Header = {
    format: FORMAT,
    count: block.ends.length,
    length: block.bytes.length,
    hash: block.hash,
    bytesMtime,
    codesLength: known.codeBytes.length,
    rising: known.rising,
    highestCode: known.highestCode,
    problems: block.problems,
    dropped: block.dropped,
  };
  const json = Buffer.from(JSON.stringify(header));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(json.length);
  const view = (array: ArrayBufferView): Uint8Array => new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  writeWhole(`${file}${SUFFIX}`, [
    length,
    json,
    Buffer.alloc(align8(4 + json.length) - 4 - json.length),
    view(block.ids),
    view(block.positions),
    view(block.ends),
    view(known.oibs),
    view(known.codeEnds),
    known.codeBytes,
  ]);
}

/** Writes `parts` into `path` under a temporary name renamed into place; the file's modification time (ns, as text). */
function writeWhole(path: string, parts: readonly Uint8Array[]): string {
  // `.tmp-<pid>.<part>`: a name remove-leftovers.ts knows, so a killed build's temporaries are found.
  const tmp = `${path}.tmp-${process.pid}.${Math.random().toString(36).slice(2)}`;
  const fd = openSync(tmp, "w");
  try {
    let mtime: string;
    try {
      const size = parts.reduce((sum, part) => sum + part.byteLength, 0);
      // A short write is a full disk that did not say so.
      if (writevSync(fd, parts) !== size)
        throw Object.assign(new Error(`${tmp}: written short`), { code: "ENOSPC", syscall: "write", path: tmp });
      mtime = String(fstatSync(fd, { bigint: true }).mtimeNs);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
    return mtime;
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}

/**
 * Reads the rendered bytes `[start, end)` of the block stored at `path` (its bytes beginning at
 * `bytesAt`) again, without keeping them: a record's, for the few records a check names.
 */
export function rereadStored(path: string, bytesAt: number): (start: number, end: number) => Uint8Array {
  return (start, end) => {
    const fd = openSync(path, "r");
    try {
      const read = readAt(fd, bytesAt + start, end - start);
      if (read.length !== end - start) throw new Error(`${path}: the stored block was cut short while the build ran`);
      return read;
    } finally {
      closeSync(fd);
    }
  };
}

/**
 * The block stored under `base` (its head, `<base>.block`) without its rendered bytes, which are
 * read from their file (`<base>.bytes`) the first time `bytes` is used: a rebuild whose shards are
 * all unchanged never reads them. Undefined when the head is not one this code wrote whole, or the
 * bytes file is not the one it names (missing, another length, changed since: see Header.bytesMtime).
 */
function readBlock(base: string, file: SourceFile): RenderedBlock | undefined {
  const fd = openSync(`${base}${SUFFIX}`, "r");
  try {
    const size = fstatSync(fd).size;
    let head = readHead(fd, Math.min(size, HEAD_BYTES));
    if (head.length < 4) return undefined;
    const headerLength = head.readUInt32LE(0);
    if (4 + headerLength > size) return undefined;
    if (4 + headerLength > head.length) head = readHead(fd, 4 + headerLength);
    let header: Header;
    try {
      header = JSON.parse(head.toString("utf8", 4, 4 + headerLength)) as Header;
    } catch {
      return undefined;
    }
    const n = header.count;
    const at = align8(4 + headerLength);
    const bytesAt = at + n * 28 + header.codesLength;
    if (header.format !== FORMAT || size !== bytesAt) return undefined;
    const path = `${base}${BYTES_SUFFIX}`;
    if (!isStoredBytes(path, header)) return undefined;
    if (bytesAt > head.length) head = readHead(fd, bytesAt);
    // One copy of the keys, aligned (the scratch buffer is the next block's), seen through views.
    const keys = new Uint8Array(head.subarray(at, bytesAt)).buffer;
    const ids = new Float64Array(keys, 0, n);
    const positions = new Uint32Array(keys, n * 8, n);
    const ends = new Uint32Array(keys, n * 12, n);
    const known: KnownKeys = {
      oibs: new Float64Array(keys, n * 16, n),
      codeEnds: new Uint32Array(keys, n * 24, n),
      codeBytes: new Uint8Array(keys, n * 28, header.codesLength),
      rising: header.rising,
      highestCode: header.highestCode,
    };
    if (n > 0 && known.codeEnds[n - 1] !== header.codesLength) return undefined;
    const problems = header.problems.map((p) => ({ ...p, file: file.name }));
    let bytes: Uint8Array | undefined;
    let codes: string[] | undefined;
    let oibs: string[] | undefined;
    // The block's bytes [start, end) read again: all of them, or one record's for a check that names it.
    const reread = rereadStored(path, 0);
    return {
      get bytes() {
        return (bytes ??= reread(0, header.length));
      },
      reread,
      hash: header.hash,
      ends,
      ids,
      // Made only for a check that needs a record's code or OIB as text (the checks read `known`).
      get codes() {
        return (codes ??= codesOf(known));
      },
      get oibs() {
        return (oibs ??= oibTextsOf(known));
      },
      known,
      positions,
      problems,
      dropped: header.dropped,
      // Where the bytes lie: the site's writer links the block's chunk file to them, unread.
      stored: { path, bytesAt: 0 },
    };
  } finally {
    closeSync(fd);
  }
}

/** Is the file at `path` the bytes file `header` names: there, of its length, not written since? */
function isStoredBytes(path: string, header: Header): boolean {
  try {
    const stat = statSync(path, { bigint: true });
    return stat.isFile() && stat.size === BigInt(header.length) && String(stat.mtimeNs) === header.bytesMtime;
  } catch (error) {
    if (isErrno(error) && error.code === "ENOENT") return false;
    throw error;
  }
}

/** The scratch buffer block heads are read into, one block at a time (grown for a longer head). */
let scratch: Buffer | undefined;

/**
 * The first `length` bytes of `fd` (fewer at its end), in the scratch buffer: valid until the next
 * call. A fresh buffer a block was fresh pages a block, some 16,000 page faults a rebuild at 1M.
 */
function readHead(fd: number, length: number): Buffer {
  if (scratch === undefined || scratch.length < length) scratch = Buffer.allocUnsafeSlow(Math.max(length, HEAD_BYTES));
  return scratch.subarray(0, readInto(fd, scratch, 0, length, 0));
}

/** `length` bytes of `fd` from `position` (fewer at its end). */
function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafeSlow(length);
  return buffer.subarray(0, readInto(fd, buffer, 0, length, position));
}

function align8(n: number): number {
  return Math.ceil(n / 8) * 8;
}
