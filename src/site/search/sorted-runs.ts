/**
 * An external sort of one text field, a value a subject in place order: the values are held a run
 * at a time, each run sorted and written to the scratch directory as it fills, and at the end the
 * runs are merged. Its memory is one run's values and a read buffer for each run, whatever the
 * list's length. Equal values keep their places rising (a run holds places below the next run's).
 *
 * The sort of a run is two passes: first by a cheap key (each character's class under the
 * collation at its primary strength, bytes compared as text), which puts nearly every value where
 * it belongs at the price of plain text comparisons, then by the exact order `compare`, which
 * V8's Array sort (TimSort) finishes in about one comparison a value on a list so nearly sorted.
 * The cheap key only speeds the sort: the order is always `compare`'s.
 */
import { closeSync, mkdirSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";

/** How many values a run holds unless told (the measured choice is in docs/search.md). */
export const RUN_SIZE = 1 << 18;

const BLOCK = 1 << 18;
const PRIMARY = new Intl.Collator("hr", { sensitivity: "base" });

export class SortedRuns {
  readonly #dir: string;
  readonly #compare: (a: string, b: string) => number;
  readonly #presort: boolean;
  readonly #runSize: number;
  #values: string[] = [];
  #first = 0;
  #runs = 0;

  /**
   * Values sorted by `compare` (a total order, 0 only for equal texts), their runs in the scratch
   * directory `dir` (made if missing, removed by `each`), `runSize` values a run. `presort`: sort by
   * the cheap key first; without it the exact sort starts from place order (for values that come
   * nearly sorted already, as a register's codes do).
   */
  constructor(dir: string, compare: (a: string, b: string) => number, presort: boolean, runSize = RUN_SIZE) {
    if (!(runSize >= 1)) throw new Error(`a run holds at least one value, not ${runSize}`);
    this.#dir = dir;
    this.#compare = compare;
    this.#presort = presort;
    this.#runSize = runSize;
  }

  /** The next place's value. */
  add(value: string): void {
    this.#values.push(value);
    if (this.#values.length === this.#runSize) this.#spill();
  }

  /** Every place with its value, in the order of the values (equal values by place), once. */
  each(visit: (place: number, value: string) => void): void {
    if (this.#runs === 0) {
      const values = this.#values;
      this.#values = [];
      for (const i of sortedIndices(values, this.#compare, this.#presort)) visit(i, values[i] as string);
      return;
    }
    // The last run stays in memory: it is merged from there, never written.
    const values = this.#values;
    this.#values = [];
    const last = new MemoryRun(values, sortedIndices(values, this.#compare, this.#presort), this.#first, this.#runs);
    try {
      this.#merge(last, visit);
    } finally {
      rmSync(this.#dir, { recursive: true, force: true });
    }
  }

  #spill(): void {
    const values = this.#values;
    this.#values = [];
    if (this.#runs === 0) mkdirSync(this.#dir, { recursive: true });
    const fd = openSync(join(this.#dir, String(this.#runs)), "w");
    try {
      const block = Buffer.allocUnsafe(BLOCK);
      let at = 0;
      for (const i of sortedIndices(values, this.#compare, this.#presort)) {
        const value = values[i] as string;
        const most = 8 + 3 * value.length;
        if (at + most > BLOCK) {
          writeSync(fd, block, 0, at);
          at = 0;
        }
        const entry = most > BLOCK ? Buffer.allocUnsafe(most) : block;
        const start = entry === block ? at : 0;
        entry.writeUInt32LE(this.#first + i, start);
        const length = entry.write(value, start + 8, "utf8");
        entry.writeUInt32LE(length, start + 4);
        if (entry === block) at += 8 + length;
        else writeSync(fd, entry, 0, 8 + length);
      }
      writeSync(fd, block, 0, at);
    } finally {
      closeSync(fd);
    }
    this.#first += values.length;
    this.#runs++;
  }

  #merge(last: MemoryRun, visit: (place: number, value: string) => void): void {
    const compare = this.#compare;
    // The runs' heads, kept sorted (fewest first on ties: the lower run holds the lower places), so
    // that each value costs about log2(runs) comparisons.
    const heads: Run[] = [];
    const before = (a: Run, b: Run): boolean => {
      if (a.value === b.value) return a.run < b.run;
      return compare(a.value, b.value) < 0;
    };
    const insert = (reader: Run): void => {
      let low = 0;
      let high = heads.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (before(heads[middle] as Run, reader)) low = middle + 1;
        else high = middle;
      }
      heads.splice(low, 0, reader);
    };
    try {
      for (let run = 0; run < this.#runs; run++) {
        const reader = new RunReader(join(this.#dir, String(run)), run);
        if (reader.next()) insert(reader);
        else reader.close();
      }
      if (last.next()) insert(last);
      while (heads.length > 0) {
        const reader = heads.shift() as Run;
        visit(reader.place, reader.value);
        if (reader.next()) insert(reader);
        else reader.close();
      }
    } finally {
      for (const reader of heads) reader.close();
    }
  }
}

/** The indices of `values` in the order `compare` gives them, equal values by index (presort: see SortedRuns). */
function sortedIndices(values: readonly string[], compare: (a: string, b: string) => number, presort: boolean): number[] {
  const order = presort ? cheapOrder(values) : Array.from(values.keys());
  return order.sort((a, b) => {
    const x = values[a] as string;
    const y = values[b] as string;
    return x === y ? a - b : compare(x, y);
  });
}

/**
 * The indices of `values` nearly in order: by each character's class at the collation's primary
 * strength (a byte a character, as a one-byte string compared as text), then by index. A radix
 * sort of the same keys measured slower (their long shared beginnings, "Osnovna škola …").
 */
function cheapOrder(values: readonly string[]): number[] {
  const weight = classes(values);
  const keys = new Array<string>(values.length);
  let buffer = Buffer.allocUnsafe(4096);
  for (let i = 0; i < values.length; i++) {
    const value = values[i] as string;
    if (value.length + 5 > buffer.length) buffer = Buffer.allocUnsafe(2 * (value.length + 5));
    let at = 0;
    for (let j = 0; j < value.length; j++) buffer[at++] = weight[value.charCodeAt(j)] as number;
    // 0 ends the key (every class is 1 or more), then the index, big end first.
    buffer[at++] = 0;
    buffer[at++] = i >>> 24;
    buffer[at++] = (i >>> 16) & 0xff;
    buffer[at++] = (i >>> 8) & 0xff;
    buffer[at++] = i & 0xff;
    keys[i] = buffer.toString("latin1", 0, at);
  }
  keys.sort();
  const order = new Array<number>(values.length);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const n = key.length;
    order[i] = ((key.charCodeAt(n - 4) << 24) | (key.charCodeAt(n - 3) << 16) | (key.charCodeAt(n - 2) << 8) | key.charCodeAt(n - 1)) >>> 0;
  }
  return order;
}

/** Each character's class at the collation's primary strength, 1 to 255 (255 also past the 254th class and for a lone surrogate). */
function classes(values: readonly string[]): Uint8Array {
  const seen = new Uint8Array(0x10000);
  const chars: string[] = [];
  for (const value of values)
    for (let i = 0; i < value.length; i++) {
      const unit = value.charCodeAt(i);
      if (seen[unit] === 0) {
        seen[unit] = 1;
        chars.push(String.fromCharCode(unit));
      }
    }
  chars.sort(PRIMARY.compare);
  const weight = new Uint8Array(0x10000).fill(255);
  let klass = 1;
  for (let c = 0; c < chars.length; c++) {
    if (c > 0 && PRIMARY.compare(chars[c - 1] as string, chars[c] as string) !== 0) klass = Math.min(klass + 1, 255);
    weight[(chars[c] as string).charCodeAt(0)] = klass;
  }
  return weight;
}

/** A sorted run's entries one at a time: the place and value of the current one. */
interface Run {
  readonly run: number;
  readonly place: number;
  readonly value: string;
  /** Moves to the next entry; false at the run's end. */
  next(): boolean;
  close(): void;
}

/** The last run, sorted in memory (`order`: its indices in order; `first`: its first place). */
class MemoryRun implements Run {
  readonly run: number;
  place = 0;
  value = "";
  readonly #values: readonly string[];
  readonly #order: readonly number[];
  readonly #first: number;
  #at = 0;

  constructor(values: readonly string[], order: readonly number[], first: number, run: number) {
    this.#values = values;
    this.#order = order;
    this.#first = first;
    this.run = run;
  }

  next(): boolean {
    if (this.#at === this.#order.length) return false;
    const i = this.#order[this.#at++] as number;
    this.place = this.#first + i;
    this.value = this.#values[i] as string;
    return true;
  }

  close(): void {}
}

/** One run read back a block at a time. */
class RunReader implements Run {
  readonly run: number;
  place = 0;
  value = "";
  #fd: number;
  #buffer = Buffer.allocUnsafe(BLOCK);
  #start = 0;
  #end = 0;
  #done = false;

  constructor(path: string, run: number) {
    this.run = run;
    this.#fd = openSync(path, "r");
  }

  next(): boolean {
    if (!this.#have(8)) return false;
    const length = this.#buffer.readUInt32LE(this.#start + 4);
    if (!this.#have(8 + length)) throw new Error(`a run of the order sort ends inside an entry (${this.run})`);
    this.place = this.#buffer.readUInt32LE(this.#start);
    this.value = this.#buffer.toString("utf8", this.#start + 8, this.#start + 8 + length);
    this.#start += 8 + length;
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
      if (bytes > this.#buffer.length) {
        const grown = Buffer.allocUnsafe(bytes);
        this.#buffer.copy(grown, 0, this.#start, this.#end);
        this.#buffer = grown;
      } else this.#buffer.copy(this.#buffer, 0, this.#start, this.#end);
      this.#end -= this.#start;
      this.#start = 0;
      const read = readSync(this.#fd, this.#buffer, this.#end, this.#buffer.length - this.#end, null);
      if (read === 0) this.#done = true;
      this.#end += read;
    }
    return true;
  }
}
