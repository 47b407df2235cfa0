/**
 * DRF's content negotiation with JSONRenderer as the only renderer: whether an `Accept` header
 * admits JSON (else 406), and the `indent` JSONRenderer pretty-prints with.
 *
 * `DefaultContentNegotiation.select_renderer` splits the header on `,`, strips each media range,
 * and tries the most specific ranges first (precedence: `type/subtype; param=…` 3, `type/subtype`
 * 2, `type/*` 1, `*​/*` 0). A range less specific than `application/json` is accepted as
 * `application/json` followed by the range's own parameters; `JSONRenderer.get_indent` then reads
 * `indent` from that media type: Python's `int()`, clamped to 0..8, 0 meaning compact.
 * Parameters are read by Django's `parse_header` (3.2): `;` inside double quotes does not split,
 * names are lower-cased, a quoted value is unquoted, the last of a repeated name wins.
 */
import { parsePythonInt } from "./python-int.ts";
import { isStrSpace, trimBy } from "./trim-spaces.ts";

/** The largest indent JSONRenderer uses. */
const MAX_INDENT = 8n;

interface MediaType {
  readonly main: string;
  readonly sub: string;
  readonly params: ReadonlyMap<string, string>;
}

/**
 * The indent a request's `Accept` header asks for (0: compact), or null when it admits no JSON
 * (406). A missing or blank header is `*​/*`. When several ranges of the same precedence admit
 * JSON, the first one in the header is taken (DRF takes one of them from a Python set).
 */
export function negotiate(header: string | null | undefined): number | null {
  if (header === null || header === undefined) return 0;
  const ranges = header.split(",").map(stripPython);
  if (ranges.length === 1 && ranges[0] === "") return 0;
  let best: { readonly range: string; readonly type: MediaType; readonly precedence: number } | null = null;
  for (const range of ranges) {
    const type = parseMediaType(range);
    if (!admitsJson(type)) continue;
    const rank = precedence(type);
    if (best === null || rank > best.precedence) best = { range, type, precedence: rank };
    if (rank === 3) break;
  }
  if (best === null) return null;
  // `application/json` itself has precedence 2: a vaguer range becomes it, with its parameters.
  const accepted =
    best.precedence < 2 ? ["application/json", ...[...best.type.params].map(([key, value]) => `${key}=${value}`)].join(";") : best.range;
  return readIndent(parseMediaType(accepted).params.get("indent"));
}

/** `JSONRenderer.get_indent`: `zero_as_none(max(min(int(indent), 8), 0))`, anything unreadable compact. */
function readIndent(value: string | undefined): number {
  if (value === undefined) return 0;
  const n = parsePythonInt(value);
  if (n === null || n <= 0n) return 0;
  return Number(n > MAX_INDENT ? MAX_INDENT : n);
}

/** `_MediaType.match` against JSONRenderer's `application/json` (which has no parameters). */
function admitsJson(type: MediaType): boolean {
  return (type.main === "*" || type.main === "application") && (type.sub === "*" || type.sub === "json");
}

/** `_MediaType.precedence`. */
function precedence(type: MediaType): number {
  if (type.main === "*") return 0;
  if (type.sub === "*") return 1;
  if (type.params.size === 0 || (type.params.size === 1 && type.params.has("q"))) return 2;
  return 3;
}

/** `_MediaType(text)`: Django's `parse_header`, then the type split at its first `/`. */
function parseMediaType(text: string): MediaType {
  const [first = "", ...rest] = splitParams(text);
  const full = first.toLowerCase();
  const slash = full.indexOf("/");
  const params = new Map<string, string>();
  for (const part of rest) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    let name = stripPython(part.slice(0, eq)).toLowerCase();
    let value = stripPython(part.slice(eq + 1));
    let encoded = false;
    if (name.endsWith("*")) {
      // RFC 2231: `name*=charset'lang'value`.
      name = name.slice(0, -1);
      encoded = part.split("'").length === 3;
    }
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
      value = value.slice(1, -1).replaceAll("\\\\", "\\").replaceAll('\\"', '"');
    }
    if (encoded) {
      const pieces = value.split("'");
      if (pieces.length === 3) value = unquoteUtf8(pieces[2] ?? "");
    }
    params.set(name, value);
  }
  return { main: slash < 0 ? full : full.slice(0, slash), sub: slash < 0 ? "" : full.slice(slash + 1), params };
}

/** Django's `_parse_header_params` on `";" + text`: split at `;` outside double quotes, each part stripped. */
function splitParams(text: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let quotes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) quotes++;
    else if (c === 0x3b && quotes % 2 === 0) {
      parts.push(stripPython(text.slice(start, i)));
      start = i + 1;
      quotes = 0;
    }
  }
  parts.push(stripPython(text.slice(start)));
  return parts;
}

function unquoteUtf8(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Python's `str.strip()` (unlike `String.prototype.trim`: \x1c-\x1f and \x85 too, not U+FEFF), in linear time. */
function stripPython(text: string): string {
  return trimBy(text, isStrSpace);
}
