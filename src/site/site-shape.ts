/**
 * How many files a build writes, how many entries its fullest directory holds and how large its
 * largest file is, for any choice of limits, forms and links: what a host's limits are checked
 * against (deploy-preflight.ts) before a byte is written. Counts come from the layout alone; sizes
 * from the rendered records' lengths (RecordLengths: prefix sums, so another limit costs one pass over its pages).
 */
import { BUCKETS_PER_SHARD, bucketCount, SUFFIX_FILES_PER_SHARD, searchFileCount, suffixFileCount } from "../core/search/search-layout.ts";
import { ORDER_FIELDS } from "../core/search/read-filters.ts";
import { buildLinks } from "../core/build-links.ts";
import { buildFileLinks, FILE_PAGES_DIR, FILE_SUBJECT_PAGES_DIR, SUBJECTS_PER_DIR } from "../core/file-links.ts";
import { oibPrefixDigits } from "../core/key-index.ts";
import { CHUNK_SIZE, CHUNKS_PER_SHARD, DATA_ROOT, type Form, SHARD_SIZE } from "../core/layout.ts";
import { PUBLISHED_FILES } from "../core/published-files.ts";
import { SITEMAP_PARTS_DIR, SITEMAP_URLS } from "./docs/sitemap.ts";
import type { QueryParam } from "../core/request/read-query.ts";
import { PAGE_TAIL, renderPageHead } from "../core/render-page.ts";

/** How pages link to each other: DRF's query URLs (a host routes them) or the page files' own paths (plain static hosts). */
export type LinkKind = "query" | "files";

/** The options that decide a site's files. */
export interface ShapeOptions {
  readonly limits: readonly number[];
  /** Forms of `format` (query links only: a site of plain files has one form). */
  readonly forms: readonly Form[];
  readonly links: LinkKind;
  /** The downloads written beside the pages (routed builds), each at two paths. */
  readonly downloads?: number;
}

export interface SiteShape {
  /** Files the site holds. */
  readonly files: number;
  /** The directory with the most entries (files and directories), inside the site. */
  readonly fullestDirectory: { readonly path: string; readonly entries: number };
  /** The largest file (a page or a records chunk), in bytes, to within the length of its links. */
  readonly largestFile: { readonly path: string; readonly bytes: number };
}

/** The bytes of the largest file of each kind, as the records make them. */
export interface FileSizes {
  /** The largest records chunk file. */
  readonly chunk: number;
  /** The largest download: the whole list (its NDJSON, which the CSV and the workbook do not exceed by much). */
  readonly whole?: number;
  /** The largest page of `limit`: its records, its head (with the longest links of `form`) and tail. */
  page(limit: number, form: Form | "files"): number;
}

