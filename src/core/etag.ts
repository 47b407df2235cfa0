/**
 * Entity tags: a hash of the answer's bytes, so a tag changes exactly when the bytes it names do.
 * An edited record changes the tags of the answers that show it (its pages, its subject) and no
 * other. The build writes the tags of the files it pre-renders beside them (`etagsFileName`), so a
 * 304 for such a file reads one small list, not the file; a derived answer is tagged from its bytes.
 */

/** Is this machine little-endian (every platform the hosts run on is; a typed array reads in its order)? */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * A 53-bit hash of some bytes (cyrb53's two multiplicative 32-bit lanes), fed four bytes at a time
 * as little-endian words, then the last one to three bytes alone: a derived 1,000-subject page
 * (~280 KB) is hashed on every request, and a byte at a time cost it four times as much.
 */
function hash53(bytes: Uint8Array): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  const words = bytes.length >>> 2;
  if (LITTLE_ENDIAN && (bytes.byteOffset & 3) === 0) {
    const view = new Int32Array(bytes.buffer, bytes.byteOffset, words);
    for (let i = 0; i < words; i++) {
      const c = view[i] as number;
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
  } else {
    // An unaligned view (a slice of a larger buffer) or a big-endian machine: the same words, read one by one.
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i < words; i++) {
      const c = view.getInt32(i * 4, true);
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
  }
  for (let i = words * 4; i < bytes.length; i++) {
    const c = bytes[i] as number;
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return base36(4294967296 * (2097151 & h2) + (h1 >>> 0));
}

/** 36^5: five base-36 digits. */
const FIVE_DIGITS = 60466176;

/**
 * `n.toString(36)` of an integer in [0, 2^53) (exported for its test), written as two integers
 * below 2^30, which V8 converts in any radix by integer division: a double's radix conversion goes
 * through `fmod` digit by digit, some 1 µs a tag (eight times this): 0.15 s of a 1M build's main
 * thread for its 100,000 pages' tags.
 */
export function base36(n: number): string {
  if (n < FIVE_DIGITS) return n.toString(36);
  // Both exact: n < 2^53, so high < 2^28, and high * FIVE_DIGITS <= n.
  const high = Math.floor(n / FIVE_DIGITS);
  const low = (n - high * FIVE_DIGITS).toString(36);
  return `${high.toString(36)}${"0000".slice(low.length - 1)}${low}`;
}

/** The strong ETag of an answer whose body is `bytes` (the GET body, as sent): it changes only when they do. */
export function bytesEtag(bytes: Uint8Array): string {
  return `"${hash53(bytes)}-${bytes.length.toString(36)}"`;
}

const UTF8 = new TextEncoder();

/** The strong ETag of an answer whose body is `text`, encoded as UTF-8 (the same tag as its bytes get). */
export function contentEtag(text: string): string {
  return bytesEtag(UTF8.encode(text));
}

/** The text of a shard's tag list, from its files' tags in order. */
export function etagsText(etags: readonly string[]): string {
  return etags.map((tag) => `${tag}\n`).join("");
}

/** The tag on line `index` of a shard's tag list; null when the list has no such line. */
export function etagAt(text: string, index: number): string | null {
  let start = 0;
  for (let line = 0; line < index; line++) {
    start = text.indexOf("\n", start) + 1;
    if (start === 0) return null;
  }
  const end = text.indexOf("\n", start);
  const tag = end < 0 ? "" : text.slice(start, end);
  return /^"[\x21\x23-\x7e]+"$/.test(tag) ? tag : null;
}

/** Does an `If-None-Match` header name `etag`? (RFC 9110 §13.1.2: weak comparison, `*` matches any.) */
export function matchesIfNoneMatch(header: string | null | undefined, etag: string): boolean {
  if (header === null || header === undefined) return false;
  const opaque = etag.replace(/^W\//, "");
  return header.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t.replace(/^W\//, "") === opaque;
  });
}
