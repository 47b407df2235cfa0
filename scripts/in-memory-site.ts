/**
 * A built site's files held in memory as a CDN-backed host reaches them (`cdnSite`'s fetch), for
 * the benchmarks that measure the request handler's own CPU: each file read from disk once, then
 * answered from memory; `bytesRead` counts what the handler asked for (the manifest aside).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export interface InMemorySite {
  fetchFile(path: string): Promise<Response>;
  /** Bytes of every file fetched but the manifest, since the last reset. */
  bytesRead: number;
}

export function inMemorySite(site: string): InMemorySite {
  const files = new Map<string, Uint8Array>();
  const memory: InMemorySite = {
    bytesRead: 0,
    async fetchFile(path) {
      let bytes = files.get(path);
      if (bytes === undefined) {
        try {
          bytes = readFileSync(join(site, path));
        } catch {
          return new Response("Not Found", { status: 404 });
        }
        files.set(path, bytes);
      }
      if (!path.endsWith("manifest.json")) memory.bytesRead += bytes.byteLength;
      return new Response(bytes as Uint8Array<ArrayBuffer>);
    },
  };
  return memory;
}
