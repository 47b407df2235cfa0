/** Where the sorted suffix entries are cut into files, by content, so that an edit moves few cuts. */

/**
 * Where the sorted suffix entries are cut into `files` files: the first entry of each file
 * (`files` + 1 numbers, the first 0, the last the entries' count). The files begin at the entries
 * whose hashes are the smallest `files` - 1 of all: a choice by content, not by position, so an
 * edit that adds, removes or changes a few entries moves no cut unless one of them is a cut's own
 * (about one chance in the entries a file holds; then that cut and the one that takes its place
 * move): the other files keep their bytes. The files' sizes vary more than equal counts would (as
 * gaps between random points do: a file holds on average entries / files, the largest of
 * thousands about ten times that). The entries of one suffix may lie in two files or more, as
 * with any cut: a term's files are those from the last whose first key is below the term's.
 *
 * The stage finds the same cuts a piece at a time (SmallestHashes for the threshold as the entries
 * are made, then CutPlace over them in order), holding no entry's hash but the smallest few.
 */
export function suffixCuts(entries: readonly string[], files: number): number[] {
  if (files < 2) return [0, entries.length];
  const smallest = new SmallestHashes(files);
  for (const entry of entries) smallest.add(hash52(entry));
  const place = new CutPlace(files, smallest.threshold());
  const cuts = [0];
  entries.forEach((entry, i) => {
    if (place.cutsBefore(entry)) cuts.push(i);
  });
  // Fewer entries than files: the last files are empty.
  while (cuts.length < files + 1) cuts.push(entries.length);
  return cuts;
}

/** The smallest `files` - 1 hashes of the entries seen (with repeats), and so the threshold a cut's hash is at most. */
export class SmallestHashes {
  readonly #keep: number;
  #hashes: Float64Array;
  #length = 0;
  #ceiling = Infinity;

  constructor(files: number) {
    this.#keep = Math.max(0, files - 1);
    this.#hashes = new Float64Array(Math.max(16, 2 * this.#keep));
  }

