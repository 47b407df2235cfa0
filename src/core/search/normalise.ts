/**
 * A text as PostgreSQL compares it in `UPPER(UNACCENT(field)::text) LIKE '%' || UPPER(UNACCENT(term)) || '%'`,
 * the SQL of Django's `field__unaccent__icontains` (`Unaccent` is a bilateral transform, so the
 * term goes through it too): PostgreSQL's `unaccent` dictionary, character by character (each
 * of its sources is one character), then ICU's full upper-casing (`ß` -> `SS`), which
 * `toUpperCase()` does alike for the `hr-HR` locale (no tailoring of its own).
 */
import { isStrSpace } from "../request/trim-spaces.ts";
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
  return isStrSpace(code);
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

/**
 * The text a search term must be found in a name or town as (both in search form). Django's
 * `icontains` through a bilateral transform writes the escapes in SQL after the transform
 * (`pattern_ops`/`pattern_esc`: `LIKE '%' || UPPER(REPLACE(…UNACCENT(term)…)) || '%'`), so `%`,
 * `_` and `\` are literal, even where `unaccent` made them of fullwidth `％`, `＿` or `＼`.
 */
export function termText(term: string): string {
  return searchForm(term);
}
