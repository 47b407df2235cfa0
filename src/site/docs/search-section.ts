/**
 * The landing page's search section: the search form (core/html/search-form.ts) with the live
 * region its script fills as the person types, and what the landing page's `<head>` gains for it
 * and for harvesters (the catalogue and the Data Package as `<link rel="alternate">`).
 */
import { SEARCH_SCRIPT_PATH, SEARCH_STYLE } from "../../core/html/page-style.ts";
import { searchForm } from "../../core/html/search-form.ts";

/** What the landing page needs besides its own style to fit 360 px. */
const NARROW_STYLE = `body { overflow-wrap: anywhere; }
@media (max-width: 40rem) { body { margin: 1rem auto; } th, td { padding: 0.2rem; } dl { grid-template-columns: 1fr; } }`;

/** What the landing page's `<head>` holds for the search and for harvesters. */
export function searchSectionHead(): string {
  return `<link rel="alternate" type="text/turtle" href="/catalog.ttl" title="DCAT-AP">
<link rel="alternate" type="application/ld+json" href="/catalog.jsonld" title="DCAT-AP">
<link rel="alternate" type="application/json" href="/datapackage.json" title="Data Package">
<script src="${SEARCH_SCRIPT_PATH}" defer></script>
<style>
${SEARCH_STYLE}
${NARROW_STYLE}
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
