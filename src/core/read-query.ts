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
  for (const pair of query.split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const key = eq < 0 ? pair : pair.slice(0, eq);
    const value = eq < 0 ? "" : pair.slice(eq + 1);
    params.push([unquotePlus(key), unquotePlus(value)]);
  }
  return params;
}

const DECODER = new TextDecoder("utf-8", { ignoreBOM: true });
const HEX_PAIR = /^[0-9a-fA-F]{2}$/;

/** Python's `unquote_plus(s, errors="replace")`. */
export function unquotePlus(text: string): string {
  const s = text.replaceAll("+", " ");
  if (!s.includes("%")) return s;
  let out = "";
  let bytes: number[] = [];
  const flush = (): void => {
    if (bytes.length > 0) out += DECODER.decode(new Uint8Array(bytes));
    bytes = [];
  };
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i);
    const hex = s.slice(i + 1, i + 3);
    if (code === 0x25 && HEX_PAIR.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else if (code < 0x80) {
      bytes.push(code);
    } else {
      // Python decodes ASCII runs separately and keeps other characters as they are.
      flush();
      out += s[i];
    }
  }
  flush();
  return out;
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
