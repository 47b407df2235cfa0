/**
 * What every page for people shares and loads: the search form's style and the search script's
 * path. A leaf, so the frame and the landing page reach it without a chain.
 */

/** The search form's and its results' style, on every page that holds them; fits 360 px. */
export const SEARCH_STYLE = `.search { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: end; margin: 1rem 0; padding: 1rem; background: #eef1f5; border-radius: 4px; }
.search label { display: flex; flex-direction: column; font-weight: bold; min-width: 0; max-width: 100%; }
.search input, .search select, .search button { font: inherit; padding: 0.4rem; border: 1px solid #595959; border-radius: 3px; min-height: 2.75rem; box-sizing: border-box; max-width: 100%; }
.search .query { flex: 1 1 16rem; }
.search button { background: #0b4f9c; color: #fff; border-color: #0b4f9c; }
a:focus, input:focus, select:focus, button:focus { outline: 3px solid #b35900; outline-offset: 2px; }
.results { padding-left: 1.5rem; }
.results li { margin: 0.5rem 0; }
.meta { color: #333; font-size: 0.9rem; }`;

/** The path of the search script (published-files.ts serves it). */
export const SEARCH_SCRIPT_PATH = "/pretraga.js";
