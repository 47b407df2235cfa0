/**
 * The key indexes as shards of the site plan (core/key-index.ts has their format): the bounds of
 * the records chunks (each chunk's first id and code), and the OIB index, a file per OIB prefix
 * that maps each OIB to its subjects' places in the list. They are planned from the chunk files
 * once the records are on disk, so a cached build that never parsed a record still indexes every
 * one.
 *
 * Memory: 8 bytes a subject while the OIB index is sorted (each OIB's rest and place as one
 * float, put in its prefix's place as the chunk files are read a second time; the OIBs kept by
 * place between the two took 8 more). Its files are then made once, each hashed and put in a
 * scratch directory as it is made (search/spilled-shard.ts), from where the writer threads link
 * them into the site: nothing of the index is held through the write, where its 8 bytes a subject
 * (40 MB at five million) were kept to render the files again.
 */
import { readFileSync } from "node:fs";
import { contentHash } from "../common/content-hash.ts";
import {
  BOUNDS_FILE,
  BOUNDS_SHARD_KEY,
  boundsLine,
  codeValue,
  oibLineLength,
  oibPlaceWidth,
  oibPrefixDigits,
  writeOibLine,
} from "../core/key-index.ts";
import { oibFileName, oibShardKey, SHARD_SIZE } from "../core/layout.ts";
import { VERSION } from "../core/version.ts";
import type { ShardFile, ShardPlan } from "./hand-offs.ts";
import type { ChunkFile } from "./read-chunks.ts";
import { SpilledShard } from "./search/spilled-shard.ts";

const NEWLINE = 0x0a;
const OIB_FIELD = Buffer.from('","oib":"');
const CODE_FIELD = Buffer.from(',"jedinstvena_oznaka":"');

/** Plans the bounds shard and the OIB index shards of `count` subjects in the chunk files `fileOf(chunk)`, the OIB files waiting in `scratch`. */
export function planKeys(count: number, chunkSize: number, fileOf: (chunk: number) => ChunkFile, scratch: string): ShardPlan[] {
  if (count === 0) return [];
  const chunks = Math.ceil(count / chunkSize);
  const firsts: { id: number; code: string }[] = [];
  const digits = oibPrefixDigits(count);
  const restSize = 10 ** (11 - digits);
  // The first pass counts each prefix's OIBs: starts[p + 1], summed below into where prefix p's keys begin.
  const starts = new Uint32Array(10 ** digits + 1);
  const read = eachOib(
    fileOf,
    chunks,
    (bytes) => firsts.push(firstKeys(bytes)),
    (oib) => {
      const next = Math.floor(oib / restSize) + 1;
      starts[next] = (starts[next] ?? 0) + 1;
    },
  );
  if (read !== count) throw new Error(`the chunk files hold ${read} subjects, not ${count}`);
  for (let p = 1; p < starts.length; p++) starts[p] = (starts[p] ?? 0) + (starts[p - 1] ?? 0);
  // The second reads the chunk files again (from the page cache) and puts each key in its prefix's
  // place at once: 8 bytes a subject, where the OIBs kept by place between the two took 16.
  const keys = new Float64Array(count);
  const filled = starts.slice(0, -1);
  eachOib(fileOf, chunks, null, (oib, place) => {
    const prefix = Math.floor(oib / restSize);
    const slot = filled[prefix] ?? 0;
    filled[prefix] = slot + 1;
    keys[slot] = (oib % restSize) * count + place;
  });
  for (let p = 0; p + 1 < starts.length; p++) keys.subarray(starts[p], starts[p + 1]).sort();
  return [boundsShard(firsts), ...oibShards(keys, starts, scratch)];
}

/**
 * Reads the chunk files in order: `first` gets each file's bytes, `visit` each subject's OIB (a
 * number: 11 digits are exact in a double) and place. Returns how many subjects were read.
 */
function eachOib(
  fileOf: (chunk: number) => ChunkFile,
  chunks: number,
  first: ((bytes: Buffer) => void) | null,
  visit: (oib: number, place: number) => void,
): number {
  let place = 0;
  for (let chunk = 0; chunk < chunks; chunk++) {
    const bytes = readFileSync(fileOf(chunk).path);
    first?.(bytes);
    eachOibAt(bytes, (at) => visit(Number(bytes.toString("latin1", at, at + 11)), place++));
  }
  return place;
}

