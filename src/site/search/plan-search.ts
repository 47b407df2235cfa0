/**
 * The search files as shards of the site plan (core/search/search-layout.ts has their format):
 * planned from the chunk files once the records are on disk, like the key indexes (plan-keys.ts).
 *
 * One pass over the records gathers every set's members: for each subject, the tokens of its name
 * and town in search form (`UPPER(UNACCENT(…))`, split at whitespace), every piece of one, two and
 * three characters of them (a three-character piece's set is kept only when it is common, key-shards.ts), and its razina, town, status and odobreno. What it gathers is put aside by the
 * range of buckets its key falls in (PARTITION_BUCKETS buckets, a keys shard's part), as compact
 * bytes (spill-bytes.ts: in memory while small, else in the scratch directory), but the members of
 * the commonest small keys, which go to blocks of bits (Gathering). Then each range is read back,
 * its sets made and its buckets written (key-shards.ts), one range at a time; the
 * suffix entries its tokens make are put aside by their first characters and sorted a group at a
 * time (suffix-files.ts). The order fields go to OrderFiles a subject at a time.
 *
 * Memory: the pieces' and filters' keys (bounded by the alphabet and the towns, not the list), the
 * caches of tokens, words and towns (CACHE_BYTES) and their slots (slot-cache.ts, a few tens of
 * KB), the ranges' write buffers, a block of bits (8 KB a key set apart), then one range's sets and
 * one group of suffix entries: at ten million subjects as at one (docs/search.md), beside what
 * OrderFiles holds.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { BUCKETS_PER_SHARD, bucketCount, bucketOf, keysShardKey, suffixFileCount, TRIPLE_ROWS } from "../../core/search/search-layout.ts";
import { isTokenBreak, tokensOf } from "../../core/search/normalise.ts";
import { POPCOUNT } from "../../core/search/row-sets.ts";
import { WholeFiles } from "../../common/read-into.ts";
import type { ShardPlan } from "../hand-offs.ts";
import type { ChunkFile } from "../read-chunks.ts";
import {
  type ApartKeys,
  BucketScratch,
  knownText,
  NEXT_PLACE,
  type SmallKeys,
  tokenBucket,
  tokenIndexed,
  writeBuckets,
} from "./key-shards.ts";
import { OrderFiles } from "./order-files.ts";
import { RUN_SIZE } from "./sorted-runs.ts";
import { readRecordFields, type RecordFields } from "./record-fields.ts";
import { encodeBitmap, encodeRows } from "./rows-builder.ts";
import { narrowText, SpillBytes, SpillFile } from "./spill-bytes.ts";
import { IntTable } from "../../common/int-table.ts";
import { TEXT_HASH_PRIME, TEXT_HASH_SEED, TextTable, textHash } from "../../common/text-table.ts";
import { SlotCache } from "./slot-cache.ts";
import { SpilledShard } from "./spilled-shard.ts";
import type { CutFacts } from "./search-facts.ts";
import { SuffixEntries } from "./suffix-files.ts";
import { unitSearchForm } from "./unit-forms.ts";

const NEWLINE = 0x0a;
/** Buckets in one range (a keys shard holds BUCKETS_PER_SHARD / PARTITION_BUCKETS ranges): at a million subjects, eight ranges of a few tens of MB each. */
export const PARTITION_BUCKETS = 125;
/** How the stage divides its work; the defaults but in tests, which make every part small to reach every path. */
export interface SearchParts {
  /** Buckets in one range (dividing BUCKETS_PER_SHARD). */
  readonly partitionBuckets: number;
  /** A range's bytes held in memory up to this (and all ranges' up to RANGES_BYTES), then appended to its scratch file. */
  readonly rangeLimit: number;
  /** A group of suffix entries' bytes held in memory up to this (suffix-files.ts). */
  readonly groupLimit: number;
  /** A three-character piece of more subjects than this has a set under `g:` (TRIPLE_ROWS; tests: every piece, or none). */
  readonly tripleRows?: number;
  /** The gathering's caches of tokens, words and towns hold about this many bytes at most (CACHE_BYTES; tests: a few, to drop them often). */
  readonly cacheBytes?: number;
  /** The places a block of the commonest keys' bits covers (BITS_PLACES, a multiple of 8; tests: a few, or Infinity for none set apart). */
  readonly bitsPlaces?: number;
  /** The ints of a slab of the caches' tokens' keys (SLAB; tests: a few, so that a generation fills several). */
  readonly slabInts?: number;
  /** The codes, names or towns an order run sorts in memory (RUN_SIZE; tests: a few, so that a small list is merged from many runs). */
  readonly runSize?: number;
}

/**
 * The ranges' bytes held in memory at most, all of them together (a range's at most `rangeLimit`,
 * and RANGE_FLOOR at least, so that each append to its scratch file stays a large write): eight
 * ranges of 256 KB at a million subjects, where each range's 256 KB made 10 MB at five million.
 */
export const RANGES_BYTES = 2 << 20;
const RANGE_FLOOR = 16 << 10;

/**
 * The caches' bytes at most (both generations, an estimate of their objects; whatever the list): at
 * their fullest they held 15 to 18 MB at 1M, where the caches cleared whole at 65,536 held 35 to 38.
 */
