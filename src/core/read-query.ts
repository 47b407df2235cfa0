/**
 * Reading a request's query string the way Django and DRF read it.
 *
 * Django's `QueryDict` is built with Python's `parse_qsl(keep_blank_values=True)`: pairs split on
 * `&` only, each at its first `=`, `+` is a space and `%XX` escapes are UTF-8 with invalid bytes
 * replaced (U+FFFD) and malformed escapes left as they are. `QueryDict[key]` is the last value.
 */
import { parsePythonInt } from "./python-int.ts";

/** One decoded `key=value` pair, in request order. */
export type QueryParam = readonly [key: string, value: string];

/** Python's `parse_qsl(query, keep_blank_values=True)` on an ASCII query (`URL.search` without `?`). */
export function parseQuery(query: string): QueryParam[] {
  const params: QueryParam[] = [];
  // Without `%` or `+` nothing is decoded: a query of many short pairs costs its split alone.
  const unquote = query.includes("%") || query.includes("+") ? unquotePlus : (text: string): string => text;
  for (const pair of query.split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const key = eq < 0 ? pair : pair.slice(0, eq);
    const value = eq < 0 ? "" : pair.slice(eq + 1);
    params.push([unquote(key), unquote(value)]);
  }
  return params;
}

const DECODER = new TextDecoder("utf-8", { ignoreBOM: true });

/** Python's `unquote_plus(s, errors="replace")`, one pass over the characters. */
export function unquotePlus(text: string): string {
  const s = text.replaceAll("+", " ");
  if (!s.includes("%")) return s;
  let out = "";
  const bytes = new Uint8Array(s.length);
  let held = 0;
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i);
    const high = code === 0x25 ? hexValue(s.charCodeAt(i + 1)) : -1;
    const low = high < 0 ? -1 : hexValue(s.charCodeAt(i + 2));
    if (low >= 0) {
      bytes[held++] = high * 16 + low;
      i += 2;
    } else if (code < 0x80) {
      bytes[held++] = code;
    } else {
      // Python decodes ASCII runs separately and keeps other characters as they are.
      if (held > 0) out += DECODER.decode(bytes.subarray(0, held));
      held = 0;
      out += s[i];
    }
  }
  return held > 0 ? out + DECODER.decode(bytes.subarray(0, held)) : out;
}

/** A hex digit's value, -1 for any other character (NaN past the end included). */
function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x41 && code <= 0x46) return code - 0x37;
  if (code >= 0x61 && code <= 0x66) return code - 0x57;
  return -1;
}

/** The last value of `key`, as `QueryDict.__getitem__` returns it; undefined when absent. */
export function lastValue(params: readonly QueryParam[], key: string): string | undefined {
  for (let i = params.length - 1; i >= 0; i--) {
    const param = params[i];
    if (param !== undefined && param[0] === key) return param[1];
  }
  return undefined;
}

/** The page size and start a request asks for, after DRF's `LimitOffsetPagination` rules. */
export interface Paging {
  readonly limit: number;
  readonly offset: bigint;
}

/** The page size when the request gives none or a bad one (DRF's `PAGE_SIZE`). */
export const DEFAULT_LIMIT = 20;

/**
 * DRF's `get_limit` and `get_offset`: `_positive_int(limit, strict=True, cutoff=max_limit)`, a
 * bad limit falling back to the default, and `_positive_int(offset)`, a bad offset to 0.
 */
export function readPaging(params: readonly QueryParam[], maxLimit: number): Paging {
  const rawLimit = lastValue(params, "limit");
  const rawOffset = lastValue(params, "offset");
  const limit = rawLimit === undefined ? null : parsePythonInt(rawLimit);
  const offset = rawOffset === undefined ? null : parsePythonInt(rawOffset);
  return {
    limit: limit === null || limit <= 0n ? DEFAULT_LIMIT : limit > BigInt(maxLimit) ? maxLimit : Number(limit),
    offset: offset === null || offset < 0n ? 0n : offset,
  };
}
