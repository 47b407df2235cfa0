import { describe, expect, it } from "vitest";
import { buildFileLinks, entryLimit, FILE_ENTRY_PATH, filePagePath } from "../../src/core/file-links.ts";

const BASE = "https://example.org/registry";
const page = (limit: number, offset: number): string => `${BASE}/${filePagePath(limit, offset)}`;

describe("buildFileLinks (DRF's null rules, page files for URLs)", () => {
  it.each([
    ["offset 0 of 45 at 20: next 20, no previous", 20, 0, 45, { next: page(20, 20), previous: null }],
    [
      "offset 20 of 45 at 20: next 40, previous 0 (the file, not a missing offset)",
      20,
      20,
      45,
      { next: page(20, 40), previous: page(20, 0) },
    ],
    ["offset 40 of 45 at 20: last page, previous 20", 20, 40, 45, { next: null, previous: page(20, 20) }],
    ["offset 40 of 60 at 20: offset + limit = count, no next", 20, 40, 60, { next: null, previous: page(20, 20) }],
    ["an empty list: page 0 has neither", 20, 0, 0, { next: null, previous: null }],
  ])("%s", (_name, limit, offset, count, expected) => {
    expect(buildFileLinks(BASE, limit, offset, count)).toEqual(expected);
  });

  it("names files a plain server sends as JSON, under the collection's path", () => {
    expect(filePagePath(20, 40)).toBe("api/subjekti/20/40.json");
    expect(FILE_ENTRY_PATH).toBe("api/subjekti/index.json");
  });
});

describe("entryLimit", () => {
  it.each([
    ["DRF's default when pre-rendered", [5, 20, 100], 20],
    ["else the smallest", [50, 100], 50],
  ])("%s", (_name, limits, expected) => {
    expect(entryLimit(limits, 20)).toBe(expected);
  });

  it("refuses no limit at all (nothing to start from)", () => {
    expect(() => entryLimit([], 20)).toThrow("needs at least one limit");
  });
});
