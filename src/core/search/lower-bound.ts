/** Binary search over sorted texts, shared by the query side and the build's patch of the suffix files. */

/** The first index of a sorted list whose key is not below `key` (`keys.length` when every one is). */
export function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((keys[mid] as string) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
