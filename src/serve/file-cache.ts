/**
 * A small LRU cache of site files, bounded by size. Every page and chunk file is content-named
 * (its shard directory carries a hash), so a cached value never goes stale: a rebuild names new
 * files. Reading whole and caching makes a pre-rendered page faster to serve than streaming it
 * (BENCHMARKS.md: streaming from a FileHandle ran at ~0.5x raw serve-handler).
 */
import { readFile } from "node:fs/promises";

/** How a file is read into a value, and how big that value is. */
export interface FileDecoder<T> {
  read(absolutePath: string): Promise<T>;
  size(value: T): number;
}

/** Page files as bytes, sent as they are. */
export const BYTES: FileDecoder<Buffer> = { read: (path) => readFile(path), size: (bytes) => bytes.length };
/** Index files (the bounds, the OIB index) as text, searched where they lie. */
export const TEXT: FileDecoder<string> = { read: (path) => readFile(path, "utf8"), size: (text) => text.length };

/** Total size kept per cache: a few dozen default-sized chunks, thousands of pages. */
const DEFAULT_BUDGET = 32 * 1024 * 1024;

export class FileCache<T> {
  readonly #decoder: FileDecoder<T>;
  readonly #budget: number;
  /** Insertion order is recency order: a hit moves its entry to the end. */
  readonly #entries = new Map<string, Promise<T>>();
  readonly #sizes = new Map<string, number>();
  #used = 0;

  constructor(decoder: FileDecoder<T>, budget = DEFAULT_BUDGET) {
    this.#decoder = decoder;
    this.#budget = budget;
  }

  /** The file at `absolutePath`; rejects (and caches nothing) when it cannot be read. */
  read(absolutePath: string): Promise<T> {
    const hit = this.#entries.get(absolutePath);
    if (hit !== undefined) {
      this.#entries.delete(absolutePath);
      this.#entries.set(absolutePath, hit);
      return hit;
    }
    const reading = this.#decoder.read(absolutePath);
    this.#entries.set(absolutePath, reading);
    reading.then(
      (value) => this.#settle(absolutePath, reading, this.#decoder.size(value)),
      () => {
        if (this.#entries.get(absolutePath) === reading) this.#entries.delete(absolutePath);
      },
    );
    return reading;
  }

  #settle(path: string, reading: Promise<T>, size: number): void {
    if (this.#entries.get(path) !== reading) return;
    this.#sizes.set(path, size);
    this.#used += size;
    for (const [oldest] of this.#entries) {
      if (this.#used <= this.#budget || oldest === path) break;
      const oldSize = this.#sizes.get(oldest);
      if (oldSize === undefined) continue; // still being read
      this.#entries.delete(oldest);
      this.#sizes.delete(oldest);
      this.#used -= oldSize;
    }
  }
}
