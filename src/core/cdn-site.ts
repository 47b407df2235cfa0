/**
 * The built site as a fetch host reaches it: every file is a GET through the platform's own file
 * server (Netlify's CDN through `context.next()`, a Cloudflare Worker's static assets binding), the
 * manifest fetched once per instance, the shards' tag lists and the key bounds kept as they are read, and,
 * where the platform serves no ranges, the last chunks read whole. Web APIs only.
 */
import type { FetchSite } from "./answer-request.ts";
import { describeError } from "./errors.ts";
import { KeptFiles } from "./kept-files.ts";
import { BOUNDS_FILE } from "./key-index.ts";
import { ETAGS_FILE, MANIFEST_PATH } from "./layout.ts";
import { readManifest, type SiteState } from "./manifest.ts";

/**
 * The site file at `path` (no leading slash) exactly as the platform serves it to a GET; with
 * `range`, a GET that asks for those bytes alone (`Range: bytes=…`), which the platform may
 * answer with the whole file (200) instead of the part (206).
 */
export type FetchFile = (path: string, range?: ByteRange) => Promise<Response>;

/** Bytes `start` to `end` (exclusive) of a file. */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

/** The `Range` header of a byte range. */
export function rangeHeader(range: ByteRange): string {
  return `bytes=${range.start}-${range.end - 1}`;
}

/**
 * The manifest of one instance: fetched once (concurrent first requests share the fetch), and
 * fetched again after a failure or a missing file, so a request that arrives during a deploy does
 * not leave the instance broken or stale for good.
 */
export class ManifestCache {
  #cached: Promise<SiteState> | null = null;
  /**
   * Tag lists (etag.ts) and the key bounds (key-index.ts) by path: a content-named shard's file
   * never changes, so a warm instance reads a file's tag, or finds a subject's chunk, with no fetch.
   */
  readonly #tagLists = new KeptFiles<string>(() => 1, TAG_LISTS_KEPT);
  /**
   * Records chunks read whole. Where the platform serves no ranges, a derived page reads its chunks
   * whole: through workerd's assets binding a 300 KB chunk costs 2.5–3.4 ms of CPU, two of them more
   * than the rest of the page. So the chunks of the last pages asked stay, up to KEPT_BYTES.
   */
  readonly #chunks = new KeptFiles<Uint8Array>((bytes) => bytes.byteLength, KEPT_BYTES);

  /** The tag list or bounds at `path`, fetched with `load` unless this instance has it. */
  tagList(path: string, load: () => Promise<string | null>): Promise<string | null> {
    return this.#tagLists.get(path, load);
  }

  /**
   * The platform answered a Range with the whole file (workerd's assets do): this instance then
   * reads records chunks whole, one read a chunk, instead of their offsets and then their part.
   */
  rangesIgnored = false;

  /** The bytes of the chunk at `path`, read with `load` unless this instance keeps them. */
  keptBytes(path: string, load: () => Promise<Uint8Array | null>): Promise<Uint8Array | null> {
    return this.#chunks.get(path, load);
  }

