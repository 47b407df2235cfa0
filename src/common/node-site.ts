/**
 * A built site in a directory of this machine, as the core's handler reaches a host's files: the
 * preview's and `subjekti serve`'s (the manifest followed as rebuilds replace it, serve/site-manifest.ts)
 * and `subjekti check`'s (one build, its manifest read once). Files are read and kept (pages,
 * records chunks and their offsets as bytes; the key indexes as text). A name the manifest gives is
 * read only when it resolves inside the directory, whatever a tampered manifest names.
 * Reading a page whole and keeping it serves it faster than streaming it (BENCHMARKS.md: streaming
 * from a FileHandle ran at about half raw serve-handler's rate).
 */
import { readFile } from "node:fs/promises";
import { resolve, sep } from "node:path";
import type { SiteHost } from "../core/answer-request.ts";
import { KeptFiles } from "../core/kept-files.ts";
import type { SiteState } from "../core/manifest.ts";
import { isErrno } from "./machine-error.ts";

/**
 * The site's files on this machine; `origin`, set by the preview once it listens (its own address),
 * is where links go when a request has no usable Host (absent: the manifest's base URL).
 */
export type NodeSite = SiteHost<Buffer> & { origin?: string };

/** Where the manifest comes from: followed (the preview's ManifestWatcher) or one build's, fixed (the check's). */
export interface ManifestSource {
  current(): Promise<SiteState>;
  refresh(): Promise<void>;
}

export interface NodeSiteOptions {
  /** The hosts answered (Django's ALLOWED_HOSTS); every host when absent. */
  readonly allowedHosts?: readonly string[] | undefined;
  /** What the answer to an unusable site tells the reader to do (default: run the build). */
  readonly fix?: string;
}

/** The site in `dir`, its manifest from `manifest`. */
export function nodeSite(dir: string, manifest: ManifestSource, { allowedHosts, fix }: NodeSiteOptions = {}): NodeSite {
  // insidePath joins a plain name to the directory as it is: it must be absolute and normal.
  const root = resolve(dir);
  const pages: KeptReads<Buffer> = { kept: new KeptFiles((bytes) => bytes.length, KEPT_BYTES), read: (path) => readFile(path) };
  const chunks: KeptReads<string> = { kept: new KeptFiles((text) => text.length, KEPT_BYTES), read: (path) => readFile(path, "utf8") };
  return {
    manifest: () => manifest.current(),
    refresh: () => manifest.refresh(),
    async readPage(path) {
      const bytes = await readInside(root, pages, path);
      return bytes === null ? null : { body: bytes, length: bytes.length };
    },
    readChunk: (path) => readInside(root, chunks, path),
    // Records chunks and their offsets as bytes, kept with the pages: a derived page is cut from them, never decoded.
    readBytes: (path) => readInside(root, pages, path),
    readRange: async (path, start, end) => (await readInside(root, pages, path))?.subarray(start, end) ?? null,
    fix: fix ?? "Run `npm run build`.",
    ...(allowedHosts === undefined ? {} : { allowedHosts }),
  };
}

/** Each kind of file kept up to this many bytes: a few dozen default-sized chunks, thousands of pages. */
const KEPT_BYTES = 32 * 1024 * 1024;

/** Files of one kind, kept, and how one is read. */
interface KeptReads<T> {
  readonly kept: KeptFiles<T>;
  readonly read: (absolutePath: string) => Promise<T>;
}

/** A manifest-named file, kept; null when it is missing or its name would leave the site. */
function readInside<T>(dir: string, files: KeptReads<T>, path: string): Promise<T | null> {
  const absolute = insidePath(dir, path);
  if (absolute === null) return Promise.resolve(null);
  return files.kept.get(absolute, () => files.read(absolute).catch(missingAsNull));
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
  const code = isErrno(error) ? error.code : undefined;
  if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR") return null;
  throw error;
}
