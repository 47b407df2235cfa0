/**
 * The key indexes as shards of the site plan (core/key-index.ts has their format): the bounds of
 * the records chunks (each chunk's first id and code), and the OIB index, a file per OIB prefix
 * that maps each OIB to its subjects' places in the list. They are planned from the chunk files
 * once the records are on disk, so a cached build that never parsed a record still indexes every
 * one.
 *
 * Memory: 16 bytes a subject while the OIB index is sorted (each OIB as a float by place, then its
 * key and place as one float), 8 bytes kept until its files are written, about 8 MB at a million
 * subjects; the files are rendered again, one at a time, as they are written.
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

const NEWLINE = 0x0a;
const OIB_FIELD = Buffer.from('","oib":"');
const CODE_FIELD = Buffer.from(',"jedinstvena_oznaka":"');

/** Plans the bounds shard and the OIB index shards of `count` subjects in the chunk files `fileOf(chunk)`. */
export function planKeys(count: number, chunkSize: number, fileOf: (chunk: number) => ChunkFile): ShardPlan[] {
  if (count === 0) return [];
  const chunks = Math.ceil(count / chunkSize);
  const firsts: { id: number; code: string }[] = [];
  // Each subject's OIB as a number (11 digits are exact in a double), by place.
  const oibs = new Float64Array(count);
  let place = 0;
  for (let chunk = 0; chunk < chunks; chunk++) {
    const bytes = readFileSync(fileOf(chunk).path);
    for (let start = 0; start < bytes.length; ) {
      let end = bytes.indexOf(NEWLINE, start);
      if (end === -1) end = bytes.length;
      if (start === 0) firsts.push(firstKeys(bytes));
      // A string field's quotes are escaped, so the first `","oib":"` is the field's own.
      const at = bytes.indexOf(OIB_FIELD, start) + OIB_FIELD.length;
      oibs[place++] = Number(bytes.toString("latin1", at, at + 11));
      start = end + 1;
    }
  }
  if (place !== count) throw new Error(`the chunk files hold ${place} subjects, not ${count}`);
  return [boundsShard(firsts), ...oibShards(oibs)];
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
 * would read as a stale site), in shards of SHARD_SIZE files. `oibs` (by place) is sorted once,
 * by a counting sort on the prefix and a sort of each prefix's keys: each key is the OIB's rest
 * after its prefix times `count` plus the place, exact in a double (under 2^53 for any list the
 * prefixes keep to a thousand lines a file), so one number sorts by OIB, then by place.
 */
function oibShards(oibs: Float64Array): ShardPlan[] {
  const count = oibs.length;
  const digits = oibPrefixDigits(count);
  const prefixes = 10 ** digits;
  const restSize = 10 ** (11 - digits);
  // starts[p]: where prefix p's keys begin (a counting sort); starts[prefixes]: count.
  const starts = new Uint32Array(prefixes + 1);
  for (const oib of oibs) {
    const next = Math.floor(oib / restSize) + 1;
    starts[next] = (starts.at(next) ?? 0) + 1;
  }
  for (let p = 0; p < prefixes; p++) starts[p + 1] = (starts.at(p + 1) ?? 0) + (starts.at(p) ?? 0);
  const keys = sortedKeys(oibs, starts, restSize);
  const prefixText = (p: number): string => (digits === 0 ? "" : String(p).padStart(digits, "0"));
  const width = oibPlaceWidth(count);
  const lineLength = oibLineLength(width);
  const fileOf = (p: number): ShardFile => {
    const [from, to] = [starts.at(p) ?? 0, starts.at(p + 1) ?? 0];
    const bytes = Buffer.allocUnsafe((to - from) * lineLength);
    for (let k = from; k < to; k++) {
      const key = keys.at(k) ?? 0;
      const place = key % count;
      writeOibLine(bytes, (k - from) * lineLength, p * restSize + (key - place) / count, place, width);
    }
    return { name: oibFileName(prefixText(p)), bytes };
  };
  const perShard = Math.min(prefixes, SHARD_SIZE);
  const shards: ShardPlan[] = [];
  for (let first = 0; first < prefixes; first += perShard) {
    const last = Math.min(prefixes, first + perShard);
    const key = oibShardKey(prefixText(first));
    const files = function* (): Generator<ShardFile> {
      for (let p = first; p < last; p++) yield fileOf(p);
    };
    const hash = contentHash(VERSION, "\n", key, "\n", ...[...files()].flatMap((file) => [file.name, "\n", file.bytes]));
    shards.push({ key, hash, size: last - first, name: (i) => oibFileName(prefixText(first + i)), files });
  }
  return shards;
}

/** The OIBs' keys (see oibShards), placed by prefix where `starts` says and sorted within each: `oibs` is not kept. */
function sortedKeys(oibs: Float64Array, starts: Uint32Array, restSize: number): Float64Array {
  const count = oibs.length;
  const keys = new Float64Array(count);
  const filled = starts.slice(0, starts.length - 1);
  for (let place = 0; place < count; place++) {
    const oib = oibs[place] ?? 0;
    const prefix = Math.floor(oib / restSize);
    const slot = filled[prefix] ?? 0;
    filled[prefix] = slot + 1;
    keys[slot] = (oib % restSize) * count + place;
  }
  for (let p = 0; p + 1 < starts.length; p++) keys.subarray(starts[p], starts[p + 1]).sort();
  return keys;
}
