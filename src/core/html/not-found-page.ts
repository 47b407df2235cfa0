/**
 * The branded 404 page, in Croatian and English: what a person sees for an institution that does
 * not exist and, on routed hosts and on Netlify, Cloudflare and serve-handler's `404.html`, for any
 * other path that names no file.
 */
import { pageHtml } from "./page-frame.ts";
import { searchForm } from "./search-form.ts";

/** The 404 page's HTML. */
export function notFoundPage(): string {
  return pageHtml({
    title: "Stranica nije pronađena · Page not found",
    head: '<meta name="robots" content="noindex">\n',
    script: true,
    main: `<h1>Stranica nije pronađena <span lang="en" class="en">/ Page not found</span></h1>
<p>Na ovoj adresi nema stranice ni subjekta. Možda je poveznica pogrešna ili je subjekt uklonjen iz registra. Potražite ga po nazivu, mjestu ili OIB-u:</p>
<p lang="en" class="en">There is no page or subject at this address. The link may be wrong, or the subject may have left the registry. Look for it by its name, town or OIB:</p>
${searchForm({})}
<p><a href="/">Početna stranica registra</a> <span lang="en" class="en">/ <a href="/">The registry's home page</a></span></p>`,
  });
}
