/** Where the sorted suffix entries are cut into files, by content, so that an edit moves few cuts. */

/**
 * Where the sorted suffix entries are cut into `files` files: the first entry of each file
 * (`files` + 1 numbers, the first 0, the last the entries' count). The files begin at the entries
 * whose hashes are the smallest `files` - 1 of all: a choice by content, not by position, so an
 * edit that adds, removes or changes a few entries moves no cut unless one of them is a cut's own
 * (about one chance in the entries a file holds; then that cut and the one that takes its place
 * move): the other files keep their bytes. The files' sizes vary more than equal counts would (as
 * gaps between random points do: a file holds on average entries / files, the largest of
 * thousands about ten times that). The entries of one suffix may lie in two files or more, as
 * with any cut: a term's files are those from the last whose first key is below the term's.
 */
export function suffixCuts(entries: readonly string[], files: number): number[] {
  if (files < 2) return [0, entries.length];
  const hashes = Float64Array.from(entries, hash52);
  // The smallest hashes by a numeric sort of a copy (a comparator over a million entries costs seconds).
  const threshold = hashes.slice().sort()[Math.min(entries.length, files - 1) - 1] ?? -1;
  const cuts = [0];
  for (let i = 1; i < entries.length && cuts.length < files; i++) if ((hashes[i] as number) <= threshold) cuts.push(i);
  // Fewer entries than files: the last files are empty.
  while (cuts.length < files + 1) cuts.push(entries.length);
  return cuts;
}

/** A suffix entry's key with its closing quote (`["<suffix>"`): its JSON string up to the first unescaped quote. */
export function keyOfEntry(entry: string): string {
  let at = 2;
  while (entry.charCodeAt(at) !== 0x22) at += entry.charCodeAt(at) === 0x5c ? 2 : 1;
  return entry.slice(0, at + 1);
}

/** A 52-bit hash of a text (two FNV-1a passes of other bases, mixed): equal hashes of two entries are rare enough to ignore. */
function hash52(text: string): number {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    a = Math.imul(a ^ unit, 0x01000193) >>> 0;
    b = Math.imul(b ^ unit, 0x5bd1e995) >>> 0;
  }
  b = Math.imul(b ^ (b >>> 15), 0x2c1b3c6d) >>> 0;
  return a * 0x100000 + (b >>> 12);
}