export const CACHE_BYTES = 24 << 20;

/**
 * The places a block of bits covers (8 KB a key set apart, a hundred-odd keys): the commonest small
 * keys' members go to bits, not to the ranges (Gathering).
 */
export const BITS_PLACES = 1 << 16;
/** A small key is set apart at a block's start once it holds at least one place in APART_SHARE so far (a set of more than one in eight is a bitmap). */
const APART_SHARE = 8;

const PARTS: SearchParts = {
  partitionBuckets: PARTITION_BUCKETS,
  rangeLimit: 1 << 18,
  groupLimit: 32 * 1024,
  tripleRows: TRIPLE_ROWS,
  cacheBytes: CACHE_BYTES,
  bitsPlaces: BITS_PLACES,
};

/**
 * Plans the search shards of `count` subjects in the chunk files `fileOf(chunk)`; their files wait in
 * the scratch directory `spill` until the site's writer takes them (spilled-shard.ts). `facts`, when
 * given, learns the suffix files' cut threshold (search-facts.ts).
 */
export function planSearch(
  count: number,
  chunkSize: number,
  fileOf: (chunk: number) => ChunkFile,
  spill: string,
  parts: SearchParts = PARTS,
  facts?: CutFacts,
): ShardPlan[] {
  const { partitionBuckets } = parts;
  if (count === 0) return [];
  if (BUCKETS_PER_SHARD % partitionBuckets !== 0) throw new Error(`a range of ${partitionBuckets} buckets does not divide a keys shard`);
  mkdirSync(spill, { recursive: true });
  const buckets = bucketCount(count);
  const gathering = new Gathering(
    buckets,
    partitionBuckets,
    spill,
    parts.rangeLimit,
    parts.cacheBytes ?? CACHE_BYTES,
    parts.bitsPlaces ?? BITS_PLACES,
    parts.slabInts ?? SLAB,
  );
  let suffixes: SuffixEntries | undefined;
  try {
    const orders = new OrderFiles(spill, parts.runSize ?? RUN_SIZE, count);
    const fields: RecordFields = { code: "", name: "", razina: "", date: "", status: false, odobreno: false, town: "" };
    let place = 0;
    // One buffer for every chunk file (common/read-into.ts): a fresh one a file was fresh memory for
    // the kernel to fault in, 1.4 GB at five million subjects.
    const chunks = new WholeFiles();
    for (let chunk = 0; chunk * chunkSize < count; chunk++) {
      const bytes = chunks.read(fileOf(chunk).path);
      for (let start = 0; start < bytes.length; ) {
        let end = bytes.indexOf(NEWLINE, start);
        if (end === -1) end = bytes.length;
        readRecordFields(bytes, start, end, fields);
        start = end + 1;
        orders.add(fields.code, fields.name, fields.town, fields.date);
        gathering.add(place, fields);
        place++;
      }
    }
    if (place !== count) throw new Error(`the chunk files hold ${place} subjects, not ${count}`);
    gathering.forget();
    suffixes = new SuffixEntries(spill, suffixFileCount(count), parts.groupLimit);
    const { keys, order } = writeRanges(gathering, orders, suffixes, buckets, count, spill, parts);
    const shards = [...keys, ...suffixes.shards(), order];
    if (facts !== undefined) facts.threshold = suffixes.threshold;
    return shards;
  } finally {
    // A failure midway leaves no scratch file open (the thread that ran the stage may live on).
    gathering.file.close();
    suffixes?.close();
  }
}

/**
 * The order shard, then the keys shards one range of buckets at a time, their tokens' suffix
 * entries into `suffixes`. A function of its own so that what only the ranges need (their arrays,
 * made once for the largest range: some 35 MB at a million subjects, 50 at five; the positions by
 * name, 4 bytes a subject) is unreachable once it returns, while the suffix files are made: let go
 * by `null` in the stage's own frame, a heap snapshot still found them (then 125 MB at five
 * million) held from the stack.
 */
function writeRanges(
  gathering: Gathering,
  orders: OrderFiles,
  suffixes: SuffixEntries,
  buckets: number,
  count: number,
  spill: string,
  parts: SearchParts,
): { readonly keys: ShardPlan[]; readonly order: ShardPlan } {
  const { partitionBuckets } = parts;
  const { shard: order, namePositions } = orders.finish();
  const keys: ShardPlan[] = [];
  const small: SmallKeys = { ...gathering.small, apart: gathering.apart };
  let keysShard: SpilledShard | null = null;
  const scratch = new BucketScratch();
  scratch.reserve(Math.max(...gathering.items));
  for (let range = 0; range < gathering.ranges.length; range++) {
    const from = range * partitionBuckets;
    const to = Math.min(buckets, from + partitionBuckets);
    keysShard ??= new SpilledShard(spill, keysShardKey(from));
    const spilled = gathering.ranges[range] as SpillBytes;
    writeBuckets(
      { from, to, bytes: spilled.reader(), items: gathering.items[range] as number },
      buckets,
      count,
      namePositions,
      small,
      suffixes,
      keysShard,
      parts.tripleRows ?? TRIPLE_ROWS,
      scratch,
    );
    if (to % BUCKETS_PER_SHARD === 0 || to === buckets) {
      keys.push(keysShard.done());
      keysShard = null;
    }
  }
  return { keys, order };
}

