/**
 * The API's paths as DRF's `DefaultRouter` declares them for one `ReadOnlyModelViewSet`, each also
 * with a format suffix (`format_suffix_patterns`), matched against the whole percent-decoded path
 * as Django matches them:
 *
 *   /api/                          the API root           /api/.<format>[/]
 *   /api/subjekti/                 the list               /api/subjekti.<format>[/]
 *   /api/subjekti/<pk>/            one subject            /api/subjekti/<pk>.<format>[/]
 *
 * `<pk>` is DRF's default lookup (`[^/.]+`), `<format>` its suffix (`[a-z0-9]+`). A path that
 * matches none but would with a slash appended is Django's APPEND_SLASH redirect.
 */

/** What the path names. `suffix` is the format suffix, null without one; `path` the decoded path (the links' path). */
export type ApiTarget =
  | { readonly kind: "root"; readonly suffix: string | null; readonly path: string }
  | { readonly kind: "list"; readonly suffix: string | null; readonly path: string }
  | { readonly kind: "detail"; readonly suffix: string | null; readonly path: string; readonly pk: string }
  /** Django's CommonMiddleware: the same path with a slash resolves. */
  | { readonly kind: "append-slash" }
  /** No route: Django's 404. */
  | { readonly kind: "none" };

/** The API's prefix: the router is included at `api/`. */
export const API_PREFIX = "/api/";

const ROOT_SUFFIX = /^\.([a-z0-9]+)\/?$/;
const LIST = /^subjekti(?:\/|\.([a-z0-9]+)\/?)$/;
const DETAIL = /^subjekti\/([^/.]+)(?:\/|\.([a-z0-9]+)\/?)$/;

/** The target of a percent-decoded path (one character per byte). */
export function apiTarget(path: string): ApiTarget {
  const matched = match(path);
  if (matched !== null) return matched;
  return match(`${path}/`) === null ? { kind: "none" } : { kind: "append-slash" };
}

function match(path: string): ApiTarget | null {
  if (!path.startsWith(API_PREFIX)) return null;
  const rest = path.slice(API_PREFIX.length);
  if (rest === "") return { kind: "root", suffix: null, path };
  let m = ROOT_SUFFIX.exec(rest);
  if (m !== null) return { kind: "root", suffix: m[1] ?? null, path };
  m = LIST.exec(rest);
  if (m !== null) return { kind: "list", suffix: m[1] ?? null, path };
  m = DETAIL.exec(rest);
  if (m !== null) return { kind: "detail", suffix: m[2] ?? null, path, pk: m[1] ?? "" };
  return null;
}

/** Characters Django's `escape_uri_path` keeps: `quote(path, safe="/:@&+$,-_.!~*'()")`. */
const PATH_SAFE = /^[A-Za-z0-9/:@&+$,\-_.!~*'()]$/;

/** Django's `escape_uri_path` of a decoded path (one character per byte): the path in a link or a redirect. */
export function escapeUriPath(path: string): string {
  let out = "";
  for (const char of path) out += PATH_SAFE.test(char) ? char : "%" + char.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0");
  return out;
}