/** The files, fullest directory and largest file of a site of `count` subjects built with `options`. */
export function siteShape(count: number, options: ShapeOptions, sizes: FileSizes): SiteShape {
  const pagesOf = (limit: number): number => Math.ceil(count / limit);
  let fullest = { path: "", entries: 0 };
  // Sizes are measured only when asked for (a host that limits bytes a file): files are (path, size) pairs until then.
  const sized: [string, () => number][] = [];
  const directory = (path: string, entries: number): void => {
    if (entries > fullest.entries) fullest = { path, entries };
  };
  const file = (path: string, bytes: () => number): void => {
    sized.push([path, bytes]);
  };
  const shape = (files: number): SiteShape => ({
    files,
    fullestDirectory: fullest,
    get largestFile() {
      let largest = { path: "", bytes: 0 };
      for (const [path, bytes] of sized) if (bytes() > largest.bytes) largest = { path, bytes: bytes() };
      return largest;
    },
  });

  if (options.links === "files") {
    // Page 0 exists even for an empty list: the entry page must answer. Every subject has its file,
    // a thousand ids a directory (counted as if the ids were dense: gaps add directories, not files).
    let files = 1 + count;
    directory(FILE_PAGES_DIR, options.limits.length + 1 + (count > 0 ? 1 : 0));
    directory(`${FILE_PAGES_DIR}/id`, Math.ceil(count / SUBJECTS_PER_DIR));
    directory(`${FILE_PAGES_DIR}/id/<id ÷ ${SUBJECTS_PER_DIR}>`, Math.min(count, SUBJECTS_PER_DIR));
    // Each subject's page for people beside its JSON file (file-links.ts fileSubjectPagePath).
    files += count;
    directory(FILE_SUBJECT_PAGES_DIR, Math.ceil(count / SUBJECTS_PER_DIR));
    directory(`${FILE_SUBJECT_PAGES_DIR}/<id ÷ ${SUBJECTS_PER_DIR}>`, Math.min(count, SUBJECTS_PER_DIR));
    for (const limit of options.limits) {
      const pages = Math.max(1, pagesOf(limit));
      files += pages;
      directory(`${FILE_PAGES_DIR}/${limit}`, pages);
      file(`${FILE_PAGES_DIR}/${limit}/<offset>.json`, () => sizes.page(limit, "files"));
    }
    return shape(files);
  }

  const chunks = Math.ceil(count / CHUNK_SIZE);
  // The published files and their tag list (etag.ts).
  const docs = Object.keys(PUBLISHED_FILES).length + 1;
  // The key indexes (key-index.ts): the bounds, and an OIB file for every prefix.
  const oibFiles = chunks === 0 ? 0 : 10 ** oibPrefixDigits(count);
  const keyFiles = chunks === 0 ? 0 : 1 + oibFiles;
  // The manifest, the docs, every chunk and its offsets, the key indexes, every download (stable and content-named), every page and each page shard's tag list.
  const downloads = options.downloads ?? 0;
  // The search files (core/search/search-layout.ts names and counts them); their directories below.
  const buckets = chunks === 0 ? 0 : bucketCount(count);
  const suffixFiles = chunks === 0 ? 0 : suffixFileCount(count);
  const searchFiles = searchFileCount(count);
  // The crawlers' files at the root (docs/write-crawl-files.ts): sitemap.xml, robots.txt, 404.html, and the sitemap's parts past 50,000 URLs (the pages and `/`).
  const sitemapParts = count + 1 > SITEMAP_URLS ? Math.ceil((count + 1) / SITEMAP_URLS) : 0;
  let files = 1 + docs + 2 * chunks + keyFiles + 2 * downloads + searchFiles + 3 + sitemapParts;
  if (sitemapParts > 0) directory(SITEMAP_PARTS_DIR, sitemapParts);
  if (downloads > 0) {
    directory("downloads", 2 * downloads);
    file("downloads/subjekti.<format>", () => sizes.whole ?? 0);
  }
  const pageDirs = options.forms.length > 0 && options.limits.some((l) => pagesOf(l) > 0);
  directory(DATA_ROOT, 2 + (chunks > 0 ? 4 : 0) + (pageDirs ? 1 : 0));
  if (chunks > 0) {
    directory(`${DATA_ROOT}/search`, 3);
    directory(`${DATA_ROOT}/search/suffixes`, Math.ceil(suffixFiles / SUFFIX_FILES_PER_SHARD) + 1);
    directory(`${DATA_ROOT}/search/suffixes/<shard>`, Math.min(suffixFiles, SUFFIX_FILES_PER_SHARD));
    directory(`${DATA_ROOT}/search/keys`, Math.ceil(buckets / BUCKETS_PER_SHARD));
    directory(`${DATA_ROOT}/search/keys/<shard>`, 2 * Math.min(buckets, BUCKETS_PER_SHARD));
    directory(`${DATA_ROOT}/search/order`, 3 * ORDER_FIELDS.length + 2);
  }
  directory(`${DATA_ROOT}/oib`, Math.ceil(oibFiles / SHARD_SIZE));
  directory(`${DATA_ROOT}/oib/<shard>`, Math.min(SHARD_SIZE, oibFiles));
  directory(`${DATA_ROOT}/records`, Math.ceil(chunks / CHUNKS_PER_SHARD));
  directory(`${DATA_ROOT}/records/<shard>`, 2 * Math.min(CHUNKS_PER_SHARD, chunks));
  directory(`${DATA_ROOT}/docs`, docs);
  if (chunks > 0) file(`${DATA_ROOT}/records/<shard>/<chunk>.ndjson`, () => sizes.chunk);
  // A chunk's table (chunk-keys.ts): its offsets, ids and codes' values; codes taken as 16 digits, a table of 28 KB, well below its chunk.
  if (chunks > 0) file(`${DATA_ROOT}/records/<shard>/<chunk>.offsets`, () => 4 * (CHUNK_SIZE + 1) + (8 + 16) * CHUNK_SIZE);
  if (pageDirs) directory(`${DATA_ROOT}/pages`, options.forms.length);
  for (const form of options.forms) {
    directory(`${DATA_ROOT}/pages/${form}`, options.limits.length);
    for (const limit of options.limits) {
      const pages = pagesOf(limit);
      const shards = Math.ceil(pages / SHARD_SIZE);
      files += pages + shards;
      directory(`${DATA_ROOT}/pages/${form}/${limit}`, shards);
      directory(`${DATA_ROOT}/pages/${form}/${limit}/<shard>`, Math.min(SHARD_SIZE, pages) + (pages > 0 ? 1 : 0));
      if (pages > 0) file(`${DATA_ROOT}/pages/${form}/${limit}/<shard>/<page>.json`, () => sizes.page(limit, form));
    }
  }
  return shape(files);
}

