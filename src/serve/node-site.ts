/**
 * The built site as the preview reaches it: files read from the site directory through two
 * caches (pages, records chunks and their offsets as bytes; the key indexes as text), the manifest followed as rebuilds replace it.
 * A name the manifest gives is read only when it resolves inside the directory.
 */
import { resolve, sep } from "node:path";
import type { SiteHost } from "../core/answer-request.ts";
import { BYTES, FileCache, TEXT } from "./file-cache.ts";
import type { ManifestWatcher } from "./site-manifest.ts";

/** The preview's site; `origin` (the listening address) is where links go when a request has no usable Host. */
export type NodeSite = SiteHost<Buffer> & { origin: string };

/** The site in `dir` (absolute), its manifest followed by `manifest`, answering `allowedHosts` (all when undefined). */
export function nodeSite(dir: string, manifest: ManifestWatcher, allowedHosts?: readonly string[]): NodeSite {
  const pages = new FileCache(BYTES);
  const chunks = new FileCache(TEXT);
  return {
    manifest: () => manifest.current(),
    refresh: () => manifest.refresh(),
    async readPage(path) {
      const bytes = await readInside(dir, pages, path);
      return bytes === null ? null : { body: bytes, length: bytes.length };
    },
    readChunk: (path) => readInside(dir, chunks, path),
    // Records chunks and their offsets as bytes, kept with the pages: a derived page is cut from them, never decoded.
    readBytes: (path) => readInside(dir, pages, path),
    readRange: async (path, start, end) => (await readInside(dir, pages, path))?.subarray(start, end) ?? null,
    origin: "",
    fix: "Run `npm run build`.",
    ...(allowedHosts === undefined ? {} : { allowedHosts }),
  };
}

/** A manifest-named file through its cache; null when it is missing or its name would leave the site. */
function readInside<T>(dir: string, cache: FileCache<T>, path: string): Promise<T | null> {
  const absolute = insidePath(dir, path);
  return absolute === null ? Promise.resolve(null) : cache.read(absolute).catch(missingAsNull);
}

/**
 * The absolute path of a name inside `dir`, or null when it would leave it. A relative name
 * without `..` cannot leave, and is joined without `resolve` (a path walk on every request).
 */
function insidePath(dir: string, path: string): string | null {
  if (path.includes("\0")) return null;
  if (!path.startsWith("/") && !path.includes("..")) return `${dir}${sep}${path}`;
  const absolute = resolve(dir, path);
  return absolute.startsWith(dir + sep) ? absolute : null;
}

function missingAsNull(error: unknown): null {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR") return null;
  throw error;
}
