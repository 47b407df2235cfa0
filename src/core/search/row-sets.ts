/**
 * Sets of subjects by their place in the list (0 to count - 1, in id order), as the search files
 * store them and the search combines them. A stored set is either a rising list of places, each
 * the gap from the one before as a LEB128 varint (small sets), or a bitmap of `count` bits (large
 * ones), whichever is smaller: `<kind byte> <size as varint> <payload>`.
 */

/** A set of places: every subject, a sorted list, or a bitmap with its size. */
export type RowSet =
  | { readonly kind: "all"; readonly count: number }
  | { readonly kind: "list"; readonly rows: Uint32Array }
  | { readonly kind: "bits"; readonly bits: Uint8Array; readonly size: number };

const LIST = 0;
const BITS = 1;

/** How many places a set holds. */
export function sizeOf(set: RowSet): number {
  return set.kind === "all" ? set.count : set.kind === "list" ? set.rows.length : set.size;
}

/** The stored bytes of a rising list of places among `count`. */
export function encodeRows(rows: ArrayLike<number>, count: number): Uint8Array {
  const n = rows.length;
  const bitmapBytes = Math.ceil(count / 8);
  // A place's gap takes a byte at best: past count/8 places the bitmap is smaller.
  if (n > bitmapBytes) {
    const out = new Uint8Array(1 + 5 + bitmapBytes);
    out[0] = BITS;
    let at = writeVarint(out, 1, n);
    const bits = new Uint8Array(bitmapBytes);
    for (let i = 0; i < n; i++) {
      const row = rows[i] as number;
      bits[row >>> 3] = (bits[row >>> 3] as number) | (1 << (row & 7));
    }
    out.set(bits, at);
    at += bitmapBytes;
    return out.subarray(0, at);
  }
  const out = new Uint8Array(1 + 5 + 5 * n);
  out[0] = LIST;
  let at = writeVarint(out, 1, n);
  let last = 0;
  for (let i = 0; i < n; i++) {
    const row = rows[i] as number;
    at = writeVarint(out, at, row - last);
    last = row;
  }
  return out.slice(0, at);
}

function writeVarint(out: Uint8Array, at: number, value: number): number {
  let v = value;
  while (v >= 0x80) {
    out[at++] = (v & 0x7f) | 0x80;
    v = Math.floor(v / 128);
  }
  out[at++] = v;
  return at;
}

/** A stored set read back. */
export function decodeRows(bytes: Uint8Array): RowSet {
  let at = 1;
  let size = 0;
  for (let shift = 1; ; shift *= 128) {
    const b = bytes[at++] as number;
    size += (b & 0x7f) * shift;
    if (b < 0x80) break;
  }
  if (bytes[0] === BITS) return { kind: "bits", bits: bytes.subarray(at), size };
  const rows = new Uint32Array(size);
  let last = 0;
  for (let i = 0; i < size; i++) {
    let gap = 0;
    for (let shift = 1; ; shift *= 128) {
      const b = bytes[at++] as number;
      gap += (b & 0x7f) * shift;
      if (b < 0x80) break;
    }
    last += gap;
    rows[i] = last;
  }
  return { kind: "list", rows };
}