/** A token of a subject's name or town: where its own set goes, and its pieces' keys, once a token. */
interface Token {
  readonly text: string;
  /** Its range, or -1 when it has no set of its own (a token of one or two characters). */
  readonly range: number;
  /**
   * Its pieces' keys (of one, two and three characters): `slab[start, end)`, in its generation's
   * slab; `slab[start, apart)` hold the slots of those set apart (the gathering's `#bitAt`), as they
   * were at the gathering's `epoch` (this token's `epoch`; #split), the rest their keys.
   */
  slab: Int32Array;
  start: number;
  apart: number;
  end: number;
  epoch: number;
  /** The place of the subject it was last added for (a token in a name and its town counts once). */
  stamp: number;
  /** Its text's textHash (common/text-table.ts). */
  readonly hash: number;
  /** Whether its text's units are all below 256 (spill-bytes.ts narrowText), found once, not at each of its subjects. */
  readonly narrow: boolean;
  /** Its number among the texts its range holds (-1 until its text is first written there): named by it after. */
  known: number;
}

/** A town's key (`c:<town>`, by text: towns are many, as tokens are) and range, and its tokens, once a town. */
interface Town {
  readonly key: string;
  /** Whether its key's units are all below 256 (narrowText). */
  readonly narrow: boolean;
  readonly range: number;
  readonly tokens: readonly Token[];
  /** Its number among the texts its range holds (-1 until its key is first written there): named by it after. */
  known: number;
}

/** The gathering's slots of words and of towns (4,096 of each: the arrays stay in the processor's caches). */
const SLOT_BITS = 12;

/** Ints in a slab of pieces' keys (a token's keys never straddle two). */
const SLAB = 1 << 14;
/** The estimated bytes of a cached object besides its text and keys (the object, its entry in a table). */
const ENTRY_BYTES = 96;

/**
 * One generation of the caches: the tokens, the words of names (split at spaces: names repeat their
 * words) and the towns, each once, and the slabs their tokens' keys are in.
 */
class Generation {
  readonly tokens = new TextTable<Token>();
  readonly words = new TextTable<readonly Token[]>();
  readonly towns = new TextTable<Town>();
  /**
   * Its slabs, filled in turn (`#slabs[#filling]`, up to `#used`), and kept when it is cleared:
   * filled again from the first by the young generation it then becomes. Made afresh each time
   * (64 KB each, some 50 MB of them at a million subjects), each was memory new to the process.
   */
  readonly #slabs: Int32Array[];
  #filling = 0;
  #slab: Int32Array;
  #used = 0;
  readonly #slabInts: number;
  /** The estimated bytes held. */
  bytes = 0;

  /** A generation whose slabs hold `slabInts` ints each (SLAB). */
  constructor(slabInts: number) {
    this.#slabInts = slabInts;
    this.#slab = new Int32Array(slabInts);
    this.#slabs = [this.#slab];
  }

