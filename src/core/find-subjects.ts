/**
 * Subjects found by a key: one subject (`/api/subjekti/<pk>/`) or a page of the list filtered by
 * `oib` and `jedinstvena_oznaka`. The router decides what to look for (a `Find`); this reads the
 * site's small indexes (key-index.ts) and the records chunks through the host, two small reads
 * for one subject by id or code and three by OIB, and finishes the answer as DRF would: the subject's object, or a page envelope
 * of the matches, the filters applied before `limit` and `offset`.
 */
import { collectionHeaders } from "./answer-headers.ts";
import { keyLine } from "./chunk-keys.ts";
import { buildLinks } from "./build-links.ts";
import { pageTags } from "./cache-tags.ts";
import { chunkOfCode, chunkOfId, findRecord, OIB_PATTERN, oibPlaces, recordCode, recordOib } from "./key-index.ts";
import { boundsPath, chunkPath, oibIndexPath, offsetsPath } from "./layout.ts";
import type { Manifest } from "./manifest.ts";
import { assemblePageBytes } from "./page-bytes.ts";
import type { QueryParam } from "./request/read-query.ts";
import { type ByteReader, OFFSET_BYTES, offsetAt, recordRun } from "./record-offsets.ts";
import { indentJsonBytes, renderPageHead, toJson } from "./render-page.ts";
import { findMatches } from "./search/find-matches.ts";
import { isSearch, matchesRecord, recordFields, recordOrder, termTexts } from "./search/match-record.ts";
import type { Filters } from "./search/read-filters.ts";

export type { Filters };

export interface Find {
  /** One subject by its id (DRF's `get_object`, the filters applied too), or a page of the filtered list. */
  readonly shape:
    | { readonly kind: "subject"; readonly id: bigint }
    | {
        readonly kind: "page";
        readonly baseUrl: string;
        /** The links' path: the collection's, or with its format suffix. */
        readonly path: string;
        readonly extras: readonly QueryParam[];
        readonly limit: number;
        readonly offset: bigint;
      };
  readonly filters: Filters;
  readonly indent: number;
  readonly cacheControl: string;
}

/** Reads a site file through the host; null when it is missing. The records chunks are read as bytes, cut, never decoded whole. */
export interface ReadFile extends ByteReader {
  /** Its text (the indexes: ASCII). */
  text(path: string): Promise<string | null>;
}

/** A finished answer (a 200's ETag is its bytes', added by the handler); null when a file the manifest names is missing (the host refreshes and retries). */
export type Found = {
  readonly status: number;
  readonly headers: ReturnType<typeof collectionHeaders>;
  readonly body: string | Uint8Array;
} | null;

/** DRF's Http404 after content negotiation: JSONRenderer indents it as it indents a page (`Accept: …; indent=n`). */
const notFoundBody = (indent: number): string => toJson({ detail: "Not found." }, indent);
const UTF8 = new TextDecoder();
/** A record found (its bytes, without the line's "\n"), with its chunk (which names its cache tag). */
interface Located {
  readonly chunk: number;
  readonly record: Uint8Array;
}

