/**
 * The rings hold (STYLE.md "three rings"): the pure core uses web APIs only, so the edge bundle and
 * Deno can load it; the edge and the Cloudflare Worker import only the core; the preview (src/serve) and the build's
 * rooms (src/data, src/site, src/threads, src/export) never import each other; the deployment check (src/check) and
 * the nginx configuration answer with the core and the common helpers, never through the preview they may be
 * checking; only the CLI (src/cli) reaches every room. Read from every module's import specifiers
 * (test/architecture/read-imports.ts, the reader `npm run measure:imports` uses).
 */
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { readImports } from "./read-imports.ts";

const SRC = resolve("src");
/** Every .ts and .mjs module under src/ (as a path inside src/) and the specifiers each writes, read by the one import reader. */
const { modules, specifiers } = readImports(SRC);
const source = (name: string): string => readFileSync(join(SRC, name), "utf8");
/** Every module specifier `name` writes: static imports and re-exports, dynamic imports, require calls, worker entries, type imports. */
const specifiersOf = (name: string): string[] => (specifiers.get(name) ?? []).map(({ specifier }) => specifier);

/** What `name` imports: a relative specifier as the path inside src/ it reaches, any other as it is. */
function importsOf(name: string): string[] {
  return specifiersOf(name).map((specifier) =>
    specifier.startsWith(".") ? relative(SRC, resolve(SRC, dirname(name), specifier)) : specifier,
  );
}
/**
 * The code without its comments. String literals are matched first and kept, so the `//` of
 * `"https://…"` does not hide the rest of its line (it once did: `process.env` after a URL passed).
 */
function withoutComments(code: string): string {
  return code.replace(
    /("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)|\/\*[\s\S]*?\*\/|\/\/[^\n]*/g,
    (_match, literal: string | undefined) => literal ?? "",
  );
}

const ring = (name: string): string => name.split("/")[0] as string;
const inRing = (prefix: string): string[] => modules.filter((name) => ring(name) === prefix);
/** The build's rooms: sources to records (data), records to a site (site), its threads, the export. */
const BUILD_RINGS = ["data", "site", "threads", "export"];

describe("the rings of src/", () => {
  it("holds every ring's modules", () => {
    expect(inRing("core").length).toBeGreaterThanOrEqual(10);
    for (const r of BUILD_RINGS) expect(inRing(r).length, r).toBeGreaterThan(0);
    for (const r of ["serve", "edge", "cloudflare", "check", "nginx", "cli", "common", "feed"])
      expect(inRing(r).length, r).toBeGreaterThan(0);
    const known = new Set(["core", "cli", "common", "serve", "edge", "cloudflare", "check", "nginx", "feed", ...BUILD_RINGS]);
    expect(
      modules.filter((name) => !known.has(ring(name))),
      "a module outside every ring",
    ).toEqual([]);
  });

  it.each(inRing("core"))("%s imports only relative .ts modules of the core", (name) => {
    for (const specifier of specifiersOf(name)) expect(specifier).toMatch(/^\.\.?\/(?:[a-z0-9-]+\/)*[a-z0-9-]+\.ts$/);
    for (const target of importsOf(name)) expect(ring(target), `${name} imports ${target}`).toBe("core");
  });

  it("the comment stripper keeps strings whole: process after a URL on the same line is code (a mutation that passed before)", () => {
    expect(withoutComments('const a = "https://example.org"; process.env.X; // a comment')).toBe(
      'const a = "https://example.org"; process.env.X; ',
    );
    expect(withoutComments("/* block */ x // rest")).toBe(" x ");
    expect(withoutComments("const b = '//not a comment'; Deno")).toContain("Deno");
  });

  it.each(inRing("core"))("%s names no process, Deno, Buffer, require or node: module", (name) => {
    // Comments may mention them; code may not.
    const code = withoutComments(source(name));
    expect(code).not.toMatch(/\bprocess\b|\bDeno\b|\bBuffer\b|\brequire\s*\(|["']node:/);
  });

  it.each(inRing("edge"))("%s imports only the core and the edge's own modules", (name) => {
    for (const target of importsOf(name)) expect(["core", "edge"], `${name} imports ${target}`).toContain(ring(target));
  });

  it.each(inRing("cloudflare"))("%s imports only the core and the Worker's own modules", (name) => {
    for (const target of importsOf(name)) expect(["core", "cloudflare"], `${name} imports ${target}`).toContain(ring(target));
  });

  it.each(inRing("check"))("%s imports only the core, the common helpers and the check's own modules", (name) => {
    for (const target of importsOf(name).filter((t) => !t.startsWith("node:")))
      expect(["core", "common", "check"], `${name} imports ${target}`).toContain(ring(target));
  });

  it.each(inRing("nginx"))("%s imports only the core, the common helpers and its own modules", (name) => {
    for (const target of importsOf(name).filter((t) => !t.startsWith("node:")))
      expect(["core", "common", "nginx"], `${name} imports ${target}`).toContain(ring(target));
  });

  it.each(inRing("feed"))(
    "%s (the change feed, written by the build and read by sync) imports only the core, the common helpers and its own modules",
    (name) => {
      for (const target of importsOf(name).filter((t) => !t.startsWith("node:")))
        expect(["core", "common", "feed"], `${name} imports ${target}`).toContain(ring(target));
    },
  );

  it.each(inRing("common"))("%s imports only the core and the other common helpers", (name) => {
    for (const target of importsOf(name).filter((t) => !t.startsWith("node:")))
      expect(["core", "common"], `${name} imports ${target}`).toContain(ring(target));
  });

  it.each(inRing("serve"))("%s imports none of the build's rooms", (name) => {
    for (const target of importsOf(name)) expect(BUILD_RINGS, `${name} imports ${target}`).not.toContain(ring(target));
  });

  it.each(BUILD_RINGS.flatMap(inRing))("%s imports neither the preview nor the CLI", (name) => {
    for (const target of importsOf(name)) expect(["serve", "cli"], `${name} imports ${target}`).not.toContain(ring(target));
  });
});
