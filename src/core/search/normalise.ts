/**
 * A text as PostgreSQL compares it in `UPPER(UNACCENT(field)::text) LIKE UPPER(UNACCENT(pattern))`,
 * the SQL of Django's `field__unaccent__icontains` (`Unaccent` is a bilateral transform, so the
 * pattern goes through it too): PostgreSQL's `unaccent` dictionary, character by character (each
 * of its sources is one character), then ICU's full upper-casing (`ß` -> `SS`), which
 * `toUpperCase()` does alike for the `hr-HR` locale (no tailoring of its own).
 */
import { UNACCENT_RULES } from "./unaccent-table.ts";

const UNACCENT = new Map<string, string>(
  UNACCENT_RULES.split("\n").map((line) => {
    const tab = line.indexOf("\t");
    return [line.slice(0, tab), line.slice(tab + 1)] as const;
  }),
);

/** PostgreSQL's `unaccent(text)` with its default rules. */
export function unaccent(text: string): string {
  // ASCII has no rule: most names and towns pass untouched.
  if (!/[^\x00-\x7f]/.test(text)) return text;
  let out = "";
  for (const char of text) out += UNACCENT.get(char) ?? char;
  return out;
}

/** `UPPER(UNACCENT(text))`: the form in which a search term is found in a name or a town. */
export function searchForm(text: string): string {
  return unaccent(text).toUpperCase();
}

/**
 * Whether a character separates the tokens of a text in search form: Python's whitespace, which
 * a search term never holds (`str.split()` cut it there) and which neither `unaccent` nor
 * upper-casing makes of another character (test/core/search checks the rules), so a term is
 * always found inside one token.
 */
export function isTokenBreak(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d) || (code >= 0x1c && code <= 0x1f);
  return (
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

/** The distinct tokens of a text in search form (split at whitespace), in order of first appearance. */
export function tokensOf(form: string): string[] {
  const tokens: string[] = [];
  let start = -1;
  for (let i = 0; i <= form.length; i++) {
    const isBreak = i === form.length || isTokenBreak(form.charCodeAt(i));
    if (isBreak && start >= 0) {
      const token = form.slice(start, i);
      if (!tokens.includes(token)) tokens.push(token);
      start = -1;
    } else if (!isBreak && start < 0) start = i;
  }
  return tokens;
}

/** One element of a LIKE pattern: a literal character, `_` (any one character) or `%` (any run). */
export type LikeItem = { readonly kind: "char"; readonly char: string } | { readonly kind: "one" } | { readonly kind: "any" };

/**
 * What a search term asks of a name or town: a plain substring (`%term%` with nothing else
 * special: the usual case), or a LIKE pattern with wildcards of its own, which `unaccent` makes
 * from fullwidth `％`, `＿` and backslash-like characters after Django escaped the term's own
 * `%`, `_` and `\` (`prep_for_like_query`), so that PostgreSQL reads them as wildcards and escapes.
 */
export type TermPattern =
  | { readonly kind: "substring"; readonly text: string }
  | { readonly kind: "like"; readonly items: readonly LikeItem[]; readonly pieces: readonly string[] };

/** The pattern of one search term: `UPPER(UNACCENT('%' || escaped term || '%'))` read as PostgreSQL's LIKE reads it. */
export function termPattern(term: string): TermPattern {
  const escaped = term.replace(/[\\%_]/g, (c) => `\\${c}`);
  const chars = [...searchForm(`%${escaped}%`)];
  const items: LikeItem[] = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] as string;
    if (c === "\\" && i + 1 < chars.length) items.push({ kind: "char", char: chars[++i] as string });
    else if (c === "%") items.push({ kind: "any" });
    else if (c === "_") items.push({ kind: "one" });
    else items.push({ kind: "char", char: c });
  }
  const pieces: string[] = [];
  let piece = "";
  for (const item of items) {
    if (item.kind === "char") piece += item.char;
    else {
      if (piece !== "") pieces.push(piece);
      piece = "";
    }
  }
  if (piece !== "") pieces.push(piece);
  const inner = items.slice(1, -1);
  if (items[0]?.kind === "any" && items.at(-1)?.kind === "any" && inner.every((item) => item.kind === "char")) {
    return { kind: "substring", text: inner.map((item) => (item.kind === "char" ? item.char : "")).join("") };
  }
  return { kind: "like", items, pieces };
}

/** Whether `text` (in search form) matches a term's pattern. */
export function matchesPattern(text: string, pattern: TermPattern): boolean {
  return pattern.kind === "substring" ? text.includes(pattern.text) : likeMatch([...text], pattern.items);
}

/** LIKE over characters: `%` any run, `_` one character; greedy with one backtrack point (linear per star). */
function likeMatch(text: readonly string[], items: readonly LikeItem[]): boolean {
  let t = 0;
  let p = 0;
  let star = -1;
  let mark = 0;
  while (t < text.length) {
    const item = items[p];
    if (item !== undefined && (item.kind === "one" || (item.kind === "char" && item.char === text[t]))) {
      t++;
      p++;
    } else if (item?.kind === "any") {
      star = p++;
      mark = t;
    } else if (star >= 0) {
      p = star + 1;
      t = ++mark;
    } else return false;
  }
  while (items[p]?.kind === "any") p++;
  return p === items.length;
}
