/**
 * The one fixture site every host test answers from: test/fixtures/hosts-site/data (53 subjects,
 * ids with gaps, diacritics, U+2028 / U+2029, an astral character) built into a temp directory,
 * plus an obviously-correct reference of the pages, independent of the code under test.
 */
import { existsSync, readFileSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { buildSite } from "../../src/site/build-site.ts";
import { MANIFEST_PATH } from "../../src/core/layout.ts";
import type { SiteHost } from "../../src/core/answer-request.ts";
import type { Manifest } from "../../src/core/manifest.ts";
import type { Subject } from "../../src/core/render-page.ts";
import { DEFAULT_OPTIONS } from "../../src/site/build-options.ts";
import type { DownloadFormat } from "../../src/core/download-files.ts";
import { tempDir } from "../file-trees.ts";

export const FIXTURE_DATA = join(import.meta.dirname, "../fixtures/hosts-site/data");
/** The public origin the fixture is built for: links in the pre-rendered pages start with it. */
export const BASE = "http://testserver";
export const COLLECTION = `${BASE}/api/subjekti/`;
export const CACHE_CONTROL = "public, max-age=60";
export const FIXTURE_OPTIONS = {
  dataDir: FIXTURE_DATA,
  limits: [7, 20],
  forms: ["plain", "api"],
  maxLimit: 25,
  baseUrl: BASE,
  cacheControl: CACHE_CONTROL,
  strict: true,
  quiet: true,
  // Host tests build fixed fixtures once: no build cache to leave behind.
  cacheDir: null,
} as const;

/** The fixture's records as the data file holds them, in ascending id (the file's order). */
export const RECORDS: readonly Record<string, unknown>[] = (
  JSON.parse(readFileSync(join(FIXTURE_DATA, "subjekti.json"), "utf8")) as Record<string, unknown>[]
).toSorted((a, b) => Number(a["id"]) - Number(b["id"]));
export const COUNT = RECORDS.length;

/** A record's bytes in a page: its JSON, with U+2028 and U+2029 escaped as DRF's renderer does. */
function recordJson(record: Record<string, unknown>): string {
  return JSON.stringify(record).replaceAll("\u2028", "\\u2028").replaceAll("\u2029", "\\u2029");
}

/** The expected page: records [offset, offset + limit) and the two links given literally. */
export function page(offset: number, limit: number, next: string | null, previous: string | null): string {
  const link = (url: string | null): string => (url === null ? "null" : `"${url}"`);
  const results = RECORDS.slice(offset, offset + limit)
    .map(recordJson)
    .join(",");
  return `{"count":${COUNT},"next":${link(next)},"previous":${link(previous)},"results":[${results}]}`;
}

/** Builds the fixture site into a fresh temp directory; `remove` deletes it. */
export async function buildFixture(data = FIXTURE_DATA): Promise<{ dir: string; manifest: Manifest; remove: () => Promise<void> }> {
  const root = await tempDir("subjekti-hosts-");
  const dir = join(root, "site");
  await buildSite({ ...FIXTURE_OPTIONS, dataDir: data, outDir: dir });
  const manifest = JSON.parse(await readFile(join(dir, MANIFEST_PATH), "utf8")) as Manifest;
  return { dir, manifest, remove: () => rm(root, { recursive: true, force: true }) };
}

/**
 * A site of `subjects` (an NDJSON source, compact pages of 20, no feed, no cache) built for BASE
 * into a fresh temp directory named after `prefix`: the generated sites of the lookup tests. Every
 * default download unless `downloads` names fewer (a test that reads only the search files, pages
 * and chunks makes none).
 */
export async function buildSubjectsSite(
  prefix: string,
  subjects: readonly Subject[],
  downloads?: readonly DownloadFormat[],
): Promise<{ dir: string; manifest: Manifest; remove: () => Promise<void> }> {
  const root = await tempDir(prefix);
  const data = join(root, "data");
  const dir = join(root, "site");
  await mkdir(data);
  await writeFile(join(data, "subjekti.ndjson"), subjects.map((s) => JSON.stringify(s)).join("\n") + "\n");
  await buildSite({
    ...DEFAULT_OPTIONS,
    dataDir: data,
    outDir: dir,
    baseUrl: BASE,
    limits: [20],
    forms: ["plain"],
    quiet: true,
    cacheDir: null,
    feed: false,
    ...(downloads === undefined ? {} : { downloads }),
  });
  const manifest = JSON.parse(await readFile(join(dir, MANIFEST_PATH), "utf8")) as Manifest;
  return { dir, manifest, remove: () => rm(root, { recursive: true, force: true }) };
}

/**
 * A built site as the core's hosts read it from disk: `site` reads whole files, `rangeSite` also
 * byte ranges (only the records wanted are read), as a CDN that serves Range does.
 */
export function diskHosts(dir: string, manifest: Manifest): { site: SiteHost<Uint8Array>; rangeSite: SiteHost<Uint8Array> } {
  const site: SiteHost<Uint8Array> = {
    manifest: async () => ({ manifest }),
    refresh: async () => undefined,
    readPage: async (path) => {
      const body = readFileSync(join(dir, path));
      return { body, length: body.length };
    },
    readChunk: async (path) => (existsSync(join(dir, path)) ? readFileSync(join(dir, path), "utf8") : null),
    fix: "",
  };
  const rangeSite: SiteHost<Uint8Array> = {
    ...site,
    readRange: async (path, start, end) => (existsSync(join(dir, path)) ? readFileSync(join(dir, path)).subarray(start, end) : null),
  };
  return { site, rangeSite };
}