  /** Puts `keys[from, to)` in this generation's slab as `token`'s keys. */
  keep(token: Token, keys: Int32Array, from: number, to: number): void {
    const length = to - from;
    if (this.#used + length > this.#slab.length) {
      this.#filling++;
      // The next slab it has, unless too short (a token of more keys than a slab holds): replaced by one of its length.
      let next = this.#slabs[this.#filling];
      if (next === undefined || next.length < length) this.#slabs[this.#filling] = next = new Int32Array(Math.max(this.#slabInts, length));
      this.#slab = next;
      this.#used = 0;
      this.bytes += 4 * this.#slab.length;
    }
    // A loop, not set(subarray): a token's keys are a few dozen, and a subarray an object each.
    const slab = this.#slab;
    for (let i = from, at = this.#used; i < to; i++, at++) slab[at] = keys[i] as number;
    // Its slots of keys set apart, `keys[from, token.apart)`, stay first.
    token.apart = this.#used + token.apart - from;
    token.slab = this.#slab;
    token.start = this.#used;
    token.end = this.#used += length;
  }

  /**
   * Empties it to serve as the young generation again, its tables' arrays and its slabs kept: every
   * token it held is unreachable by then (what the old generation held that the young met was
   * moved to the young's slab), so its slabs are written over from the first. A new generation's
   * tables grew again from a few hundred entries to some hundred thousand each time, their arrays
   * fresh memory at each growth.
   */
  clear(): void {
    this.tokens.clear();
    this.words.clear();
    this.towns.clear();
    this.#filling = 0;
    this.#slab = this.#slabs[0] as Int32Array;
    this.#used = 0;
    this.bytes = 0;
  }
}

/**
 * The gathering: every subject's keys, put aside by range.
 *
 * Its caches are two generations (young and old): what a subject finds in the old is moved to the
 * young, and when the young holds half of CACHE_BYTES the old is dropped and the young becomes it,
 * between subjects. So the tokens in use stay (a quarter of a million words at a million subjects,
 * most met once) where clearing everything at a count made the common ones again and again. One
 * Token a text at any time (a subject's tokens count once by their stamps): a word or town in the
 * young has its tokens in the young, so a token is never made while a cached word holds one.
 *
 * The commonest small keys (the one- and two-character pieces of every name, the filters: a hundred
 * of them hold 60 % of a million subjects' small keys) are set apart: from the start of the block of
 * BITS_PLACES places after one holds a place in APART_SHARE, each of its members is a bit of that
 * block, not an item of its range, and each block's bits go to the scratch file at its end. Their
 * sets are made of these bits and of the items before (`apart`, read by writeBuckets). A subject's
 * sixty-odd small keys hashed over every range made a mark in nearly each (8 of 8 at a million
 * subjects, 32 of 40 at five million): it now meets fewer, and each range holds fewer items.
 */
class Gathering {
  readonly ranges: SpillBytes[];
  /** The ranges' blocks past their memory, in one scratch file. */
  readonly file: SpillFile;
  /** The items put aside in each range. */
  readonly items: number[];
  readonly small: { names: string[]; buckets: number[] } = { names: [], buckets: [] };
  readonly #buckets: number;
  readonly #partitionBuckets: number;
  readonly #cacheBytes: number;
  readonly #byName = new Map<string, number>();
  /** The one-character pieces' keys by code unit, the two-character pieces' of code units below 256 by both. */
  readonly #units = new Int32Array(0x10000).fill(-1);
  readonly #pairs = new Int32Array(0x10000).fill(-1);
  readonly #otherPairs = new Map<number, number>();
  /** The three-character pieces' keys of code units below 256, by the three (common/int-table.ts). */
  readonly #triples = new IntTable();
  readonly #razinas = new Map<string, number>();
  #young: Generation;
  #old: Generation;
  readonly #slabInts: number;
  /**
   * The young generation's commonest words and towns in slots (slot-cache.ts), looked up before
   * its tables (common/text-table.ts): a slot is filled only once its word or town is in the young generation, and they
   * are all emptied when it grows old, so what a slot holds is what the young's table would answer.
   */
  readonly #wordSlots = new SlotCache<readonly Token[]>(SLOT_BITS);
  readonly #townSlots = new SlotCache<Town>(SLOT_BITS);
  /** A name's words (#wordsOf): each one's start, end and textHash. */
  #words = new Int32Array(3 * 32);
  /** A token's keys as they are found, before they go to a slab. */
  #keys = new Int32Array(256);
  readonly #flags: readonly number[];
  /** The place each small key was last added at (a subject's pieces repeat), and each one's range. */
  #stamps = new Float64Array(1024).fill(-1);
  #rangeOfKey = new Int32Array(1024);
  /** The token each small key was last found in while a token's pieces are found (they repeat: `ANANA`). */
  #seen = new Float64Array(1024);
  #serial = 0;
  #found = 0;
  /** The place each range was last opened at (its last subject's; -1 before any). */
  readonly #openAt: Float64Array;
  /** The texts written to each range so far (a token's or a town's, each numbered in its range as it is: knownText). */
  readonly #texts: Int32Array;
  #place = 0;
  /**
   * Each small key's members so far; a key set apart's members in a block are counted from its bits
   * at the block's end (#blockBytes), not as they come: a bit set twice is one member, so such a
   * key needs no stamp either.
   */
  #counts = new Int32Array(1024);
  /** A small key set apart's slot (its place among the keys set apart), else -1. */
  #bitAt = new Int32Array(1024).fill(-1);
  /**
   * The current block's bits, a row of a byte a slot for each 8 places (byte-major): a subject's
   * bytes of every key set apart lie together, where the keys' slots of #bitsBytes each, as the
   * scratch file holds them, put them 8 KB apart, in one set of the processor's caches (a hundred-odd
   * keys a subject). Written key-major to the file at the block's end (#blockBytes).
   */
  #bits = new Uint8Array(0);
  /** The block's bits key-major, as the scratch file holds them (a slot of #bitsBytes a key set apart). */
  #byKey = new Uint8Array(0);
  readonly #bitsPlaces: number;
  readonly #bitsBytes: number;
  /** The keys set apart, by slot, and the block each was set apart from. */
  readonly #apartKeys: number[] = [];
  readonly #apartFrom: number[] = [];
  /** Where each block's bits lie in the scratch file (-1 for a block before any key was set apart). */
  readonly #blockAt: number[] = [];
  #blockStart = 0;
  /** Where the current subject's row begins in #bits (its byte in the slots times the keys set apart), and its bit there. */
  #byte = 0;
  #mask = 0;
  /** Counts the blocks that set keys apart: a token split before the last of them is split again (Token.epoch). */
  #epoch = 0;

  constructor(
    buckets: number,
    partitionBuckets: number,
    spill: string,
    rangeLimit: number,
    cacheBytes: number,
    bitsPlaces: number,
    slabInts: number,
  ) {
    if (bitsPlaces % 8 !== 0 && bitsPlaces !== Infinity) throw new Error(`a block of bits of ${bitsPlaces} places is not whole bytes`);
    this.#slabInts = slabInts;
    this.#young = new Generation(slabInts);
    this.#old = new Generation(slabInts);
    this.#bitsPlaces = bitsPlaces;
    this.#bitsBytes = bitsPlaces / 8;
    this.#buckets = buckets;
    this.#partitionBuckets = partitionBuckets;
    this.#cacheBytes = cacheBytes;
    const ranges = Math.ceil(buckets / partitionBuckets);
    // The ranges grow with the list (40 at five million subjects): their memory shares RANGES_BYTES.
    const limit = Math.min(rangeLimit, Math.max(RANGE_FLOOR, Math.floor(RANGES_BYTES / ranges)));
    this.file = new SpillFile(join(spill, "ranges"));
    this.ranges = Array.from({ length: ranges }, () => new SpillBytes(this.file, limit));
    this.items = new Array<number>(ranges).fill(0);
    this.#openAt = new Float64Array(ranges).fill(-1);
    this.#texts = new Int32Array(ranges);
    this.#flags = ["s:0", "s:1", "o:0", "o:1"].map((key) => this.#keyOf(key));
  }