/** Visits each record of a chunk file's bytes in order: `at`, where its OIB's 11 digits start. */
function eachOibAt(bytes: Buffer, visit: (at: number) => void): void {
  for (let start = 0; start < bytes.length; ) {
    let end = bytes.indexOf(NEWLINE, start);
    if (end === -1) end = bytes.length;
    // A string field's quotes are escaped, so the first `","oib":"` is the field's own.
    visit(bytes.indexOf(OIB_FIELD, start) + OIB_FIELD.length);
    start = end + 1;
  }
}

/**
 * What the key lookups take from a chunk file: its first record's id and code (the bounds) and
 * every record's OIB in order (the OIB index, whose places are the records' order). Two chunks at
 * one place with the same keys give the same key files, whatever else changed in their records.
 */
export function chunkKeys(bytes: Buffer): string {
  if (bytes.length === 0) return "";
  const { id, code } = firstKeys(bytes);
  const oibs: string[] = [];
  eachOibAt(bytes, (at) => oibs.push(bytes.toString("latin1", at, at + 11)));
  return `${id} ${code} ${oibs.join("")}`;
}

/** The id and code of a chunk's first record (`{"id":<id>,"jedinstvena_oznaka":"<code>",…`). */
function firstKeys(bytes: Buffer): { id: number; code: string } {
  const codeAt = bytes.indexOf(CODE_FIELD);
  const codeStart = codeAt + CODE_FIELD.length;
  return { id: Number(bytes.toString("latin1", 6, codeAt)), code: bytes.toString("latin1", codeStart, bytes.indexOf(0x22, codeStart)) };
}

function boundsShard(firsts: readonly { id: number; code: string }[]): ShardPlan {
  const width = Math.max(...firsts.map(({ code }) => codeValue(code).length));
  const bytes = Buffer.from(firsts.map(({ id, code }) => boundsLine(id, code, width)).join(""), "latin1");
  const file: ShardFile = { name: BOUNDS_FILE, bytes };
  return {
    key: BOUNDS_SHARD_KEY,
    hash: contentHash(VERSION, "\n", BOUNDS_SHARD_KEY, "\n", bytes),
    size: 1,
    name: () => BOUNDS_FILE,
    files: () => [file],
  };
}

/**
 * The OIB index: a file for every prefix of `digits` digits, even an empty one (a missing file
 * would read as a stale site), in shards of SHARD_SIZE files. `keys` are sorted by a counting sort
 * on the prefix (prefix p's begin at `starts[p]`) and a sort of each prefix's: each key is the
 * OIB's rest after its prefix times `count` plus the place, exact in a double (under 2^53 for any
 * list the prefixes keep to a thousand lines a file), so one number sorts by OIB, then by place.
 */
function oibShards(keys: Float64Array, starts: Uint32Array, scratch: string): ShardPlan[] {
  const count = keys.length;
  const digits = oibPrefixDigits(count);
  const prefixes = 10 ** digits;
  const restSize = 10 ** (11 - digits);
  const prefixText = prefixTextOf(digits);
  const width = oibPlaceWidth(count);
  const lineLength = oibLineLength(width);
  const perShard = Math.min(prefixes, SHARD_SIZE);
  const shards: ShardPlan[] = [];
  for (let first = 0; first < prefixes; first += perShard) {
    const last = Math.min(prefixes, first + perShard);
    // Hashed as every shard is (the code's version, the key, each file's name and bytes).
    const shard = new SpilledShard(scratch, oibShardKey(prefixText(first)));
    for (let p = first; p < last; p++) {
      const [from, to] = [starts[p] ?? 0, starts[p + 1] ?? 0];
      const bytes = Buffer.allocUnsafe((to - from) * lineLength);
      for (let k = from; k < to; k++) {
        const key = keys[k] ?? 0;
        const place = key % count;
        writeOibLine(bytes, (k - from) * lineLength, p * restSize + (key - place) / count, place, width);
      }
      shard.add(oibFileName(prefixText(p)), bytes);
    }
    shards.push(shard.done());
  }
  return shards;
}

/** Prefix `p` of the OIB index written with `digits` digits. */
function prefixTextOf(digits: number): (p: number) => string {
  return (p) => (digits === 0 ? "" : String(p).padStart(digits, "0"));
}

/** The keys of the shards planKeys plans for `count` subjects, in its order: the bounds, then the OIB index's. */
export function keyShardKeys(count: number): string[] {
  if (count === 0) return [];
  const digits = oibPrefixDigits(count);
  const prefixes = 10 ** digits;
  const prefixText = prefixTextOf(digits);
  const keys = [BOUNDS_SHARD_KEY];
  for (let first = 0; first < prefixes; first += Math.min(prefixes, SHARD_SIZE)) keys.push(oibShardKey(prefixText(first)));
  return keys;
}
