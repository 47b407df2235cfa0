/**
 * The request as sent, the way Django reads it behind a WSGI server: the target's path and query
 * taken byte for byte (no dot segments resolved, no `\` turned into `/`, no bytes re-encoded),
 * and the links' origin from the `Host` header as sent (case kept).
 *
 * Hosts hand these over as "byte strings": one character per byte (Latin-1), as Node reads a raw
 * target and as PEP 3333 passes it to Django. A host that only has a parsed URL passes its
 * `pathname` and `search`, which are ASCII and so already byte strings.
 */
import { hostDomain } from "../allowed-hosts.ts";

/** Request headers by name, case-insensitive (a web `Headers` is one). */
export interface HeaderReader {
  get(name: string): string | null;
}

/** A request target's path and query, byte strings, the query without its `?`. */
export interface SentTarget {
  readonly path: string;
  readonly query: string;
}

const SCHEME_AND_AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;
const NON_LATIN1 = /[^\x00-\xff]/;
const NON_ASCII = /[^\x00-\x7f]/;
const UTF8 = new TextEncoder();

/**
 * The path and query of a raw request target, origin-form (`/path?query`) or absolute-form
 * (`http://host/path?query`, whose origin is dropped), as a WSGI server splits it (a `#` ends both).
 */
export function splitTarget(target: string): SentTarget {
  const origin = target.startsWith("/") ? null : SCHEME_AND_AUTHORITY.exec(target);
  const rest = origin === null ? target : target.slice(origin[0].length);
  const hash = rest.indexOf("#");
  const bare = hash < 0 ? rest : rest.slice(0, hash);
  const q = bare.indexOf("?");
  const path = q < 0 ? bare : bare.slice(0, q);
  return { path: path === "" ? "/" : path, query: q < 0 ? "" : bare.slice(q + 1) };
}

/** A request target as a WHATWG URL reads it: what a static file server is asked for. */
export interface UrlTarget {
  /** `URL.pathname`: dot segments resolved, percent-escapes as they came, non-ASCII escaped as UTF-8. */
  readonly path: string;
  /** `URL.search` without its `?`. */
  readonly query: string;
}

const LENIENT_UTF8 = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * The path and query of a raw target (a byte string) as a WHATWG URL reads them; null when it is no
 * http(s) URL at all. Raw bytes are read as UTF-8 first, as a URL parser reads text.
 */
export function readUrlTarget(target: string): UrlTarget | null {
  const text = NON_ASCII.test(target) ? LENIENT_UTF8.decode(Uint8Array.from(target, (c) => c.charCodeAt(0))) : target;
  let url: URL;
  try {
    // Origin-form ("/path?q") goes after a fixed origin, so "//host/x" stays a path; absolute-form
    // (a proxy's "http://host/path") is read as it is.
    url = text.startsWith("/") ? new URL(`http://host${text}`) : new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  return { path: url.pathname, query: url.search.slice(1) };
}

/** The scheme and host (authority) an absolute-form target starts with, as written; null host when there is none. */
export function urlOrigin(target: string): { readonly scheme: string; readonly host: string | null } {
  const origin = SCHEME_AND_AUTHORITY.exec(target)?.[0];
  if (origin === undefined) return { scheme: "http", host: null };
  const colon = origin.indexOf(":");
  return { scheme: origin.slice(0, colon), host: origin.slice(colon + 3) };
}

/** The bytes of `text`'s UTF-8 encoding, one character per byte (ASCII stays as it is). */
export function utf8Bytes(text: string): string {
  if (!NON_ASCII.test(text)) return text;
  let out = "";
  for (const byte of UTF8.encode(text)) out += String.fromCharCode(byte);
  return out;
}

/** A byte string as it is; text with characters above U+00FF (which no byte string has) as its UTF-8 bytes. */
export function asByteString(text: string): string {
  return NON_LATIN1.test(text) ? utf8Bytes(text) : text;
}

/** Python's `unquote_to_bytes` as a byte string: every `%XX` becomes its byte, malformed escapes stay. */
export function percentDecodeBytes(text: string): string {
  if (!text.includes("%")) return text;
  return text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The query string as Django's `QueryDict` decodes the raw bytes before parsing them: UTF-8, or
 * Latin-1 when the whole query is not valid UTF-8 ("some user agents are misbehaving").
 */
export function decodeQueryBytes(query: string): string {
  if (!NON_ASCII.test(query)) return query;
  const bytes = Uint8Array.from(query, (c) => c.charCodeAt(0));
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return query;
  }
}

/**
 * The origin of the links of a request received as `scheme` with this `Host` header: the host as
 * sent, case kept, when Django's `get_host()` accepts it (`ALLOWED_HOSTS = ['*']`); `fallback`
 * otherwise (Django would answer 400; a host without a usable Host header still answers).
 */
export function linkOrigin(scheme: string, host: string | null | undefined, fallback: string): string {
  if (host === null || host === undefined) return fallback;
  return hostDomain(host) === "" ? fallback : `${scheme}://${host}`;
}
