/**
 * The build cache: what a build read, kept so the next build of the same site skips whatever did
 * not change. For each block of source records (read-json-array.ts) it keeps the hash of the
 * block's text, and for each record its id, code, position and index in the list; for the list,
 * each chunk's hash and size. A rebuild then parses, validates and renders only the blocks whose
 * text changed, takes every other record's rendered bytes from the previous site's chunk files,
 * and recognises an unchanged chunk (hence shard) without touching it.
 *
 * The cache describes one site: it names that site's manifest hash, and is used only while the
 * site's manifest still has it. Every chunk read back is checked against its hash; a mismatch
 * (someone edited dist/) throws StaleCacheError, and the build starts again without the cache.
 *
 * It lives outside the site (default node_modules/.cache/subjekti/, one file per output directory),
 * because everything in the site is published. Format: a 4-byte header length, the header as
 * JSON, padding to 8 bytes, then ids (float64), positions (uint32), list indexes (uint32), and the
 * codes joined by "\n" (they are digits).
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { CHUNK_SIZE, chunkPath, MANIFEST_PATH } from "../core/layout.ts";
import { LAYOUT_VERSION, type Manifest, manifestProblem } from "../core/manifest.ts";
import { VERSION } from "../core/version.ts";
import { contentHash } from "./content-hash.ts";
import type { Problem } from "./problems.ts";
import type { SourceBlock } from "./read-json-array.ts";
import type { KnownBlock, KnownBlocks, RecordSet } from "./read-subjects.ts";

/** Bumped whenever the file's layout changes: another format is ignored. */
const FORMAT = 1;

/** The rendered records of the previous build, chunk by chunk, as the record arena reuses them. */
export interface PreviousRecords {
  /** Records in the previous list. */
  readonly count: number;
  chunkHash(chunk: number): string;
  /** A chunk file's size in bytes. */
  chunkLength(chunk: number): number;
  /** A chunk file's bytes, checked against its hash (throws StaleCacheError when they differ). */
  chunkBytes(chunk: number): Buffer;
}

/** What a cache file gives a build: the blocks to skip, and where their rendered bytes are. */
export interface BuildCache {
  readonly known: KnownBlocks;
  readonly previous: PreviousRecords;
}

/** The previous site is not what the cache says: build again without it. */
export class StaleCacheError extends Error {
  constructor(what: string) {
    super(`the build cache does not match the site (${what})`);
    this.name = "StaleCacheError";
  }
}

/** A block as the header lists it: ordinal, first position, count, text hash, first record, warnings. */
type BlockEntry = [number, number, number, string, number, Problem[]];

interface Header {
  readonly format: number;
  readonly version: string;
  readonly layout: number;
  readonly chunkSize: number;
  /** The manifest hash of the site this cache describes. */
  readonly site: string;
  /** Records in the list (the arrays hold as many, in reading order). */
  readonly count: number;
  /** [hash, bytes] of each chunk of the list. */
  readonly chunks: [string, number][];
  /** Blocks of each source file, in reading order. */
  readonly files: Record<string, BlockEntry[]>;
}

/** The cache file for the site in `outDir`: one per output directory, so two sites never share one. */
export function cacheFile(cacheDir: string, outDir: string): string {
  const key = createHash("sha1").update(resolve(outDir)).digest("hex").slice(0, 16);
  return join(cacheDir, `${key}.bin`);
}

