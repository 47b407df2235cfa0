/**
 * Stage 3: what the site holds. From the record arena and the options it lists every shard
 * directory (its key, the content hash in its name, its files as lazy byte producers) and the
 * manifest. A shard's hash comes from the hashes of the record chunks it covers, not from its
 * pages' bytes, so an unchanged shard is recognised without rendering a page of it.
 *
 * Shards are listed in the order their records become ready (`needsChunks`), so the writer can
 * start on the first ones while the arena is still rendering the rest.
 */
import { CHUNKS_PER_SHARD, chunkFileName, type Form, pageFileName, pageShardKey, recordShardKey, SHARD_SIZE } from "../core/layout.ts";
import { LAYOUT_VERSION, type Manifest } from "../core/manifest.ts";
import type { QueryParam } from "../core/read-query.ts";
import { PAGE_TAIL } from "../core/render-page.ts";
import { VERSION } from "../core/version.ts";
import type { BuildOptions } from "./build-options.ts";
import { contentHash } from "./content-hash.ts";
import { pageHeads } from "./page-heads.ts";
import type { RecordArena } from "./record-arena.ts";

export interface FilePlan {
  readonly name: string;
  bytes(): Buffer;
}

export interface ShardPlan {
  /** The shard's path inside the data root, without its hash (`pages/api/20/0`). */
  readonly key: string;
  /** How many chunks (from the first) the arena must have rendered before `hash` and `files` work. */
  readonly needsChunks: number;
  /** The content hash in the shard directory's name. */
  hash(): string;
  readonly files: readonly FilePlan[];
}

export interface SitePlan {
  /** Subjects in the list, and the origin in the links: what every page's head holds. */
  readonly count: number;
  readonly baseUrl: string;
  /** Every shard, in the order its records become ready. */
  readonly shards: readonly ShardPlan[];
  /** The manifest; needs every chunk rendered. */
  manifest(): Manifest;
}

export type SiteOptions = Pick<BuildOptions, "limits" | "forms" | "maxLimit" | "baseUrl" | "cacheControl">;

/** The parameters besides limit and offset that a form's links carry (DRF copies them). */
function formParams(form: Form): QueryParam[] {
  return form === "plain" ? [] : [["format", form]];
}

const TAIL = Buffer.from(PAGE_TAIL);

/** Plans the whole site for the records of `arena` (in id order), plus `more` shards planned elsewhere (the docs). */
export function planSite(arena: RecordArena, options: SiteOptions, more: readonly ShardPlan[] = []): SitePlan {
  const { count, chunkSize, chunkCount } = arena;
  /** The hashes of chunks [first, last). */
  const chunkHashes = (first: number, last: number): string[] =>
    Array.from({ length: last - first }, (_, i) => arena.chunkHash(first + i));
  const shard = (key: string, needsChunks: number, hashOf: () => string, files: FilePlan[]): ShardPlan => {
    let hash: string | undefined;
    return { key, needsChunks, files, hash: () => (hash ??= hashOf()) };
  };

  const shards: ShardPlan[] = [];
  for (let first = 0; first < chunkCount; first += CHUNKS_PER_SHARD) {
    const last = Math.min(chunkCount, first + CHUNKS_PER_SHARD);
    const key = recordShardKey(first);
    const files: FilePlan[] = [];
    for (let c = first; c < last; c++) {
      files.push({ name: chunkFileName(c), bytes: () => arena.chunkBytes(c) });
    }
    shards.push(shard(key, last, () => contentHash(VERSION, "\n", key, "\n", ...chunkHashes(first, last)), files));
  }

  for (const form of options.forms) {
    const extras = formParams(form);
    for (const limit of options.limits) {
      const pageCount = Math.ceil(count / limit);
      const headOf = pageHeads(options.baseUrl, extras, limit, count);
      for (let first = 0; first < pageCount; first += SHARD_SIZE) {
        const last = Math.min(pageCount, first + SHARD_SIZE);
        const key = pageShardKey(form, limit, first);
        const files: FilePlan[] = [];
        for (let page = first; page < last; page++) {
          const from = page * limit;
          const to = Math.min(count, from + limit);
          files.push({ name: pageFileName(page), bytes: () => arena.pageBytes(Buffer.from(headOf(page)), from, to, TAIL) });
        }
        const firstChunk = Math.floor((first * limit) / chunkSize);
        const lastChunk = Math.ceil(Math.min(count, last * limit) / chunkSize);
        // Everything a page's bytes depend on: the code, where it sits, count, origin, its records.
        const hashOf = (): string =>
          contentHash(VERSION, "\n", key, "\n", `${count}\n`, options.baseUrl, "\n", ...chunkHashes(firstChunk, lastChunk));
        shards.push(shard(key, lastChunk, hashOf, files));
      }
    }
  }
  shards.push(...more);
  // The manifest lists shards as planned; the writer takes them as their records become ready.
  const listed = [...shards];
  shards.sort((a, b) => a.needsChunks - b.needsChunks);

  return {
    count,
    baseUrl: options.baseUrl,
    shards,
    manifest() {
      const dirs: Record<string, string> = {};
      for (const s of listed) dirs[s.key] = s.hash();
      const shaping = { count, limits: options.limits, forms: options.forms, maxLimit: options.maxLimit, baseUrl: options.baseUrl, cacheControl: options.cacheControl };
      return {
        layout: LAYOUT_VERSION,
        version: VERSION,
        count,
        maxLimit: options.maxLimit,
        limits: [...options.limits],
        forms: [...options.forms],
        chunkSize,
        baseUrl: options.baseUrl,
        cacheControl: options.cacheControl,
        hash: contentHash(VERSION, JSON.stringify(shaping), ...chunkHashes(0, chunkCount)),
        dirs,
      };
    },
  };
}
