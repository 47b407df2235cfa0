/**
 * What a static file's answer is to a `Range` (RFC 9110 §14): the whole file, one part, or 416.
 * One range only, as the nginx configuration sends (`max_ranges 1`): a request for several gets
 * the whole file, which a server may always send instead of parts. `If-Range` is honoured: a
 * client resuming a download of bytes that have since changed gets the whole new file, never a
 * part of it spliced onto the old one.
 */

/** The answer to a request's Range. */
export type RangeAnswer =
  | { readonly kind: "whole" }
  /** Bytes `start` to `end`, both included. */
  | { readonly kind: "part"; readonly start: number; readonly end: number }
  | { readonly kind: "unsatisfiable" };

/** The file a Range is asked of: its size and the validators its answer carries. */
export interface RangedFile {
  readonly size: number;
  /** Its strong ETag, if the answer carries one. */
  readonly etag: string | undefined;
  /** Its modification time (the answer's Last-Modified, to the second). */
  readonly modified: Date;
}

const WHOLE: RangeAnswer = { kind: "whole" };
/** One range-spec (RFC 9110 §14.1.2): first-last, first-, or -suffix length. */
const RANGE_SPEC = /^(\d*)-(\d*)$/;
/** An HTTP-date is 29 characters; a longer If-Range is no date. */
const LONGEST_DATE = 64;

/** The answer to `range` (the Range header, if any) on a GET of `file`, given its `ifRange` header. */
export function rangeAnswer(method: string, range: string | undefined, ifRange: string | undefined, file: RangedFile): RangeAnswer {
  // RFC 9110 §14.2: GET is the only method a range is defined for.
  if (range === undefined || method !== "GET") return WHOLE;
  if (ifRange !== undefined && !ifRangeHolds(ifRange.trim(), file)) return WHOLE;
  const equals = range.indexOf("=");
  if (equals < 0 || range.slice(0, equals).trim().toLowerCase() !== "bytes") return WHOLE;
  const specs = range
    .slice(equals + 1)
    .split(",")
    .map((spec) => spec.trim())
    .filter((spec) => spec !== "");
  if (specs.length !== 1) return WHOLE;
  const spec = RANGE_SPEC.exec(specs[0] ?? "");
  if (spec === null) return WHOLE;
  const [, first = "", last = ""] = spec;
  if (first === "" && last === "") return WHOLE;
  if (first === "") {
    const suffix = Number(last);
    if (suffix === 0 || file.size === 0) return { kind: "unsatisfiable" };
    return { kind: "part", start: Math.max(0, file.size - suffix), end: file.size - 1 };
  }
  const start = Number(first);
  // An invalid range-spec is ignored (§14.1.1), an unsatisfiable one answered 416 (§15.5.17).
  if (last !== "" && Number(last) < start) return WHOLE;
  if (start >= file.size) return { kind: "unsatisfiable" };
  return { kind: "part", start, end: last === "" ? file.size - 1 : Math.min(Number(last), file.size - 1) };
}

/**
 * RFC 9110 §13.1.5: an entity tag must be the answer's strong ETag exactly (a weak one never
 * matches); a date must be its Last-Modified exactly.
 */
function ifRangeHolds(ifRange: string, file: RangedFile): boolean {
  if (ifRange.startsWith('"')) return file.etag !== undefined && !file.etag.startsWith("W/") && ifRange === file.etag;
  if (ifRange.startsWith("W/") || ifRange.length > LONGEST_DATE) return false;
  const date = Date.parse(ifRange);
  return !Number.isNaN(date) && date === Math.floor(file.modified.getTime() / 1000) * 1000;
}
