/**
 * Subjects found by a key: one subject (`/api/subjekti/<pk>/`) or a page of the list filtered by
 * `oib` and `jedinstvena_oznaka`. The router decides what to look for (a `Find`); this reads the
 * site's small indexes (key-index.ts) and the records chunks through the host, at most two files
 * for one subject, and finishes the answer as DRF would: the subject's object, or a page envelope
 * of the matches, the filters applied before `limit` and `offset`.
 */
import { collectionHeaders } from "./answer-headers.ts";
import { buildLinks } from "./build-links.ts";
import { pageTags } from "./cache-tags.ts";
import { chunkLines, chunkOfCode, chunkOfId, findRecord, OIB_PATTERN, oibPositions, recordCode, recordOib } from "./key-index.ts";
import { boundsPath, chunkPath, oibIndexPath } from "./layout.ts";
import type { Manifest } from "./manifest.ts";
import type { QueryParam } from "./request/read-query.ts";
import { indentJson, PAGE_TAIL, renderPageHead, toJson } from "./render-page.ts";

/** The exact filters, stripped, empty ones left out (django-filter's `CharFilter`). */
export interface Filters {
  readonly oib?: string;
  readonly code?: string;
}

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

/** Reads a site file through the host; null when it is missing. */
export interface ReadFile {
  /** Its text (the indexes: ASCII). */
  text(path: string): Promise<string | null>;
  /** Its bytes (the records chunks: searched as bytes, only the records found decoded). */
  bytes(path: string): Promise<Uint8Array | null>;
}

/** A finished answer (a 200's ETag is its bytes', added by the handler); null when a file the manifest names is missing (the host refreshes and retries). */
export type Found = { readonly status: number; readonly headers: ReturnType<typeof collectionHeaders>; readonly body: string } | null;

const NOT_FOUND_BODY = toJson({ detail: "Not found." });
/** A record line found, with its position in the list. */
interface Located {
  readonly position: number;
  readonly record: string;
}

/** Finds what `find` asks for in the site of `manifest`. */
export async function findSubjects(find: Find, manifest: Manifest, read: ReadFile): Promise<Found> {
  const { shape, filters } = find;
  const matches = (found: readonly Located[]): Located[] =>
    found.filter(({ record }) => (filters.oib === undefined || recordOib(record) === filters.oib) && (filters.code === undefined || recordCode(record) === filters.code));
  if (shape.kind === "subject") {
    const found = await inChunkOf((bounds) => chunkOfId(bounds, shape.id), { id: shape.id }, manifest, read);
    if (found === null) return null;
    const [subject] = matches(found);
    if (subject === undefined) return { status: 404, headers: collectionHeaders(find.cacheControl), body: NOT_FOUND_BODY };
    const tags = pageTags(manifest.chunkSize, subject.position, subject.position + 1);
    return { status: 200, headers: collectionHeaders(find.cacheControl, undefined, tags), body: indentJson(subject.record, find.indent) };
  }
  let count: number;
  let page: Located[];
  const start = (total: number): number => (shape.offset >= BigInt(total) ? total : Number(shape.offset));
  if (filters.code !== undefined) {
    // A code names one subject at most: the OIB, if given too, is checked on it.
    const found = await byCode(filters.code, manifest, read);
    if (found === null) return null;
    const all = matches(found);
    count = all.length;
    page = all.slice(start(count), start(count) + shape.limit);
  } else {
    // The OIB index alone gives the count; only the page's subjects are read.
    const positions = await oibIndex(filters.oib ?? "", manifest, read);
    if (positions === null) return null;
    count = positions.length;
    const found = await atPositions(positions.slice(start(count), start(count) + shape.limit), manifest, read);
    if (found === null) return null;
    page = found;
  }
  const head = renderPageHead(count, buildLinks(shape.baseUrl, shape.extras, shape.limit, shape.offset, count, shape.path));
  const tags = [...new Set(page.flatMap(({ position }) => pageTags(manifest.chunkSize, position, position + 1)))];
  const body = indentJson(head + page.map(({ record }) => record).join(",") + PAGE_TAIL, find.indent);
  return { status: 200, headers: collectionHeaders(find.cacheControl, undefined, tags.length === 0 ? undefined : tags), body };
}

/** The subject whose code is `code` exactly (digits; any other text names none). */
async function byCode(code: string, manifest: Manifest, read: ReadFile): Promise<Located[] | null> {
  if (!/^[0-9]+$/.test(code)) return [];
  return inChunkOf((bounds) => chunkOfCode(bounds, code), { code }, manifest, read);
}

/** The subject of a key in the chunk the bounds name: two files read. */
async function inChunkOf(chunkOf: (bounds: string) => number, key: { readonly id: bigint } | { readonly code: string }, manifest: Manifest, read: ReadFile): Promise<Located[] | null> {
  if (manifest.count === 0) return [];
  const path = boundsPath(manifest);
  const bounds = path === null ? null : await read.text(path);
  if (bounds === null) return null;
  const chunk = chunkOf(bounds);
  if (chunk < 0) return [];
  const text = await readChunk(chunk, manifest, read);
  if (text === null) return null;
  const found = findRecord(text, key);
  return found === null ? [] : [{ position: chunk * manifest.chunkSize + found.line, record: found.record }];
}

/** The positions of the subjects whose OIB is `oib`, from its index file. */
async function oibIndex(oib: string, manifest: Manifest, read: ReadFile): Promise<number[] | null> {
  if (!OIB_PATTERN.test(oib) || manifest.count === 0) return [];
  const path = oibIndexPath(manifest, oib);
  const index = path === null ? null : await read.text(path);
  return index === null ? null : oibPositions(index, oib);
}

/** The subjects at `positions` (rising), each chunk read once. */
async function atPositions(positions: readonly number[], manifest: Manifest, read: ReadFile): Promise<Located[] | null> {
  const size = manifest.chunkSize;
  const located: Located[] = [];
  for (let i = 0; i < positions.length; ) {
    const chunk = Math.floor((positions[i] ?? 0) / size);
    const lines: number[] = [];
    for (; i < positions.length && Math.floor((positions[i] ?? 0) / size) === chunk; i++) lines.push((positions[i] ?? 0) - chunk * size);
    const text = await readChunk(chunk, manifest, read);
    if (text === null) return null;
    chunkLines(text, lines).forEach((record, k) => located.push({ position: chunk * size + (lines[k] ?? 0), record }));
  }
  return located;
}

async function readChunk(chunk: number, manifest: Manifest, read: ReadFile): Promise<Uint8Array | null> {
  const path = chunkPath(manifest, chunk);
  return path === null ? null : read.bytes(path);
}
