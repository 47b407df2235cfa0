/**
 * The one reader of a built site's manifest on the Node side: the writer (the previous site's
 * directories and bytes), the build's changes (the previous site-wide facts) and downloads (the
 * previous ones, kept a while), the preview and `serve`, `check`, `nginx` and the watcher all
 * read `<dir>/_subjekti/manifest.json` through it, so a site with no manifest, or one this
 * version cannot route, is told in one wording wherever it is met. The manifest's rules are the
 * core's (readManifest).
 */
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { MANIFEST_PATH } from "../core/layout.ts";
import { type Manifest, readManifest, type SiteState } from "../core/manifest.ts";
import { msg } from "./messages/message.ts";
import { failure } from "./messages/translate.ts";
import { isErrno } from "./machine-error.ts";

/** What the site in a directory holds as its manifest. */
export interface ManifestFile {
  /** The file's bytes; null when there is none (no file, or no such directory). */
  readonly bytes: Buffer | null;
  /** The file parsed as JSON, whatever its shape (an older layout's too); undefined when there is none or it is not JSON. */
  readonly json: unknown;
  /** The manifest, or why the site cannot answer (the core's wording). */
  readonly state: SiteState;
}

/** Reads `dir`'s manifest file; only a failure other than its absence (a permission, an I/O error) is thrown. */
export async function readManifestFile(dir: string): Promise<ManifestFile> {
  let bytes: Buffer;
  try {
    bytes = await readFile(join(dir, MANIFEST_PATH));
  } catch (error) {
    const code = isErrno(error) ? error.code : undefined;
    if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
    const isDirectory = await stat(dir).then(
      (s) => s.isDirectory(),
      () => false,
    );
    return { bytes: null, json: undefined, state: { problem: isDirectory ? `${MANIFEST_PATH} is missing` : "no such directory" } };
  }
  const text = bytes.toString("utf8");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { bytes, json, state: readManifest(text) };
}

/** The manifest `file` holds; else the one error for a directory with no usable site, with what to do. */
export function manifestOf(dir: string, file: ManifestFile): Manifest {
  if ("manifest" in file.state) return file.state.manifest;
  if (file.bytes === null) throw failure("NO_SITE", msg("error.no-built-site", { dir, detail: file.state.problem }));
  throw failure("NO_SITE", msg("error.unusable-site", { dir, problem: file.state.problem, again: true }));
}

/** The manifest of the site in `dir`; throws SubjektiError (NO_SITE) when there is no usable site. */
export async function readSiteManifest(dir: string): Promise<Manifest> {
  return manifestOf(dir, await readManifestFile(dir));
}