  /**
   * Adds a hash; answers whether it may be at most the threshold (at most the ceiling now: the
   * threshold only comes down to it). A hash it answers false for is above the threshold.
   */
  add(hash: number): boolean {
    if (this.#keep === 0) return false;
    // Once `keep` are kept, a hash at or above the largest of them cannot be among the smallest
    // (or ties it, which leaves the threshold where it is): most hashes stop here, and the trims are few.
    if (hash >= this.#ceiling) return hash === this.#ceiling;
    if (this.#length === this.#hashes.length) this.#trim();
    this.#hashes[this.#length++] = hash;
    return true;
  }

  /** The largest of the smallest `files` - 1 hashes (of all of them when fewer came); -1 when none came. */
  threshold(): number {
    this.#trim();
    return this.#length === 0 ? -1 : (this.#hashes[this.#length - 1] as number);
  }

  /** Keeps the smallest `keep`, sorted. */
  #trim(): void {
    const sorted = this.#hashes.subarray(0, this.#length).sort();
    this.#length = Math.min(this.#length, this.#keep);
    this.#hashes.set(sorted.subarray(0, this.#length));
    if (this.#length === this.#keep) this.#ceiling = this.#hashes[this.#length - 1] as number;
  }
}

/** Whether each entry, in sorted order, begins a new file (never the first; `files` - 1 cuts at most). */
export class CutPlace {
  readonly #files: number;
  readonly #threshold: number;
  #index = 0;
  #cuts = 1;

  constructor(files: number, threshold: number) {
    this.#files = files;
    this.#threshold = threshold;
  }

  /** Whether a new file begins at `entry`, the next entry in order. */
  cutsBefore(entry: string): boolean {
    return this.cutsBeforeHash(hash52(entry));
  }

  /** The same, for an entry whose hash52 is `hash`. */
  cutsBeforeHash(hash: number): boolean {
    const cut = this.#index > 0 && this.#cuts < this.#files && hash <= this.#threshold;
    this.#index++;
    if (cut) this.#cuts++;
    return cut;
  }
}

/** A suffix entry's key with its closing quote (`["<suffix>"`): its JSON string up to the first unescaped quote. */
export function keyOfEntry(entry: string): string {
  let at = 2;
  while (entry.charCodeAt(at) !== 0x22) at += entry.charCodeAt(at) === 0x5c ? 2 : 1;
  return entry.slice(0, at + 1);
}

/** A 52-bit hash of a text (two FNV-1a passes of other bases, mixed): equal hashes of two entries are rare enough to ignore. */
export function hash52(text: string): number {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    a = Math.imul(a ^ unit, 0x01000193) >>> 0;
    b = Math.imul(b ^ unit, 0x5bd1e995) >>> 0;
  }
  return mixed(a, b);
}

/** hash52 of a text of one-byte code units `bytes[from, to)`. */
export function hash52OfBytes(bytes: Uint8Array, from: number, to: number): number {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = from; i < to; i++) {
    const unit = bytes[i] as number;
    a = Math.imul(a ^ unit, 0x01000193) >>> 0;
    b = Math.imul(b ^ unit, 0x5bd1e995) >>> 0;
  }
  return mixed(a, b);
}

/**
 * hash52 of each suffix entry of a token, `["` then bytes[from + i, to) (one-byte code units), for
 * i in [0, count), into hashes[0, count). Four at a time: one entry's hash is two chains of
 * multiplications, each waiting on the one before, and four entries' chains side by side keep the
 * multiplier busy where one entry's left it idle (the entries of a token share their tails).
 */
export function hash52sOfSuffixes(bytes: Uint8Array, from: number, count: number, to: number, hashes: Float64Array): void {
  // After `["`: every entry's state there.
  const a = Math.imul(Math.imul(0x811c9dc5 ^ 0x5b, 0x01000193) ^ 0x22, 0x01000193);
  const b = Math.imul(Math.imul(0x01000193 ^ 0x5b, 0x5bd1e995) ^ 0x22, 0x5bd1e995);
  let i = 0;
  for (; i + 4 <= count; i += 4) {
    const at = from + i;
    let a0 = a;
    let b0 = b;
    let a1 = a;
    let b1 = b;
    let a2 = a;
    let b2 = b;
    let a3 = a;
    let b3 = b;
    // Entry i begins a byte before entry i + 1, and so on: the first three bytes feed fewer chains.
    let unit = bytes[at] as number;
    a0 = Math.imul(a0 ^ unit, 0x01000193);
    b0 = Math.imul(b0 ^ unit, 0x5bd1e995);
    unit = bytes[at + 1] as number;
    a0 = Math.imul(a0 ^ unit, 0x01000193);
    b0 = Math.imul(b0 ^ unit, 0x5bd1e995);
    a1 = Math.imul(a1 ^ unit, 0x01000193);
    b1 = Math.imul(b1 ^ unit, 0x5bd1e995);
    unit = bytes[at + 2] as number;
    a0 = Math.imul(a0 ^ unit, 0x01000193);
    b0 = Math.imul(b0 ^ unit, 0x5bd1e995);
    a1 = Math.imul(a1 ^ unit, 0x01000193);
    b1 = Math.imul(b1 ^ unit, 0x5bd1e995);
    a2 = Math.imul(a2 ^ unit, 0x01000193);
    b2 = Math.imul(b2 ^ unit, 0x5bd1e995);
    for (let j = at + 3; j < to; j++) {
      unit = bytes[j] as number;
      a0 = Math.imul(a0 ^ unit, 0x01000193);
      b0 = Math.imul(b0 ^ unit, 0x5bd1e995);
      a1 = Math.imul(a1 ^ unit, 0x01000193);
      b1 = Math.imul(b1 ^ unit, 0x5bd1e995);
      a2 = Math.imul(a2 ^ unit, 0x01000193);
      b2 = Math.imul(b2 ^ unit, 0x5bd1e995);
      a3 = Math.imul(a3 ^ unit, 0x01000193);
      b3 = Math.imul(b3 ^ unit, 0x5bd1e995);
    }
    hashes[i] = mixed(a0 >>> 0, b0 >>> 0);
    hashes[i + 1] = mixed(a1 >>> 0, b1 >>> 0);
    hashes[i + 2] = mixed(a2 >>> 0, b2 >>> 0);
    hashes[i + 3] = mixed(a3 >>> 0, b3 >>> 0);
  }
  for (; i < count; i++) {
    let a0 = a;
    let b0 = b;
    for (let j = from + i; j < to; j++) {
      const unit = bytes[j] as number;
      a0 = Math.imul(a0 ^ unit, 0x01000193);
      b0 = Math.imul(b0 ^ unit, 0x5bd1e995);
    }
    hashes[i] = mixed(a0 >>> 0, b0 >>> 0);
  }
}

function mixed(a: number, b: number): number {
  const c = Math.imul(b ^ (b >>> 15), 0x2c1b3c6d) >>> 0;
  return a * 0x100000 + (c >>> 12);
}
