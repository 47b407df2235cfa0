/**
 * Where the search files lie and what each holds (the build writes them, site/plan-search.ts; the
 * router reads them, find-matches.ts):
 *
 *   _subjekti/search/keys/<s>.<hash>/<b>.idx   bucket b's keys: JSON [[key, offset, length], …], sorted
 *   _subjekti/search/keys/<s>.<hash>/<b>.bin   bucket b's values, at those offsets
 *   _subjekti/search/order.<hash>/<f>.rank     for an order field f, each subject's rank among the distinct values (u32 LE by place)
 *   _subjekti/search/order.<hash>/<f>.asc      the places in the field's order, ties by place (u32 LE)
 *   _subjekti/search/order.<hash>/<f>.desc     the places with the field descending, ties by place ascending
 *   _subjekti/search/order.<hash>/date.keys    the distinct founding dates, rising, a line each (`YYYY-MM-DD\n`)
 *   _subjekti/search/order.<hash>/date.starts  where each date's places begin in date.asc (u32 LE, one more than the dates)
 *
 * A key's bucket is a hash of it (FNV-1a), about a thousand keys a bucket, so a lookup reads one
 * small index and one byte range. Keys: `g:<1 or 2 characters>` the subjects whose name or town
 * (in search form) holds them; `t:<3 characters>` the tokens that hold them, as JSON
 * [[token, bucket, offset, length], …] naming where each token's subjects lie (a token's set is
 * in its bucket's values under no key of the index: only its trigrams name it); `r:<razina>`,
 * `c:<town>`, `s:1`/`s:0` (status_subjekta), `o:1`/`o:0` (odobreno): the subjects with that value.
 * Sets of subjects are row-sets.ts's bytes.
 */
import { type ShardHashes, shardFilePath } from "../layout.ts";
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

/** The site path of a bucket's index or values file, or null when the manifest has no such shard. */
export function bucketPath(manifest: { readonly dirs: ShardHashes }, bucket: number, file: "index" | "values"): string | null {
  const key = keysShardKey(bucket);
  const hash = manifest.dirs[key];
  return hash === undefined ? null : shardFilePath(key, hash, bucketFileNames(bucket)[file]);
}

/** The site path of an order file, or null when the manifest has none. */
export function orderPath(manifest: { readonly dirs: ShardHashes }, name: string): string | null {
  const hash = manifest.dirs[ORDER_SHARD_KEY];
  return hash === undefined ? null : shardFilePath(ORDER_SHARD_KEY, hash, name);
}

/** Whether a site was built with the search files. */
export function hasSearchFiles(manifest: { readonly dirs: ShardHashes }): boolean {
  return manifest.dirs[ORDER_SHARD_KEY] !== undefined;
}
