/**
 * The sitemap of the pages for people, as the sitemap protocol (sitemaps.org/protocol.html) has
 * it: one `<urlset>` of at most 50,000 URLs, or past that a `<sitemapindex>` at `/sitemap.xml`
 * naming parts of 50,000 URLs each; and the robots.txt that points crawlers to it. Absolute URLs
 * on the build's base URL, every value escaped as XML text.
 */
import { escapeXml } from "../../core/html/html-text.ts";

/** The protocol's limit of URLs in one sitemap file. */
export const SITEMAP_URLS = 50_000;
/** The directory of the sitemap's parts, under the site's root. */
export const SITEMAP_PARTS_DIR = "sitemaps";
const NS = "http://www.sitemaps.org/schemas/sitemap/0.9";
const URLSET_OPEN = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${NS}">\n`;
const URLSET_CLOSE = "</urlset>\n";

/** One URL of a sitemap, with the day it last changed if known. */
export interface SitemapUrl {
  readonly loc: string;
  readonly lastmod?: string;
}

/** A `<urlset>` of these URLs, each escaped whole: the general form, which urlSetOnBase (what writes the parts) must equal. */
export function urlSet(urls: Iterable<SitemapUrl>): string {
  let out = URLSET_OPEN;
  for (const url of urls) {
    out += `<url><loc>${escapeXml(url.loc)}</loc>${url.lastmod === undefined ? "" : `<lastmod>${escapeXml(url.lastmod)}</lastmod>`}</url>\n`;
  }
  return out + URLSET_CLOSE;
}

/**
 * The `<urlset>` urlSet writes for `base` + `/` (when `root`) and then `base` + each path, the
 * paths already safe as XML text: the base is escaped once, not each of 50,000 URLs twice over (the
 * escape is one character at a time, so an escaped base and a safe path join as the escaped URL).
 */
export function urlSetOnBase(base: string, root: boolean, paths: Iterable<string>): string {
  const head = `<url><loc>${escapeXml(base)}`;
  let out = URLSET_OPEN;
  if (root) out += `${head}/</loc></url>\n`;
  for (const path of paths) out += `${head}${path}</loc></url>\n`;
  return out + URLSET_CLOSE;
}

/** A `<sitemapindex>` naming the parts. */
export function sitemapIndex(parts: readonly SitemapUrl[]): string {
  const items = parts
    .map(
      (part) =>
        `<sitemap><loc>${escapeXml(part.loc)}</loc>${part.lastmod === undefined ? "" : `<lastmod>${escapeXml(part.lastmod)}</lastmod>`}</sitemap>\n`,
    )
    .join("");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="${NS}">\n${items}</sitemapindex>\n`;
}

/** robots.txt: everything may be crawled but the site's internal files and the results pages; the sitemap named. */
export function robotsTxt(baseUrl: string): string {
  return `User-agent: *\nDisallow: /_subjekti/\nDisallow: /trazi/\nAllow: /\n\nSitemap: ${baseUrl}/sitemap.xml\n`;
}