  /** The keys of the subject at `place` (places come rising). */
  add(place: number, fields: RecordFields): void {
    this.#place = place;
    if (place - this.#blockStart === this.#bitsPlaces) this.#nextBlock();
    this.#byte = ((place - this.#blockStart) >>> 3) * this.#apartKeys.length;
    this.#mask = 1 << (place & 7);
    if (this.#young.bytes >= this.#cacheBytes / 2) {
      // Between subjects: no token of the old generation is held by the subject being added.
      const recycled = this.#old;
      this.#old = this.#young;
      recycled.clear();
      this.#young = recycled;
      this.#wordSlots.clear();
      this.#townSlots.clear();
    }
    let razina = this.#razinas.get(fields.razina);
    if (razina === undefined) this.#razinas.set(fields.razina, (razina = this.#keyOf(`r:${fields.razina}`)));
    this.#addKey(razina);
    const townHash = textHash(fields.town, 0, fields.town.length);
    const town = this.#townSlots.get(fields.town, 0, fields.town.length, townHash) ?? this.#town(fields.town, townHash);
    const range = this.#open(town.range);
    if (town.known >= 0) range.varint(knownText(town.known));
    else {
      range.varint(1);
      range.text(town.key, town.narrow);
      town.known = this.#texts[town.range] as number;
      this.#texts[town.range] = town.known + 1;
    }
    this.#addKey(this.#flags[fields.status ? 1 : 0] as number);
    this.#addKey(this.#flags[fields.odobreno ? 3 : 2] as number);
    const name = fields.name;
    const words = this.#wordsOf(name);
    if (words >= 0) {
      // searchForm maps a character at a time and keeps a space a space: the name's tokens are its words'.
      const bounds = this.#words;
      for (let w = 0; w < 3 * words; w += 3) {
        const start = bounds[w] as number;
        const end = bounds[w + 1] as number;
        // One hash of the word for the slots and both generations: sliced only when kept.
        const hash = bounds[w + 2] as number;
        const tokens = this.#wordSlots.get(name, start, end, hash) ?? this.#word(name, start, end, hash);
        for (let t = 0; t < tokens.length; t++) this.#addToken(tokens[t] as Token);
      }
    } else for (const token of this.#tokensOf(name)) this.#addToken(token);
    for (let t = 0; t < town.tokens.length; t++) this.#addToken(town.tokens[t] as Token);
  }

  /**
   * The words of a name split at spaces into #words (each word's start, end and textHash), in one
   * pass over it: how many, or -1 when it holds a token break other than a space (its tokens are
   * then found otherwise). A pass to check the breaks, a search for each space and a pass to hash
   * each word went over each name three times.
   */
  #wordsOf(name: string): number {
    let bounds = this.#words;
    let words = 0;
    let start = 0;
    let hash = TEXT_HASH_SEED;
    for (let i = 0; i <= name.length; i++) {
      const unit = i === name.length ? 0x20 : name.charCodeAt(i);
      if (unit === 0x20) {
        if (i > start) {
          if (3 * words + 3 > bounds.length) {
            const grown = new Int32Array(2 * bounds.length);
            grown.set(bounds);
            this.#words = bounds = grown;
          }
          bounds[3 * words] = start;
          bounds[3 * words + 1] = i;
          bounds[3 * words + 2] = hash;
          words++;
        }
        start = i + 1;
        hash = TEXT_HASH_SEED;
        continue;
      }
      if ((unit <= 0x20 || unit >= 0x85) && isTokenBreak(unit)) return -1;
      hash = Math.imul(hash ^ unit, TEXT_HASH_PRIME);
    }
    return words;
  }

  /** Lets the caches go once every subject is in (the order files are made next, and need the room); the last block of bits to the file. */
  forget(): void {
    if (this.#apartKeys.length > 0) this.#blockAt.push(this.file.append(this.#blockBytes()));
    this.#bits = new Uint8Array(0);
    this.#byKey = new Uint8Array(0);
    this.#young = new Generation(this.#slabInts);
    this.#old = new Generation(this.#slabInts);
    this.#wordSlots.clear();
    this.#townSlots.clear();
    this.#razinas.clear();
    this.#byName.clear();
    this.#otherPairs.clear();
    this.#triples.clear();
  }

  /** The tokens of the word `name[start, end)` (textHash `hash`), from the caches or made; then in its slot. */
  #word(name: string, start: number, end: number, hash: number): readonly Token[] {
    const young = this.#young.words;
    let at = young.find(name, start, end, hash);
    let word: string;
    let tokens: readonly Token[];
    if (at >= 0) {
      word = young.textOf(at);
      tokens = young.valueOf(at);
    } else {
      const old = this.#old.words;
      at = old.find(name, start, end, hash);
      if (at >= 0) {
        word = old.textOf(at);
        tokens = old.valueOf(at);
        for (const token of tokens) this.#promote(token);
      } else {
        word = name.slice(start, end);
        tokens = this.#tokensOf(word);
      }
      young.set(word, hash, tokens);
      this.#young.bytes += ENTRY_BYTES + 2 * word.length + 8 * tokens.length;
    }
    this.#wordSlots.set(word, tokens, hash);
    return tokens;
  }

  /** A town's key, range and tokens (its text's textHash `hash`), from the caches or made; then in its slot. */
  #town(text: string, hash: number): Town {
    const young = this.#young.towns;
    let at = young.find(text, 0, text.length, hash);
    let town: Town;
    if (at >= 0) town = young.valueOf(at);
    else {
      const old = this.#old.towns;
      at = old.find(text, 0, text.length, hash);
      if (at >= 0) {
        town = old.valueOf(at);
        for (const token of town.tokens) this.#promote(token);
      } else {
        const key = `c:${text}`;
        town = {
          key,
          narrow: narrowText(key),
          range: Math.floor(bucketOf(key, this.#buckets) / this.#partitionBuckets),
          tokens: this.#tokensOf(text),
          known: -1,
        };
      }
      young.set(text, hash, town);
      this.#young.bytes += ENTRY_BYTES + 4 * text.length + 8 * town.tokens.length;
    }
    this.#townSlots.set(text, town, hash);
    return town;
  }

  /**
   * The tokens of a text, in an array of their number: a word's or town's is kept in the caches, and
   * one grown by push held room for 17 (a quarter of a million such arrays alive at a time, copied
   * by each collection of the young generation until old). Nearly every text is one token (a word of
   * a name always is): then no array of its texts is made either.
   */
  #tokensOf(text: string): Token[] {
    const form = unitSearchForm(text);
    if (form.length > 0 && !hasTokenBreak(form)) return [this.#token(form)];
    const texts = tokensOf(form);
    const tokens = new Array<Token>(texts.length);
    // A loop, not map(): no function made at each text (a loader that names functions pays for each).
    for (let i = 0; i < texts.length; i++) tokens[i] = this.#token(texts[i] as string);
    return tokens;
  }

  #token(text: string): Token {
    const hash = textHash(text, 0, text.length);
    let at = this.#young.tokens.find(text, 0, text.length, hash);
    if (at >= 0) return this.#young.tokens.valueOf(at);
    at = this.#old.tokens.find(text, 0, text.length, hash);
    if (at >= 0) {
      const token = this.#old.tokens.valueOf(at);
      this.#promote(token);
      return token;
    }
    const pieces = this.#piecesOf(text);
    const token: Token = {
      text,
      range: tokenIndexed(text) ? Math.floor(tokenBucket(text, this.#buckets) / this.#partitionBuckets) : -1,
      slab: this.#keys,
      start: 0,
      end: 0,
      apart: 0,
      epoch: -1,
      stamp: -1,
      hash,
      narrow: narrowText(text),
      known: -1,
    };
    this.#young.tokens.set(text, hash, token);
    this.#young.keep(token, this.#keys, 0, pieces);
    this.#young.bytes += ENTRY_BYTES + 2 * text.length + 4 * pieces;
    return token;
  }

  /** A token of the old generation into the young (its keys into the young's slab), unless it is there. */
  #promote(token: Token): void {
    const young = this.#young;
    // One Token a text at any time: the text found in the young is this token.
    if (young.tokens.find(token.text, 0, token.text.length, token.hash) >= 0) return;
    young.tokens.set(token.text, token.hash, token);
    young.keep(token, token.slab, token.start, token.end);
    young.bytes += ENTRY_BYTES + 2 * token.text.length + 4 * (token.end - token.start);
  }

  #addToken(token: Token): void {
    const place = this.#place;
    if (token.stamp === place) return;
    token.stamp = place;
    if (token.range >= 0) {
      const bytes = this.#open(token.range);
      if (token.known >= 0) bytes.varint(knownText(token.known));
      else {
        bytes.text(token.text, token.narrow);
        token.known = this.#texts[token.range] as number;
        this.#texts[token.range] = token.known + 1;
      }
    }
    // #addKey's work, in the loops: a piece's key about 85 million times at a million subjects, the
    // commonest of them set apart: their slots first, each a bit to set, where each key's slot was
    // read at random from #bitAt and branched on.
    if (token.epoch !== this.#epoch) this.#split(token);
    const { slab, apart, end } = token;
    const bits = this.#bits;
    const byte = this.#byte;
    const mask = this.#mask;
    for (let i = token.start; i < apart; i++) {
      const at = (slab[i] as number) + byte;
      bits[at] = (bits[at] as number) | mask;
    }
    if (apart === end) return;
    const stamps = this.#stamps;
    const rangeOfKey = this.#rangeOfKey;
    const counts = this.#counts;
    for (let i = apart; i < end; i++) {
      const key = slab[i] as number;
      if (stamps[key] === place) continue;
      stamps[key] = place;
      counts[key] = (counts[key] as number) + 1;
      this.#open(rangeOfKey[key] as number).varint(2 * key + 2);
    }
  }

  /** A token's keys set apart since its last split moved before the others, each as its slot (Token.apart). */
  #split(token: Token): void {
    const slab = token.slab;
    const bitAt = this.#bitAt;
    let apart = token.apart;
    for (let i = apart; i < token.end; i++) {
      const slot = bitAt[slab[i] as number] as number;
      if (slot < 0) continue;
      // The key at `apart` (if another) is not set apart: it takes this one's place.
      slab[i] = slab[apart] as number;
      slab[apart++] = slot;
    }
    token.apart = apart;
    token.epoch = this.#epoch;
  }

  /** The keys of the distinct pieces of one, two and three characters of a token, into #keys: how many. */
  #piecesOf(token: string): number {
    this.#serial++;
    this.#found = 0;
    // Characters of the Basic Multilingual Plane (nearly every name) by code unit, with no array of characters made.
    let previous = -1;
    let before = -1;
    for (let i = 0; i < token.length; i++) {
      const unit = token.charCodeAt(i);
      if (unit >= 0xd800 && unit <= 0xdfff) {
        const pieces: number[] = [];
        this.#piecesSlowly(token, pieces);
        for (const key of pieces) this.#put(key);
        break;
      }
      this.#put(this.#unitKey(unit));
      if (previous >= 0) this.#put(this.#pairKey(previous, unit));
      if (before >= 0) this.#put(this.#tripleKey(before, previous, unit));
      before = previous;
      previous = unit;
    }
    return this.#found;
  }

