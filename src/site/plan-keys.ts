/**
 * The key indexes as shards of the site plan (core/key-index.ts has their format): the bounds of
 * the records chunks (each chunk's first id and code), and the OIB index, a file per OIB prefix
 * that maps each OIB to where its subjects' records lie (their chunks, and their bytes there).
 * They are planned from the chunk files once the records are on disk, so a cached build that
 * never parsed a record still indexes every one.
 *
 * Memory: 24 bytes a subject while the OIB index is sorted (its key as a float, its slot, its
 * record's start and end in its chunk), about 24 MB at a million subjects; the files are rendered
 * again, one at a time, as they are written.
 */
import { readFileSync } from "node:fs";
import { contentHash } from "../common/content-hash.ts";
import {
  BOUNDS_FILE,
  BOUNDS_SHARD_KEY,
  boundsLine,
  codeValue,
  type OibEntry,
  type OibWidths,
  oibLineLength,
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
  // Each subject's OIB as a number (11 digits are exact in a double), by position.
  const oibs = new Float64Array(count);
  // Each record's bytes in its chunk, by position: a lookup by OIB reads them without the chunk's offsets.
  const starts = new Uint32Array(count);
  const ends = new Uint32Array(count);
  let widest = 0;
  let longest = 0;
  let position = 0;
  for (let chunk = 0; chunk < chunks; chunk++) {
    const bytes = readFileSync(fileOf(chunk).path);
    widest = Math.max(widest, bytes.length);
    for (let start = 0; start < bytes.length; ) {
      let end = bytes.indexOf(NEWLINE, start);
      if (end === -1) end = bytes.length;
      if (start === 0) firsts.push(firstKeys(bytes));
      // A string field's quotes are escaped, so the first `","oib":"` is the field's own.
      const at = bytes.indexOf(OIB_FIELD, start) + OIB_FIELD.length;
      oibs[position] = Number(bytes.toString("latin1", at, at + 11));
      starts[position] = start;
      ends[position++] = end;
      longest = Math.max(longest, end - start);
      start = end + 1;
    }
  }
  if (position !== count) throw new Error(`the chunk files hold ${position} subjects, not ${count}`);
  const widths = { chunk: String(chunks - 1).length, start: String(widest).length, length: String(longest).length };
  const entryOf = (at: number): OibEntry => ({ chunk: Math.floor(at / chunkSize), start: starts.at(at) ?? 0, end: ends.at(at) ?? 0 });
  return [boundsShard(firsts), ...oibShards(oibs, entryOf, widths)];
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
 * would read as a site half deployed). Sorted by prefix with a counting sort, then within each
 * prefix by the rest of the OIB and the position, packed in one double: rest × count + position
 * stays below 2^53, since a prefix file holds about a thousand lines.
 */
function oibShards(oibs: Float64Array, entryOf: (position: number) => OibEntry, widths: OibWidths): ShardPlan[] {
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
  const keys = new Float64Array(count);
  const filled = starts.slice(0, prefixes);
  oibs.forEach((oib, position) => {
    const prefix = Math.floor(oib / restSize);
    const slot = filled.at(prefix) ?? 0;
    filled[prefix] = slot + 1;
    keys[slot] = (oib % restSize) * count + position;
  });
  for (let p = 0; p < prefixes; p++) keys.subarray(starts[p], starts[p + 1]).sort();
  const prefixText = (p: number): string => (digits === 0 ? "" : String(p).padStart(digits, "0"));
  const lineLength = oibLineLength(widths);
  const fileOf = (p: number): ShardFile => {
    const [from, to] = [starts.at(p) ?? 0, starts.at(p + 1) ?? 0];
    const bytes = Buffer.allocUnsafe((to - from) * lineLength);
    for (let k = from; k < to; k++) {
      const key = keys.at(k) ?? 0;
      const position = key % count;
      const rest = (key - position) / count;
      writeOibLine(bytes, (k - from) * lineLength, p * restSize + rest, entryOf(position), widths);
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