/** Finds what `find` asks for in the site of `manifest`. */
export async function findSubjects(find: Find, manifest: Manifest, read: ReadFile): Promise<Found> {
  const { shape, filters } = find;
  const texts = termTexts(filters);
  const matches = (found: readonly Located[]): Located[] =>
    !isSearch(filters)
      ? found.filter(({ record }) => {
          if (filters.oib === undefined && filters.code === undefined) return true;
          const text = UTF8.decode(record);
          return (
            (filters.oib === undefined || recordOib(text) === filters.oib) &&
            (filters.code === undefined || recordCode(text) === filters.code)
          );
        })
      : found
          .map((located) => ({ located, fields: recordFields(located.record) }))
          .filter(({ fields }) => matchesRecord(fields, filters, texts))
          .sort((a, b) => recordOrder(filters)(a.fields, b.fields))
          .map(({ located }) => located);
  const tagsOf = (chunk: number): string[] => pageTags(manifest.chunkSize, chunk * manifest.chunkSize, chunk * manifest.chunkSize + 1);
  if (shape.kind === "subject") {
    const found = await inChunkOf((bounds) => chunkOfId(bounds, shape.id), { id: shape.id }, manifest, read);
    if (found === null) return null;
    const [subject] = matches(found);
    if (subject === undefined) return { status: 404, headers: collectionHeaders(find.cacheControl), body: notFoundBody(find.indent) };
    return {
      status: 200,
      headers: collectionHeaders(find.cacheControl, undefined, tagsOf(subject.chunk)),
      // A copy: the record views its chunk's bytes, which a host may keep for the next request, and a body may be handed on.
      body: find.indent === 0 ? subject.record.slice() : indentJsonBytes(subject.record, find.indent),
    };
  }
  let count: number;
  let page: Located[];
  const start = (total: number): number => (shape.offset >= BigInt(total) ? total : Number(shape.offset));
  if (isSearch(filters) && filters.oib === undefined && filters.code === undefined) {
    // A search, another filter or another order: the search files name the matches and the page's places.
    const found = await findMatches(filters, start(manifest.count), shape.limit, manifest, read);
    if (found === null) return null;
    count = found.count;
    const located = await atPlaces(found.places, manifest, read);
    if (located === null) return null;
    page = located;
  } else if (filters.code !== undefined) {
    // A code names one subject at most: the OIB, if given too, is checked on it.
    const found = await byCode(filters.code, manifest, read);
    if (found === null) return null;
    const all = matches(found);
    count = all.length;
    page = all.slice(start(count), start(count) + shape.limit);
  } else {
    // The OIB index alone gives the count and each match's place: only the page's records are read.
    const places = await oibIndex(filters.oib ?? "", manifest, read);
    if (places === null) return null;
    if (isSearch(filters)) {
      // An OIB names a few subjects: the other filters and the order are applied to their records.
      const found = await atPlaces(places, manifest, read);
      if (found === null) return null;
      const all = matches(found);
      count = all.length;
      page = all.slice(start(count), start(count) + shape.limit);
      return pageAnswer(find, shape, count, page, tagsOf);
    }
    count = places.length;
    const found = await atPlaces(places.slice(start(count), start(count) + shape.limit), manifest, read);
    if (found === null) return null;
    page = found;
  }
  return pageAnswer(find, shape, count, page, tagsOf);
}

/** A page of found records as DRF renders it: the envelope (count and links) and the records. */
function pageAnswer(
  find: Find,
  shape: Extract<Find["shape"], { kind: "page" }>,
  count: number,
  page: readonly Located[],
  tagsOf: (chunk: number) => string[],
): Found {
  const head = renderPageHead(count, buildLinks(shape.baseUrl, shape.extras, shape.limit, shape.offset, count, shape.path));
  const tags = [...new Set(page.flatMap(({ chunk }) => tagsOf(chunk)))];
  const body = assemblePageBytes(
    head,
    page.map(({ record }) => ({ bytes: record, ends: [record.length] })),
    find.indent,
  );
  return { status: 200, headers: collectionHeaders(find.cacheControl, undefined, tags.length === 0 ? undefined : tags), body };
}

/** The subject whose code is `code` exactly (digits; any other text names none). */
async function byCode(code: string, manifest: Manifest, read: ReadFile): Promise<Located[] | null> {
  if (!/^[0-9]+$/.test(code)) return [];
  return inChunkOf((bounds) => chunkOfCode(bounds, code), { code }, manifest, read);
}

/**
 * The subject of a key in the chunk the bounds name. Where the host reads ranges: the chunk's
 * table (offsets and keys, ~18 KB against the chunk's ~300 KB) and the record's bytes; elsewhere
 * the chunk, read once, is searched. The bounds are one file for the whole site, which a host
 * keeps once it has read it.
 */
