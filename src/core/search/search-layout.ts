/**
 * Where the search files lie and what each holds (the build writes them, site/search/plan-search.ts; the
 * router reads them, find-matches.ts):
 *
 *   _subjekti/search/keys/<s>.<hash>/<b>.idx   bucket b's keys: JSON [[key, offset, length], …], sorted
 *   _subjekti/search/keys/<s>.<hash>/<b>.bin   bucket b's values, at those offsets
 *   _subjekti/search/order.<hash>/<f>.rank     for an order field f, each subject's rank among the distinct values (u32 LE by place)
 *   _subjekti/search/order.<hash>/<f>.asc      the places in the field's order, ties by place (u32 LE)
 *   _subjekti/search/order.<hash>/<f>.desc     the places with the field descending, ties by place ascending
 *   _subjekti/search/order.<hash>/date.keys    the distinct founding dates, rising, a line each (`YYYY-MM-DD\n`)
 *   _subjekti/search/order.<hash>/date.starts  where each date's places begin in date.asc (u32 LE, one more than the dates)
 *   _subjekti/search/order.<hash>/<f>.groups   for the name and the town, where each group of equal values begins in <f>.asc:
 *       a bitmap over its positions (bit p & 7 of byte p >>> 3 set where position p starts a group), count/8 bytes
 *
 *   _subjekti/search/suffixes/<s>.<hash>/<n>.json      sorted suffixes of the tokens, each with its token's subjects: JSON
 *       [["<suffix>", [places…], [their positions in name.asc…]] (a rare token), or
 *        ["<suffix>", bucket, offset, length, 0 | 1, offset, length], …] (where its set lies, then its
 *        positions in name.asc: 0 as u32s in the set's order, 1 as a set of positions)
 *   _subjekti/search/suffixes/firsts.<hash>/firsts.json  the first key of each group of FIRSTS_GROUP suffix files
 *   _subjekti/search/suffixes/firsts.<hash>/<g>.json     the first key of each suffix file of group g
 *
 * A key's bucket is a hash of it (FNV-1a), about a thousand keys a bucket, so a lookup reads one
 * small index and one byte range. Keys: `g:<1 or 2 characters>` the subjects whose name or town
 * (in search form) holds them, `g:<3 characters>` too for a piece of more than TRIPLE_ROWS subjects;
 * `r:<razina>`, `c:<town>`, `s:1`/`s:0` (status_subjekta), `o:1`/`o:0`
 * (odobreno): the subjects with that value. A term of three characters with no `g:` key, or of more, is found through
 * the suffixes that start with it: one or two suffix files, named by their first keys.
 * Sets of subjects are row-sets.ts's bytes. A set (or its positions) that a suffix entry names may
 * be followed by zeros up to the length the entry gives (room the build leaves so that an edit
 * keeps the sets after it in place): a set is read by its count, positions by the set's.
 */
import type { OrderField } from "./read-filters.ts";

/** Buckets in one keys shard (two files each). */
export const BUCKETS_PER_SHARD = 500;
/** The order files' shard. */
export const ORDER_SHARD_KEY = "search/order";

/** The buckets of a list of `count` subjects: about a thousand keys each (a national register's vocabulary grows slower than its list). */
export function bucketCount(count: number): number {
  return Math.max(16, Math.ceil(count / 1000));
}

/** The bucket of a key: FNV-1a over its UTF-16 code units. */
export function bucketOf(key: string, buckets: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193) >>> 0;
  return hash % buckets;
}

/** The shard key of bucket `bucket`. */
export function keysShardKey(bucket: number): string {
  return `search/keys/${Math.floor(bucket / BUCKETS_PER_SHARD)}`;
}

/** A bucket's two file names. */
export function bucketFileNames(bucket: number): { readonly index: string; readonly values: string } {
  return { index: `${bucket}.idx`, values: `${bucket}.bin` };
}

/** The short name of an order field in file names. */
export const ORDER_FILE: Readonly<Record<OrderField, string>> = {
  jedinstvena_oznaka: "code",
  naziv_subjekta: "name",
  institucija_grad: "town",
  datum_postanka: "date",
};

/**
 * The fields whose groups of equal values are listed as a bitmap over their ascending order
 * (`<f>.groups`): a walk of a multi-field order tells the groups it meets by it, not by the ranks
 * (a town of thousands met deep in the list read the rank file whole, 4 MB at 1M). The dates list
 * theirs in date.starts, and a code is a group of its own.
 */
export const GROUP_BITS_FIELDS: readonly OrderField[] = ["naziv_subjekta", "institucija_grad"];

/**
 * A three-character piece of more subjects than this has a set under `g:<piece>`; a rarer one has
 * none, and a term of it is found through the suffixes. A term whose tokens' sets are many is a
 * common piece (each stored set holds more than INLINE_ROWS subjects, so a piece of this many at
 * most names at most 56 of them): its one set replaces hundreds of reads, while the rare pieces,
 * most of the distinct ones, add nothing to the files.
 */
export const TRIPLE_ROWS = 512;

/** Whether a text is of three characters (a surrogate pair one), as the build counts a piece's. */
export function ofThreeCharacters(text: string): boolean {
  if (text.length < 3 || text.length > 6) return false;
  let chars = 0;
  for (let i = 0; i < text.length; i++) if ((text.charCodeAt(i) & 0xfc00) !== 0xdc00) chars++;
  return chars === 3;
}
/** A token of this many subjects or fewer has its places in its suffixes' entries, not a set of its own. */
export const INLINE_ROWS = 8;
/** A token of this many subjects or fewer has its places' positions by name beside its set as u32s; a larger one as a set. */
export const RANKED_ROWS = 4096;
/**
 * The suffix files of a list of `count` subjects: one for every 190 subjects (about 16 KB each for
 * the vocabulary of generated data at a million subjects), so that the deploy preflight counts
 * them before the build.
 */
export function suffixFileCount(count: number): number {
  return Math.max(1, Math.ceil(count / 190));
}
/** Suffix files in one shard. */
export const SUFFIX_FILES_PER_SHARD = 1000;
/** The shard of the suffix files' first keys. */
export const SUFFIX_FIRSTS_SHARD_KEY = "search/suffixes/firsts";
export const SUFFIX_FIRSTS_FILE = "firsts.json";
/** Suffix files whose first keys one file of first keys holds (so a term reads two small files to name its suffix files). */
export const FIRSTS_GROUP = 64;

/**
 * A suffix's key: the start of its entry's JSON (`["<suffix>`), so that the entries sort as plain
 * strings and the suffixes that start with a term are the entries that start with the term's key.
 */
export function suffixKey(suffix: string): string {
  return `[${JSON.stringify(suffix).slice(0, -1)}`;
}

/** The shard key of suffix file `file`. */
export function suffixShardKey(file: number): string {
  return `search/suffixes/${Math.floor(file / SUFFIX_FILES_PER_SHARD)}`;
}

export function suffixFileName(file: number): string {
  return `${file}.json`;
}

/**
 * Every search file the build writes for a list of `count` subjects (none for an empty list): two
 * a bucket, three order files a field, the dates' two and the groups' bitmaps, the suffix files, the file of the groups'
 * first keys and one a group. The deploy preflight counts them before the build (site-shape.ts).
 */
export function searchFileCount(count: number): number {
  if (count === 0) return 0;
  const suffixFiles = suffixFileCount(count);
  return (
    2 * bucketCount(count) +
    3 * Object.keys(ORDER_FILE).length +
    2 +
    GROUP_BITS_FIELDS.length +
    suffixFiles +
    1 +
    Math.ceil(suffixFiles / FIRSTS_GROUP)
  );
}
