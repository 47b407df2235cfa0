/**
 * A small cache in front of a Map of texts: each text in one slot by a hash of its code units,
 * the last one met there kept. The gathering (plan-search.ts) looks up a name's words and its
 * town in Maps of tens of thousands of entries a subject at a time; a Map's lookup of a fresh
 * string hashes it, then reads its table, its entry and its key wherever they lie in the heap,
 * and those reads missed the processor's caches (the words' Map alone 0.4 s of a million subjects'
 * profile, several times that with another process beside). The commonest words and towns (a few
 * thousand make most of the lookups) are found here in three small arrays, a word by its place in
 * the name it is read from, with no string sliced for it. A text's hash is common/text-table.ts's
 * textHash, which the caller may hand in, once for both.
 */
import { textHash } from "../../common/text-table.ts";

export class SlotCache<V> {
  readonly #mask: number;
  readonly #hashes: Int32Array;
  readonly #texts: (string | undefined)[];
  readonly #values: (V | undefined)[];

  /** A cache of 2^`bits` slots. */
  constructor(bits: number) {
    this.#mask = (1 << bits) - 1;
    this.#hashes = new Int32Array(1 << bits);
    this.#texts = new Array<string | undefined>(1 << bits).fill(undefined);
    this.#values = new Array<V | undefined>(1 << bits).fill(undefined);
  }

  /** The value kept for the text `text.slice(from, to)`, if its slot holds it. */
  get(text: string, from: number, to: number, hash = textHash(text, from, to)): V | undefined {
    const slot = hash & this.#mask;
    if (this.#hashes[slot] !== hash) return undefined;
    const held = this.#texts[slot];
    if (held === undefined || held.length !== to - from) return undefined;
    for (let i = 0; i < held.length; i++) if (held.charCodeAt(i) !== text.charCodeAt(from + i)) return undefined;
    return this.#values[slot];
  }

  /** Keeps `value` for `text` in its slot (in place of whatever was there). */
  set(text: string, value: V, hash = textHash(text, 0, text.length)): void {
    const slot = hash & this.#mask;
    this.#hashes[slot] = hash;
    this.#texts[slot] = text;
    this.#values[slot] = value;
  }

  /** Forgets every text. */
  clear(): void {
    this.#texts.fill(undefined);
    this.#values.fill(undefined);
  }
}
