/**
 * The key indexes as shards of the site plan (core/key-index.ts has their format): the bounds of
 * the records chunks (each chunk's first id and code), and the OIB index, a file per OIB prefix
 * that maps each OIB to its subjects' places in the list. They are planned from the chunk files
 * once the records are on disk, so a cached build that never parsed a record still indexes every
 * one.
 *
 * The chunk files are read once: each OIB's key (its rest after the prefix times the count, plus
 * its place: one float that sorts by OIB, then by place) goes to the part of the prefixes it falls
 * in (OibParts, below: spilled to one scratch file), a part being some PARTS.partKeys keys' worth of
 * prefixes. Each part is then taken back alone, its keys put in their prefix's place (a counting
 * sort), each prefix's sorted, and its files made, each hashed and put in a scratch directory as it
 * is made (search/spilled-shard.ts), from where the writer threads link them into the site.
 *
 * What grew faster than the list, and no longer does: the keys of every subject were held at once
 * (8 bytes a subject: 40 MB at five million, 80 at ten, the build's peak while the search thread
 * ran beside), the chunk files were read twice (one pass to count each prefix's OIBs, one to place
 * them), and the second pass scattered its keys over ten thousand prefixes at five million (a
 * thousand at one million) in one array of 40 MB, a cache miss a key. Now memory holds one part
 * (under 10 bytes a key of it) and the parts' buffers, the files are read once, and a part's
 * scatter spans a few thousand prefixes in some PARTS.partKeys keys.
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { contentHash } from "../common/content-hash.ts";
import { WholeFiles } from "../common/read-into.ts";
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
import { SpillFile } from "./search/spill-bytes.ts";
import { SpilledShard } from "./search/spilled-shard.ts";

const NEWLINE = 0x0a;
const ZERO = 0x30;
const [COMMA, QUOTE, BACKSLASH] = [0x2c, 0x22, 0x5c];
const OIB_FIELD = Buffer.from('","oib":"');
const CODE_FIELD = Buffer.from(',"jedinstvena_oznaka":"');
const NAME_FIELD = Buffer.from('","naziv_subjekta":"');
/** `{"id":` */
const ID_AT = 6;

/** How the keys are parted: the keys a part holds when the OIBs spread evenly, and those a part buffers before they go to its files. */
export interface KeyParts {
  readonly partKeys: number;
  readonly buffered: number;
}

/** A part: some 8 MB of keys while sorted (at ten million subjects, ten parts). */
const PARTS: KeyParts = { partKeys: 1 << 20, buffered: 1 << 15 };

/** Plans the bounds shard and the OIB index shards of `count` subjects in the chunk files `fileOf(chunk)`, the OIB files waiting in `scratch`. */
export function planKeys(
  count: number,
  chunkSize: number,
  fileOf: (chunk: number) => ChunkFile,
  scratch: string,
  { partKeys, buffered }: KeyParts = PARTS,
): ShardPlan[] {
  if (count === 0) return [];
  const chunks = Math.ceil(count / chunkSize);
  const firsts: { id: number; code: string }[] = [];
  const digits = oibPrefixDigits(count);
  const prefixes = 10 ** digits;
  const restSize = 10 ** (11 - digits);
  // Prefixes a part: at most 65,536 (its prefixes' places are uint16), never more than there are.
  const perPart = Math.max(1, Math.min(prefixes, 1 << 16, Math.floor((partKeys * prefixes) / count)));
  const partCount = Math.ceil(prefixes / perPart);
  const path = join(scratch, "oib-parts");
  mkdirSync(scratch, { recursive: true });
  const parts = new OibParts(path, partCount, Math.min(buffered, count));
  try {
    let place = 0;
    // Every chunk read into the same buffer: its keys are taken before the next is read.
    const files = new WholeFiles();
    for (let chunk = 0; chunk < chunks; chunk++) {
      const bytes = files.read(fileOf(chunk).path);
      firsts.push(firstKeys(bytes));
      eachOibAt(bytes, (at) => {
        const oib = oibAt(bytes, at);
        const prefix = Math.floor(oib / restSize);
        const part = Math.floor(prefix / perPart);
        parts.add(part, (oib % restSize) * count + place++, prefix - part * perPart);
      });
    }
    if (place !== count) throw new Error(`the chunk files hold ${place} subjects, not ${count}`);
    return [boundsShard(firsts), ...oibShards(count, parts, perPart, scratch)];
  } finally {
    parts.close();
    rmSync(path, { force: true });
  }
}