/** Reads the site's manifest, or undefined when there is no usable one. */
async function readManifest(outDir: string): Promise<Manifest | undefined> {
  try {
    const value: unknown = JSON.parse(await readFile(join(outDir, MANIFEST_PATH), "utf8"));
    return manifestProblem(value, VERSION) === null ? (value as Manifest) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The cache of the site in `outDir`, or undefined when there is none or it does not describe the
 * site as it is (another version, another build since, no manifest).
 */
export async function loadBuildCache(cacheDir: string, outDir: string): Promise<BuildCache | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(cacheFile(cacheDir, outDir));
  } catch {
    return undefined;
  }
  const manifest = await readManifest(outDir);
  if (manifest === undefined || bytes.length < 4) return undefined;
  const headerLength = bytes.readUInt32LE(0);
  let header: Header;
  try {
    header = JSON.parse(bytes.toString("utf8", 4, 4 + headerLength)) as Header;
  } catch {
    return undefined;
  }
  const fits = header.format === FORMAT && header.version === VERSION && header.layout === LAYOUT_VERSION;
  if (!fits || header.chunkSize !== CHUNK_SIZE || header.site !== manifest.hash || manifest.count !== header.count) return undefined;

  const n = header.count;
  let at = align8(4 + headerLength);
  // Copied out into aligned typed arrays: a Buffer's offset in its pool need not be aligned.
  const take = (size: number): ArrayBuffer => {
    const copy = new Uint8Array(size);
    copy.set(bytes.subarray(at, (at += size)));
    return copy.buffer;
  };
  const ids = new Float64Array(take(n * 8));
  const positions = new Uint32Array(take(n * 4));
  const listIndex = new Uint32Array(take(n * 4));
  const codes = n === 0 ? [] : bytes.toString("latin1", at).split("\n");
  if (codes.length !== n) return undefined;

  const files = new Map(Object.entries(header.files));
  const known: KnownBlocks = {
    find(file: string, ordinal: number, block: SourceBlock): KnownBlock | undefined {
      const entry = files.get(file)?.[ordinal];
      if (entry === undefined) return undefined;
      const [, first, count, hash, start, warnings] = entry;
      if (first !== block.first || count !== block.count || hash !== block.hash) return undefined;
      const end = start + count;
      return {
        ids: ids.subarray(start, end),
        codes: codes.slice(start, end),
        positions: positions.subarray(start, end),
        listIndex: listIndex.subarray(start, end),
        warnings,
      };
    },
  };
  return { known, previous: previousRecords(outDir, manifest, header) };
}

/** The previous site's chunk files, read when asked for and checked against their hashes. */
function previousRecords(outDir: string, manifest: Manifest, header: Header): PreviousRecords {
  const chunk = (c: number): [string, number] => {
    const entry = header.chunks[c];
    if (entry === undefined) throw new RangeError(`no chunk ${c} in the previous list`);
    return entry;
  };
  return {
    count: header.count,
    chunkHash: (c) => chunk(c)[0],
    chunkLength: (c) => chunk(c)[1],
    chunkBytes(c) {
      const path = chunkPath(manifest, c);
      let bytes: Buffer;
      try {
        // Synchronous: a page's bytes are produced synchronously, and this is a 300 KB file at most.
        bytes = path === null ? Buffer.alloc(0) : readFileSync(join(outDir, path));
      } catch {
        throw new StaleCacheError(`chunk ${c} is missing`);
      }
      if (path === null || contentHash(bytes) !== chunk(c)[0]) throw new StaleCacheError(`chunk ${c} has changed`);
      return bytes;
    },
  };
}

/** What a finished build leaves for the next one: the records it read and the list's chunks. */
export interface CacheContents {
  readonly records: RecordSet;
  /** The new manifest's hash: the site the cache describes. */
  readonly site: string;
  readonly chunks: readonly (readonly [string, number])[];
}

/** Writes the cache for the site in `outDir` (atomically: a killed build leaves the old file or none). */
export async function saveBuildCache(cacheDir: string, outDir: string, contents: CacheContents): Promise<void> {
  const { records } = contents;
  const files: Record<string, BlockEntry[]> = {};
  for (const b of records.blocks) (files[b.file] ??= [])[b.ordinal] = [b.ordinal, b.first, b.count, b.hash, b.start, [...b.warnings]];
  const header: Header = {
    format: FORMAT,
    version: VERSION,
    layout: LAYOUT_VERSION,
    chunkSize: CHUNK_SIZE,
    site: contents.site,
    count: records.count,
    chunks: contents.chunks.map(([hash, length]) => [hash, length]),
    files,
  };
  const headerBytes = Buffer.from(JSON.stringify(header));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(headerBytes.length);
  const padding = Buffer.alloc(align8(4 + headerBytes.length) - 4 - headerBytes.length);
  const { ids, codes } = records.keys;
  const parts = [
    length,
    headerBytes,
    padding,
    Buffer.from(ids.buffer, ids.byteOffset, ids.byteLength),
    Buffer.from(records.positions.buffer, records.positions.byteOffset, records.positions.byteLength),
    Buffer.from(records.listIndex.buffer, records.listIndex.byteOffset, records.listIndex.byteLength),
    Buffer.from(codes.join("\n"), "latin1"),
  ];
  const path = cacheFile(cacheDir, outDir);
  await mkdir(cacheDir, { recursive: true });
  await writeFile(`${path}.tmp-${process.pid}`, parts);
  await rename(`${path}.tmp-${process.pid}`, path);
}

function align8(n: number): number {
  return Math.ceil(n / 8) * 8;
}
