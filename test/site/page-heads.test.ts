/** The page-head template (src/site/page-heads.ts) must give exactly the heads buildLinks gives. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pageHeads } from "../../src/site/page-heads.ts";
import { buildLinks } from "../../src/core/build-links.ts";
import type { QueryParam } from "../../src/core/request/read-query.ts";
import { renderPageHead } from "../../src/core/render-page.ts";

const ORIGINS = ["http://localhost:8080", "https://subjekti.example.org", "http://127.0.0.1:70", 'https://x.example/a"b'];
const EXTRAS: QueryParam[][] = [[], [["format", "api"]], [["format", "json"]], [["a b", "č&7000000000000020"]]];

describe("pageHeads", () => {
  it("every page's head equals renderPageHead(buildLinks(...)), for any origin, form, limit and count", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ORIGINS),
        fc.constantFrom(...EXTRAS),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 0, max: 700 }),
        (origin, extras, limit, count) => {
          const headOf = pageHeads(origin, extras, limit, count);
          for (let page = 0; page * limit < Math.max(count, 1); page++) {
            expect(headOf(page)).toBe(renderPageHead(count, buildLinks(origin, extras, limit, BigInt(page * limit), count)));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
