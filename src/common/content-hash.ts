/** The one hash of the build: shard directory names, chunk hashes and source blocks all use it. */
import { createHash } from "node:crypto";

/** A short content hash (hex) of some bytes or strings. */
export function contentHash(...parts: readonly (string | Uint8Array)[]): string {
  const hash = contentHasher();
  for (const part of parts) hash.update(part);
  return hash.digest();
}

/** contentHash taken a part at a time, for parts not all in memory at once: `digest()` is contentHash of every part given. */
export function contentHasher(): { update(part: string | Uint8Array): void; digest(): string } {
  const hash = createHash("sha1");
  return {
    update: (part) => void hash.update(part),
    digest: () => hash.digest("hex").slice(0, 16),
  };
}
