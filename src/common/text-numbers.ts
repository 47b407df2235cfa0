/**
 * Texts numbered 0, 1, 2, … in the order they are first met: open addressing in typed arrays, each
 * text's hash kept beside its number. The external sort of the order files
 * (site/search/sorted-runs.ts) numbers a run's values so, a quarter of a million names at a time:
 * a Map grew its table and made an entry for each of them, and read them wherever they lay.
 */
export class TextNumbers {
  /** Each slot's number + 1, or 0 when empty (at most half of them taken). */
  #slots: Int32Array;
  /** Each number's text and hash. */
  #hashes: Int32Array;
  readonly texts: string[] = [];

  /** A table with room for `expected` texts before it grows. */
  constructor(expected = 256) {
    this.#slots = new Int32Array(2 ** Math.ceil(Math.log2(2 * Math.max(16, expected))));
    this.#hashes = new Int32Array(Math.max(16, expected));
  }

  /** The number of `text`: its own when met before, else the next. */
  numberOf(text: string): number {
    let hash = 0x811c9dc5 | 0;
    for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
    const slots = this.#slots;
    const mask = slots.length - 1;
    let slot = (hash ^ (hash >>> 15)) & mask;
    for (let held = slots[slot] as number; held !== 0; held = slots[slot] as number) {
      if (this.#hashes[held - 1] === hash && this.texts[held - 1] === text) return held - 1;
      slot = (slot + 1) & mask;
    }
    const number = this.texts.length;
    this.texts.push(text);
    if (number === this.#hashes.length) {
      const hashes = new Int32Array(2 * number);
      hashes.set(this.#hashes);
      this.#hashes = hashes;
    }
    this.#hashes[number] = hash;
    if (2 * (number + 1) > slots.length) this.#grow();
    else slots[slot] = number + 1;
    return number;
  }

  /** Twice the slots, every number placed again (the newest among them). */
  #grow(): void {
    const slots = new Int32Array(2 * this.#slots.length);
    const mask = slots.length - 1;
    for (let number = 0; number < this.texts.length; number++) {
      const hash = this.#hashes[number] as number;
      let slot = (hash ^ (hash >>> 15)) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = number + 1;
    }
    this.#slots = slots;
  }
}
