/** Seeded randomness for what must come out the same on every run: generated datasets, `subjekti check`'s samples. */

/** A uniform number in [0, 1) per call. */
export type Random = () => number;

/** A small, fast 32-bit generator (mulberry32): the same seed gives the same stream. */
export function mulberry32(seed: number): Random {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
