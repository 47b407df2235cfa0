/**
 * searchForm (core/search/normalise.ts) by a table of code units, for the gathering
 * (plan-search.ts), which puts every new word and town of a name through it (three quarters of a
 * million at a million subjects). searchForm maps a text a character at a time (`unaccent`'s
 * rules, each of one character, by a Map) and joins the results one string at a time, then
 * upper-cases the whole: 300 MB of short-lived strings at a million subjects. Upper-casing with no
 * locale maps each character alone (Unicode's unconditional mappings), so the form of a text is the
 * forms of its characters one after another: here each code unit's form, when it is one code unit,
 * is found once (by searchForm's own functions) and a text's written into one array and decoded
 * once. A text with a unit past the table, or one whose form is not one unit, goes to searchForm.
 */
import { searchForm, unaccent } from "../../core/search/normalise.ts";

/** The code units the table covers: every letter of Latin, Greek and Cyrillic texts. */
const UNITS = 0x800;

/** A non-ASCII character whose rule is used to find another character's (unaccent maps an ASCII text untouched). */
const OTHER = "\u00e9";

/** Each unit's form as one unit, or -1 (none: searchForm then makes the text's). */
let FORMS: Int32Array | undefined;

const wide = new Uint16Array(256);
const narrow = Buffer.allocUnsafe(256);

/** `searchForm(text)` (UPPER(UNACCENT(text))). */
export function unitSearchForm(text: string): string {
  const forms = FORMS ?? (FORMS = formTable());
  let ascii = true;
  let high = 0;
  if (text.length > wide.length) return searchForm(text);
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0x80) ascii = false;
    const form = unit < UNITS ? (forms[unit] as number) : -1;
    if (form < 0) return searchForm(text);
    high |= form;
    wide[i] = form;
  }
  // unaccent leaves an ASCII text as it is: its form is its upper case, as searchForm makes it.
  if (ascii) return text.toUpperCase();
  if (high < 0x100) {
    for (let i = 0; i < text.length; i++) narrow[i] = wide[i] as number;
    return narrow.toString("latin1", 0, text.length);
  }
  return Buffer.from(wide.buffer, 0, 2 * text.length).toString("utf16le");
}

/** Each code unit's form (-1 where it is not one unit, or the unit is half of a surrogate pair): unaccent's rule for it found beside OTHER's, then upper-cased. */
function formTable(): Int32Array {
  const forms = new Int32Array(UNITS).fill(-1);
  const other = unaccent(OTHER);
  for (let unit = 0; unit < UNITS; unit++) {
    const both = unaccent(String.fromCharCode(unit) + OTHER);
    if (!both.endsWith(other)) continue;
    const form = both.slice(0, both.length - other.length).toUpperCase();
    if (form.length === 1) forms[unit] = form.charCodeAt(0);
  }
  return forms;
}
