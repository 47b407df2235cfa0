/**
 * A built site's files held in memory as a CDN-backed host reaches them (`cdnSite`'s fetch), for
 * the benchmarks that measure the request handler's own CPU: each file read from disk once, then
 * answered from memory, a Range with its bytes alone as a CDN does; `bytesRead` counts what the
 * handler was sent (the manifest aside).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export interface InMemorySite {
  /** The file, or with `range` its bytes alone (206), as a CDN answers a Range; the whole file (200) when `ranges` is false. */
  fetchFile(path: string, range?: { start: number; end: number }): Promise<Response>;
  /** Bytes of every file fetched but the manifest, since the last reset. */
  bytesRead: number;
}

export function inMemorySite(site: string, ranges = true): InMemorySite {
  const files = new Map<string, Uint8Array>();
  const memory: InMemorySite = {
    bytesRead: 0,
    async fetchFile(path, range) {
      let bytes = files.get(path);
      if (bytes === undefined) {
        try {
          bytes = readFileSync(join(site, path));
        } catch {
          return new Response("Not Found", { status: 404 });
        }
        files.set(path, bytes);
      }
      if (ranges && range !== undefined && range.start < bytes.byteLength) {
        const end = Math.min(range.end, bytes.byteLength);
        memory.bytesRead += end - range.start;
        const headers = { "Content-Range": `bytes ${range.start}-${end - 1}/${bytes.byteLength}` };
        return new Response(bytes.subarray(range.start, end) as Uint8Array<ArrayBuffer>, { status: 206, headers });
      }
      if (!path.endsWith("manifest.json")) memory.bytesRead += bytes.byteLength;
      return new Response(bytes as Uint8Array<ArrayBuffer>);
    },
  };
  return memory;
}
