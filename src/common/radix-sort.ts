/**
 * Whole numbers below 2^32 sorted rising by an LSD radix sort: two or three passes of 11 bits
 * (by the largest), through one scratch array used again. A token's positions by name
 * (site/search/key-shards.ts), thousands to hundreds of thousands at a time, were sorted by
 * Uint32Array.prototype.sort, a comparison sort: more than a tenth of a second at a million
 * subjects, and n log n of a set that grows with the list.
 */
import { reusedUint32s } from "./reused-arrays.ts";

const DIGIT = 11;
const MASK = (1 << DIGIT) - 1;
/** Below this many values the comparison sort is cheaper than the passes' counts. */
const FEW = 256;

export class RadixSort {
  readonly #counts = new Uint32Array(1 << DIGIT);
  readonly #scratch = reusedUint32s();

  /** `values` sorted rising, in place; answers it. */
  sort(values: Uint32Array): Uint32Array {
    const n = values.length;
    if (n < FEW) return values.sort();
    let most = 0;
    for (let i = 0; i < n; i++) if ((values[i] as number) > most) most = values[i] as number;
    const bits = 32 - Math.clz32(most);
    const counts = this.#counts;
    let from = values;
    let to = this.#scratch.view(n);
    for (let shift = 0; shift < bits; shift += DIGIT) {
      counts.fill(0);
      for (let i = 0; i < n; i++) {
        const digit = ((from[i] as number) >>> shift) & MASK;
        counts[digit] = (counts[digit] as number) + 1;
      }
      // Where each digit's values begin; then each value to its place, in the order they came (stable).
      let sum = 0;
      for (let d = 0; d <= MASK; d++) {
        const c = counts[d] as number;
        counts[d] = sum;
        sum += c;
      }
      for (let i = 0; i < n; i++) {
        const value = from[i] as number;
        const digit = (value >>> shift) & MASK;
        to[counts[digit] as number] = value;
        counts[digit] = (counts[digit] as number) + 1;
      }
      [from, to] = [to, from];
    }
    if (from !== values) values.set(from);
    return values;
  }
}
