/**
 * How a received answer differs from the one the core computes from the built site: the status,
 * each header of the contract (expected and got), and the body's first differing byte.
 */
import type { SendAnswer } from "../core/answer-request.ts";
import type { ReceivedAnswer } from "./send-request.ts";

/** One difference: what differs (`status`, a header's name, `body`), what was expected and what came. */
export interface Difference {
  readonly what: string;
  readonly expected: string;
  readonly got: string;
  /** For `body`: the first byte offset at which the two differ. */
  readonly offset?: number;
}

/**
 * The headers the contract fixes, checked on every answer: a value the core does not give must not
 * come either (a host that adds an ETag or a CORS header of its own answers differently).
 */
const CONTRACT_HEADERS = [
  "Content-Type",
  "ETag",
  "Vary",
  "Allow",
  "Cache-Control",
  "Location",
  "Access-Control-Allow-Origin",
  "Access-Control-Expose-Headers",
  "Access-Control-Allow-Methods",
  "Access-Control-Allow-Headers",
  "Access-Control-Max-Age",
  "X-Content-Type-Options",
  "X-Frame-Options",
  "Referrer-Policy",
];

/**
 * Headers the core gives that a deployment need not pass on: CDNs consume cache tags (Netlify and
 * Cloudflare strip them from what clients see). Content-Length is compared only when one came (a
 * chunked answer has none); the body's bytes are compared anyway.
 */
const CONSUMED_BY_CDNS = new Set(["netlify-cache-tag", "cache-tag"]);

/** Bytes of a body shown before and after a difference. */
const BEFORE = 24;
const AFTER = 40;

/** Every difference between the answer expected and the one received (none: they match). */
export function compareAnswer(expected: SendAnswer, got: ReceivedAnswer): Difference[] {
  const differences: Difference[] = [];
  if (expected.status !== got.status) differences.push({ what: "status", expected: String(expected.status), got: String(got.status) });
  const want = new Map<string, string>();
  // Lower-case name -> the name as the core writes it (or as the contract list spells it).
  const names = new Map(CONTRACT_HEADERS.map((name) => [name.toLowerCase(), name]));
  for (const [name, value] of expected.headers) {
    const key = name.toLowerCase();
    const before = want.get(key);
    want.set(key, before === undefined ? value : `${before}, ${value}`);
    names.set(key, name);
  }
  for (const [name, written] of names) {
    if (CONSUMED_BY_CDNS.has(name)) continue;
    const value = want.get(name);
    const came = got.headers.get(name);
    // A chunked answer has no length, and a 204 or 304 may state one or not (RFC 9110 §8.6).
    if (name === "content-length" && (came === undefined || value === undefined)) continue;
    if (name === "vary" ? sameVary(value, came) : value === came) continue;
    differences.push({ what: written, expected: value ?? "(none)", got: came ?? "(none)" });
  }
  const body = expected.body === null ? new Uint8Array(0) : expected.body;
  if (!(body instanceof Uint8Array)) throw new Error("the expected answer's body is a stream");
  const offset = firstDifference(body, got.body);
  if (offset !== null) {
    differences.push({ what: "body", expected: excerpt(body, offset), got: excerpt(got.body, offset), offset });
  }
  return differences;
}

/** Vary as a set of names: CDNs that compress add `Accept-Encoding`, which keys their cache and changes no answer. */
function sameVary(expected: string | undefined, got: string | undefined): boolean {
  const names = (value: string | undefined): string[] =>
    (value ?? "")
      .split(",")
      .map((n) => n.trim().toLowerCase())
      .filter((n) => n !== "" && n !== "accept-encoding");
  const [a, b] = [names(expected), names(got)];
  return a.length === b.length && a.every((n) => b.includes(n));
}

/** The first offset at which `a` and `b` differ (one ending first counts); null when they are equal. */
export function firstDifference(a: Uint8Array, b: Uint8Array): number | null {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? null : n;
}

/** The bytes around `offset`, as text, for a person to see the difference. */
function excerpt(bytes: Uint8Array, offset: number): string {
  if (bytes.length === 0) return "(empty)";
  const from = Math.max(0, offset - BEFORE);
  // Control characters escaped, so the excerpt stays on one line.
  const text = Buffer.from(bytes.subarray(from, offset + AFTER))
    .toString("utf8")
    .replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
  return `${from > 0 ? "…" : ""}${text}${offset + AFTER < bytes.length ? "…" : ""}`;
}
