/**
 * The landing page's search section: the search form (core/html/search-form.ts) with the live
 * region its script fills as the person types, and what the landing page's `<head>` gains for it
 * and for harvesters (the catalogue and the Data Package as `<link rel="alternate">`).
 */
import { SEARCH_SCRIPT_PATH } from "../../core/html/page-frame.ts";
import { searchForm } from "../../core/html/search-form.ts";

/** The search section's own style: the form's, the results' and the focus ring (the page's is the landing page's). */
const SEARCH_STYLE = `.search { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: end; margin: 1rem 0; padding: 1rem; background: #eef1f5; border-radius: 4px; }
.search label { display: flex; flex-direction: column; font-weight: bold; }
.search input, .search select, .search button { font: inherit; padding: 0.4rem; border: 1px solid #595959; border-radius: 3px; min-height: 2.75rem; box-sizing: border-box; max-width: 100%; }
.search .query { flex: 1 1 16rem; }
.search button { background: #0b4f9c; color: #fff; border-color: #0b4f9c; }
a:focus, input:focus, select:focus, button:focus { outline: 3px solid #b35900; outline-offset: 2px; }
.results { padding-left: 1.5rem; }
.results li { margin: 0.5rem 0; }
.meta { color: #333; font-size: 0.9rem; }
body { overflow-wrap: anywhere; }`;

/** What the landing page's `<head>` holds for the search and for harvesters. */
export function searchSectionHead(): string {
  return `<link rel="alternate" type="text/turtle" href="/catalog.ttl" title="DCAT-AP">
<link rel="alternate" type="application/ld+json" href="/catalog.jsonld" title="DCAT-AP">
<link rel="alternate" type="application/json" href="/datapackage.json" title="Data Package">
<script src="${SEARCH_SCRIPT_PATH}" defer></script>
<style>
${SEARCH_STYLE}
</style>
`;
}

/** The search section: the form, the live region that says what was found, and the list of results. */
export function searchSection(): string {
  return `<section aria-labelledby="trazi-naslov">
<h2 id="trazi-naslov">Pronađite instituciju <span lang="en" class="en">/ Find an institution</span></h2>
<p>Upišite dio naziva, mjesto, OIB ili adresu; rezultati se pojavljuju dok pišete. <span lang="en" class="en">Type part of a name, a town, an OIB or an address; results appear as you type.</span></p>
${searchForm({})}
<p id="stanje" role="status" aria-live="polite"></p>
<ol id="rezultati" class="results"></ol>
</section>
`;
}
