/**
 * The `next` and `previous` links exactly as DRF builds them.
 *
 * DRF's `replace_query_param` / `remove_query_param` re-parse the request URL with `parse_qs`,
 * set or drop one key, and re-encode with `urlencode(sorted(query_dict.items()), doseq=True)`:
 * every parameter is kept, grouped and sorted by key (code-point order), values in request order,
 * each key and value encoded like Python's `quote_plus`.
 */
import type { QueryParam } from "./request/read-query.ts";

/** The collection's path (with a format suffix it is `/api/subjekti.<format>`). */
export const COLLECTION_PATH = "/api/subjekti/";

const UTF8 = new TextEncoder();
/** `quote_plus` keeps these bytes as they are: `A-Z a-z 0-9 _ . - ~`. */
const PLAIN = /^[A-Za-z0-9_.~-]*$/;

/** Python's `quote_plus(text)`: space as `+`, every other byte but the plain ones as `%XX`. */
export function quotePlus(text: string): string {
  if (PLAIN.test(text)) return text;
  let uri: string;
  try {
    // The engine's own encoder: a request's query is encoded three times (its ETag, `next`,
    // `previous`), and this is several times faster than a loop over TextEncoder's bytes.
    uri = encodeURIComponent(text);
  } catch {
    // A lone surrogate (URIError): written as TextEncoder writes it, U+FFFD.
    let out = "";
    for (const byte of UTF8.encode(text)) out += QUOTED[byte];
    return out;
  }
  return uri.includes("%20") || URI_MARKS.test(uri) ? uri.replace(URI_MARKS_AND_SPACE, (mark) => QUOTED_MARKS[mark] ?? mark) : uri;
}

/** What encodeURIComponent keeps or writes that `quote_plus` writes otherwise: `! ' ( ) *` escaped, a space as `+`. */
const URI_MARKS = /[!'()*]/;
const URI_MARKS_AND_SPACE = /[!'()*]|%20/g;
const QUOTED_MARKS: Readonly<Record<string, string>> = { "!": "%21", "'": "%27", "(": "%28", ")": "%29", "*": "%2A", "%20": "+" };

function isPlainByte(byte: number): boolean {
  return (
    (byte >= 0x30 && byte <= 0x39) ||
    (byte >= 0x41 && byte <= 0x5a) ||
    (byte >= 0x61 && byte <= 0x7a) ||
    byte === 0x5f ||
    byte === 0x2e ||
    byte === 0x2d ||
    byte === 0x7e
  );
}

/** Each byte as `quote_plus` writes it. */
const QUOTED: readonly string[] = Array.from({ length: 256 }, (_, byte) =>
  byte === 0x20 ? "+" : isPlainByte(byte) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`,
);

/** Compares two strings by code points, as Python orders `str` (JS `<` orders UTF-16 units). */
export function compareCodePoints(a: string, b: string): number {
  // Equal prefixes split into the same code points, so both strings stay aligned at `i`.
  for (let i = 0; i < a.length && i < b.length; ) {
    const x = a.codePointAt(i) ?? 0;
    const y = b.codePointAt(i) ?? 0;
    if (x !== y) return x - y;
    i += x > 0xffff ? 2 : 1;
  }
  return a.length - b.length;
}

/** The parameters other than `limit` and `offset`, which DRF carries into every link as they came. */
export function extraParams(params: readonly QueryParam[]): QueryParam[] {
  return params.filter(([key]) => key !== "limit" && key !== "offset");
}

/** `urlencode(sorted(...), doseq=True)` of the extra parameters plus `limit` and, unless null, `offset`. */
export function encodeLinkQuery(extras: readonly QueryParam[], limit: number, offset: bigint | null): string {
  const groups = encodedGroups(extras);
  const pairs = [...groups.beforeLimit, `limit=${limit}`, ...groups.beforeOffset];
  if (offset !== null) pairs.push(`offset=${offset.toString()}`);
  pairs.push(...groups.afterOffset);
  return pairs.join("&");
}

/** The extra parameters encoded, in the three runs that sort before `limit`, between it and `offset`, and after. */
interface EncodedGroups {
  readonly beforeLimit: readonly string[];
  readonly beforeOffset: readonly string[];
  readonly afterOffset: readonly string[];
}

/**
 * Each request's extras are encoded once, though the ETag and both links are written from them:
 * the query is the one part of a request whose cost grows with it (request-bounds.ts).
 */
const ENCODED = new WeakMap<readonly QueryParam[], EncodedGroups>();

function encodedGroups(extras: readonly QueryParam[]): EncodedGroups {
  let groups = ENCODED.get(extras);
  if (groups === undefined) {
    // Array.prototype.sort is stable: equal keys keep request order, as parse_qs groups them.
    const sorted = [...extras].sort((a, b) => compareCodePoints(a[0], b[0]));
    const beforeLimit: string[] = [];
    const beforeOffset: string[] = [];
    const afterOffset: string[] = [];
    for (const [key, value] of sorted) {
      // An extra named like either (not from extraParams) sorts before it, as the stable sort put it.
      const run = compareCodePoints(key, "limit") <= 0 ? beforeLimit : compareCodePoints(key, "offset") <= 0 ? beforeOffset : afterOffset;
      run.push(`${quotePlus(key)}=${quotePlus(value)}`);
    }
    groups = { beforeLimit, beforeOffset, afterOffset };
    ENCODED.set(extras, groups);
  }
  return groups;
}

/** The page's two links, or null where DRF's `get_next_link` / `get_previous_link` give None. */
export interface PageLinks {
  readonly next: string | null;
  readonly previous: string | null;
}

/** DRF's `LimitOffsetPagination.get_next_link` and `get_previous_link` for one request. */
export function buildLinks(
  baseUrl: string,
  extras: readonly QueryParam[],
  limit: number,
  offset: bigint,
  count: number,
  path = COLLECTION_PATH,
): PageLinks {
  const step = BigInt(limit);
  // The request's own path: the collection's, or with a format suffix (`/api/subjekti.json`).
  const url = (query: string): string => `${baseUrl}${path}?${query}`;
  const next = offset + step >= BigInt(count) ? null : url(encodeLinkQuery(extras, limit, offset + step));
  let previous: string | null = null;
  if (offset > 0n) {
    // At or before the start DRF removes `offset` instead of writing `offset=0`.
    previous = url(encodeLinkQuery(extras, limit, offset - step <= 0n ? null : offset - step));
  }
  return { next, previous };
}
