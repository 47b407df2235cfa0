/**
 * Where every file of a built site lives: one path function shared by the build (which writes
 * the files) and the router (which names them), so a URL and its file cannot drift apart.
 *
 *   _subjekti/manifest.json                              the facts the router needs; written last
 *   _subjekti/pages/<form>/<limit>/<shard>.<hash>/<page>.json   pre-rendered pages
 *   _subjekti/pages/<form>/<limit>/<shard>.<hash>/etags.txt     each page's ETag, a line a page (etag.ts)
 *   _subjekti/records/<shard>.<hash>/<chunk>.ndjson      every rendered record, CHUNK_SIZE a file
 *   _subjekti/records/<shard>.<hash>/<chunk>.offsets     where each record of the chunk starts, then its keys (record-offsets.ts, chunk-keys.ts)
 *   _subjekti/keys.<hash>/bounds.txt                     each chunk's first id and code (key-index.ts)
 *   _subjekti/oib/<shard>.<hash>/<prefix>.txt            OIB -> place in the list, a file per OIB prefix (key-index.ts)
 *   _subjekti/search/…                                   the search files (search/search-layout.ts)
 *
 * A shard directory holds SHARD_SIZE files at most (hosts cap directory sizes; records shards
 * hold CHUNKS_PER_SHARD) and its name
 * carries a hash of its content, so a rebuild writes a changed shard beside the old one and the
 * manifest's atomic replacement switches readers from the complete old site to the complete new.
 */
import { BOUNDS_FILE, BOUNDS_SHARD_KEY, oibPrefixDigits } from "./key-index.ts";
import {
  bucketFileNames,
  keysShardKey,
  ORDER_SHARD_KEY,
  SUFFIX_FIRSTS_FILE,
  SUFFIX_FIRSTS_SHARD_KEY,
  suffixFileName,
  suffixShardKey,
} from "./search/search-layout.ts";

/**
 * The name of the list of tags a shard directory holds beside its served files: line `i` is the
 * ETag of the shard's file `i` (in the build's order), so the tag of a pre-rendered file is read
 * without the file.
 */
export const ETAGS_FILE = "etags.txt";

/** Shard key -> the content hash in that shard directory's name: the manifest's `dirs`, all a path needs of it. */
export type ShardHashes = Readonly<Record<string, string>>;

/** The site directory that holds every generated file, served as `/_subjekti/…`. */
export const DATA_ROOT = "_subjekti";
/** The manifest's path inside the site. */
export const MANIFEST_PATH = `${DATA_ROOT}/manifest.json`;
/** Files in one shard directory. */
export const SHARD_SIZE = 1000;
/** Records in one chunk file: with the default maximum limit, any page needs two chunks at most. */
export const CHUNK_SIZE = 1000;
/**
 * Chunk files in one records shard: smaller than SHARD_SIZE so that a records shard is ready
 * (rendered) early and its files are written alongside the pages', and a one-record edit re-checks
 * 100 chunks, not 1,000.
 */
export const CHUNKS_PER_SHARD = 100;

/**
 * The forms of `format` a page can be pre-rendered in: `plain` (no `format` parameter), `api` and
 * `json` (`format=api` / `format=json`, which DRF carries into the links).
 */
export const FORMS = ["plain", "api", "json"] as const;
export type Form = (typeof FORMS)[number];

/** Is `value` one of the forms a page can be pre-rendered in? */
export function isForm(value: string): value is Form {
  return (FORMS as readonly string[]).includes(value);
}

/** The shard directory key (its path without the hash) of page `page` of `form` and `limit`. */
export function pageShardKey(form: Form, limit: number, page: number): string {
  return `pages/${form}/${limit}/${Math.floor(page / SHARD_SIZE)}`;
}

/** The shard directory key of chunk `chunk`. */
export function recordShardKey(chunk: number): string {
  return `records/${Math.floor(chunk / CHUNKS_PER_SHARD)}`;
}

/** A shard directory's path inside the data root: its key, then its content hash. */
export function shardDirPath(key: string, hash: string): string {
  return `${key}.${hash}`;
}

/** A file's path inside the site, from its shard key, that shard's content hash and its name. */
export function shardFilePath(key: string, hash: string, name: string): string {
  return `${DATA_ROOT}/${shardDirPath(key, hash)}/${name}`;
}

/** The key of a shard directory's path (`<key>.<hash>`), or null when the path is not one. */
export function shardKeyOf(path: string): string | null {
  return /^(.*)\.[0-9a-f]{16}$/.exec(path)?.[1] ?? null;
}

/** The path a shard is written under by writer `writer` (a process id) before it is renamed to shardDirPath. */
export function shardTempPath(key: string, writer: number): string {
  return `${key}.tmp-${writer}`;
}

/** The writer of a shard being written (or left by a killed build), from its temporary path; null when the path is not one. */
export function shardTempWriter(path: string): number | null {
  const writer = /\.tmp-(\d+)$/.exec(path)?.[1];
  return writer === undefined ? null : Number(writer);
}