/** The places in both sets. */
export function intersect(a: RowSet, b: RowSet): RowSet {
  if (a.kind === "all") return b;
  if (b.kind === "all") return a;
  if (a.kind === "list" && b.kind === "list") {
    const [small, large] = a.rows.length <= b.rows.length ? [a.rows, b.rows] : [b.rows, a.rows];
    const out = new Uint32Array(small.length);
    let n = 0;
    let j = 0;
    for (const row of small) {
      // A gallop: a small list against a large one costs the small one's length times a log.
      if ((large[j] ?? Infinity) < row) {
        let step = 1;
        while ((large[j + step] ?? Infinity) < row) step *= 2;
        let lo = j + Math.floor(step / 2);
        let hi = Math.min(j + step, large.length);
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if ((large[mid] as number) < row) lo = mid + 1;
          else hi = mid;
        }
        j = lo;
      }
      if (large[j] === row) out[n++] = row;
    }
    return { kind: "list", rows: out.subarray(0, n) };
  }
  if (a.kind === "bits" && b.kind === "bits") {
    const length = Math.min(a.bits.length, b.bits.length);
    // 32 bits at a time (a byte at a time, 125 KB at 1M was a third of a millisecond): a stored
    // bitmap follows its kind and size, so is rarely on a 4-byte boundary, and is then copied (natively) to one.
    const bits = new Uint8Array(length);
    const whole = length >>> 2;
    const [x, y, out] = [aligned(a.bits), aligned(b.bits), new Uint32Array(bits.buffer, 0, whole)];
    let size = 0;
    for (let i = 0; i < whole; i++) {
      const word = (x[i] as number) & (y[i] as number);
      out[i] = word;
      size += popcount(word);
    }
    for (let i = whole * 4; i < length; i++) {
      const byte = (a.bits[i] as number) & (b.bits[i] as number);
      bits[i] = byte;
      size += POPCOUNT[byte] as number;
    }
    return { kind: "bits", bits, size };
  }
  const [list, bitmap] = a.kind === "list" ? [a, b as Extract<RowSet, { kind: "bits" }>] : [b as Extract<RowSet, { kind: "list" }>, a];
  // A loop, not TypedArray filter: its call a place cost milliseconds on a list of tens of thousands.
  const rows = new Uint32Array(list.rows.length);
  let n = 0;
  for (let i = 0; i < list.rows.length; i++) {
    const row = list.rows[i] as number;
    if (hasBit(bitmap.bits, row)) rows[n++] = row;
  }
  return { kind: "list", rows: rows.slice(0, n) };
}

/**
 * The union of sets and places among `count` subjects, taken as they come: a list while it is
 * small, a bitmap once it passes count / 32 places (where four bytes a place outweigh a bit a
 * subject). A bitmap is united a 32-bit word at a time and counted by popcount, so that a term
 * whose suffixes name thousands of tokens never lists their places.
 */
export class RowUnion {
  private readonly count: number;
  private list = new Uint32Array(64);
  private listed = 0;
  private words: Uint32Array | null = null;
  /** The one set added, while nothing else was (it is then the union as it is). */
  private only: RowSet | null = null;
  private empty = true;

  constructor(count: number) {
    this.count = count;
  }

  /** Adds places (any order, repeats allowed). */
  addPlaces(places: ArrayLike<number>): void {
    if (places.length === 0) return;
    this.only = null;
    this.empty = false;
    this.mark(places);
  }

  /** Adds a set. */
  add(set: RowSet): void {
    this.only = this.empty ? set : null;
    this.empty = false;
    if (set.kind === "all") this.mark(toList(set));
    else if (set.kind === "list") this.mark(set.rows);
    else {
      const words = this.words ?? this.toBitmap();
      // A stored bitmap follows its kind and size, so is rarely on a 4-byte boundary: then a copy (native) that is.
      const bits = set.bits.byteOffset % 4 === 0 ? set.bits : new Uint8Array(set.bits);
      const whole = Math.min(words.length, bits.length >>> 2);
      const theirs = new Uint32Array(bits.buffer, bits.byteOffset, whole);
      for (let i = 0; i < whole; i++) words[i] = (words[i] as number) | (theirs[i] as number);
      for (let i = whole * 4; i < Math.min(bits.length, words.length * 4); i++)
        words[i >>> 2] = (words[i >>> 2] as number) | ((bits[i] as number) << ((i & 3) * 8));
    }
  }

  /** The union. */
  result(): RowSet {
    if (this.only !== null) return this.only;
    const words = this.words;
    if (words === null) {
      const rows = this.list.subarray(0, this.listed).sort();
      let k = 0;
      for (let i = 0; i < rows.length; i++) if (i === 0 || rows[i] !== rows[i - 1]) rows[k++] = rows[i] as number;
      return { kind: "list", rows: rows.slice(0, k) };
    }
    let size = 0;
    for (let i = 0; i < words.length; i++) size += popcount(words[i] as number);
    return { kind: "bits", bits: new Uint8Array(words.buffer, 0, Math.ceil(this.count / 8)), size };
  }

