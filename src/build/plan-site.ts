/**
 * Stage 3: what the site holds. Pure but for hashing: from the rendered records and the options
 * it lists every shard directory (its key, the content hash in its name, its files as lazy byte
 * producers) and the manifest. A shard's hash is computed from the hashes of the record chunks
 * it covers, not from its pages' bytes, so an unchanged shard is recognised without rendering it.
 */
import { buildLinks } from "../core/build-links.ts";
import {
  CHUNK_SIZE,
  chunkFileName,
  type Form,
  pageFileName,
  pageShardKey,
  recordShardKey,
  SHARD_SIZE,
} from "../core/layout.ts";
import { LAYOUT_VERSION, type Manifest } from "../core/manifest.ts";
import type { QueryParam } from "../core/read-query.ts";
import { PAGE_TAIL, renderPageHead } from "../core/render-page.ts";
import { VERSION } from "../core/version.ts";
import type { BuildOptions } from "./build-options.ts";
import { chunkBytes, contentHash, pageBytes, type RecordArena } from "./render-records.ts";

export interface FilePlan {
  readonly name: string;
  bytes(): Buffer;
}

export interface ShardPlan {
  /** The shard's path inside the data root, without its hash (`pages/api/20/0`). */
  readonly key: string;
  readonly hash: string;
  readonly files: readonly FilePlan[];
}

export interface SitePlan {
  readonly manifest: Manifest;
  readonly shards: readonly ShardPlan[];
}

/** The parameters besides limit and offset that a form's links carry (DRF copies them). */
function formParams(form: Form): QueryParam[] {
  return form === "plain" ? [] : [["format", form]];
}

const TAIL = Buffer.from(PAGE_TAIL);

/** Plans the whole site for records rendered in id order. */
export function planSite(arena: RecordArena, options: Pick<BuildOptions, "limits" | "forms" | "maxLimit" | "baseUrl" | "cacheControl">): SitePlan {
  const { count } = arena;
  const chunkCount = Math.ceil(count / CHUNK_SIZE);
  const chunkHashes = Array.from({ length: chunkCount }, (_, c) =>
    contentHash(chunkBytes(arena, c * CHUNK_SIZE, Math.min(count, (c + 1) * CHUNK_SIZE))),
  );
  /** The hashes of every chunk holding a record in [from, to). */
  const chunksCovering = (from: number, to: number): string[] =>
    chunkHashes.slice(Math.floor(from / CHUNK_SIZE), Math.ceil(to / CHUNK_SIZE));

  const shards: ShardPlan[] = [];
  for (let first = 0; first < chunkCount; first += SHARD_SIZE) {
    const last = Math.min(chunkCount, first + SHARD_SIZE);
    const key = recordShardKey(first);
    const files: FilePlan[] = [];
    for (let c = first; c < last; c++) {
      files.push({ name: chunkFileName(c), bytes: () => chunkBytes(arena, c * CHUNK_SIZE, Math.min(count, (c + 1) * CHUNK_SIZE)) });
    }
    shards.push({ key, hash: contentHash(VERSION, "\n", key, "\n", ...chunkHashes.slice(first, last)), files });
  }

  for (const form of options.forms) {
    const extras = formParams(form);
    for (const limit of options.limits) {
      const pageCount = Math.ceil(count / limit);
      for (let first = 0; first < pageCount; first += SHARD_SIZE) {
        const last = Math.min(pageCount, first + SHARD_SIZE);
        const key = pageShardKey(form, limit, first);
        const files: FilePlan[] = [];
        for (let page = first; page < last; page++) {
          const from = page * limit;
          const to = Math.min(count, from + limit);
          files.push({
            name: pageFileName(page),
            bytes: () => {
              const head = renderPageHead(count, buildLinks(options.baseUrl, extras, limit, BigInt(from), count));
              return pageBytes(Buffer.from(head), arena, from, to, TAIL);
            },
          });
        }
        // Everything a page's bytes depend on: the code, where it sits, count, origin, its records.
        const hash = contentHash(VERSION, "\n", key, "\n", `${count}\n`, options.baseUrl, "\n", ...chunksCovering(first * limit, Math.min(count, last * limit)));
        shards.push({ key, hash, files });
      }
    }
  }

  const dirs: Record<string, string> = {};
  for (const shard of shards) dirs[shard.key] = shard.hash;
  const shaping = { count, limits: options.limits, forms: options.forms, maxLimit: options.maxLimit, baseUrl: options.baseUrl, cacheControl: options.cacheControl };
  const manifest: Manifest = {
    layout: LAYOUT_VERSION,
    version: VERSION,
    count,
    maxLimit: options.maxLimit,
    limits: [...options.limits],
    forms: [...options.forms],
    chunkSize: CHUNK_SIZE,
    baseUrl: options.baseUrl,
    cacheControl: options.cacheControl,
    hash: contentHash(VERSION, JSON.stringify(shaping), ...chunkHashes),
    dirs,
  };
  return { manifest, shards };
}