/** The file name of page `page` (offset `page * limit`) inside its shard. */
export function pageFileName(page: number): string {
  return `${page}.json`;
}

/** The file name of chunk `chunk` inside its shard. */
export function chunkFileName(chunk: number): string {
  return `${chunk}.ndjson`;
}

/** The file name of chunk `chunk`'s table of offsets and keys (record-offsets.ts, chunk-keys.ts) inside its shard. */
export function offsetsFileName(chunk: number): string {
  return `${chunk}.offsets`;
}

/** The site path of a pre-rendered page, or null when the manifest holds no such page. */
export function pagePath(manifest: { readonly dirs: ShardHashes }, form: Form, limit: number, page: number): string | null {
  const key = pageShardKey(form, limit, page);
  const hash = manifest.dirs[key];
  return hash === undefined ? null : shardFilePath(key, hash, pageFileName(page));
}

/** Where the ETag of a shard's file `index` is read: its shard's tag list and the line. */
export interface EtagLine {
  readonly path: string;
  readonly index: number;
}

/** The tag list of the shard of pre-rendered page `page`, and its line there; null when the manifest holds no such page. */
export function pageEtagLine(manifest: { readonly dirs: ShardHashes }, form: Form, limit: number, page: number): EtagLine | null {
  const key = pageShardKey(form, limit, page);
  const hash = manifest.dirs[key];
  return hash === undefined ? null : { path: shardFilePath(key, hash, ETAGS_FILE), index: page % SHARD_SIZE };
}

/** The site path of a records chunk, or null when the manifest holds no such chunk. */
export function chunkPath(manifest: { readonly dirs: ShardHashes }, chunk: number): string | null {
  const key = recordShardKey(chunk);
  const hash = manifest.dirs[key];
  return hash === undefined ? null : shardFilePath(key, hash, chunkFileName(chunk));
}

/** The site path of a records chunk's offsets table, or null when the manifest holds no such chunk. */
export function offsetsPath(manifest: { readonly dirs: ShardHashes }, chunk: number): string | null {
  const key = recordShardKey(chunk);
  const hash = manifest.dirs[key];
  return hash === undefined ? null : shardFilePath(key, hash, offsetsFileName(chunk));
}

/** The site path of the bounds of the records chunks (key-index.ts), or null when the manifest has none. */
export function boundsPath(manifest: { readonly dirs: ShardHashes }): string | null {
  const hash = manifest.dirs[BOUNDS_SHARD_KEY];
  return hash === undefined ? null : shardFilePath(BOUNDS_SHARD_KEY, hash, BOUNDS_FILE);
}

/** The prefix of an OIB that names its index file, in a list of `count` subjects. */
export function oibPrefix(oib: string, count: number): string {
  return oib.slice(0, oibPrefixDigits(count));
}

/** The shard key of the OIB index file of `prefix`: a thousand files a shard at most. */
export function oibShardKey(prefix: string): string {
  return `oib/${prefix.slice(0, Math.max(0, prefix.length - 3)) || "0"}`;
}

/** The file name of the OIB index file of `prefix` inside its shard. */
export function oibFileName(prefix: string): string {
  return `${prefix === "" ? "all" : prefix}.txt`;
}

/** The site path of the OIB index file that holds `oib` (11 digits), or null when the manifest has none. */
export function oibIndexPath(manifest: { readonly dirs: ShardHashes; readonly count: number }, oib: string): string | null {
  const prefix = oibPrefix(oib, manifest.count);
  const key = oibShardKey(prefix);
  const hash = manifest.dirs[key];
  return hash === undefined ? null : shardFilePath(key, hash, oibFileName(prefix));
}

/** The site path of a bucket's index or values file, or null when the manifest has no such shard. */
export function bucketPath(manifest: { readonly dirs: ShardHashes }, bucket: number, file: "index" | "values"): string | null {
  const key = keysShardKey(bucket);
  const hash = manifest.dirs[key];
  return hash === undefined ? null : shardFilePath(key, hash, bucketFileNames(bucket)[file]);
}

/** The site path of an order file, or null when the manifest has none. */
export function orderPath(manifest: { readonly dirs: ShardHashes }, name: string): string | null {
  const hash = manifest.dirs[ORDER_SHARD_KEY];
  return hash === undefined ? null : shardFilePath(ORDER_SHARD_KEY, hash, name);
}

/**
 * The site path of suffix file `file`, or of the first keys (`firsts`: the groups', or group
 * `group`'s files'); null when the manifest has none.
 */
export function suffixPath(manifest: { readonly dirs: ShardHashes }, file: number | { readonly firsts: number | null }): string | null {
  const key = typeof file === "number" ? suffixShardKey(file) : SUFFIX_FIRSTS_SHARD_KEY;
  const hash = manifest.dirs[key];
  const name = typeof file === "number" ? suffixFileName(file) : file.firsts === null ? SUFFIX_FIRSTS_FILE : `${file.firsts}.json`;
  return hash === undefined ? null : shardFilePath(key, hash, name);
}
