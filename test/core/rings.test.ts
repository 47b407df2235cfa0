/**
 * The rings hold (STYLE.md "three rings"): the pure core uses web APIs only, so the edge bundle and
 * Deno can load it; the edge and the Cloudflare Worker import only the core; the preview (src/serve) and the build
 * (src/site) never import each other; the deployment check (src/check) answers with the core and
 * site helpers, never through the preview it may be checking. Read from every module's import specifiers.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { VERSION } from "../../src/core/version.ts";

const SRC = resolve("src");
/** Every .ts and .mjs module under src/, as a path inside src/. */
const modules = (readdirSync(SRC, { recursive: true }) as string[]).filter((name) => /\.(ts|mjs)$/.test(name)).sort();
const source = (name: string): string => readFileSync(join(SRC, name), "utf8");
/** Every module specifier: static imports and re-exports, dynamic imports, require calls. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["']([^"']+)["']/g;

/** What `name` imports: a relative specifier as the path inside src/ it reaches, any other as it is. */
function importsOf(name: string): string[] {
  return Array.from(source(name).matchAll(SPECIFIER), (m) => {
    const specifier = m[1] as string;
    return specifier.startsWith(".") ? relative(SRC, resolve(SRC, dirname(name), specifier)) : specifier;
  });
}
const ring = (name: string): string => name.split("/")[0] as string;
const inRing = (prefix: string): string[] => modules.filter((name) => ring(name) === prefix);

describe("the rings of src/", () => {
  it("holds every ring's modules", () => {
    expect(inRing("core").length).toBeGreaterThanOrEqual(10);
    for (const r of ["site", "serve", "edge", "cloudflare", "check"]) expect(inRing(r).length, r).toBeGreaterThan(0);
  });

  it.each(inRing("core"))("%s imports only relative ./x.ts modules of the core", (name) => {
    const specifiers = Array.from(source(name).matchAll(SPECIFIER), (m) => m[1]);
    for (const specifier of specifiers) expect(specifier).toMatch(/^\.\/[a-z0-9-]+\.ts$/);
  });

  it.each(inRing("core"))("%s names no process, Deno, Buffer, require or node: module", (name) => {
    // Comments may mention them; code may not.
    const code = source(name).replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
    expect(code).not.toMatch(/\bprocess\b|\bDeno\b|\bBuffer\b|\brequire\s*\(|["']node:/);
  });

  it.each(inRing("edge"))("%s imports only the core and the edge's own modules", (name) => {
    for (const target of importsOf(name)) expect(["core", "edge"], `${name} imports ${target}`).toContain(ring(target));
  });

  it.each(inRing("cloudflare"))("%s imports only the core and the Worker's own modules", (name) => {
    for (const target of importsOf(name)) expect(["core", "cloudflare"], `${name} imports ${target}`).toContain(ring(target));
  });

  it.each(inRing("check"))("%s imports only the core, site helpers and the check's own modules", (name) => {
    for (const target of importsOf(name).filter((t) => !t.startsWith("node:"))) expect(["core", "site", "check"], `${name} imports ${target}`).toContain(ring(target));
  });

  it.each([...inRing("serve"), ...inRing("site")])("%s does not import the other of serve and site", (name) => {
    const other = ring(name) === "serve" ? "site" : "serve";
    for (const target of importsOf(name)) expect(ring(target), `${name} imports ${target}`).not.toBe(other);
  });

  it("VERSION equals package.json's version", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: unknown };
    expect(VERSION).toBe(pkg.version);
  });
});