  /** The manifest, fetched with `fetchFile` unless this instance has it. */
  get(fetchFile: FetchFile): Promise<SiteState> {
    if (this.#cached === null) {
      const loading = loadManifest(fetchFile);
      this.#cached = loading;
      void loading.then((state) => {
        if ("problem" in state && this.#cached === loading) this.#cached = null;
      });
    }
    return this.#cached;
  }

  /** Forgets the manifest: the next request fetches it again. */
  forget(): void {
    this.#cached = null;
  }
}

/** Tag lists one instance keeps: at about 16 KB each (a thousand pages), some 4 MB (the bounds: 26 KB at 1M subjects). */
const TAG_LISTS_KEPT = 256;
/** Bytes of whole files one instance keeps where ranges are not served: some fifty 300 KB chunks, an eighth of a Worker's 128 MB. */
const KEPT_BYTES = 16 * 1024 * 1024;

async function loadManifest(fetchFile: FetchFile): Promise<SiteState> {
  try {
    const response = await fetchFile(MANIFEST_PATH);
    if (response.status !== 200) {
      await response.body?.cancel();
      return { problem: `there is no manifest (/${MANIFEST_PATH} answered ${response.status})` };
    }
    return readManifest(await response.text());
  } catch (error) {
    return { problem: `${MANIFEST_PATH} could not be read (${describeError(error)})` };
  }
}

/** A site whose files are fetched with `fetchFile`, the manifest kept in `manifests`; `passThrough` answers what is not the API. */
export function cdnSite(fetchFile: FetchFile, passThrough: () => Promise<Response>, manifests: ManifestCache): FetchSite {
  const site: FetchSite = {
    manifest: () => manifests.get(fetchFile),
    refresh: async () => manifests.forget(),
    async readPage(path) {
      const file = await found(fetchFile(path));
      if (file === null || file.body === null) return null;
      // The CDN's own length is the body's when it did not compress it; otherwise the platform sets it.
      const length = file.headers.get("content-encoding") === null ? file.headers.get("content-length") : null;
      return { body: file.body, length: length === null ? null : Number(length) };
    },
    async readChunk(path) {
      const read = async (): Promise<string | null> => {
        const file = await found(fetchFile(path));
        return file === null ? null : file.text();
      };
      return path.endsWith(`/${ETAGS_FILE}`) || path.endsWith(`/${BOUNDS_FILE}`) ? manifests.tagList(path, read) : read();
    },
    async readBytes(path) {
      const read = async (): Promise<Uint8Array | null> => {
        const file = await found(fetchFile(path));
        // The runtime's own collection of the body (workerd's is native; a JS loop over its parts cost more).
        return file === null ? null : new Uint8Array(await file.arrayBuffer());
      };
      return manifests.rangesIgnored ? manifests.keptBytes(path, read) : read();
    },
    fix: "Rebuild and redeploy it.",
    passThrough,
  };
  if (manifests.rangesIgnored) return site;
  return {
    ...site,
    async readRange(path, start, end) {
      if (end <= start) return new Uint8Array(0);
      const file = await fetchFile(path, { start, end });
      if (file.status === 206 && file.headers.get("content-range")?.startsWith(`bytes ${start}-`) === true)
        return readBody(file, end - start);
      // The whole file: a platform that does not serve ranges. Read whole and kept, as this instance's next reads will be.
      if (file.status === 200) {
        manifests.rangesIgnored = true;
        const whole = await manifests.keptBytes(path, async () => new Uint8Array(await file.arrayBuffer()));
        return whole === null ? null : whole.subarray(start, end);
      }
      await file.body?.cancel();
      const whole = await found(fetchFile(path));
      return whole === null ? null : (await readBody(whole, end)).subarray(start, end);
    },
  };
}

/**
 * A body's first `limit` bytes (all of them when it is shorter), the rest left unread: a records
 * chunk is read only as far as the page's records go. One part, as a body from memory comes, is
 * taken as it is.
 */
async function readBody(file: Response, limit: number): Promise<Uint8Array> {
  if (file.body === null) return new Uint8Array(0);
  const reader = file.body.getReader();
  const parts: Uint8Array[] = [];
  let length = 0;
  while (length < limit) {
    const read = await reader.read();
    if (read.done) break;
    parts.push(read.value);
    length += read.value.byteLength;
  }
  if (length >= limit) await reader.cancel();
  if (parts.length === 1) return parts[0] as Uint8Array;
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.byteLength;
  }
  return bytes;
}

/** The response if it is the file (200), else null (its body cancelled). */
async function found(response: Promise<Response>): Promise<Response | null> {
  const file = await response;
  if (file.status === 200) return file;
  await file.body?.cancel();
  return null;
}
