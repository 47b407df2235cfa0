/**
 * The manifest: the few facts the router needs at request time, written by the build as the last
 * file of a site (its replacement is what switches readers to a new build).
 */
import { type Download, isDownloadFormat } from "./download-files.ts";
import { isForm, type Form, MANIFEST_PATH, type ShardHashes } from "./layout.ts";
import { describeError } from "./errors.ts";
import { LAYOUT_VERSION, VERSION } from "./version.ts";

export { LAYOUT_VERSION };

export interface Manifest {
  /** The layout of the files (LAYOUT_VERSION). */
  readonly layout: number;
  /** The version of subjekti that built the site. */
  readonly version: string;
  /** Subjects in the list. */
  readonly count: number;
  /** The largest page size a request gets (DRF's `max_limit`). */
  readonly maxLimit: number;
  /** The page sizes pre-rendered as files, ascending. */
  readonly limits: readonly number[];
  /** The forms of `format` pre-rendered as files. */
  readonly forms: readonly Form[];
  /** Records in one chunk file. */
  readonly chunkSize: number;
  /** The public origin written into the links of the pre-rendered pages. */
  readonly baseUrl: string;
  /** The `Cache-Control` header of every answer. */
  readonly cacheControl: string;
  /** A content hash of everything that shapes an answer (data and options). */
  readonly hash: string;
  /** Shard key -> the content hash in that shard directory's name. */
  readonly dirs: ShardHashes;
  /** The downloads of the whole list (download-files.ts), each with its size and SHA-256; absent when none were written. */
  readonly downloads?: readonly Download[];
  /** The day the data last changed (`YYYY-MM-DD`), which the pages for people show; absent in a site that does not say. */
  readonly published?: string;
}

/** Why `value` is not a manifest this code can route with, or null when it is one. */
export function manifestProblem(value: unknown, version: string): string | null {
  if (typeof value !== "object" || value === null) return "not a JSON object";
  const m = value as Record<string, unknown>;
  if (m["layout"] !== LAYOUT_VERSION || m["version"] !== version) {
    return `built by subjekti ${String(m["version"])} (layout ${String(m["layout"])}); this is subjekti ${version} (layout ${LAYOUT_VERSION})`;
  }
  const isCount = (x: unknown): boolean => Number.isSafeInteger(x) && (x as number) >= 0;
  const isSize = (x: unknown): boolean => Number.isSafeInteger(x) && (x as number) > 0;
  if (!isCount(m["count"])) return "count is not a non-negative integer";
  if (!isSize(m["maxLimit"]) || !isSize(m["chunkSize"])) return "maxLimit or chunkSize is not a positive integer";
  if (!Array.isArray(m["limits"]) || !m["limits"].every(isSize)) return "limits is not a list of positive integers";
  if (!Array.isArray(m["forms"]) || !m["forms"].every((f) => typeof f === "string" && isForm(f))) return "forms is not a list of forms";
  for (const key of ["baseUrl", "cacheControl", "hash"]) {
    if (typeof m[key] !== "string") return `${key} is not a string`;
  }
  const dirs = m["dirs"];
  if (typeof dirs !== "object" || dirs === null || !Object.values(dirs).every((h) => typeof h === "string")) {
    return "dirs is not a map of shard hashes";
  }
  const downloads = m["downloads"];
  if (downloads !== undefined && !(Array.isArray(downloads) && downloads.every(isDownload))) return "downloads is not a list of downloads";
  const published = m["published"];
  if (published !== undefined && !(typeof published === "string" && /^\d{4}-\d{2}-\d{2}$/.test(published)))
    return "published is not a date";
  return null;
}

function isDownload(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const d = value as Record<string, unknown>;
  return (
    typeof d["format"] === "string" &&
    isDownloadFormat(d["format"]) &&
    typeof d["path"] === "string" &&
    typeof d["immutablePath"] === "string" &&
    Number.isSafeInteger(d["bytes"]) &&
    typeof d["sha256"] === "string" &&
    /^[0-9a-f]{64}$/.test(d["sha256"])
  );
}

/** A host's site as the handler sees it: the manifest, or why the site cannot answer right now. */
export type SiteState = { readonly manifest: Manifest } | { readonly problem: string };

/** The site described by the text of its manifest file: the manifest, or what is wrong with it. */
export function readManifest(text: string): SiteState {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: `${MANIFEST_PATH} is not JSON (${describeError(error)})` };
  }
  const problem = manifestProblem(value, VERSION);
  return problem === null ? { manifest: value as Manifest } : { problem: `${MANIFEST_PATH}: ${problem}` };
}
