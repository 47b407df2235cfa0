/**
 * A small LRU cache of records-chunk texts for derived pages. Chunk files are content-named (their
 * shard directory carries a hash), so a cached text never goes stale: a rebuild names new files.
 */
import { readFile } from "node:fs/promises";

/** Total characters kept: a few dozen default-sized chunks of the sample data. */
const DEFAULT_BUDGET = 32 * 1024 * 1024;

export class ChunkCache {
  readonly #budget: number;
  /** Insertion order is recency order: a hit moves its entry to the end. */
  readonly #entries = new Map<string, Promise<string>>();
  readonly #sizes = new Map<string, number>();
  #used = 0;

  constructor(budget = DEFAULT_BUDGET) {
    this.#budget = budget;
  }

  /** The text of the file at `absolutePath`; rejects (and caches nothing) when it cannot be read. */
  read(absolutePath: string): Promise<string> {
    const hit = this.#entries.get(absolutePath);
    if (hit !== undefined) {
      this.#entries.delete(absolutePath);
      this.#entries.set(absolutePath, hit);
      return hit;
    }
    const reading = readFile(absolutePath, "utf8");
    this.#entries.set(absolutePath, reading);
    reading.then(
      (text) => this.#settle(absolutePath, reading, text.length),
      () => {
        if (this.#entries.get(absolutePath) === reading) this.#entries.delete(absolutePath);
      },
    );
    return reading;
  }

  #settle(path: string, reading: Promise<string>, size: number): void {
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
