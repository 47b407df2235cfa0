/** Turning what Node hands the preview (a raw request target, a Host header) into URL parts. */

/** The parts of a request target the router reads. */
export interface Target {
  /** `URL.pathname`: percent-escapes as they came, non-ASCII escaped as UTF-8. */
  readonly path: string;
  /** `URL.search` without its `?`. */
  readonly query: string;
}

const NON_ASCII = /[^\x00-\x7f]/;

/**
 * The path and query of a request target, as a WHATWG URL reads them (as the edge sees them);
 * null when it is no URL at all. Node gives the target's bytes as latin1 characters, so raw UTF-8
 * is re-decoded first and every host reads the same query.
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

const HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::[0-9]{1,5})?$/;

/**
 * The origin the preview's links start with: `http://` + the request's Host header when it is a
 * plain host name or address (Django's `get_host` validates it the same way), else `fallback`.
 */
export function linkOrigin(hostHeader: string | undefined, fallback: string): string {
  if (hostHeader === undefined) return fallback;
  const host = hostHeader.trim().toLowerCase();
  return HOST.test(host) ? `http://${host}` : fallback;
}
