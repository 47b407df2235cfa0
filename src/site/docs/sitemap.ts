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
/** The directory at the site's root where a build's crawl files wait for the switch, `<this><pid>` (write-crawl-files.ts). */
export const CRAWL_TEMP = ".crawl.tmp-";
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
 * UrlSetBytes's text: the parts are written by that, so this is what the tests hold to urlSet.
 */
export function urlSetOnBase(base: string, root: boolean, paths: Iterable<string>): string {
  const set = new UrlSetBytes(base);
  set.open(root);
  for (const path of paths) set.add(path);
  return set.close().toString("utf8");
}

/**
 * urlSetOnBase's bytes (what writes the sitemap's parts), written a URL at a time into one buffer the writer keeps for every part it
 * writes: a part as a string (some 4 MB at 50,000 URLs) and then its Buffer were fresh memory a
 * part, and on this build's machine each fresh page costs a page fault (some 20,000 a million
 * subjects, for twenty parts). `open` starts a set, `add` writes a path's URL, `close` ends it and
 * gives its bytes: a view of the kept buffer, valid until the next `open`.
 */
export class UrlSetBytes {
  readonly #head: string;
  #bytes: Buffer = Buffer.allocUnsafeSlow(0);
  #at = 0;

  constructor(base: string) {
    this.#head = `<url><loc>${escapeXml(base)}`;
  }

  /** Starts a set: `base` + `/` first when `root`. */
  open(root: boolean): void {
    this.#at = 0;
    this.#write(URLSET_OPEN);
    if (root) this.#write(`${this.#head}/</loc></url>\n`);
  }

  /** Adds `base` + `path` (a path already safe as XML text). */
  add(path: string): void {
    this.#write(`${this.#head}${path}</loc></url>\n`);
  }

  /** Ends the set: its bytes, the kept buffer's first ones. */
  close(): Buffer {
    this.#write(URLSET_CLOSE);
    return this.#bytes.subarray(0, this.#at);
  }

  #write(text: string): void {
    // A UTF-16 unit is at most 3 bytes of UTF-8.
    if (this.#at + 3 * text.length > this.#bytes.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(2 * this.#bytes.length, this.#at + 3 * text.length, 1 << 16));
      this.#bytes.copy(grown, 0, 0, this.#at);
      this.#bytes = grown;
    }
    this.#at += this.#bytes.write(text, this.#at);
  }
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
