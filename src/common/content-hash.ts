/** The one hash of the build: shard directory names, chunk hashes and source blocks all use it. */
import { createHash } from "node:crypto";

/** A short content hash (hex) of some bytes or strings. */
export function contentHash(...parts: readonly (string | Uint8Array)[]): string {
  const hash = createHash("sha1");
  for (const part of parts) hash.update(part);
  return hash.digest("hex").slice(0, 16);
}
