/**
 * Whole numbers by whole numbers (both 0 or more, below 2^31): open addressing in two typed arrays.
 * The search stage's gathering (site/search/plan-search.ts) numbers its three-character pieces by their code units this way,
 * once a new token for each of its pieces: a Map of numbers kept each entry as an object of the
 * heap, and its lookups (tens of thousands of keys) missed the processor's caches.
 */
export class IntTable {
  /** Each slot's key + 1, or 0 when empty. */
  #keys = new Int32Array(1 << 10);
  #values = new Int32Array(1 << 10);
  #size = 0;

  /** The value of `key`, or -1 when it has none. */
  get(key: number): number {
    const keys = this.#keys;
    const mask = keys.length - 1;
    for (let slot = slotOf(key, mask); ; slot = (slot + 1) & mask) {
      const held = keys[slot] as number;
      if (held === key + 1) return this.#values[slot] as number;
      if (held === 0) return -1;
    }
  }

  /** Gives `key` the value `value` (a key not in the table yet). */
  set(key: number, value: number): void {
    if (2 * (this.#size + 1) > this.#keys.length) this.#grow();
    this.#place(key, value);
    this.#size++;
  }

  /** Empties it. */
  clear(): void {
    this.#keys = new Int32Array(1 << 10);
    this.#values = new Int32Array(1 << 10);
    this.#size = 0;
  }

  #place(key: number, value: number): void {
    const keys = this.#keys;
    const mask = keys.length - 1;
    let slot = slotOf(key, mask);
    while (keys[slot] !== 0) slot = (slot + 1) & mask;
    keys[slot] = key + 1;
    this.#values[slot] = value;
  }

  #grow(): void {
    const keys = this.#keys;
    const values = this.#values;
    this.#keys = new Int32Array(2 * keys.length);
    this.#values = new Int32Array(2 * keys.length);
    for (let s = 0; s < keys.length; s++) if (keys[s] !== 0) this.#place((keys[s] as number) - 1, values[s] as number);
  }
}

/** A key's first slot: its bits mixed (murmur3's finalizer), so that keys alike in their low bits spread. */
function slotOf(key: number, mask: number): number {
  let h = key ^ (key >>> 16);
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) & mask;
}
