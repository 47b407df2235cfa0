/**
 * The house's limits, read from src/'s own imports (test/architecture/measure-imports.ts over
 * test/architecture/read-imports.ts): the longest chain of value imports, no import circle even through
 * types, no crowded folder, no two top-level rooms that reach each other, no function over 120
 * lines that does not say why. The measure itself is checked on small trees written here, so a
 * measure that sees nothing cannot pass for a clean src/.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { functionsOver, LIMITS, measureImports, overLimits, roomsOver } from "./measure-imports.ts";

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A src/ tree of `files` (path -> code). */
function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "subjekti-imports-"));
  made.push(dir);
  for (const [name, code] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), code);
  }
  return dir;
}

describe("measureImports on small trees", () => {
  it("a chain a -> b -> c by value imports is 3 files; a type-only import does not lengthen it", () => {
    const shape = measureImports(
      tree({
        "a.ts": 'import { b } from "./b.ts";\nexport const a = b;\n',
        "b.ts": 'import { c } from "./x/c.ts";\nexport const b = c;\n',
        "x/c.ts": 'import type { D } from "../d.ts";\nexport const c: D = 1;\n',
        "d.ts": "export type D = number;\n",
      }),
    );
    expect(shape.longestChain).toEqual(["a.ts", "b.ts", "x/c.ts"]);
    expect(shape.circles).toEqual([]);
    expect(shape.folders).toEqual([
      { folder: ".", files: 3 },
      { folder: "x", files: 1 },
    ]);
  });

  it("a circle through a type-only import is a circle: a -> b by value, b -> a by type", () => {
    const shape = measureImports(
      tree({
        "a.ts": 'import { b } from "./b.ts";\nexport type A = number;\nexport const a = b;\n',
        "b.ts": 'import type { A } from "./a.ts";\nexport const b: A = 1;\n',
      }),
    );
    expect(shape.circles).toEqual([["a.ts", "b.ts", "a.ts"]]);
    expect(overLimits(shape)).toEqual(["an import circle: a.ts → b.ts → a.ts"]);
  });

  it("dynamic import(), a worker entry by new URL(…, import.meta.url), .js naming the .ts and JSDoc types in .mjs are imports", () => {
    const shape = measureImports(
      tree({
        "cli.ts": 'export const run = () => import("./stage.ts");\n',
        "stage.ts": 'export const entry = new URL("./thread.mjs", import.meta.url);\n',
        "thread.mjs": 'import { work } from "./work.js";\n/** @param {import("./task.ts").Task} t */\nexport const go = (t) => work(t);\n',
        "work.ts": "export const work = (t: unknown) => t;\n",
        "task.ts": "export type Task = { readonly n: number };\n",
      }),
    );
    expect(shape.longestChain).toEqual(["cli.ts", "stage.ts", "thread.mjs", "work.ts"]);
    expect(shape.circles).toEqual([]);
  });

  it("a chain over the limit, and a folder over the limit, are named", () => {
    const files: Record<string, string> = {};
    const n = LIMITS.longestChain + 1;
    for (let i = 0; i < n; i++)
      files[`m${i}.ts`] = i + 1 < n ? `import { x } from "./m${i + 1}.ts";\nexport { x };\n` : "export const x = 1;\n";
    for (let i = 0; i < LIMITS.folderFiles + 1; i++) files[`crowded/f${i}.ts`] = "export {};\n";
    const over = overLimits(measureImports(tree(files)));
    expect(over[0]).toMatch(new RegExp(`^a chain of ${n} value imports \\(at most ${LIMITS.longestChain}\\): m0.ts → m1.ts`));
    expect(over).toContain(`src/crowded holds ${LIMITS.folderFiles + 1} source files (at most ${LIMITS.folderFiles})`);
  });
});