  /** A piece's key into #keys unless the token has it already. */
  #put(key: number): void {
    if (this.#seen[key] === this.#serial) return;
    this.#seen[key] = this.#serial;
    if (this.#found === this.#keys.length) {
      const grown = new Int32Array(2 * this.#found);
      grown.set(this.#keys);
      this.#keys = grown;
    }
    this.#keys[this.#found++] = key;
  }

  /** The pieces of a token with characters past the Basic Multilingual Plane: by code point. */
  #piecesSlowly(token: string, pieces: number[]): void {
    const chars = [...token];
    for (let i = 0; i < chars.length; i++) {
      const one = chars[i] as string;
      const two = i + 1 < chars.length ? one + (chars[i + 1] as string) : undefined;
      pieces.push(one.length === 1 ? this.#unitKey(one.charCodeAt(0)) : this.#keyOf(`g:${one}`));
      if (i + 2 < chars.length) pieces.push(this.#keyOf(`g:${chars.slice(i, i + 3).join("")}`));
      if (two === undefined) continue;
      pieces.push(two.length === 2 ? this.#pairKey(two.charCodeAt(0), two.charCodeAt(1)) : this.#keyOf(`g:${two}`));
    }
  }

  #unitKey(unit: number): number {
    let key = this.#units[unit] as number;
    if (key < 0) this.#units[unit] = key = this.#keyOf(`g:${String.fromCharCode(unit)}`);
    return key;
  }

  /** A three-character piece's key; of code units below 256 by number, as the commonest pieces are found once a token. */
  #tripleKey(first: number, second: number, third: number): number {
    if ((first | second | third) < 0x100) {
      const code = (first << 16) | (second << 8) | third;
      let key = this.#triples.get(code);
      if (key < 0) this.#triples.set(code, (key = this.#keyOf(`g:${String.fromCharCode(first, second, third)}`)));
      return key;
    }
    return this.#keyOf(`g:${String.fromCharCode(first, second, third)}`);
  }

  #pairKey(first: number, second: number): number {
    if (first < 0x100 && second < 0x100) {
      let key = this.#pairs[(first << 8) | second] as number;
      if (key < 0) this.#pairs[(first << 8) | second] = key = this.#keyOf(`g:${pairText(first, second)}`);
      return key;
    }
    let key = this.#otherPairs.get(first * 0x10000 + second);
    if (key === undefined) this.#otherPairs.set(first * 0x10000 + second, (key = this.#keyOf(`g:${pairText(first, second)}`)));
    return key;
  }

  /** The number of a key other than a token's. */
  #keyOf(name: string): number {
    let key = this.#byName.get(name);
    if (key !== undefined) return key;
    key = this.small.names.length;
    this.#byName.set(name, key);
    this.small.names.push(name);
    const bucket = bucketOf(name, this.#buckets);
    this.small.buckets.push(bucket);
    if (key >= this.#stamps.length) {
      const grown = new Float64Array(2 * this.#stamps.length).fill(-1);
      grown.set(this.#stamps);
      this.#stamps = grown;
      const ranges = new Int32Array(2 * this.#rangeOfKey.length);
      ranges.set(this.#rangeOfKey);
      this.#rangeOfKey = ranges;
      const seen = new Float64Array(2 * this.#seen.length);
      seen.set(this.#seen);
      this.#seen = seen;
      const counts = new Int32Array(2 * this.#counts.length);
      counts.set(this.#counts);
      this.#counts = counts;
      const bitAt = new Int32Array(2 * this.#bitAt.length).fill(-1);
      bitAt.set(this.#bitAt);
      this.#bitAt = bitAt;
    }
    this.#rangeOfKey[key] = Math.floor(bucket / this.#partitionBuckets);
    return key;
  }

  #addKey(key: number): void {
    const at = this.#bitAt[key] as number;
    if (at >= 0) this.#bits[at + this.#byte] = (this.#bits[at + this.#byte] as number) | this.#mask;
    else if (this.#stamps[key] !== this.#place) {
      this.#stamps[key] = this.#place;
      this.#counts[key] = (this.#counts[key] as number) + 1;
      this.#open(this.#rangeOfKey[key] as number).varint(2 * key + 2);
    }
  }

  /**
   * Between subjects, at a block's end: its bits to the scratch file, then each small key that now
   * holds a place in APART_SHARE set apart from the next block on.
   */
  #nextBlock(): void {
    this.#blockAt.push(this.#apartKeys.length === 0 ? -1 : this.file.append(this.#blockBytes()));
    this.#blockStart += this.#bitsPlaces;
    const before = this.#apartKeys.length;
    for (let key = 0; key < this.small.names.length; key++) {
      if ((this.#bitAt[key] as number) >= 0 || (this.#counts[key] as number) * APART_SHARE < this.#blockStart) continue;
      this.#bitAt[key] = this.#apartKeys.length;
      this.#apartKeys.push(key);
      this.#apartFrom.push(this.#blockAt.length);
    }
    if (this.#apartKeys.length > before) this.#epoch++;
    if (this.#apartKeys.length > before || this.#bits.length === 0) this.#bits = new Uint8Array(this.#apartKeys.length * this.#bitsBytes);
    else this.#bits.fill(0);
  }

  /**
   * The block's bits key-major (each key's slot of #bitsBytes, in the order they were set apart), as
   * the scratch file and `apart` hold them; each key's members in the block counted.
   */
  #blockBytes(): Uint8Array {
    const keys = this.#apartKeys.length;
    const bits = this.#bits;
    if (this.#byKey.length !== bits.length) this.#byKey = new Uint8Array(bits.length);
    const byKey = this.#byKey;
    for (let slot = 0; slot < keys; slot++) {
      const at = slot * this.#bitsBytes;
      let members = 0;
      for (let byte = 0, from = slot; from < bits.length; byte++, from += keys) {
        const b = bits[from] as number;
        byKey[at + byte] = b;
        members += POPCOUNT[b] as number;
      }
      const key = this.#apartKeys[slot] as number;
      this.#counts[key] = (this.#counts[key] as number) + members;
    }
    return byKey;
  }

  /** The small keys whose members went to bits from some block on (SmallKeys.apart): read once every subject is in. */
  readonly apart: ApartKeys = {
    size: (key: number): number => ((this.#bitAt[key] as number) < 0 ? -1 : (this.#counts[key] as number)),
    set: (key: number, places: ArrayLike<number>, from: number, to: number, count: number): Uint8Array => {
      const slot = this.#bitAt[key] as number;
      const at = slot * this.#bitsBytes;
      const bitmap = new Uint8Array(Math.ceil(count / 8));
      // Its blocks' bits, then the members before them (the range's items: each below the first block).
      for (let b = this.#apartFrom[slot] as number; b < this.#blockAt.length; b++) {
        const start = b * this.#bitsBytes;
        this.file.read(bitmap, start, Math.min(this.#bitsBytes, bitmap.length - start), (this.#blockAt[b] as number) + at);
      }
      for (let i = from; i < to; i++) {
        const place = places[i] as number;
        bitmap[place >>> 3] = (bitmap[place >>> 3] as number) | (1 << (place & 7));
      }
      return setOfBits(bitmap, this.#counts[key] as number, count);
    },
  };

  /** The range `range`, with the current subject's record begun in it. */
  #open(range: number): SpillBytes {
    const bytes = this.ranges[range] as SpillBytes;
    this.items[range] = (this.items[range] as number) + 1;
    const last = this.#openAt[range] as number;
    if (last !== this.#place) {
      // The subject's mark (key-shards.ts, BucketRange): one byte for the place after the range's last.
      if (this.#place - last === 1) bytes.varint(NEXT_PLACE);
      else {
        bytes.varint(0);
        bytes.varint(this.#place - last);
      }
      this.#openAt[range] = this.#place;
    }
    return bytes;
  }
}

/** The stored set (encodeRows's bytes) of the `size` places whose bits `bitmap` holds, of a list of `count`. */
function setOfBits(bitmap: Uint8Array, size: number, count: number): Uint8Array {
  if (size > bitmap.length) return encodeBitmap(bitmap, size);
  const places = new Int32Array(size);
  let n = 0;
  for (let i = 0; i < bitmap.length; i++) {
    const byte = bitmap[i] as number;
    if (byte === 0) continue;
    for (let bit = 0; bit < 8; bit++) if ((byte >>> bit) & 1) places[n++] = 8 * i + bit;
  }
  return encodeRows(places, 0, n, count);
}

/** A two-character piece's text as the sets were first named by number (first * 0x10000 + second): a first unit of 0 names the second alone. */
function pairText(first: number, second: number): string {
  return first === 0 ? String.fromCharCode(second) : String.fromCharCode(first, second);
}

/** Whether a text holds a token break (tokensOf would cut it). */
function hasTokenBreak(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (isTokenBreak(text.charCodeAt(i))) return true;
  return false;
}