/** The OIB whose 11 digits start at `at`, read digit by digit (a number: 11 digits are exact in a double), without a string each. */
function oibAt(bytes: Buffer, at: number): number {
  let oib = 0;
  for (let i = at; i < at + 11; i++) oib = oib * 10 + ((bytes[i] as number) - ZERO);
  return oib;
}

/**
 * Visits each record of a chunk file's bytes in order: `at`, where its OIB's 11 digits start. A
 * rendered record starts `{"id":<id>,"jedinstvena_oznaka":"<code>","naziv_subjekta":"<name>","oib":"`:
 * its OIB is found by stepping over the three values before it (a few dozen bytes, their escapes
 * skipped), where a search for the field's name (a call into Buffer's indexOf a record) cost 1.6
 * times as much (0.23 s against 0.14 s over a 1M build's chunk files, on its main thread). A
 * record of another shape is searched as before.
 */
function eachOibAt(bytes: Buffer, visit: (at: number) => void): void {
  for (let start = 0; start < bytes.length; ) {
    let end = bytes.indexOf(NEWLINE, start);
    if (end === -1) end = bytes.length;
    let at = start + ID_AT;
    while (at < end && bytes[at] !== COMMA) at++;
    at += CODE_FIELD.length;
    while (at < end && bytes[at] !== QUOTE) at++;
    at += NAME_FIELD.length;
    // The name's closing quote: an escape's backslash skips the character after it (an escaped quote or backslash).
    for (let c = bytes[at]; at < end && c !== QUOTE; c = bytes[++at]) if (c === BACKSLASH) at++;
    // A string field's quotes are escaped, so the first `","oib":"` is the field's own.
    visit((holds(bytes, at, OIB_FIELD, end) ? at : bytes.indexOf(OIB_FIELD, start)) + OIB_FIELD.length);
    start = end + 1;
  }
}

/** Does `bytes` hold `field` at `at`, before `end`? */
function holds(bytes: Buffer, at: number, field: Buffer, end: number): boolean {
  if (at + field.length > end) return false;
  for (let i = 0; i < field.length; i++) if (bytes[at + i] !== field[i]) return false;
  return true;
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
 * would read as a stale site), in shards of SHARD_SIZE files, made a part of `perPart` prefixes at a
 * time. A part's keys are sorted by a counting sort on their prefix (prefix p's begin at
 * `starts[p]`) and a sort of each prefix's: each key is the OIB's rest after its prefix times
 * `count` plus the place, exact in a double (under 2^53 for any list the prefixes keep to a
 * thousand lines a file), so one number sorts by OIB, then by place.
 */
