/** The pure core stays pure (STYLE.md "three rings"): web APIs only, so the edge bundle and Deno can load it. */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { VERSION } from "../../src/core/version.ts";

const CORE = new URL("../../src/core/", import.meta.url);
const files = readdirSync(CORE).filter((name) => name.endsWith(".ts")).sort();
const source = (name: string): string => readFileSync(new URL(name, CORE), "utf8");
/** Every module specifier: static imports and re-exports, dynamic imports, require calls. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["']([^"']+)["']/g;

describe("src/core rings", () => {
  it("holds the core's modules", () => {
    expect(files.length).toBeGreaterThanOrEqual(10);
  });

  it.each(files)("%s imports only relative ./x.ts modules", (name) => {
    const specifiers = Array.from(source(name).matchAll(SPECIFIER), (m) => m[1]);
    for (const specifier of specifiers) expect(specifier).toMatch(/^\.\/[a-z0-9-]+\.ts$/);
  });

  it.each(files)("%s names no process, Deno, Buffer, require or node: module", (name) => {
    // Comments may mention them; code may not.
    const code = source(name).replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
    expect(code).not.toMatch(/\bprocess\b|\bDeno\b|\bBuffer\b|\brequire\s*\(|["']node:/);
  });

  it("VERSION equals package.json's version", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: unknown };
    expect(VERSION).toBe(pkg.version);
  });
});
