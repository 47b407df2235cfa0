/**
 * `subjekti check`'s report in both languages, every line it can write: the English exactly as
 * users' scripts match it, the Croatian with no English word of the report left in it.
 */
import { describe, expect, it } from "vitest";
import { type CheckReport, formatReport } from "../../src/check/check-report.ts";
import type { Failure } from "../../src/check/probe-results.ts";
import { translator } from "../../src/common/messages/translate.ts";

const HR = translator("hr");

const failure = (i: number): Failure => ({
  kind: "derived",
  method: "GET",
  url: `https://o.example/api/subjekti/?limit=${i}`,
  differences: [
    { what: "status", expected: "200", got: "404" },
    { what: "body", expected: "ab", got: "(empty)", offset: 3 },
    { what: "ETag", expected: "(none)", got: '"x"' },
  ],
});
const HASH = { configured: "a".repeat(64), built: "b".repeat(64) };
const PASSED: CheckReport = {
  origin: "https://o.example",
  dir: "dist",
  count: 53,
  baseUrl: "https://o.example",
  checked: { "pre-rendered": 22, head: 1 },
  total: 23,
  matched: 23,
  failures: [],
  fromFiles: null,
  staleNginx: null,
  withoutQuery: null,
  seconds: 0.4567,
  deadline: null,
};
/** A report that reaches every line: 21 differences, another base URL, queries dropped, a stale nginx that sent some answers from serve, the deadline. */
const EVERY_LINE: CheckReport = {
  ...PASSED,
  baseUrl: "https://b.example",
  failures: Array.from({ length: 21 }, (_, i) => failure(i + 1)),
  withoutQuery: { count: 31, searches: 12, first: "GET https://o.example/api/subjekti/?search=a" },
  staleNginx: HASH,
  fromFiles: { expected: 27, notFromFiles: ["https://o.example/u1", "https://o.example/u2"] },
  deadline: { ms: 5000, unchecked: 7 },
};
/** Words of the English report: none may be left in the Croatian one. */
const ENGLISH_WORDS =
  /\b(?:against|requests?|subjects|differ|match|expected|got|body|first difference|byte|more|note|answers?|such as|stopped|deadline of|checked|derived|pre-rendered|from files|another build|regenerate|reload)\b/;

describe("check's report in English, as it always read", () => {
  it("every line", () => {
    const lines = formatReport(EVERY_LINE);
    expect(lines.slice(0, 6)).toEqual([
      "GET https://o.example/api/subjekti/?limit=1 (derived):",
      "  status: expected 200, got 404",
      "  body: first difference at byte 3",
      "    expected: ab",
      "    got:      (empty)",
      '  ETag: expected (none), got "x"',
    ]);
    expect(lines.slice(120)).toEqual([
      "… and 1 more requests that differ (--json lists them all)",
      "note: the site was built for https://b.example; on https://o.example every page is derived from the records, so the pre-rendered files were not read (check https://b.example for them)",
      "31 requests with a query string (12 of them searching, filtering or ordering) were answered as their path without it, such as GET https://o.example/api/subjekti/?search=a: the host does not hand query strings to the router (a plain static host, or a rule that serves a file whatever the query); searching, filtering, ordering and paging need a host that routes: the Netlify edge function, the Worker, or subjekti serve (docs/hosting.md)",
      "the nginx configuration was generated for another build (site aaaaaaaaaaaa, this build is bbbbbbbbbbbb), so 2 of the 27 answers that nginx should send from the site's files came from subjekti serve, such as https://o.example/u1: regenerate it with subjekti nginx, then nginx -t and reload nginx",
      "stopped at the deadline of 5 s: 7 of 23 requests were not checked (pass a longer --deadline, or --sample n)",
      "https://o.example against dist (53 subjects): 23 requests (16 checked before the deadline) (22 pre-rendered, 1 head) in 0.5 s: 21 differ, the nginx configuration is another build's",
    ]);
  });

  it("the lines of nginx's files: all from files, some not, none left of a stale build", () => {
    expect(formatReport({ ...PASSED, fromFiles: { expected: 27, notFromFiles: [] } })).toEqual([
      "all 27 answers that nginx should send from the site's files came from files",
      "https://o.example against dist (53 subjects): 23 requests (22 pre-rendered, 1 head) in 0.5 s: all match",
    ]);
    expect(formatReport({ ...PASSED, fromFiles: { expected: 27, notFromFiles: ["https://o.example/u1"] } })).toEqual([
      "1 of 27 answers that nginx should send from the site's files came from subjekti serve (no X-Subjekti-Source: file), such as https://o.example/u1: the nginx configuration is older than the build; run subjekti nginx again, nginx -t, and reload nginx",
      "https://o.example against dist (53 subjects): 23 requests (22 pre-rendered, 1 head) in 0.5 s: all match, 1 not from files",
    ]);
    expect(formatReport({ ...PASSED, staleNginx: HASH, fromFiles: { expected: 2, notFromFiles: ["u1", "u2"] } })[0]).toBe(
      "the nginx configuration was generated for another build (site aaaaaaaaaaaa, this build is bbbbbbbbbbbb), so none of the 2 answers that nginx should send from the site's files came from files (its page files are gone): regenerate it with subjekti nginx, then nginx -t and reload nginx",
    );
  });
});

describe("check's report in Croatian", () => {
  it("every line, no English word of the report left", () => {
    const lines = formatReport(EVERY_LINE, HR);
    expect(lines.slice(0, 6)).toEqual([
      "GET https://o.example/api/subjekti/?limit=1 (izvedena stranica):",
      "  status: očekuje se 200, a stiglo je 404",
      "  tijelo: prva razlika na bajtu 3",
      "    očekivano: ab",
      "    stiglo:    (prazno)",
      '  ETag: očekuje se (bez zaglavlja), a stiglo je "x"',
    ]);
    expect(lines.at(-1)).toBe(
      "https://o.example uspoređen s dist (53 subjekta): 23 zahtjeva (16 provjereno prije isteka roka) (22 unaprijed izrađene stranice, 1 zahtjev HEAD) za 0,5 s: 21 se razlikuje, konfiguracija nginxa pripada drugoj izgradnji",
    );
    expect(lines).toHaveLength(126);
    for (const line of lines) expect(line).not.toMatch(ENGLISH_WORDS);
  });

  it.each([
    ["all from files", { fromFiles: { expected: 27, notFromFiles: [] } }],
    ["some not from files", { fromFiles: { expected: 27, notFromFiles: ["https://o.example/u1"] } }],
    ["a stale build, none from files", { staleNginx: HASH, fromFiles: { expected: 2, notFromFiles: ["u1", "u2"] } }],
    ["a stale build, nothing said of files", { staleNginx: HASH }],
  ] as const)("%s: no English word of the report left", (_name, change) => {
    for (const line of formatReport({ ...PASSED, ...change }, HR)) expect(line).not.toMatch(ENGLISH_WORDS);
  });
});
