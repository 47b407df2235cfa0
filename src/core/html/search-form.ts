/**
 * The search form, on `/`, on the results page and on the 404 page: a GET form to the results
 * page (`/trazi/`), so it works without JavaScript; the search script (search-script.ts) answers
 * as the person types from the list API with the same parameters. Its names are the list's query
 * parameters: `search` (DRF's SearchFilter), `razina` and `institucija_grad` (django-filter),
 * `ordering` (DRF's OrderingFilter).
 */
import { escapeHtml } from "./html-text.ts";

/** The results page's path: the form's action. */
export const RESULTS_PATH = "/trazi/";

/** The form's values, as the request gave them. */
export interface SearchValues {
  readonly search?: string;
  readonly razina?: string;
  readonly institucija_grad?: string;
  readonly ordering?: string;
}

/** The levels the registry holds (the spec's `razina` values). */
const LEVELS: readonly (readonly [value: string, hr: string, en: string])[] = [
  ["", "sve razine", "every level"],
  ["lokalna", "lokalna", "local"],
  ["nacionalna", "nacionalna", "national"],
];

/** The orderings offered: OrderingFilter's field names, `-` for descending. */
const ORDERINGS: readonly (readonly [value: string, hr: string, en: string])[] = [
  ["", "po redu u registru", "registry order"],
  ["naziv_subjekta", "naziv A–Ž", "name A–Z"],
  ["-naziv_subjekta", "naziv Ž–A", "name Z–A"],
  ["institucija_grad", "mjesto A–Ž", "town A–Z"],
  ["-datum_postanka", "najnoviji prvi", "newest first"],
  ["datum_postanka", "najstariji prvi", "oldest first"],
];

function options(choices: typeof LEVELS, chosen: string | undefined): string {
  return choices
    .map(
      ([value, hr, en]) =>
        `<option value="${escapeHtml(value)}"${value === (chosen ?? "") ? " selected" : ""}>${escapeHtml(hr)} / ${escapeHtml(en)}</option>`,
    )
    .join("");
}

/** The form, its fields holding `values` (text in attributes, escaped). */
export function searchForm(values: SearchValues): string {
  const value = (text: string | undefined): string => (text === undefined ? "" : ` value="${escapeHtml(text)}"`);
  return `<form id="trazi" class="search" role="search" action="${RESULTS_PATH}" method="get">
<label class="query" for="search">Naziv, mjesto, OIB ili kontakt <span lang="en" class="en">/ Name, town, OIB or contact</span>
<input id="search" name="search" type="search" autocomplete="off" spellcheck="false"${value(values.search)}></label>
<label for="razina">Razina <span lang="en" class="en">/ Level</span>
<select id="razina" name="razina">${options(LEVELS, values.razina)}</select></label>
<label for="institucija_grad">Mjesto <span lang="en" class="en">/ Town</span>
<input id="institucija_grad" name="institucija_grad" type="text" autocomplete="off"${value(values.institucija_grad)}></label>
<label for="ordering">Poredak <span lang="en" class="en">/ Order</span>
<select id="ordering" name="ordering">${options(ORDERINGS, values.ordering)}</select></label>
<button type="submit">Traži <span lang="en">/ Search</span></button>
</form>`;
}