  private mark(places: ArrayLike<number>): void {
    if (this.words === null && (this.listed + places.length) * 32 > this.count) this.toBitmap();
    const words = this.words;
    if (words !== null) {
      for (let i = 0; i < places.length; i++) {
        const place = places[i] as number;
        words[place >>> 5] = (words[place >>> 5] as number) | (1 << (place & 31));
      }
      return;
    }
    if (this.listed + places.length > this.list.length) {
      const grown = new Uint32Array(Math.max(this.list.length * 2, this.listed + places.length));
      grown.set(this.list.subarray(0, this.listed));
      this.list = grown;
    }
    this.list.set(places, this.listed);
    this.listed += places.length;
  }

  /** Turns the list into the bitmap. */
  private toBitmap(): Uint32Array {
    const words = new Uint32Array(Math.ceil(this.count / 32));
    this.words = words;
    const places = this.list.subarray(0, this.listed);
    for (let i = 0; i < places.length; i++) {
      const place = places[i] as number;
      words[place >>> 5] = (words[place >>> 5] as number) | (1 << (place & 31));
    }
    this.list = new Uint32Array(0);
    this.listed = 0;
    return words;
  }
}

/** A bitmap's whole 32-bit words, in place where its bytes start on a 4-byte boundary, else from a copy. */
function aligned(bits: Uint8Array): Uint32Array {
  const own = bits.byteOffset % 4 === 0 ? bits : new Uint8Array(bits);
  return new Uint32Array(own.buffer, own.byteOffset, bits.length >>> 2);
}

/** The bits set in a 32-bit word. */
export function popcount(word: number): number {
  let v = word - ((word >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** The places of a set that `keep` holds for. */
export function filterRows(set: RowSet, keep: (row: number) => boolean): RowSet {
  const rows = toList(set).filter(keep);
  return { kind: "list", rows };
}

/** A set's places, rising. */
export function toList(set: RowSet): Uint32Array {
  if (set.kind === "list") return set.rows;
  if (set.kind === "all") return Uint32Array.from({ length: set.count }, (_, i) => i);
  const rows = new Uint32Array(set.size);
  let n = 0;
  for (let i = 0; i < set.bits.length; i++) {
    let byte = set.bits[i] as number;
    while (byte !== 0) {
      const low = byte & -byte;
      rows[n++] = i * 8 + (31 - Math.clz32(low));
      byte ^= low;
    }
  }
  return rows;
}

/** Places `from` to `from + limit` of a rising set (a select: a bitmap is counted up to there by bytes). */
export function selectRows(set: RowSet, from: number, limit: number): number[] {
  const out: number[] = [];
  if (set.kind === "all") {
    for (let row = from; row < Math.min(set.count, from + limit); row++) out.push(row);
    return out;
  }
  if (set.kind === "list") return [...set.rows.subarray(from, from + limit)];
  let seen = 0;
  for (let i = 0; i < set.bits.length && out.length < limit; i++) {
    const byte = set.bits[i] as number;
    const ones = POPCOUNT[byte] as number;
    if (seen + ones <= from) {
      seen += ones;
      continue;
    }
    for (let bit = 0; bit < 8 && out.length < limit; bit++) {
      if ((byte & (1 << bit)) !== 0 && seen++ >= from) out.push(i * 8 + bit);
    }
  }
  return out;
}

function hasBit(bits: Uint8Array, row: number): boolean {
  return ((bits[row >>> 3] ?? 0) & (1 << (row & 7))) !== 0;
}

/** The bits set in each byte value (a table: a byte's count is one read). */
export const POPCOUNT = Uint8Array.from({ length: 256 }, (_, byte) => {
  let n = 0;
  for (let b = byte; b !== 0; b &= b - 1) n++;
  return n;
});
