/**
 * Stage 6 of a build, hashes -> plan: what the site holds. From the records chunks' hashes and
 * the options it lists every shard directory (its key, the content hash in its name, its files
 * made on demand) and the manifest. A shard's hash comes from the hashes of the record chunks it covers, not from its
 * files' bytes, so an unchanged shard is recognised without rendering a page of it; and a shard's
 * files are named and rendered only while it is written, never held as one object a file. The
 * shards of a stage still running (the search's, in its thread) are not waited for: the plan hands
 * them on as its rest, with the manifest, which names their hashes, made once they are in.
 */
import { CHUNKS_PER_SHARD, type Form, pageFileName, pageShardKey, SHARD_SIZE } from "../core/layout.ts";
import { bytesEtag, etagsText } from "../core/etag.ts";
import { ETAGS_FILE } from "../core/layout.ts";
import { LAYOUT_VERSION, type Manifest } from "../core/manifest.ts";
import type { QueryParam } from "../core/request/read-query.ts";
import { PAGE_TAIL } from "../core/render-page.ts";
import { VERSION } from "../core/version.ts";
import { contentHash } from "../common/content-hash.ts";
import type { ChunkHashes, PlanRest, Publication, ShardFile, ShardPlan, SiteOptions, SitePlan } from "./hand-offs.ts";
import { pageHeads } from "./page-heads.ts";
import { recordShard } from "./record-shard.ts";
import type { PageBytes } from "./read-chunks.ts";

/** The parameters besides limit and offset that a form's links carry (DRF copies them). */
function formParams(form: Form): QueryParam[] {
  return form === "plain" ? [] : [["format", form]];
}

const TAIL = Buffer.from(PAGE_TAIL);

/** Shards planned by other stages: those at hand (`now`), and those of a stage that may still run (`later`). */
export interface MoreShards {
  /** The docs, the key lookups' files. */
  readonly now?: readonly ShardPlan[];
  /** The search's: asked for once every other shard is written, its stage running meanwhile. */
  readonly later?: () => Promise<readonly ShardPlan[]>;
}

/**
 * Plans the whole site for records whose chunks hash to `chunks` (in id order), their pages
 * rendered by `pageBytes`, plus the shards planned elsewhere (`more`); the manifest names the
 * `downloads` written beside it and the day the data last changed (`published`).
 */
export function planSite(
  chunks: ChunkHashes,
  options: SiteOptions,
  pageBytes: PageBytes,
  more: MoreShards = {},
  { downloads, published }: Partial<Publication> = {},
): SitePlan {
  const { count, chunkSize, hashes } = chunks;
  const chunkCount = hashes.length;
  const records: Omit<ShardPlan, "files">[] = [];
  for (let first = 0; first < chunkCount; first += CHUNKS_PER_SHARD) {
    records.push(recordShard(first, hashes.slice(first, first + CHUNKS_PER_SHARD)));
  }

  const pages: (ShardPlan & { readonly from: number })[] = [];
  const giveBack = pageBytes.giveBack?.bind(pageBytes);
  for (const form of options.forms) {
    const extras = formParams(form);
    for (const limit of options.limits) {
      const pageCount = Math.ceil(count / limit);
      const headOf = pageHeads(options.baseUrl, extras, limit, count);
      for (let first = 0; first < pageCount; first += SHARD_SIZE) {
        const last = Math.min(pageCount, first + SHARD_SIZE);
        const key = pageShardKey(form, limit, first);
        const firstChunk = Math.floor((first * limit) / chunkSize);
        const lastChunk = Math.ceil(Math.min(count, last * limit) / chunkSize);
        // Everything a page's bytes depend on: the code, where it sits, count, origin, its records.
        const hash = contentHash(VERSION, "\n", key, "\n", `${count}\n`, options.baseUrl, "\n", ...hashes.slice(firstChunk, lastChunk));
        const files = function* (): Generator<ShardFile> {
          const etags: string[] = [];
          for (let page = first; page < last; page++) {
            const from = page * limit;
            const bytes = pageBytes(Buffer.from(headOf(page)), from, Math.min(count, from + limit), TAIL);
            etags.push(bytesEtag(bytes));
            yield giveBack === undefined
              ? { name: pageFileName(page), bytes }
              : { name: pageFileName(page), bytes, done: () => giveBack(bytes) };
          }
          // Last, once every page's bytes are known: the hosts read a page's ETag here, not from the page.
          yield { name: ETAGS_FILE, bytes: Buffer.from(etagsText(etags)) };
        };
        const size = last - first;
        pages.push({
          key,
          hash,
          size: size + 1,
          name: (i) => (i === size ? ETAGS_FILE : pageFileName(first + i)),
          files,
          from: first * limit,
        });
      }
    }
  }

  const now = more.now ?? [];
  // The manifest names the shards in the order planned (pages by form and limit), the later ones last.
  const known: Record<string, string> = {};
  for (const s of [...records, ...pages, ...now]) known[s.key] = s.hash;
  const shaping = {
    count,
    limits: options.limits,
    forms: options.forms,
    maxLimit: options.maxLimit,
    baseUrl: options.baseUrl,
    cacheControl: options.cacheControl,
  };
  const manifestOf = (dirs: Record<string, string>): Manifest => ({
    layout: LAYOUT_VERSION,
    version: VERSION,
    count,
    maxLimit: options.maxLimit,
    limits: [...options.limits],
    forms: [...options.forms],
    chunkSize,
    baseUrl: options.baseUrl,
    cacheControl: options.cacheControl,
    hash: contentHash(VERSION, JSON.stringify(shaping), ...hashes),
    dirs,
    ...(downloads === undefined || downloads.length === 0 ? {} : { downloads }),
    ...(published === undefined ? {} : { published: published.toISOString().slice(0, 10) }),
  });
  let rest: Promise<PlanRest> | undefined;
  const later = more.later ?? (() => Promise.resolve([]));
  const restOf = async (): Promise<PlanRest> => {
    const shards = await later();
    const dirs = { ...known };
    for (const s of shards) dirs[s.key] = s.hash;
    return { shards, manifest: manifestOf(dirs) };
  };
  // Written in the order of their first record (the manifest keeps the planned order), so that the
  // chunks a page shard reads are still at hand for the next.
  pages.sort((a, b) => a.from - b.from);
  return { count, baseUrl: options.baseUrl, records, shards: [...pages, ...now], rest: () => (rest ??= restOf()) };
}
