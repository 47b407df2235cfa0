/**
 * The sizes a request may have before any work is done on it. Every byte of the target is parsed,
 * decoded and written twice into the links (DRF carries every parameter into `next` and
 * `previous`), and `Accept` is split and stripped, so their cost grows with them; bounding them
 * bounds what any request costs. Over a bound the request is refused at once, as the HTTP servers
 * in front of Django refuse it before DRF sees it: 414 for the target (nginx's and Apache's
 * answer), 431 for a header (gunicorn's, RFC 6585).
 *
 * Why 4 KB for the target: the WSGI servers DRF runs behind refuse a longer one (gunicorn's
 * `limit_request_line` is 4094 bytes, uWSGI's `buffer-size` 4096 for the whole head), and 4 KB
 * holds every query a client builds. Why 8 KB for a header: gunicorn's `limit_request_field_size`
 * (8190) and nginx's default header buffer (8k). Within them no request costs a host more than
 * about twice a plain derived page of its limit (BENCHMARKS.md, "What one request costs").
 */
import type { HeaderReader } from "./answer-request.ts";
import { urlOrigin } from "./read-target.ts";
import { type Refusal, refusal } from "./refusals.ts";

/** The longest request target answered: path and query, in bytes (an absolute-form target's origin not counted). */
export const MAX_TARGET_BYTES = 4 * 1024;
/** The longest value of a header the router reads. */
export const MAX_HEADER_BYTES = 8 * 1024;

/** The headers the router reads, each bounded by MAX_HEADER_BYTES; a host bounds the rest with its own head limit. */
const READ_HEADERS = ["host", "accept", "if-none-match", "origin", "access-control-request-method", "access-control-request-headers"];

/** The refusal of a request whose target or a read header is over its bound; null when it is within them. */
export function oversizeRefusal(target: string, headers: HeaderReader): Refusal | null {
  if (targetBytes(target) > MAX_TARGET_BYTES) {
    return refusal(414, `URI too long: the request target is over ${MAX_TARGET_BYTES} bytes, the most a server in front of the API reads.`);
  }
  for (const name of READ_HEADERS) {
    const value = headers.get(name);
    if (value !== null && value.length > MAX_HEADER_BYTES) {
      return refusal(431, `Request header fields too large: the ${name} header is over ${MAX_HEADER_BYTES} bytes.`);
    }
  }
  return null;
}

/** Whether a target (a byte string, as hosts hand it over) is over MAX_TARGET_BYTES. */
export function isTargetTooLong(target: string): boolean {
  return targetBytes(target) > MAX_TARGET_BYTES;
}

/** The bytes of a target's path and query: a byte string has one character per byte. */
function targetBytes(target: string): number {
  if (target.length <= MAX_TARGET_BYTES || target.startsWith("/")) return target.length;
  const { scheme, host } = urlOrigin(target);
  return host === null ? target.length : target.length - scheme.length - 3 - host.length;
}
