import { describe, expect, it } from "vitest";
import { LAYOUT_VERSION, type Manifest, manifestProblem } from "../../src/core/manifest.ts";

const good: Manifest = {
  layout: LAYOUT_VERSION,
  version: "1.2.3",
  count: 2000,
  maxLimit: 1000,
  limits: [20, 100],
  forms: ["plain", "api", "json"],
  chunkSize: 1000,
  baseUrl: "https://x.org",
  cacheControl: "public, max-age=60",
  hash: "0123456789abcdef",
  dirs: { "records/0": "abc" },
};

describe("manifestProblem", () => {
  it.each([
    ["a good manifest -> null", good, null],
    ["count 0 -> null (an empty list is fine)", { ...good, count: 0 }, null],
    ["null -> not a JSON object", null, "not a JSON object"],
    ["an array of nothing -> wrong version", [], /built by subjekti undefined/],
    ["a string -> not a JSON object", "x", "not a JSON object"],
    [
      "another version -> names both versions",
      { ...good, version: "0.9.0" },
      new RegExp(`built by subjekti 0\\.9\\.0 \\(layout ${LAYOUT_VERSION}\\); this is subjekti 1\\.2\\.3`),
    ],
    ["another layout -> names both layouts", { ...good, layout: 99 }, /layout 99/],
    ["count -1 -> count problem", { ...good, count: -1 }, "count is not a non-negative integer"],
    ["count 1.5 -> count problem", { ...good, count: 1.5 }, "count is not a non-negative integer"],
    ["count '5' -> count problem", { ...good, count: "5" }, "count is not a non-negative integer"],
    ["maxLimit 0 -> maxLimit problem", { ...good, maxLimit: 0 }, /maxLimit or chunkSize/],
    ["chunkSize missing -> chunkSize problem", { ...good, chunkSize: undefined }, /maxLimit or chunkSize/],
    ["limits [0] -> limits problem", { ...good, limits: [0] }, /limits/],
    ["limits '20' -> limits problem", { ...good, limits: "20" }, /limits/],
    ["forms ['html'] -> forms problem", { ...good, forms: ["html"] }, /forms/],
    ["baseUrl 5 -> baseUrl problem", { ...good, baseUrl: 5 }, "baseUrl is not a string"],
    ["hash missing -> hash problem", { ...good, hash: undefined }, "hash is not a string"],
    ["dirs with a number -> dirs problem", { ...good, dirs: { a: 1 } }, /dirs/],
    ["dirs null -> dirs problem", { ...good, dirs: null }, /dirs/],
  ])("%s", (_name, value, expected) => {
    const problem = manifestProblem(value, "1.2.3");
    if (expected instanceof RegExp) expect(problem).toMatch(expected);
    else expect(problem).toBe(expected);
  });
});
