/**
 * The frame every page for people shares (the institution's page, the results page, the branded
 * 404): Croatian first with English marked beside it, one h1, a skip link, a style readable at
 * 360 px, and no inline script (the search script is a file: the Content-Security-Policy allows
 * `script-src 'self'` only).
 */
import { escapeHtml } from "./html-text.ts";
import { SEARCH_SCRIPT_PATH, SEARCH_STYLE } from "./page-style.ts";

/**
 * The policy of every HTML answer: scripts only from the site itself (never inline), requests only
 * to it, forms only to it; the style inline (it holds no value from the data).
 */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** The style of the pages for people: the search form's, then the page's own. */
export const PAGE_STYLE = `${SEARCH_STYLE}
body { font: 16px/1.5 system-ui, sans-serif; max-width: 64rem; margin: 0 auto; padding: 1rem; color: #1a1a1a; background: #fff; overflow-wrap: anywhere; }
a { color: #0b4f9c; }
.en { color: #333; }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 1rem; top: 1rem; background: #fff; padding: 0.5rem; }
nav.crumbs { margin-bottom: 1rem; }
table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
th, td { border: 1px solid #767676; padding: 0.3rem 0.5rem; text-align: left; vertical-align: top; }
thead th { background: #eef1f5; }
code { background: #f3f3f3; border-radius: 3px; padding: 0 0.2rem; }
.fields th { width: 30%; }
.fields td p { margin: 0; }
@media (max-width: 40rem) { .fields th, .fields td { display: block; width: auto; border-width: 0 0 1px; } .fields thead { display: none; } }`;

/** A page's parts: title (already text), what goes into `<head>` and into `<main>`. */
export interface PageParts {
  readonly title: string;
  readonly description?: string;
  readonly head?: string;
  readonly main: string;
  /** The search script is loaded by the pages that hold the search form. */
  readonly script?: boolean;
}

/** A whole page in the frame. */
export function pageHtml(parts: PageParts): string {
  return `<!doctype html>
<html lang="hr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(parts.title)}</title>
${parts.description === undefined ? "" : `<meta name="description" content="${escapeHtml(parts.description)}">\n`}${parts.head ?? ""}<style>
${PAGE_STYLE}
</style>
${parts.script === true ? `<script src="${SEARCH_SCRIPT_PATH}" defer></script>\n` : ""}</head>
<body>
<a class="skip" href="#sadrzaj">Preskoči na sadržaj <span lang="en">/ Skip to content</span></a>
<nav class="crumbs" aria-label="Putokaz / Breadcrumb"><a href="/">Registar subjekata <span lang="en">/ Registry of Subjects</span></a></nav>
<main id="sadrzaj">
${parts.main}
</main>
</body>
</html>
`;
}
