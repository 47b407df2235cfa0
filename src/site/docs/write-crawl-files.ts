/**
 * The build's stage for crawlers and lost visitors: `sitemap.xml` (its parts under `sitemaps/`
 * past 50,000 URLs), `robots.txt` and `404.html` (the branded page Netlify, Cloudflare's assets and
 * serve-handler answer for a path no file holds), plain files at the site's root beside the
 * downloads. The ids come from the records chunks, each line starting `{"id":<n>,`. Each file is
 * written under a temporary name and renamed into place; parts a smaller list no longer has are
 * removed.
 */
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { notFoundPage } from "../../core/html/not-found-page.ts";
import { subjectPagePath } from "../../core/html/subject-view.ts";
import { robotsTxt, SITEMAP_PARTS_DIR, SITEMAP_URLS, sitemapIndex, type SitemapUrl, urlSet } from "./sitemap.ts";

/** What the stage needs of the build. */
export interface CrawlFacts {
  readonly baseUrl: string;
  /** The records chunks: how many, and where each is. */
  readonly chunks: number;
  chunkPath(chunk: number): string;
}

const ID_START = Buffer.from('{"id":');

/** What the stage did, in the write report's terms. */
export interface CrawlReport {
  readonly files: number;
  readonly written: number;
  readonly unchanged: number;
  readonly bytesWritten: number;
}

/** Writes sitemap.xml (and its parts), robots.txt and 404.html into `outDir`, each only when its bytes change. */
export async function writeCrawlFiles(outDir: string, facts: CrawlFacts): Promise<CrawlReport> {
  const tally = { files: 0, written: 0, unchanged: 0, bytesWritten: 0 };
  /** A file written whole under a temporary name and renamed into place; left alone when it holds these bytes already. */
  const put = async (dir: string, name: string, text: string): Promise<void> => {
    const bytes = Buffer.from(text);
    tally.files += 1;
    const old = await readFile(join(dir, name)).catch(() => null);
    if (old !== null && old.equals(bytes)) {
      tally.unchanged += 1;
      return;
    }
    const temporary = join(dir, `.${name}.tmp-${process.pid}`);
    await writeFile(temporary, bytes);
    await rename(temporary, join(dir, name));
    tally.written += 1;
    tally.bytesWritten += bytes.length;
  };
  // No lastmod: the pages change with records whose dates the build does not keep, and a sitemap that
  // changes only with the list's ids is rewritten only then.
  // One part's URLs at a time (50,000): the whole list's, held at once, grew with the count (some
  // 120 bytes a subject, 600 MB at five million) and made this stage the build's peak.
  const partsDir = join(outDir, SITEMAP_PARTS_DIR);
  const written = new Set<string>();
  const parts: SitemapUrl[] = [];
  let part: SitemapUrl[] = [{ loc: `${facts.baseUrl}/` }];
  const writePart = async (): Promise<void> => {
    if (parts.length === 0) await mkdir(partsDir, { recursive: true });
    const name = `subjekti-${parts.length + 1}.xml`;
    await put(partsDir, name, urlSet(part));
    written.add(name);
    parts.push({ loc: `${facts.baseUrl}/${SITEMAP_PARTS_DIR}/${name}` });
    part = [];
  };
  for (let chunk = 0; chunk < facts.chunks; chunk++) {
    for (const id of chunkIds(await readFile(facts.chunkPath(chunk)))) {
      // A full part is written only once a URL past it comes: a list of 50,000 URLs is one urlset, not an index of one.
      if (part.length === SITEMAP_URLS) await writePart();
      part.push({ loc: `${facts.baseUrl}${subjectPagePath(id)}` });
    }
  }
  if (parts.length === 0) {
    await put(outDir, "sitemap.xml", urlSet(part));
  } else {
    await writePart();
    await put(outDir, "sitemap.xml", sitemapIndex(parts));
  }
  const old = await readdir(partsDir).catch(() => []);
  for (const name of old) if (!written.has(name)) await rm(join(partsDir, name), { force: true });
  if (written.size === 0) await rm(partsDir, { recursive: true, force: true });
  await put(outDir, "robots.txt", robotsTxt(facts.baseUrl));
  await put(outDir, "404.html", notFoundPage());
  return tally;
}

/** The ids of a chunk's records, read from each line's start. */
export function* chunkIds(bytes: Uint8Array): Generator<number> {
  let start = 0;
  while (start < bytes.length) {
    let end = bytes.indexOf(0x0a, start);
    if (end < 0) end = bytes.length;
    if (Buffer.from(bytes.buffer, bytes.byteOffset + start, ID_START.length).equals(ID_START)) {
      let id = 0;
      for (let i = start + ID_START.length; i < end && bytes[i]! >= 0x30 && bytes[i]! <= 0x39; i++) id = id * 10 + bytes[i]! - 0x30;
      yield id;
    }
    start = end + 1;
  }
}
