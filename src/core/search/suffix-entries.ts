/**
 * The entries of one suffix file (search-layout.ts) that start with a term, read straight from the
 * file's text: a common three-letter term names the entries of a hundred files, and `JSON.parse`
 * of them all (arrays of every entry's places and positions, most of them discarded) was most of
 * its CPU. The scan makes nothing of an entry but the numbers asked for, and skips the positions
 * of rare tokens unless the search is ordered by name.
 */

/** What a scan hands on: each matching entry, as it comes. */
export interface SuffixVisitor {
  /** A rare token: its places, and with `positions` asked, their positions in name.asc (views of buffers reused for the next entry). */
  inline(places: Uint32Array, positions: Uint32Array | null): void;
  /** A token with a set of its own: where the set lies, then its positions by name (`kind` 0 or 1, or -1 where the entry names none). */
  stored(bucket: number, offset: number, length: number, kind: number, at: number, size: number): void;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN = 0x5b;
const CLOSE = 0x5d;
const COMMA = 0x2c;
const ZERO = 0x30;
const NINE = 0x39;

/**
 * Visits the entries of `json` (a suffix file's text) whose suffix starts with the term whose key
 * (suffixKey) is `key`; with `positions`, a rare token's positions by name too. A file that is not
 * as the build writes it is a SyntaxError, as `JSON.parse` would have thrown.
 */
export function scanSuffixes(json: string, key: string, positions: boolean, visit: SuffixVisitor): void {
  const scan = new Scan(json);
  scan.expect(OPEN);
  if (scan.peek() === CLOSE) return;
  for (;;) {
    const start = scan.at;
    scan.expect(OPEN);
    // The key of an entry is `["<suffix>`: the term's key at its start is a suffix that starts with the term.
    const matches = json.startsWith(key, start);
    scan.skipString();
    scan.expect(COMMA);
    if (scan.peek() === OPEN) {
      const places = scan.numbers("places");
      scan.expect(COMMA);
      if (matches && positions) visit.inline(places, scan.numbers("positions"));
      else {
        scan.skipList();
        if (matches) visit.inline(places, null);
      }
    } else {
      const stored = scan.stored;
      const n = scan.values(stored);
      if (n !== 3 && n !== 6) scan.fail("three or six numbers");
      if (matches) {
        const [bucket, offset, length] = [stored[0] as number, stored[1] as number, stored[2] as number];
        if (n === 3) visit.stored(bucket, offset, length, -1, 0, 0);
        else visit.stored(bucket, offset, length, stored[3] as number, stored[4] as number, stored[5] as number);
      }
    }
    scan.expect(CLOSE);
    if (scan.peek() === CLOSE) break;
    scan.expect(COMMA);
  }
  scan.expect(CLOSE);
  if (scan.at !== json.length) scan.fail("the end of the file");
}

/** A cursor over a suffix file's text, with the buffers its entries' numbers are read into. */
class Scan {
  at = 0;
  private readonly json: string;
  /** A rare token's places and positions (INLINE_ROWS at most; grown if a file holds more), and a stored set's six numbers. */
  private readonly lists = { places: new Uint32Array(16), positions: new Uint32Array(16) };
  readonly stored = new Float64Array(6);

  constructor(json: string) {
    this.json = json;
  }

  peek(): number {
    return this.json.charCodeAt(this.at);
  }

  expect(code: number): void {
    if (this.json.charCodeAt(this.at) !== code) this.fail(`"${String.fromCharCode(code)}"`);
    this.at++;
  }

  /** Past a JSON string (the cursor on its opening quote). */
  skipString(): void {
    this.expect(QUOTE);
    const json = this.json;
    for (let at = this.at; at < json.length; at++) {
      const code = json.charCodeAt(at);
      if (code === BACKSLASH) at++;
      else if (code === QUOTE) {
        this.at = at + 1;
        return;
      }
    }
    this.fail("the end of a string");
  }

  /** Past a list of numbers. */
  skipList(): void {
    this.expect(OPEN);
    const close = this.json.indexOf("]", this.at);
    if (close < 0) this.fail('"]"');
    this.at = close + 1;
  }

  /** A list of numbers, `[n,…]`, into one of the buffers (grown as needed): a view of it. */
  numbers(which: "places" | "positions"): Uint32Array {
    this.expect(OPEN);
    let buffer = this.lists[which];
    let n = 0;
    if (this.peek() !== CLOSE)
      for (;;) {
        if (n === buffer.length) {
          const grown = new Uint32Array(buffer.length * 2);
          grown.set(buffer);
          buffer = grown;
          this.lists[which] = grown;
        }
        buffer[n++] = this.number();
        if (this.peek() !== COMMA) break;
        this.at++;
      }
    this.expect(CLOSE);
    return buffer.subarray(0, n);
  }

  /** Numbers separated by commas up to (not past) the entry's `]`, into `out`: how many. */
  values(out: Float64Array): number {
    let n = 0;
    for (;;) {
      const value = this.number();
      if (n < out.length) out[n] = value;
      n++;
      if (this.peek() !== COMMA) return n;
      this.at++;
    }
  }

  /** A non-negative integer. */
  number(): number {
    const json = this.json;
    let at = this.at;
    let value = 0;
    for (let code = json.charCodeAt(at); code >= ZERO && code <= NINE; code = json.charCodeAt(++at)) value = value * 10 + code - ZERO;
    if (at === this.at) this.fail("a number");
    this.at = at;
    return value;
  }

  fail(what: string): never {
    throw new SyntaxError(`a suffix file: expected ${what} at ${this.at}`);
  }
}