async function inChunkOf(
  chunkOf: (bounds: string) => number,
  key: { readonly id: bigint } | { readonly code: string },
  manifest: Manifest,
  read: ReadFile,
): Promise<Located[] | null> {
  if (manifest.count === 0) return [];
  const indexPath = boundsPath(manifest);
  const bounds = indexPath === null ? null : await read.text(indexPath);
  if (bounds === null) return null;
  const chunk = chunkOf(bounds);
  if (chunk < 0) return [];
  const path = chunkPath(manifest, chunk);
  if (path === null) return null;
  if (read.range !== undefined) {
    // The chunk's table (its offsets and keys) names the record's line and bytes: the record is read alone.
    const tablePath = offsetsPath(manifest, chunk);
    const table = tablePath === null ? null : await read.bytes(tablePath);
    if (table === null) return null;
    const records = Math.min(manifest.chunkSize, manifest.count - chunk * manifest.chunkSize);
    const line = keyLine(table, records, key);
    if (line === null) return null;
    if (line < 0) return [];
    const start = offsetAt(table, line);
    // The last line's "\n" may lie one byte past the file: the range reads up to its end.
    const bytes = await read.range(path, start, offsetAt(table, line + 1));
    if (bytes === null) return null;
    const run = recordRun(bytes, table.subarray(line * OFFSET_BYTES), start, 1);
    const record = run.bytes.subarray(0, run.ends[0]);
    // The table holds a code's value: "0042" and "042" share it, and only the code as written names the subject.
    return "code" in key && recordCode(UTF8.decode(record)) !== key.code ? [] : [{ chunk, record }];
  }
  const bytes = await read.bytes(path);
  if (bytes === null) return null;
  const record = findRecord(bytes, key);
  return record === null ? [] : [{ chunk, record }];
}

/** The places in the list of the subjects whose OIB is `oib`, from its index file. */
async function oibIndex(oib: string, manifest: Manifest, read: ReadFile): Promise<number[] | null> {
  if (!OIB_PATTERN.test(oib) || manifest.count === 0) return [];
  const path = oibIndexPath(manifest, oib);
  const index = path === null ? null : await read.text(path);
  return index === null ? null : oibPlaces(index, oib);
}

/** The records at places of the list (0 to count - 1, in id order), in that order, from their chunks. */
async function atPlaces(places: readonly number[], manifest: Manifest, read: ReadFile): Promise<Located[] | null> {
  const located: Located[] = [];
  const size = manifest.chunkSize;
  const kept = new Map<number, { table: Uint8Array | null; bytes: Uint8Array | null }>();
  for (const place of places) {
    const chunk = Math.floor(place / size);
    const line = place % size;
    const path = chunkPath(manifest, chunk);
    const tablePath = offsetsPath(manifest, chunk);
    if (path === null || tablePath === null) return null;
    if (read.range !== undefined) {
      // The record's two offsets (8 bytes of the chunk's table), then its bytes.
      const table = await read.range(tablePath, line * OFFSET_BYTES, (line + 2) * OFFSET_BYTES);
      if (table?.length !== 2 * OFFSET_BYTES) return null;
      const start = offsetAt(table, 0);
      const next = offsetAt(table, 1);
      const bytes = await read.range(path, start, next);
      if (bytes === null || bytes.length < next - 1 - start) return null;
      located.push({ chunk, record: bytes.subarray(0, next - 1 - start) });
      continue;
    }
    let files = kept.get(chunk);
    if (files === undefined) {
      files = { table: await read.bytes(tablePath), bytes: await read.bytes(path) };
      kept.set(chunk, files);
    }
    if (files.table === null || files.bytes === null) return null;
    const start = offsetAt(files.table, line);
    const end = offsetAt(files.table, line + 1) - 1;
    if (files.bytes.length < end) return null;
    located.push({ chunk, record: files.bytes.subarray(start, end) });
  }
  return located;
}