function oibShards(count: number, parts: OibParts, perPart: number, scratch: string): ShardPlan[] {
  const digits = oibPrefixDigits(count);
  const prefixes = 10 ** digits;
  const restSize = 10 ** (11 - digits);
  const prefixText = prefixTextOf(digits);
  const width = oibPlaceWidth(count);
  const lineLength = oibLineLength(width);
  const perShard = Math.min(prefixes, SHARD_SIZE);
  const shards: ShardPlan[] = [];
  let shard: SpilledShard | null = null;
  // The parts' keys sorted in one array (the largest part's size), their files made in one buffer (SpilledShard.add writes it at once).
  const sorting = new Float64Array(parts.largest);
  let lines = Buffer.allocUnsafeSlow(0);
  for (let first = 0, part = 0; first < prefixes; first += perPart, part++) {
    const last = Math.min(prefixes, first + perPart);
    const taken = parts.take(part);
    const starts = new Uint32Array(last - first + 1);
    for (const prefix of taken.prefixes) starts[prefix + 1] = (starts[prefix + 1] as number) + 1;
    for (let p = 1; p < starts.length; p++) starts[p] = (starts[p] as number) + (starts[p - 1] as number);
    const keys = sorting.subarray(0, taken.prefixes.length);
    const filled = starts.slice(0, -1);
    taken.eachKey((key, k) => {
      const prefix = taken.prefixes[k] as number;
      keys[filled[prefix] as number] = key;
      filled[prefix] = (filled[prefix] as number) + 1;
    });
    for (let p = first; p < last; p++) {
      // A shard begins at a multiple of perShard (parts need not end there); hashed as every shard is (the code's version, the key, each file's name and bytes).
      shard ??= new SpilledShard(scratch, oibShardKey(prefixText(p)));
      const [from, to] = [starts[p - first] as number, starts[p - first + 1] as number];
      const sorted = keys.subarray(from, to).sort();
      if ((to - from) * lineLength > lines.length) lines = Buffer.allocUnsafeSlow(Math.max((to - from) * lineLength, 2 * lines.length));
      const bytes = lines.subarray(0, (to - from) * lineLength);
      for (let k = 0; k < sorted.length; k++) {
        const key = sorted[k] as number;
        const place = key % count;
        writeOibLine(bytes, k * lineLength, p * restSize + (key - place) / count, place, width);
      }
      shard.add(oibFileName(prefixText(p)), bytes);
      if ((p + 1) % perShard === 0 || p + 1 === prefixes) {
        shards.push(shard.done());
        shard = null;
      }
    }
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

/**
 * The keys on their way from the one read of the chunk files to the sort: each key (a float) and its
 * prefix's place in its part (a uint16) go to the part of the prefixes it falls in, held in a small
 * buffer a part; a full buffer's two blocks are appended to one scratch file (SpillFile, opened
 * once, as the search stage's spilled blocks are), each part keeping where its blocks lie. A part
 * is then taken back alone, in the order its keys came.
 */
class OibParts {
  readonly #file: SpillFile;
  readonly #keys: Float64Array[];
  readonly #prefixes: Uint16Array[];
  readonly #filled: Uint32Array;
  /** Keys each part has taken, written or still buffered. */
  readonly #counts: Uint32Array;
  /** Each part's blocks in the file: where its keys' bytes begin, where its prefixes' bytes begin, and how many keys, three numbers a block. */
  readonly #blocks: number[][];
  /** A block's keys read back, one at a time. */
  readonly #piece: Float64Array;
  /** The prefixes of the part taken, read back (the largest part's size: made once, at the first take). */
  #taken: Uint16Array | null = null;

  /** `parts` parts spilling to the file at `path`, each buffering `buffered` keys before they go there. */
  constructor(path: string, parts: number, buffered: number) {
    this.#file = new SpillFile(path);
    this.#keys = Array.from({ length: parts }, () => new Float64Array(buffered));
    this.#prefixes = Array.from({ length: parts }, () => new Uint16Array(buffered));
    this.#filled = new Uint32Array(parts);
    this.#counts = new Uint32Array(parts);
    this.#blocks = Array.from({ length: parts }, () => []);
    this.#piece = new Float64Array(buffered);
  }

  /** The keys of the largest part. */
  get largest(): number {
    return Math.max(0, ...this.#counts);
  }

  /** Adds `key` to part `part`, its prefix the part's `prefix`th. */
  add(part: number, key: number, prefix: number): void {
    const keys = this.#keys[part] as Float64Array;
    const at = this.#filled[part] as number;
    keys[at] = key;
    (this.#prefixes[part] as Uint16Array)[at] = prefix;
    this.#counts[part] = (this.#counts[part] as number) + 1;
    this.#filled[part] = at + 1;
    if (at + 1 === keys.length) {
      const blocks = this.#blocks[part] as number[];
      blocks.push(this.#file.append(bytesOf(keys)), this.#file.append(bytesOf(this.#prefixes[part] as Uint16Array)), keys.length);
      this.#filled[part] = 0;
    }
  }

  /**
   * Part `part`'s prefixes, in the order its keys came (read whole: 2 bytes a key, into an array
   * the next take reuses), and `eachKey`, which visits its keys in that order, a block at a time.
   */
  take(part: number): { readonly prefixes: Uint16Array; eachKey(visit: (key: number, k: number) => void): void } {
    const blocks = this.#blocks[part] as number[];
    const filled = this.#filled[part] as number;
    this.#taken ??= new Uint16Array(this.largest);
    const prefixes = this.#taken.subarray(0, this.#counts[part] as number);
    let k = 0;
    for (let b = 0; b < blocks.length; b += 3) {
      const n = blocks[b + 2] as number;
      this.#file.read(bytesOf(prefixes), k * 2, n * 2, blocks[b + 1] as number);
      k += n;
    }
    prefixes.set((this.#prefixes[part] as Uint16Array).subarray(0, filled), k);
    const eachKey = (visit: (key: number, k: number) => void): void => {
      const piece = this.#piece;
      let k = 0;
      for (let b = 0; b < blocks.length; b += 3) {
        const n = blocks[b + 2] as number;
        this.#file.read(bytesOf(piece), 0, n * 8, blocks[b] as number);
        for (let i = 0; i < n; i++) visit(piece[i] as number, k++);
      }
      const keys = this.#keys[part] as Float64Array;
      for (let i = 0; i < filled; i++) visit(keys[i] as number, k++);
    };
    return { prefixes, eachKey };
  }

  /** Closes the scratch file (the caller removes it). */
  close(): void {
    this.#file.close();
  }
}

/** A typed array's bytes, in place. */
function bytesOf(array: Float64Array | Uint16Array): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}
