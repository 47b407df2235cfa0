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

/**
 * Django's `get_full_path` of a decoded path (one character per byte): the path in a link or a
 * redirect. Django reads the path as UTF-8 after `repercent_broken_unicode` has written each byte
 * that is not part of a valid UTF-8 sequence as its `%XX` text; `escape_uri_path` then quotes that
 * `%` too. So a valid sequence's bytes are `%XX` and a broken one's `%25XX` (`/%C0` → `/%25C0`).
 */
export function escapeUriPath(path: string): string {
  let out = "";
  for (let at = 0; at < path.length; ) {
    const length = utf8SequenceAt(path, at);
    if (length === 0) out += `%25${hex(path.charCodeAt(at))}`;
    for (let i = at; i < at + length; i++) {
      const char = path.charAt(i);
      out += PATH_SAFE.test(char) ? char : `%${hex(path.charCodeAt(i))}`;
    }
    at += Math.max(length, 1);
  }
  return out;
}

const hex = (byte: number): string => byte.toString(16).toUpperCase().padStart(2, "0");

/** A lead byte's sequence length and the range of its second byte (Unicode's Table 3-7), or null for no lead byte. */
function sequenceOf(lead: number): readonly [length: number, low: number, high: number] | null {
  if (lead >= 0xc2 && lead <= 0xdf) return [2, 0x80, 0xbf];
  if (lead === 0xe0) return [3, 0xa0, 0xbf];
  if (lead === 0xed) return [3, 0x80, 0x9f];
  if (lead >= 0xe1 && lead <= 0xef) return [3, 0x80, 0xbf];
  if (lead === 0xf0) return [4, 0x90, 0xbf];
  if (lead === 0xf4) return [4, 0x80, 0x8f];
  if (lead >= 0xf1 && lead <= 0xf3) return [4, 0x80, 0xbf];
  return null;
}

/**
 * The length of the valid UTF-8 sequence that starts at `at` (bytes as characters), or 0 when none
 * does: the well-formed sequences Python's decoder (and so Django) takes.
 */
function utf8SequenceAt(bytes: string, at: number): number {
  const lead = bytes.charCodeAt(at);
  if (lead < 0x80) return 1;
  const sequence = sequenceOf(lead);
  if (sequence === null) return 0;
  const [length, low, high] = sequence;
  if (at + length > bytes.length) return 0;
  const second = bytes.charCodeAt(at + 1);
  if (second < low || second > high) return 0;
  for (let i = at + 2; i < at + length; i++) {
    const next = bytes.charCodeAt(i);
    if (next < 0x80 || next > 0xbf) return 0;
  }
  return length;
}
