/**
 * The build cache: each block of a JSON array (read-json-array.ts), rendered, kept under a key
 * made of everything its rendering depends on: the code's version, --strict, the field-length bound, the block's first
 * index and the hash of its text. A rebuild looks each block up whole; a block whose key is stored
 * is not parsed again, whatever the site in dist/ is, and wherever the file is (its problems are
 * given the file's name as they are read).
 *
 * One file a block, so the cache is read and written block by block: a record thread stores the
 * block it rendered itself, and a build never holds the cache as a whole. A file is written under
 * a temporary name and renamed, so a killed build leaves whole blocks or none; one that cannot be
 * read back (cut short, another format) is a miss. Blocks with errors are never stored.
 *
 * It lives outside the site (default node_modules/.cache/subjekti/, one directory per output
 * directory), because everything in the site is published. After a build, blocks the build did
 * not use are removed, so the cache holds one version of the data. A block file: a 4-byte header
 * length, the header as JSON (count, byte length and hash of the rendered bytes, codes, OIBs, problems), padding to 8 bytes, then ids
 * (float64), positions (uint32), record ends (uint32) and the rendered bytes.
 */
import { createHash } from "node:crypto";
import { closeSync, fstatSync, mkdirSync, openSync, readSync, renameSync, writevSync } from "node:fs";
import { readdir, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { VERSION } from "../../core/version.ts";
import { contentHash } from "../../common/content-hash.ts";
import type { Problem } from "../problems/problems.ts";
import type { SourceBlock } from "../sources/read-json-array.ts";
import type { RenderedBlock } from "./render-block.ts";
import type { SourceFile } from "../sources/source-file.ts";

/** Bumped whenever a block file's layout changes: another format is a miss. */
const FORMAT = 4;
/** Bytes read at once for a block's header and keys (about 30 KB for 1,000 records); more when they are longer. */
const HEAD_BYTES = 64 * 1024;
const SUFFIX = ".block";

/** The stored blocks of one site. */
export interface BuildCache {
  /** The block of `file` stored under `key`, or undefined. */
  read(key: string, file: SourceFile): RenderedBlock | undefined;
  /** The file a block rendered under `key` is stored in (by whoever renders it: storeBlock). */
  fileOf(key: string): string;
  /** Removes every stored block but `keys` (those the build just used). */
  keepOnly(keys: Iterable<string>): Promise<void>;
}

interface Header {
  readonly format: number;
  readonly count: number;
  readonly length: number;
  readonly hash: string;
  readonly codes: readonly string[];
  readonly oibs: readonly string[];
  readonly problems: readonly Problem[];
  readonly dropped: Readonly<Record<string, number>>;
}

/** The key a block is stored under: everything its rendered records and problems depend on but the file's name. */
export function blockKey(strict: boolean, maxFieldLength: number, block: SourceBlock): string {
  return contentHash(VERSION, "\n", strict ? "strict" : "", "\n", String(maxFieldLength), "\n", String(block.first), "\n", block.hash);
}

/** The cache of the site in `outDir` (its directory made if missing): one per output directory, so two sites never share one. */
export function openBuildCache(cacheDir: string, outDir: string): BuildCache {
  const dir = join(cacheDir, createHash("sha1").update(resolve(outDir)).digest("hex").slice(0, 16));
  const fileOf = (key: string): string => join(dir, `${key}${SUFFIX}`);
  mkdirSync(dir, { recursive: true });
  return {
    fileOf,
    read(key, file) {
      try {
        return readBlock(fileOf(key), file);
      } catch (error) {
        // A block missing (or going) is a miss: it is parsed again from its source.
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw error;
      }
    },
    async keepOnly(keys) {
      const keep = new Set(Array.from(keys, (key) => `${key}${SUFFIX}`));
      const names = await readdir(dir).catch(() => [] as string[]);
      await Promise.all(names.filter((name) => !keep.has(name)).map((name) => rm(join(dir, name), { force: true })));
    },
  };
}

/** Stores a rendered block in `file` (synchronously: it runs in a record thread, beside the rendering). */
export function storeBlock(file: string, block: RenderedBlock): void {
  const header: Header = { format: FORMAT, count: block.ends.length, length: block.bytes.length, hash: block.hash, codes: block.codes, oibs: block.oibs, problems: block.problems, dropped: block.dropped };
  const json = Buffer.from(JSON.stringify(header));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(json.length);
  const view = (array: ArrayBufferView): Uint8Array => new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  const parts = [length, json, Buffer.alloc(align8(4 + json.length) - 4 - json.length), view(block.ids), view(block.positions), view(block.ends), block.bytes];
  const tmp = `${file}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  const fd = openSync(tmp, "w");
  try {
    const size = parts.reduce((sum, part) => sum + part.byteLength, 0);
    if (writevSync(fd, parts) !== size) throw new Error(`${tmp}: the block was written short (is the disk full?)`);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

/**
 * A block file's block without its rendered bytes, which are read from the file the first time
 * `bytes` is used: a rebuild whose shards are all unchanged never reads them. Undefined when the
 * file is not one this code wrote whole.
 */
function readBlock(path: string, file: SourceFile): RenderedBlock | undefined {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    let head = readAt(fd, 0, Math.min(size, HEAD_BYTES));
    if (head.length < 4) return undefined;
    const headerLength = head.readUInt32LE(0);
    if (4 + headerLength > size) return undefined;
    if (4 + headerLength > head.length) head = readAt(fd, 0, 4 + headerLength);
    let header: Header;
    try {
      header = JSON.parse(head.toString("utf8", 4, 4 + headerLength)) as Header;
    } catch {
      return undefined;
    }
    const n = header.count;
    let at = align8(4 + headerLength);
    const bytesAt = at + n * 16;
    if (header.format !== FORMAT || header.codes.length !== n || size !== bytesAt + header.length) return undefined;
    if (bytesAt > head.length) head = readAt(fd, 0, bytesAt);
    // Copied into aligned typed arrays: a Buffer's offset in its pool need not be aligned.
    const take = (length: number): ArrayBuffer => new Uint8Array(head.subarray(at, (at += length))).buffer;
    const ids = new Float64Array(take(n * 8));
    const positions = new Uint32Array(take(n * 4));
    const ends = new Uint32Array(take(n * 4));
    const problems = header.problems.map((p) => ({ ...p, file: file.name }));
    let bytes: Uint8Array | undefined;
    const load = (): Uint8Array => {
      const again = openSync(path, "r");
      try {
        const read = readAt(again, bytesAt, header.length);
        if (read.length !== header.length) throw new Error(`${path}: the stored block was cut short while the build ran`);
        return read;
      } finally {
        closeSync(again);
      }
    };
    return {
      get bytes() {
        return (bytes ??= load());
      },
      hash: header.hash,
      ends,
      ids,
      codes: header.codes,
      oibs: header.oibs,
      positions,
      problems,
      dropped: header.dropped,
    };
  } finally {
    closeSync(fd);
  }
}

/** `length` bytes of `fd` from `position` (fewer at its end). */
function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafeSlow(length);
  let done = 0;
  while (done < length) {
    const read = readSync(fd, buffer, done, length - done, position + done);
    if (read === 0) break;
    done += read;
  }
  return buffer.subarray(0, done);
}

function align8(n: number): number {
  return Math.ceil(n / 8) * 8;
}
