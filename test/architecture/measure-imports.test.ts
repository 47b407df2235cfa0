/**
 * The house's limits, read from src/'s own imports (scripts/measure-imports.ts): the longest chain
 * of value imports, no import circle even through types, no crowded folder. The measure itself is
 * checked on small trees written here, so a measure that sees nothing cannot pass for a clean src/.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LIMITS, measureImports, overLimits } from "../../scripts/measure-imports.ts";

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

describe("src/ within the house's limits", () => {
  const shape = measureImports(resolve("src"));

  it("sees the whole of src/ (the CLI reaches the core)", () => {
    expect(shape.longestChain[0]).toMatch(/^cli\//);
    expect(shape.folders.length).toBeGreaterThan(10);
  });

  it(`the longest chain of value imports is at most ${LIMITS.longestChain} files, no import circle, no folder over ${LIMITS.folderFiles} files`, () => {
    expect(overLimits(shape)).toEqual([]);
  });
});
