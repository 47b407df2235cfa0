/**
 * The links and paths of a site for plain static hosts (`subjekti build --links files`).
 *
 * A plain file server (GitHub Pages, an S3 bucket, nginx without our configuration) cannot route
 * by query, so such a site's pages link to the page files themselves: `next` of the first page of
 * limit 20 is `<base>/api/subjekti/20/20.json`, not DRF's `<base>/api/subjekti/?limit=20&offset=20`.
 * The envelope, the count and the records stay DRF's; only the links differ. One function names
 * a page's file for both the writer and the links, so a link and its file cannot drift apart; one
 * more names each subject's file.
 */
import type { PageLinks } from "./build-links.ts";

/** The directory of the pages, inside the site and as a public path. */
export const FILE_PAGES_DIR = "api/subjekti";

/** The page a client starts from (`<base>/api/subjekti/index.json`): page 0 of the entry limit. */
export const FILE_ENTRY_PATH = `${FILE_PAGES_DIR}/index.json`;

/**
 * The path (inside the site, and after the base URL) of the page of `limit` at `offset`, an
 * offset `limit` divides. Named `.json`, so every file server sends `application/json`.
 */
export function filePagePath(limit: number, offset: number): string {
  return `${FILE_PAGES_DIR}/${limit}/${offset}.json`;
}

/** The limit whose page 0 is the entry page: DRF's default limit when it is pre-rendered, else the smallest. */
export function entryLimit(limits: readonly number[], defaultLimit: number): number {
  if (limits.includes(defaultLimit)) return defaultLimit;
  const smallest = Math.min(...limits);
  if (!Number.isFinite(smallest)) throw new Error("a site of plain files needs at least one limit");
  return smallest;
}

/**
 * The links of the page of `limit` at `offset` (a multiple of `limit`): DRF's rules for when they
 * are null (`next` at `offset + limit >= count`, `previous` at offset 0), naming page files.
 */
export function buildFileLinks(baseUrl: string, limit: number, offset: number, count: number): PageLinks {
  const url = (at: number): string => `${baseUrl}/${filePagePath(limit, at)}`;
  return {
    next: offset + limit >= count ? null : url(offset + limit),
    previous: offset <= 0 ? null : url(Math.max(0, offset - limit)),
  };
}

/** Subject files in one directory of a plain site, at most. */
export const SUBJECTS_PER_DIR = 1000;

/**
 * The path of one subject's file in a site of plain files: `api/subjekti/id/<id ÷ 1000>/<id>.json`,
 * its object exactly as `/api/subjekti/<id>/` answers it (a plain host cannot route that path, and
 * a directory of its own keeps ids apart from the limits' directories).
 */
export function fileSubjectPath(id: number): string {
  return `${FILE_PAGES_DIR}/id/${Math.floor(id / SUBJECTS_PER_DIR)}/${id}.json`;
}

/** The directory of the institutions' pages on a site of plain files. */
export const FILE_SUBJECT_PAGES_DIR = "subjekti";

/**
 * The path of a subject's page for people on a site of plain files: `subjekti/<id ÷ 1000>/<id>.html`,
 * a thousand a directory as the JSON files are (a routed host answers `/subjekti/<id>/` instead).
 */
export function fileSubjectPagePath(id: number): string {
  return `${FILE_SUBJECT_PAGES_DIR}/${Math.floor(id / SUBJECTS_PER_DIR)}/${id}.html`;
}
