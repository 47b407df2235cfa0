/**
 * An external sort of one text field, a value a subject in place order: the values are held a run
 * at a time, each run sorted and written to the scratch directory as it fills, and at the end the
 * runs are merged. Its memory is one run's values and a read buffer for each run, whatever the
 * list's length. Equal values keep their places rising (a run holds places below the next run's).
 * A run is its groups of equal values, each value once with its places, so that a value that
 * repeats (names, towns) is sorted, written, read back and compared in the merge once a run.
 *
 * The sort of a run is two passes: first by a cheap key (each letter's class under the collation at
 * its primary strength, primary-keys.ts, bytes compared as text), which puts nearly every value
 * where it belongs at the price of plain text comparisons, then by the exact order `compare`,
 * which is the cheap order wherever two values' primary keys differ: only blocks of equal keys,
 * and the values with none, are sorted by `compare`. The order is always `compare`'s, which must
 * be compareOrderValues's (the keys are its order).
 *
 * Every run is written with each group's key beside its text (the last one too, once there is more
 * than one), and the merge compares the runs' heads by those bytes: the keys, the UTF-8 for
 * equality, a value decoded only where two keys are equal or missing. It hands out each place's
 * rank, not its value: no string is made for a group read back.
 */
import { closeSync, mkdirSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { sortByteStrings } from "../../common/byte-strings-sort.ts";
import { TextNumbers } from "../../common/text-numbers.ts";
import { digitsOnly } from "../../core/search/digits-only.ts";
import { writeClasses } from "./primary-keys.ts";

/** How many values a run holds unless told (the measured choice is in docs/search.md). */
export const RUN_SIZE = 1 << 18;

const BLOCK = 1 << 18;

export class SortedRuns {
  readonly #dir: string;
  readonly #compare: (a: string, b: string) => number;
  readonly #presort: boolean;
  /** The fewest distinct values of a run sorted by the cheap key first (PRESORT_FROM): fewer are sorted by `compare` alone. */
  readonly #presortFrom: number;
  readonly #runSize: number;
  /**
   * The run being filled, `#length` values: without presort, `#values[0, #length)`. The array is
   * kept from run to run (emptied of its strings at each spill): grown afresh by push for each run,
   * a quarter of a million values, it was a new array in the engine's large-object space at each
   * growth, every page of it fresh.
   */
  #values: string[] = [];
  /**
   * With presort, each value's number among the run's distinct values (`#numbered`, kept from run to
   * run) and each distinct value once (`#numbers`, emptied at each spill), numbered as they come:
   * a value met before in the run is not held again. Held a run long (a quarter of a million
   * subjects), every name's string lived through the collections of the young generation and was
   * copied to the old one, some 70 MB at a million subjects, where half of them repeat a name.
   */
  #numbered: Uint32Array = new Uint32Array(0);
  #numbers: TextNumbers | undefined;
  #length = 0;
  /** The arrays its runs are sorted in: its own, or shared with sorts whose runs are never sorted at once (OrderFiles's fields). */
  #scratch: RunScratch;
  #first = 0;
  #runs = 0;

  /**
   * Values sorted by `compare` (a total order, 0 only for equal texts), their runs in the scratch
   * directory `dir` (made if missing, removed by `each`), `runSize` values a run. `presort`: sort by
   * the cheap key first, and each distinct value of a run once (for values that repeat, as names
   * and towns do); without it the exact sort starts from place order (for values that come nearly
   * sorted already and distinct, as a register's codes do). A number for `presort`: each distinct value
   * of a run once, by the cheap key first only in a run of at least that many distinct values.
   */
  constructor(
    dir: string,
    compare: (a: string, b: string) => number,
    presort: boolean | number,
    runSize = RUN_SIZE,
    scratch = new RunScratch(),
  ) {
    if (!(runSize >= 1)) throw new Error(`a run holds at least one value, not ${runSize}`);
    this.#dir = dir;
    this.#compare = compare;
    this.#presort = presort !== false;
    this.#presortFrom = presort === true ? 0 : presort === false ? Number.POSITIVE_INFINITY : presort;
    this.#runSize = runSize;
    this.#scratch = scratch;
  }

  /** The next place's value. */
  add(value: string): void {
    if (this.#presort) {
      if (this.#length === this.#numbered.length) this.#numbered = grownTo(this.#numbered, this.#runSize);
      this.#numbered[this.#length] = (this.#numbers ??= new TextNumbers()).numberOf(value);
    }
    // At most one past the end: an append, never a hole.
    else this.#values[this.#length] = value;
    if (++this.#length === this.#runSize) this.#spill();
  }

  /**
   * Every place with its value's rank among the distinct values, in the order of the values (equal
   * values by place), once. The values themselves are not handed out: the merge compares the runs'
   * bytes (their keys, then their UTF-8), and decodes a value only where two keys are equal or
   * missing.
   */
  each(visit: (place: number, rank: number) => void): void {
    try {
      if (this.#runs === 0) {
        // One run: its groups from memory, in order; a group is a distinct value.
        const { count, starts, places } = this.#sorted(this.#length);
        for (let g = 0; g < count; g++) {
          const to = starts[g + 1] as number;
          for (let p = starts[g] as number; p < to; p++) visit(places[p] as number, g);
        }
      } else {
        // The last run is written as the others are: the merge reads every run's bytes alike.
        if (this.#length > 0) this.#spill();
        this.#values = [];
        this.#numbered = new Uint32Array(0);
        this.#numbers = undefined;
        this.#merge(visit);
      }
    } finally {
      // The sort's arrays go once the last run is merged: they are not held through the stage's next steps.
      this.#values = [];
      this.#numbered = new Uint32Array(0);
      this.#numbers = undefined;
      this.#length = 0;
      this.#scratch = EMPTY_SCRATCH;
      if (this.#runs > 0) rmSync(this.#dir, { recursive: true, force: true });
    }
  }

  /** The groups of the run's `length` values, their values in the scratch's array (good until the next run is sorted). */
  #sorted(length: number): Groups {
    const scratch = this.#scratch;
    const values = this.#values;
    return this.#presort
      ? distinctGroups(this.#numbered, length, (this.#numbers ??= new TextNumbers()), this.#compare, scratch, this.#presortFrom)
      : adjacentGroups(values, sortedIndices(values, length, this.#compare), scratch);
  }

  /**
   * Writes the run sorted: each group of equal values as its count of places, its text's UTF-8
   * length, its key's (RunReader), the key, the text and its places (4 bytes each, little end).
   */
  #spill(): void {
    const length = this.#length;
    const groups = this.#sorted(length);
    if (this.#runs === 0) mkdirSync(this.#dir, { recursive: true });
    const fd = openSync(join(this.#dir, String(this.#runs)), "w");
    try {
      let block = Buffer.allocUnsafe(BLOCK);
      let at = 0;
      const first = this.#first;
      const presort = this.#presort;
      const { sorted, count, starts, places, keys } = groups;
      for (let g = 0; g < count; g++) {
        const value = sorted[g] as string;
        const from = starts[g] as number;
        const to = starts[g + 1] as number;
        // The key a byte a code unit at most, the UTF-8 three.
        const most = HEADER + 4 * value.length;
        if (at + most > block.length) {
          writeSync(fd, block, 0, at);
          at = 0;
          // A text longer than a block (some 65,000 characters) in a block of its own.
          if (most > BLOCK) block = Buffer.allocUnsafe(most);
          else if (block.length > BLOCK) block = Buffer.allocUnsafe(BLOCK);
        }
        const keyAt = at + HEADER;
        let keyLength: number;
        if (!presort) keyLength = digitsOnly(value) ? TEXT_KEY : NO_KEY;
        else if (keys === undefined) {
          const written = writeClasses(value, block, keyAt);
          keyLength = written < 0 ? NO_KEY : written;
        } else {
          const number = keys.numbers[g] as number;
          if (keys.keyed[number] === 0) keyLength = NO_KEY;
          else {
            const keyFrom = keys.starts[number] as number;
            keyLength = (keys.starts[number + 1] as number) - keyFrom;
            const classes = keys.classes;
            for (let i = 0; i < keyLength; i++) block[keyAt + i] = classes[keyFrom + i] as number;
          }
        }
        const textAt = keyLength >= TEXT_KEY ? keyAt : keyAt + keyLength;
        const textLength = value.length <= SHORT ? writeUtf8(value, block, textAt) : block.write(value, textAt, "utf8");
        block.writeUInt32LE(to - from, at);
        block.writeUInt32LE(textLength, at + 4);
        block.writeUInt32LE(keyLength, at + 8);
        at = textAt + textLength;
        for (let p = from; p < to; p++) {
          if (at + 4 > block.length) {
            writeSync(fd, block, 0, at);
            at = 0;
          }
          block.writeUInt32LE(first + (places[p] as number), at);
          at += 4;
        }
      }
      writeSync(fd, block, 0, at);
    } finally {
      closeSync(fd);
    }
    // Its strings let go (the arrays are filled again by the next run): held, they were a run's
    // strings more through the next, in the old generation.
    this.#values.fill("", 0, length);
    this.#numbers?.clear();
    this.#scratch.forget(groups.count);
    this.#length = 0;
    this.#first += length;
    this.#runs++;
  }

  #merge(visit: (place: number, rank: number) => void): void {
    const compare = this.#compare;
    // The runs' heads, kept sorted (fewest first on ties: the lower run holds the lower places), so
    // that each group of equal values costs about log2(runs) comparisons: of the values' keys as
    // bytes where both have one (primary keys for names and towns, a code's own bytes), of their
    // UTF-8 for equality, and by `compare` (the value decoded) only where the keys are equal or
    // missing. At five million subjects the heads are twenty and a name about four comparisons.
    const heads: RunReader[] = [];
    const before = (a: RunReader, b: RunReader): boolean => {
      // Two keys that differ order the values as `compare` does (primary-keys.ts; digits as plain text).
      if (a.keyLength >= 0 && b.keyLength >= 0) {
        const order = compareBytes(a.buffer, a.keyAt, a.keyLength, b.buffer, b.keyAt, b.keyLength);
        if (order !== 0) return order < 0;
      }
      if (sameText(a, b)) return a.run < b.run;
      return compare(a.value, b.value) < 0;
    };
    // Where `reader` goes among the heads from `low` on: after every head before it.
    const placeOf = (reader: RunReader, from: number): number => {
      let low = from;
      let high = heads.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (before(heads[middle] as RunReader, reader)) low = middle + 1;
        else high = middle;
      }
      return low;
    };
    const insert = (reader: RunReader): void => void heads.splice(placeOf(reader, 0), 0, reader);
    try {
      for (let run = 0; run < this.#runs; run++) {
        const reader = new RunReader(join(this.#dir, String(run)), run);
        if (reader.next()) insert(reader);
        else reader.close();
      }
      // A run that gave two groups in a row is first compared with the second head alone: where the
      // runs hold ranges of values apart (a register's codes, numbered in place order), a group
      // then costs one comparison, not log2 of the runs; where they interleave the check is rare.
      let previous = -1;
      let rank = -1;
      let same = false;
      while (heads.length > 0) {
        const reader = heads[0] as RunReader;
        if (!same) rank++;
        for (let i = 0; i < reader.count; i++) visit(reader.placeAt(i), rank);
        // The next group is of the same value only if the next head's is this one (a run's values
        // are distinct and rising, so the run's own next is not, and comes after that head).
        same = heads.length > 1 && sameText(reader, heads[1] as RunReader);
        const again = reader.run === previous;
        previous = reader.run;
        if (!reader.next()) {
          heads.shift();
          reader.close();
        } else if (heads.length > 1 && !(again && before(reader, heads[1] as RunReader))) {
          // Back among the other heads: those before it move up one (no shift and splice of the array).
          const low = placeOf(reader, 1);
          for (let i = 1; i < low; i++) heads[i - 1] = heads[i] as RunReader;
          heads[low - 1] = reader;
        }
      }
    } finally {
      for (const reader of heads) reader.close();
    }
  }
}

/** The longest text written to a run by writeUtf8 (longer ones by Buffer's write, whose call costs more than a short text's loop). */
const SHORT = 16;

/**
 * Writes `value`'s UTF-8 into `out` from `at` (room for 3 bytes a code unit), as Buffer's write
 * does (a lone surrogate as U+FFFD's bytes); answers how many bytes.
 */
export function writeUtf8(value: string, out: Uint8Array, at: number): number {
  let to = at;
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit < 0x80) out[to++] = unit;
    else if (unit < 0x800) {
      out[to++] = 0xc0 | (unit >> 6);
      out[to++] = 0x80 | (unit & 0x3f);
    } else if (unit >= 0xd800 && unit < 0xdc00 && i + 1 < value.length && (value.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      const point = 0x10000 + ((unit - 0xd800) << 10) + (value.charCodeAt(++i) - 0xdc00);
      out[to++] = 0xf0 | (point >> 18);
      out[to++] = 0x80 | ((point >> 12) & 0x3f);
      out[to++] = 0x80 | ((point >> 6) & 0x3f);
      out[to++] = 0x80 | (point & 0x3f);
    } else {
      const point = (unit & 0xf800) === 0xd800 ? 0xfffd : unit;
      out[to++] = 0xe0 | (point >> 12);
      out[to++] = 0x80 | ((point >> 6) & 0x3f);
      out[to++] = 0x80 | (point & 0x3f);
    }
  }
  return to - at;
}

/** A group's header in a run file: its count of places, its text's length, its key's (or NO_KEY, TEXT_KEY). */
const HEADER = 12;
/** A group with no key: ordered by `compare`. */
const NO_KEY = 0xffffffff;
/** A group whose text is its key (a code of digits and dashes: plain text's order, its bytes'). */
const TEXT_KEY = 0xfffffffe;

/**
 * A run sorted: its `count` distinct values in order (`sorted` may be longer: its first `count`),
 * where each one's places begin in `places` (and the end), its places (indices in the run) by group,
 * rising within one.
 */
interface Groups {
  readonly sorted: readonly string[];
  readonly count: number;
  readonly starts: Uint32Array;
  readonly places: Uint32Array;
  /** The primary keys the sort made, when it made them (keyOrder): the spill writes them, not made again. */
  readonly keys?: Keys | undefined;
}

/** A run's primary keys as its sort made them: `classes` of distinct value `numbers[g]` (group g's), when `keyed`. */
interface Keys {
  readonly classes: Uint8Array;
  readonly starts: Uint32Array;
  readonly keyed: Uint8Array;
  readonly numbers: Uint32Array;
}

/**
 * What a run's sort keeps from run to run of a field: the array of its groups' strings, as long as
 * a run (the table that numbers a run's values is the SortedRuns's own: names and towns are
 * numbered at once, as they come). Made for each run, a quarter of a million values, it grew
 * by push through new arrays in the engine's large-object space, every page of them fresh memory
 * (page faults, each costly on a virtual machine). The typed arrays are made for each run: the
 * allocator hands back the last run's memory, and kept they held some 40 MB more through the
 * gathering for no fewer faults. The groups of a run are good until the next run is sorted. The
 * order files' three fields share one (their runs are sorted one after another).
 */
export class RunScratch {
  /** The groups' values in order: `sorted[0, count)`, the rest left from runs before. */
  readonly sorted: string[] = [];

  /** Lets go of the strings of a run of `count` groups once written. */
  forget(count: number): void {
    this.sorted.fill("", 0, count);
  }
}

/** `numbers` with room for twice as many (a run's `most` at most), its numbers kept. */
function grownTo(numbers: Uint32Array, most: number): Uint32Array {
  const grown = new Uint32Array(Math.min(most, Math.max(1024, 2 * numbers.length)));
  grown.set(numbers);
  return grown;
}

/**
 * The fewest distinct values of a run sorted by their primary keys first: fewer are sorted by
 * `compare` alone, to the same order (the order is always `compare`'s, a total one), without the
 * table of primary-keys.ts, which costs some 100-190 ms of comparisons a thread to make, where the
 * 5,758 names of the sample sort in some 13 ms and 65,536 in some 130 (Node 20).
 */
export const PRESORT_FROM = 1 << 15;

/** What a SortedRuns holds once merged: it sorts no run again. */
const EMPTY_SCRATCH = new RunScratch();

/**
 * The groups of a run, each distinct value sorted once (values that repeat: at a million subjects a
 * run of names holds about half as many distinct, of towns a third to a sixth): numbered
 * (common/text-numbers.ts), sorted, and the places counted into their groups by rank.
 */
function distinctGroups(
  numbered: Uint32Array,
  length: number,
  numbers: TextNumbers,
  compare: (a: string, b: string) => number,
  scratch: RunScratch,
  presortFrom: number,
): Groups {
  // Overwritten with the ranks below: the run's last use of them.
  const numberOf = numbered.subarray(0, length);
  const [distinct, count] = [numbers.texts, numbers.count];
  let order: Uint32Array;
  let keys: Keys | undefined;
  if (count >= presortFrom) {
    keys = keyOrder(distinct, count, compare);
    order = keys.numbers;
  } else order = sortedIndices(distinct, count, compare);
  const rankOf = new Uint32Array(count);
  for (let rank = 0; rank < order.length; rank++) rankOf[order[rank] as number] = rank;
  // Each value's number becomes its rank; where each rank begins; then the places by rank.
  const ranks = numberOf;
  const starts = new Uint32Array(count + 1);
  for (let i = 0; i < length; i++) {
    const rank = rankOf[ranks[i] as number] as number;
    ranks[i] = rank;
    starts[rank + 1] = (starts[rank + 1] as number) + 1;
  }
  for (let g = 0; g < count; g++) starts[g + 1] = (starts[g + 1] as number) + (starts[g] as number);
  const places = new Uint32Array(length);
  placesByRank(ranks, starts, places);
  const sorted = scratch.sorted;
  for (let rank = 0; rank < order.length; rank++) sorted[rank] = distinct[order[rank] as number] as string;
  return { sorted, count: order.length, starts, places, keys };
}

/**
 * Fills `out` with the places (indices of `ranks`) by rank, places rising within a rank: a counting
 * sort, `starts` where each rank begins in `out` (and the end). The order files' fields of few
 * values use it too (order-files.ts).
 */
export function placesByRank(ranks: Uint32Array, starts: Uint32Array, out: Uint32Array): void {
  const filled = starts.slice(0, starts.length - 1);
  for (let p = 0; p < ranks.length; p++) {
    const rank = ranks[p] as number;
    out[filled[rank] as number] = p;
    filled[rank] = (filled[rank] as number) + 1;
  }
}

/** The groups of a run from its indices in order (equal values side by side, by index). */
function adjacentGroups(values: readonly string[], order: Uint32Array, scratch: RunScratch): Groups {
  const sorted = scratch.sorted;
  const starts = new Uint32Array(order.length + 1);
  let count = 0;
  for (let i = 0; i < order.length; i++) {
    const value = values[order[i] as number] as string;
    if (i === 0 || value !== sorted[count - 1]) {
      starts[count] = i;
      sorted[count++] = value;
    }
  }
  starts[count] = order.length;
  return { sorted, count, starts: starts.subarray(0, count + 1), places: order };
}

/**
 * The indices of `values[0, length)` in the order `compare` gives them, equal values by index.
 * Sorted as an Array (TimSort), which takes the ascending stretches the values come in as they are:
 * a register's codes come in place order, nearly sorted already (8 descents in a million), where a
 * typed array's sort (a merge sort) compared each run's values n log n times by `compare`.
 */
function sortedIndices(values: readonly string[], length: number, compare: (a: string, b: string) => number): Uint32Array {
  // In order already (a register's codes, a run at a time): the indices as they are, one comparison
  // a value and no array of numbers to sort and copy.
  let rising = true;
  for (let i = 1; rising && i < length; i++) rising = compare(values[i - 1] as string, values[i] as string) <= 0;
  if (rising) {
    const indices = new Uint32Array(length);
    for (let i = 0; i < length; i++) indices[i] = i;
    return indices;
  }
  const indices = new Array<number>(length);
  for (let i = 0; i < length; i++) indices[i] = i;
  return Uint32Array.from(indices.sort(exactOrder(values, compare)));
}

/** `compare` of the values at two indices, equal values by index. */
function exactOrder(values: readonly string[], compare: (a: string, b: string) => number): (a: number, b: number) => number {
  return (a, b) => {
    const x = values[a] as string;
    const y = values[b] as string;
    return x === y ? a - b : compare(x, y);
  };
}

/**
 * The indices of `values[0, length)` in `compare`'s order (as `numbers`), by the primary keys first:
 * where two values' keys differ, the cheap order is the exact one; only a block of equal keys (case,
 * accents) is sorted by the collation, and the values with no key are sorted apart and merged in.
 * The keys are handed on with the order, for the run's file.
 */
function keyOrder(values: readonly string[], length: number, compare: (a: string, b: string) => number): Keys {
  const exact = exactOrder(values, compare);
  const { order, keyed, tied, classes, starts } = cheapOrder(values, length);
  const out = new Uint32Array(length);
  const loose = new Uint32Array(length);
  let outs = 0;
  let looses = 0;
  for (let i = 0; i < order.length; ) {
    const first = order[i] as number;
    if (keyed[first] === 0) {
      loose[looses++] = first;
      i++;
      continue;
    }
    let end = i + 1;
    while (end < order.length && keyed[order[end] as number] === 1 && tied[end - 1] === 1) end++;
    if (end === i + 1) out[outs++] = first;
    else for (const index of order.slice(i, end).sort(exact)) out[outs++] = index;
    i = end;
  }
  if (looses === 0) return { classes, starts, keyed, numbers: out };
  loose.subarray(0, looses).sort(exact);
  const merged = new Uint32Array(length);
  let m = 0;
  let a = 0;
  let b = 0;
  while (a < outs && b < looses)
    merged[m++] = exact(out[a] as number, loose[b] as number) <= 0 ? (out[a++] as number) : (loose[b++] as number);
  while (a < outs) merged[m++] = out[a++] as number;
  while (b < looses) merged[m++] = loose[b++] as number;
  return { classes, starts, keyed, numbers: merged };
}

/**
 * The indices of `values` nearly in order: by their classes at the collation's primary strength
 * (primary-keys.ts: a character with none takes the last class; the exact sort puts it right), a
 * byte a letter, a value whose classes begin another's first, then by index; which values have a
 * primary key (`keyed`), and at which positions of the order the classes are the next one's
 * (`tied`). The classes are sorted as bytes in one array (common/byte-strings-sort.ts): as strings
 * sorted by Array.prototype.sort (each with its index after a 0) they were a string a value, and
 * their long shared beginnings ("Osnovna škola …") compared again at each comparison.
 */
function cheapOrder(
  values: readonly string[],
  count: number,
): { order: Uint32Array; keyed: Uint8Array; tied: Uint8Array; classes: Uint8Array; starts: Uint32Array } {
  const keyed = new Uint8Array(count);
  const starts = new Uint32Array(count + 1);
  starts[0] = 0;
  let length = 0;
  for (let i = 0; i < count; i++) length += (values[i] as string).length;
  const classes = new Uint8Array(length);
  let at = 0;
  for (let i = 0; i < count; i++) {
    const written = writeClasses(values[i] as string, classes, at);
    keyed[i] = written < 0 ? 0 : 1;
    at += written < 0 ? -1 - written : written;
    starts[i + 1] = at;
  }
  // Where the classes of the value at a position are those of the next one's, as the sort finds them.
  const tied = new Uint8Array(count);
  const order = sortByteStrings(classes, starts, tied);
  return { order, keyed, tied, classes, starts };
}

/** The order of byte strings `a[i, i + m)` and `b[j, j + n)`: by the first byte that differs, a beginning first. */
function compareBytes(a: Uint8Array, i: number, m: number, b: Uint8Array, j: number, n: number): number {
  const most = m < n ? m : n;
  for (let k = 0; k < most; k++) {
    const x = a[i + k] as number;
    const y = b[j + k] as number;
    if (x !== y) return x - y;
  }
  return m - n;
}

/**
 * Whether two heads' current values are the same text: the same UTF-8 (the register's texts are
 * whole characters, validate-subject.ts: no lone surrogate, which UTF-8 would write as U+FFFD).
 */
function sameText(a: RunReader, b: RunReader): boolean {
  // Texts of two lengths differ: no byte read.
  return a.textLength === b.textLength && compareBytes(a.buffer, a.textAt, a.textLength, b.buffer, b.textAt, b.textLength) === 0;
}

/** One run read back a block at a time, a group at a time: its bytes in `buffer`, its value decoded only when asked for. */
class RunReader {
  readonly run: number;
  buffer = Buffer.allocUnsafe(BLOCK);
  /** How many places hold the current group's value. */
  count = 0;
  /** Where its text's UTF-8 lies in `buffer`, and its key's (`keyLength` -1: none). */
  textAt = 0;
  textLength = 0;
  keyAt = 0;
  keyLength = -1;
  #value: string | undefined;
  #fd: number;
  #start = 0;
  #end = 0;
  #places = 0;
  #done = false;

  /** The run in file `path`. */
  constructor(path: string, run: number) {
    this.run = run;
    this.#fd = openSync(path, "r");
  }

  /** The current group's value, decoded once (only to compare values with equal keys or none). */
  get value(): string {
    return (this.#value ??= this.buffer.toString("utf8", this.textAt, this.textAt + this.textLength));
  }

  /** The current group's `i`th place. */
  placeAt(i: number): number {
    return this.buffer.readUInt32LE(this.#places + 4 * i);
  }

  /** Moves to the next group; false at the run's end. */
  next(): boolean {
    this.#start = this.#places + 4 * this.count;
    this.count = 0;
    this.#places = this.#start;
    this.#value = undefined;
    if (!this.#have(HEADER)) return false;
    const count = this.buffer.readUInt32LE(this.#start);
    const textLength = this.buffer.readUInt32LE(this.#start + 4);
    const key = this.buffer.readUInt32LE(this.#start + 8);
    const keyBytes = key >= TEXT_KEY ? 0 : key;
    // The group whole in the buffer: its key, its text and its places.
    if (!this.#have(HEADER + keyBytes + textLength + 4 * count))
      throw new Error(`a run of the order sort ends inside an entry (${this.run})`);
    this.keyAt = this.#start + HEADER;
    this.textAt = this.keyAt + keyBytes;
    this.textLength = textLength;
    if (key === NO_KEY) this.keyLength = -1;
    else if (key === TEXT_KEY) this.keyLength = textLength;
    else this.keyLength = key;
    this.#places = this.textAt + textLength;
    this.count = count;
    return true;
  }

  close(): void {
    if (this.#fd >= 0) closeSync(this.#fd);
    this.#fd = -1;
  }

  /** Whether `bytes` bytes are buffered from start, reading more (and growing) if need be. */
  #have(bytes: number): boolean {
    while (this.#end - this.#start < bytes) {
      if (this.#done) {
        if (this.#end > this.#start) throw new Error(`a run of the order sort ends inside an entry (${this.run})`);
        return false;
      }
      if (bytes > this.buffer.length) {
        const grown = Buffer.allocUnsafe(bytes);
        this.buffer.copy(grown, 0, this.#start, this.#end);
        this.buffer = grown;
      } else this.buffer.copy(this.buffer, 0, this.#start, this.#end);
      this.#end -= this.#start;
      this.#start = 0;
      const read = readSync(this.#fd, this.buffer, this.#end, this.buffer.length - this.#end, null);
      if (read === 0) this.#done = true;
      this.#end += read;
    }
    return true;
  }
}
