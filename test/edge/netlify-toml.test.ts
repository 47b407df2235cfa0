/** The repo's netlify.toml gives the edge function every path the router answers beyond static files. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PUBLISHED_PATHS } from "../../src/core/published-files.ts";

const TOML = readFileSync(join(import.meta.dirname, "../../netlify.toml"), "utf8");
/** Netlify's path patterns: `*` matches the rest of the path. */
const declared = [...TOML.matchAll(/^\s*path\s*=\s*"([^"]+)"/gm)].map((m) => m[1] ?? "");
const covers = (path: string): boolean => declared.some((pattern) => (pattern.endsWith("*") ? path.startsWith(pattern.slice(0, -1)) : pattern === path));

describe("netlify.toml", () => {
  it.each([...PUBLISHED_PATHS, "/api/subjekti", "/api/other"])("sends %s to the edge function", (path) => {
    expect(covers(path)).toBe(true);
  });
});
