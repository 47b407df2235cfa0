/**
 * The stand-in CDNs' check on the edge: client headers a real CDN answers with a 304 or a 206
 * instead of a file's bytes must not reach it when the edge reads a site file for itself. A
 * stand-in that ignored them (as every one here once did) let the edge forward them unseen; these
 * refuse such a read, so deleting the edge's header cleaning (src/edge/subjekti.ts) fails the
 * request table's Range and If-* rows. Web APIs only: the Deno host imports it too.
 */
const CONDITIONAL_HEADERS = ["range", "if-range", "if-none-match", "if-match", "if-modified-since", "if-unmodified-since"];

/**
 * A 412 naming the headers when a read of the site file `path` carries any of them; null when it
 * is clean. A Range alone on a records chunk or its offsets table is the edge's own read of a part
 * of it (record-offsets.ts), which a real CDN answers with 206.
 */
export function refuseConditional(path: string, headers: Headers | undefined): Response | null {
  const ownRange = path.includes("/_subjekti/records/") && /^bytes=\d+-\d+$/.test(headers?.get("range") ?? "");
  const sent = CONDITIONAL_HEADERS.filter((name) => headers?.has(name) === true && !(ownRange && name === "range"));
  if (sent.length === 0) return null;
  return new Response(`the stand-in CDN refuses ${path} asked with ${sent.join(", ")}: a real CDN would answer 304 or 206, not the file`, {
    status: 412,
  });
}