describe("the rooms of a small tree", () => {
  it("two rooms that import each other, one through a type only, reach each other; a room they import stands apart", () => {
    const shape = measureImports(
      tree({
        "a/one.ts": 'import { two } from "../b/two.ts";\nimport { leaf } from "../c/leaf.ts";\nexport const one = two + leaf;\n',
        "b/two.ts": 'import type { One } from "../a/types.ts";\nexport const two: One = 2;\n',
        "a/types.ts": "export type One = number;\n",
        "c/leaf.ts": "export const leaf = 1;\n",
      }),
    );
    expect(shape.circles).toEqual([]);
    expect(shape.rooms).toEqual([
      {
        rooms: ["a", "b"],
        imports: [
          { from: "a", to: "b", count: 1, first: { from: "a/one.ts", to: "b/two.ts", kind: "value" } },
          { from: "b", to: "a", count: 1, first: { from: "b/two.ts", to: "a/types.ts", kind: "type" } },
        ],
      },
    ]);
    expect(roomsOver(shape)).toEqual([
      "rooms that reach each other: a, b (a → b 1×, first a/one.ts → b/two.ts; b → a 1×, first b/two.ts → a/types.ts)",
    ]);
  });

  it("three rooms in a ring reach each other, though no two import each other directly", () => {
    const shape = measureImports(
      tree({
        "a/x.ts": 'import { y } from "../b/y.ts";\nexport const x = y;\n',
        "b/y.ts": 'import { z } from "../c/z.ts";\nexport const y = z;\n',
        "c/z.ts": 'import type { X } from "../a/t.ts";\nexport const z: X = 1;\n',
        "a/t.ts": "export type X = number;\n",
      }),
    );
    expect(shape.rooms.map((group) => group.rooms)).toEqual([["a", "b", "c"]]);
  });

  it("rooms that import one way only stand apart", () => {
    const shape = measureImports(
      tree({
        "cli/main.ts": 'import { build } from "../site/build.ts";\nexport const main = build;\n',
        "site/build.ts": 'import { core } from "../core/core.ts";\nexport const build = core;\n',
        "core/core.ts": "export const core = 1;\n",
      }),
    );
    expect(shape.rooms).toEqual([]);
    expect(roomsOver(shape)).toEqual([]);
  });
});

describe("long functions in a small tree", () => {
  /** A function of `lines` lines in all, its first line `head`. */
  const fn = (head: string, lines: number): string => `${head} {\n${"  void 0;\n".repeat(lines - 2)}}\n`;

  it(`a function of ${LIMITS.functionLines} lines passes; of ${LIMITS.functionLines + 1}, an arrow or a method, it is named with its place`, () => {
    const shape = measureImports(
      tree({
        "fits.ts": fn("export function fits(): void", LIMITS.functionLines),
        "over.ts": `// a module\n${fn("export const over = (): void =>", LIMITS.functionLines + 1)}`,
        "method.ts": `export class C {\n${fn("  run(): void", LIMITS.functionLines + 1)}}\n`,
      }),
    );
    expect(shape.longFunctions).toEqual([
      { module: "method.ts", name: "run", line: 2, lines: LIMITS.functionLines + 1 },
      { module: "over.ts", name: "over", line: 2, lines: LIMITS.functionLines + 1 },
    ]);
    expect(functionsOver(shape)).toEqual([
      `src/method.ts:2: run is ${LIMITS.functionLines + 1} lines (at most ${LIMITS.functionLines} without a \`// long: <reason>\` line above it)`,
      `src/over.ts:2: over is ${LIMITS.functionLines + 1} lines (at most ${LIMITS.functionLines} without a \`// long: <reason>\` line above it)`,
    ]);
  });

  it("a `// long: <reason>` line right above a long function lets it be, and is reported; anywhere else it does not", () => {
    const shape = measureImports(
      tree({
        "parser.ts": `/** Reads the grammar. */\n// long: one production per case, as the grammar reads\n${fn("export function parse(): void", LIMITS.functionLines + 5)}`,
        "far.ts": `// long: too far from the function\n\n${fn("export function far(): void", LIMITS.functionLines + 5)}`,
      }),
    );
    expect(shape.longFunctions).toEqual([
      { module: "far.ts", name: "far", line: 3, lines: LIMITS.functionLines + 5 },
      {
        module: "parser.ts",
        name: "parse",
        line: 3,
        lines: LIMITS.functionLines + 5,
        reason: "one production per case, as the grammar reads",
      },
    ]);
    expect(functionsOver(shape)).toEqual([
      `src/far.ts:3: far is ${LIMITS.functionLines + 5} lines (at most ${LIMITS.functionLines} without a \`// long: <reason>\` line above it)`,
    ]);
  });
});

describe("src/ within the house's limits", () => {
  const shape = measureImports(resolve("src"));

  it("sees the whole of src/ (the CLI reaches the core)", () => {
    expect(shape.longestChain[0]).toMatch(/^cli\//);
    expect(shape.folders.length).toBeGreaterThan(10);
  });

  it(`the longest chain of value imports is at most ${LIMITS.longestChain} files, no import circle, no folder over ${LIMITS.folderFiles} files`, () => {
    expect(overLimits(shape)).toEqual([]);
  });

  it("no two top-level rooms of src/ reach each other through their imports, type-only ones included", () => {
    expect(roomsOver(shape)).toEqual([]);
  });

  it(`no function is over ${LIMITS.functionLines} lines unless a \`// long: <reason>\` line above it says why`, () => {
    expect(functionsOver(shape)).toEqual([]);
  });
});
