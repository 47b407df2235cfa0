/**
 * Values by text, found by a text's place in a longer one (`text[from, to)`) and a hash the caller
 * computed once (textHash): open addressing in typed arrays, each entry's hash kept beside it. The
 * search stage's gathering (site/search/plan-search.ts) looks a name's words, its town and their
 * tokens up in two generations of caches: a Map hashed a fresh string (sliced from the name only
 * to be looked up) again at each Map, and made an entry an object; here a word is hashed once for
 * every table, and sliced only when kept.
 */

/** FNV-1a's offset basis (as a signed 32-bit number) and prime: textHash's, for a caller that hashes as it reads a text. */
export const TEXT_HASH_SEED = 0x811c9dc5 | 0;
export const TEXT_HASH_PRIME = 0x01000193;

/** FNV-1a of the code units `text[from, to)`, as a signed 32-bit number. */
export function textHash(text: string, from: number, to: number): number {
  let hash = TEXT_HASH_SEED;
  for (let i = from; i < to; i++) hash = Math.imul(hash ^ text.charCodeAt(i), TEXT_HASH_PRIME);
  return hash;
}

export class TextTable<V> {
  /** Each slot's entry + 1, or 0 when empty (at most half of them taken). */
  #slots: Int32Array;
  /** Each entry's hash; its entries are numbered 0, 1, 2, … in the order they were set. */
  #hashes: Int32Array;
  /** Each entry's text and value: the first #count (past them, what clear left: "" and undefined). */
  readonly #texts: string[] = [];
  readonly #values: V[] = [];
  #count = 0;

  /** A table with room for `expected` texts before it grows. */
  constructor(expected = 512) {
    this.#slots = new Int32Array(2 ** Math.ceil(Math.log2(2 * Math.max(16, expected))));
    this.#hashes = new Int32Array(Math.max(16, expected));
  }

  /** The entry of `text[from, to)` (whose textHash is `hash`), or -1 when it has none. */
  find(text: string, from: number, to: number, hash: number): number {
    const slots = this.#slots;
    const mask = slots.length - 1;
    for (let slot = (hash ^ (hash >>> 15)) & mask; ; slot = (slot + 1) & mask) {
      const held = slots[slot] as number;
      if (held === 0) return -1;
      if (this.#hashes[held - 1] !== hash) continue;
      const kept = this.#texts[held - 1] as string;
      if (kept.length !== to - from) continue;
      // A whole text: the engine's own comparison.
      if (from === 0 && to === text.length) {
        if (kept === text) return held - 1;
        continue;
      }
      let same = true;
      for (let i = 0; same && i < kept.length; i++) same = kept.charCodeAt(i) === text.charCodeAt(from + i);
      if (same) return held - 1;
    }
  }

  /** Every entry's text, by entry: the first `size` of them (an array as long as the most the table has held). */
  get texts(): readonly string[] {
    return this.#texts;
  }

  /** How many entries it holds. */
  get size(): number {
    return this.#count;
  }

  /**
   * Empties it, keeping its arrays for the next texts (the texts and values let go): a table made
   * afresh for each of many sets of texts was fresh memory each time, its arrays grown again.
   */
  clear(): void {
    this.#slots.fill(0);
    this.#texts.fill("", 0, this.#count);
    this.#values.fill(undefined as V, 0, this.#count);
    this.#count = 0;
  }

  /** An entry's text, as it was kept. */
  textOf(entry: number): string {
    return this.#texts[entry] as string;
  }

  /** An entry's value. */
  valueOf(entry: number): V {
    return this.#values[entry] as V;
  }

  /** Keeps `value` for `text` (whose textHash is `hash`; a text not in the table); answers its entry. */
  set(text: string, hash: number, value: V): number {
    // At most one past the ends of the kept arrays: an append, never a hole.
    const entry = this.#count++;
    this.#texts[entry] = text;
    this.#values[entry] = value;
    if (entry === this.#hashes.length) {
      const hashes = new Int32Array(2 * entry);
      hashes.set(this.#hashes);
      this.#hashes = hashes;
    }
    this.#hashes[entry] = hash;
    if (2 * (entry + 1) > this.#slots.length) this.#slots = new Int32Array(2 * this.#slots.length);
    else {
      this.#place(this.#slots, entry);
      return entry;
    }
    for (let e = 0; e <= entry; e++) this.#place(this.#slots, e);
    return entry;
  }

  #place(slots: Int32Array, entry: number): void {
    const mask = slots.length - 1;
    const hash = this.#hashes[entry] as number;
    let slot = (hash ^ (hash >>> 15)) & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = entry + 1;
  }
}
