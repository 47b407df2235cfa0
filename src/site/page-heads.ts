/**
 * The heads of the pre-rendered pages (`{"count":…,"next":…,"previous":…,"results":[`), fast.
 *
 * Between the first two pages and the last, the heads of one form and limit differ only in the
 * two offsets in their links: DRF sorts the query by key, and digits are never escaped. So the
 * head is made once with sentinel offsets and cut at them into a template; the edge pages
 * (no `previous`, a `previous` without `offset`, no `next`) go through buildLinks itself. At
 * 361k pages the template saves ~1 s of the build's main thread (profile in BENCHMARKS.md).
 */
import { buildLinks } from "../core/build-links.ts";
import type { QueryParam } from "../core/request/read-query.ts";
import { renderPageHead } from "../core/render-page.ts";

/** An offset far beyond any list: its digits cannot occur elsewhere in a head by chance. */
const SENTINEL = 7_000_000_000_000_000n;

/** The head of page `page` (offset `page * limit`) for one origin, form parameters, limit and count. */
export function pageHeads(baseUrl: string, extras: readonly QueryParam[], limit: number, count: number): (page: number) => string {
  const exact = (page: number): string => renderPageHead(count, buildLinks(baseUrl, extras, limit, BigInt(page) * BigInt(limit), count));
  const step = BigInt(limit);
  const sample = renderPageHead(count, buildLinks(baseUrl, extras, limit, SENTINEL, Number.MAX_SAFE_INTEGER));
  const [nextText, previousText] = [String(SENTINEL + step), String(SENTINEL - step)];
  const once = (text: string): boolean => sample.indexOf(text) !== -1 && sample.indexOf(text) === sample.lastIndexOf(text);
  const atNext = sample.indexOf(nextText);
  const atPrevious = sample.indexOf(previousText);
  // Should the sentinel ever be ambiguous (it cannot with DRF's links), every head is exact.
  if (!once(nextText) || !once(previousText) || atPrevious < atNext + nextText.length) return exact;
  const a = sample.slice(0, atNext);
  const b = sample.slice(atNext + nextText.length, atPrevious);
  const c = sample.slice(atPrevious + previousText.length);
  return (page) => (page >= 2 && (page + 1) * limit < count ? `${a}${(page + 1) * limit}${b}${(page - 1) * limit}${c}` : exact(page));
}
