/**
 * Texts numbered 0, 1, 2, … in the order they are first met: a TextTable (text-table.ts) whose
 * entries are the numbers. The external sort of the order files (site/search/sorted-runs.ts)
 * numbers a run's values so, a quarter of a million names at a time: a Map grew its table and made
 * an entry for each of them, and read them wherever they lay.
 */
import { TextTable, textHash } from "./text-table.ts";

export class TextNumbers {
  readonly #table: TextTable<undefined>;

  /** A table with room for `expected` texts before it grows. */
  constructor(expected = 256) {
    this.#table = new TextTable(expected);
  }

  /** The number of `text`: its own when met before, else the next. */
  numberOf(text: string): number {
    const hash = textHash(text, 0, text.length);
    const known = this.#table.find(text, 0, text.length, hash);
    return known >= 0 ? known : this.#table.set(text, hash, undefined);
  }

  /** Each number's text: the first `count` (the array may be longer, see clear). */
  get texts(): readonly string[] {
    return this.#table.texts;
  }

  /** How many texts are numbered. */
  get count(): number {
    return this.#table.size;
  }

  /** Forgets every text, keeping the table's arrays for the next ones (a run after another, sorted-runs.ts). */
  clear(): void {
    this.#table.clear();
  }
}
