/** Where each of `texts` starts in them joined by commas, as the array reader hands a block on (its `starts`). */
export function recordStarts(texts: readonly string[]): number[] {
  const starts: number[] = [];
  let at = 0;
  for (const text of texts) {
    starts.push(at);
    at += Buffer.byteLength(text) + 1;
  }
  return starts;
}
