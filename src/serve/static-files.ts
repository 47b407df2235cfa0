/**
 * What the core leaves to the static site (the landing page's neighbours, the change feed's files,
 * the downloads): served from the site directory by serve-handler, with the headers the core's
 * table gives each published file, and a download's strong ETag and media type from the manifest.
 */
import { createReadStream, type Stats } from "node:fs";
import { lstat, realpath } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join, sep } from "node:path";
import serveHandler from "serve-handler";
import { downloadEtag, downloadMediaType, staticFileHeaders } from "../core/download-files.ts";
import { matchesIfNoneMatch } from "../core/etag.ts";
import { describeError } from "../core/errors.ts";
import { rangeAnswer } from "./byte-range.ts";
import type { ServedSite } from "./served-site.ts";
import { isErrno } from "../common/machine-error.ts";

/** Answers `req` with the static file at `url` (the target the core handed back). */
export async function serveStatic(site: ServedSite, url: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = new URL(url, "http://x").pathname;
  // A download's stable name is sent from the content-named file the manifest names: its bytes,
  // ETag and size then come from one manifest, whatever a build is switching meanwhile.
  const target = await currentDownload(site, path);
  req.url = target ?? url;
  const file = await regularFile(site.dir, target ?? path);
  // The change feed's files and the downloads: readable from any origin, cached as their table
  // says; a miss is not kept (a client polling for the next diff would cache its 404).
  for (const [name, value] of staticFileHeaders(path) ?? [])
    res.setHeader(name, file === null && name === "Cache-Control" ? "no-store" : value);
  if (await answeredDownload(site, path, req, res)) return;
  if (answeredRange(file, path, req, res)) return;
  await serveHandler(req, res, { public: site.dir, directoryListing: false, symlinks: false, etag: false }, staticFiles(site.dir, res));
}

/**
 * The file at a static path, if it is a regular file inside the site (a directory, a symlink and
 * anything missing are serve-handler's 404 or redirect, never ranged).
 */
async function regularFile(dir: string, path: string): Promise<Stats | null> {
  try {
    const stats = await lstatInside(realpath(dir), join(dir, decodeURIComponent(path)));
    return stats.isFile() ? stats : null;
  } catch (error) {
    if (isErrno(error, "ENOENT") || error instanceof URIError) return null;
    throw error;
  }
}

/**
 * Decides a Range here (byte-range.ts), where serve-handler ignores If-Range, sends a part for
 * several ranges and its whole file with a 416: true when the 416 is answered. Otherwise the
 * request leaves with one range serve-handler sends as a 206, or none (the whole file: always so
 * for what is not a regular file).
 */
function answeredRange(file: Stats | null, path: string, req: IncomingMessage, res: ServerResponse): boolean {
  // serve-handler redirects a name ending in .html to its clean URL: not a file to cut.
  if (file === null || path.endsWith(".html")) {
    delete req.headers.range;
    return false;
  }
  const etag = res.getHeader("ETag");
  const range = req.headers.range;
  const ifRange = req.headers["if-range"];
  const answer = rangeAnswer(req.method ?? "GET", range, typeof ifRange === "string" ? ifRange : undefined, {
    size: file.size,
    etag: typeof etag === "string" ? etag : undefined,
    modified: file.mtime,
  });
  switch (answer.kind) {
    case "whole":
      delete req.headers.range;
      return false;
    case "part":
      req.headers.range = `bytes=${answer.start}-${answer.end}`;
      return false;
    case "unsatisfiable":
      res.setHeader("Content-Range", `bytes */${file.size}`);
      res.setHeader("Cache-Control", "no-store");
      res.writeHead(416, { "Content-Length": "0" }).end();
      return true;
  }
}

/** The content-named path of the download whose stable path is `path`, in the manifest served now. */
async function currentDownload(site: ServedSite, path: string): Promise<string | undefined> {
  const state = await site.files.manifest();
  const downloads = "manifest" in state ? (state.manifest.downloads ?? []) : [];
  return downloads.find((d) => d.path === path)?.immutablePath;
}

/**
 * A download's strong ETag (its SHA-256, from the manifest) and media type; a 304 when the client
 * holds those bytes (true: answered). serve-handler then sends the file, honouring Range.
 */
async function answeredDownload(site: ServedSite, path: string, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const state = await site.files.manifest();
  const downloads = "manifest" in state ? (state.manifest.downloads ?? []) : [];
  const etag = downloadEtag(path, downloads);
  if (etag === undefined) return false;
  res.setHeader("ETag", etag);
  res.setHeader("Content-Type", downloadMediaType(path, downloads) ?? "application/octet-stream");
  if ((req.method === "GET" || req.method === "HEAD") && matchesIfNoneMatch(req.headers["if-none-match"], etag)) {
    res.writeHead(304).end();
    return true;
  }
  return false;
}

/**
 * The file system as serve-handler sees it for one request. Its `symlinks: false` looks at the
 * last path component only, so every path it looks at is resolved whole and must stay inside the
 * site; and it pipes a read stream into the answer without closing it when the client goes away
 * (one descriptor leaked per reset request) nor handling its errors (an EMFILE ended the process).
 */
function staticFiles(
  dir: string,
  res: ServerResponse,
): { lstat: typeof import("node:fs").lstat; createReadStream: typeof createReadStream } {
  const root = realpath(dir);
  return {
    lstat: ((path: string) => lstatInside(root, path)) as unknown as typeof import("node:fs").lstat,
    createReadStream: ((path: string, options?: Parameters<typeof createReadStream>[1]) => {
      const stream = createReadStream(path, options);
      stream.on("error", () => res.destroy());
      // The connection, not the answer: a pipelined answer has no socket yet, and the client
      // may have gone while serve-handler looked the file up (then "close" is past).
      const socket = res.req.socket;
      if (socket.destroyed) {
        stream.destroy();
      } else {
        const stop = (): void => void stream.destroy();
        socket.once("close", stop);
        stream.once("close", () => socket.off("close", stop));
      }
      return stream;
    }) as typeof createReadStream,
  };
}

/**
 * `lstat` of a path whose real path (every symlink on the way resolved) lies inside the site.
 * serve-handler answers 500 on any error but ENOENT (ENAMETOOLONG, EACCES, ELOOP…): they are all
 * "not found" here, as is a path that leads out of the site.
 */
async function lstatInside(root: Promise<string>, path: string): Promise<Stats> {
  try {
    const [site, real] = await Promise.all([root, realpath(path)]);
    if (real !== site && !real.startsWith(site + sep)) throw new Error(`${path} leads out of the site`);
    return await lstat(path);
  } catch (error) {
    const code = isErrno(error) ? error.code : undefined;
    if (code === "ENOENT" || code === "ENOTDIR") throw error;
    throw Object.assign(new Error(`not found: ${describeError(error)}`), { code: "ENOENT" });
  }
}
