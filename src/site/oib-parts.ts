/**
 * The OIB index's keys on their way from the one read of the chunk files to the sort (plan-keys.ts):
 * each key (a float) and its prefix's place in its part (a uint16) go to the part of the prefixes
 * it falls in, held in a small buffer a part and appended to that part's two scratch files whenever
 * the buffer is full. A part is then taken back alone, in the order its keys came: memory holds one
 * part's keys at a time and the buffers, not every subject's key (8 bytes a subject were 40 MB at
 * five million, 80 at ten).
 */
import { appendFileSync, closeSync, mkdirSync, openSync, readFileSync, readSync, rmSync } from "node:fs";
import { join } from "node:path";

/** Keys read back from a part's file at a time. */
const PIECE_KEYS = 1 << 16;

export class OibParts {
  readonly #dir: string;
  readonly #keys: Float64Array[];
  readonly #prefixes: Uint16Array[];
  readonly #filled: Uint32Array;
  /** Keys each part has taken, written or still buffered. */
  readonly #counts: Uint32Array;

  /** `parts` parts in the directory `dir` (made here), each buffering `buffered` keys before they go to its files. */
  constructor(dir: string, parts: number, buffered: number) {
    this.#dir = dir;
    mkdirSync(dir, { recursive: true });
    this.#keys = Array.from({ length: parts }, () => new Float64Array(buffered));
    this.#prefixes = Array.from({ length: parts }, () => new Uint16Array(buffered));
    this.#filled = new Uint32Array(parts);
    this.#counts = new Uint32Array(parts);
  }

  /** Adds `key` to part `part`, its prefix the part's `prefix`th. */
  add(part: number, key: number, prefix: number): void {
    const keys = this.#keys[part] as Float64Array;
    const at = this.#filled[part] as number;
    keys[at] = key;
    (this.#prefixes[part] as Uint16Array)[at] = prefix;
    this.#counts[part] = (this.#counts[part] as number) + 1;
    this.#filled[part] = at + 1;
    if (at + 1 === keys.length) this.#spill(part);
  }

  /**
   * Part `part`'s prefixes, in the order its keys came (read whole: 2 bytes a key), and `eachKey`,
   * which visits its keys in that order, a piece of the file at a time. Its files are removed after.
   */
  take(part: number): { readonly prefixes: Uint16Array; eachKey(visit: (key: number, k: number) => void): void } {
    this.#spill(part);
    const count = this.#counts[part] as number;
    const prefixes = new Uint16Array(count);
    if (count > 0) new Uint8Array(prefixes.buffer).set(readFileSync(this.#file(part, "prefixes")));
    const eachKey = (visit: (key: number, k: number) => void): void => {
      if (count === 0) return;
      const piece = new Float64Array(Math.min(count, PIECE_KEYS));
      const bytes = new Uint8Array(piece.buffer);
      const fd = openSync(this.#file(part, "keys"), "r");
      try {
        for (let k = 0; k < count; ) {
          const n = Math.min(piece.length, count - k);
          for (let got = 0; got < n * 8; ) {
            const read = readSync(fd, bytes, got, n * 8 - got, k * 8 + got);
            if (read === 0) throw new Error("an OIB part's file ended early");
            got += read;
          }
          for (let i = 0; i < n; i++) visit(piece[i] as number, k + i);
          k += n;
        }
      } finally {
        closeSync(fd);
      }
      rmSync(this.#file(part, "keys"), { force: true });
      rmSync(this.#file(part, "prefixes"), { force: true });
    };
    return { prefixes, eachKey };
  }

  /** Appends part `part`'s buffered keys to its files. */
  #spill(part: number): void {
    const filled = this.#filled[part] as number;
    if (filled === 0) return;
    const keys = this.#keys[part] as Float64Array;
    const prefixes = this.#prefixes[part] as Uint16Array;
    appendFileSync(this.#file(part, "keys"), new Uint8Array(keys.buffer, 0, filled * 8));
    appendFileSync(this.#file(part, "prefixes"), new Uint8Array(prefixes.buffer, 0, filled * 2));
    this.#filled[part] = 0;
  }

  #file(part: number, kind: "keys" | "prefixes"): string {
    return join(this.#dir, `${part}.${kind}`);
  }
}