/** Each record's rendered length ("\n" included), summed in id order as the records pass: `sums[i]` is the bytes of records [0, i). */
export class RecordLengths {
  #sums = new Float64Array(1024);
  count = 0;

  /** Takes the lengths of the next records: where each one's bytes end in its block. */
  add(ends: ArrayLike<number>): void {
    if (this.count + ends.length >= this.#sums.length) {
      const grown = new Float64Array(Math.max(this.#sums.length * 2, this.count + ends.length + 1));
      grown.set(this.#sums);
      this.#sums = grown;
    }
    for (let k = 0; k < ends.length; k++, this.count++)
      this.#sums[this.count + 1] = (this.#sums[this.count] ?? 0) + (ends[k] ?? 0) - (k === 0 ? 0 : (ends[k - 1] ?? 0));
  }

  get sums(): Float64Array {
    return this.#sums.subarray(0, this.count + 1);
  }
}

/**
 * The file sizes of a build of records of `lengths`, with links on `baseUrl`. A page's bytes: its
 * head, its records with commas for their "\n"s, the tail.
 */
export function measureFiles(lengths: RecordLengths, baseUrl: string): FileSizes {
  const { count, sums } = lengths;
  /** The most bytes of `width` consecutive records, over the windows the pages (or chunks) of that width cut. */
  const widest = (width: number): number => {
    let most = 0;
    for (let from = 0; from < count; from += width) most = Math.max(most, (sums[Math.min(count, from + width)] ?? 0) - (sums[from] ?? 0));
    return most;
  };
  const extras = (form: Form): QueryParam[] => (form === "plain" ? [] : [["format", form]]);
  /** The longest head of the pages of `limit`: the offsets' digits grow with the page, so the longest is among the last two. */
  const longestHead = (limit: number, form: Form | "files"): number => {
    const last = Math.max(0, Math.ceil(count / limit) - 1);
    let most = 0;
    for (const page of [0, 1, last - 1, last]) {
      if (page < 0 || page > last) continue;
      const offset = page * limit;
      const links =
        form === "files" ? buildFileLinks(baseUrl, limit, offset, count) : buildLinks(baseUrl, extras(form), limit, BigInt(offset), count);
      most = Math.max(most, Buffer.byteLength(renderPageHead(count, links)));
    }
    return most;
  };
  const memo = new Map<string, number>();
  return {
    get whole() {
      return sums[count] ?? 0;
    },
    get chunk() {
      let bytes = memo.get("chunk");
      if (bytes === undefined) memo.set("chunk", (bytes = widest(CHUNK_SIZE)));
      return bytes;
    },
    page(limit, form) {
      const key = `${form}/${limit}`;
      let bytes = memo.get(key);
      // Each record brings its "\n" (a comma, or the tail's place for the last); the tail is 2 bytes.
      if (bytes === undefined) memo.set(key, (bytes = longestHead(limit, form) + widest(limit) + PAGE_TAIL.length));
      return bytes;
    },
  };
}
