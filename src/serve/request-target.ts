/**
 * A raw request target as a WHATWG URL reads it: whether it is a target at all, and the path of a
 * static file. (The router reads the target as sent: src/core/read-target.ts.)
 */

/** A request target as a URL: what the static site is asked for. */
export interface Target {
  /** `URL.pathname`: percent-escapes as they came, non-ASCII escaped as UTF-8. */
  readonly path: string;
  /** `URL.search` without its `?`. */
  readonly query: string;
}

const NON_ASCII = /[^\x00-\x7f]/;

/**
 * The path and query of a request target, as a WHATWG URL reads them; null when it is no URL at
 * all. Node gives the target's bytes as latin1 characters, so raw UTF-8 is re-decoded first.
 */
export function readTarget(rawTarget: string): Target | null {
  const target = NON_ASCII.test(rawTarget) ? Buffer.from(rawTarget, "latin1").toString("utf8") : rawTarget;
  let url: URL;
  try {
    // Origin-form ("/path?q") goes after a fixed origin, so "//host/x" stays a path; absolute-form
    // (a proxy's "http://host/path") is read as it is.
    url = target.startsWith("/") ? new URL(`http://preview${target}`) : new URL(target);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  return { path: url.pathname, query: url.search.slice(1) };
}
