/**
 * The one reader of src/'s imports, for `npm run measure:imports` (test/architecture/measure-imports.ts)
 * and the tests that guard the architecture (test/architecture/): what each module imports, read
 * by TypeScript's own parser, not by pattern. Static imports and re-exports, dynamic `import()`,
 * `require()`, a worker thread's entry (`new URL("./x.mjs", import.meta.url)`) and, as type-only,
 * `import type`, `typeof import("./x.ts")` and JSDoc's `import("./x.ts")` in the plain JavaScript
 * thread entries. A specifier ending .js names the .ts beside it (the compiled layout of lib/).
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

/** "value": the module is loaded when the importer runs; "type": only its types are named. */
export type ImportKind = "value" | "type";

/** One import of one module by another, both as paths inside src/. */
export interface ImportEdge {
  readonly from: string;
  readonly to: string;
  readonly kind: ImportKind;
}

/** One specifier as a module writes it (a relative path, a package, a `node:` module), with its kind. */
export interface ImportSpecifier {
  readonly specifier: string;
  readonly kind: ImportKind;
}

/** What readImports found. */
export interface SourceImports {
  /** Every source module, as a path inside src/, sorted. */
  readonly modules: string[];
  /** Every import between two of those modules (one edge a pair; a module imported both ways is a value import). */
  readonly edges: ImportEdge[];
  /** Every specifier each module writes, packages and Node's modules included, in the order written. */
  readonly specifiers: ReadonlyMap<string, readonly ImportSpecifier[]>;
}

const SOURCE = /\.(?:ts|mjs)$/;

/** Every source module under `srcDir`, as a path inside it. */
export function sourceModules(srcDir: string): string[] {
  return (readdirSync(srcDir, { recursive: true }) as string[])
    .filter((name) => SOURCE.test(name))
    .map((name) => name.split("\\").join("/"))
    .sort();
}

/** A module's source parsed by TypeScript (an .mjs as JavaScript). */
export function parseModule(name: string, code: string): ts.SourceFile {
  return ts.createSourceFile(name, code, ts.ScriptTarget.Latest, true, name.endsWith(".mjs") ? ts.ScriptKind.JS : ts.ScriptKind.TS);
}

/** The module inside `srcDir` that `specifier` (written in `from`) names, or undefined for a package or a Node module. */
function resolveSpecifier(srcDir: string, modules: ReadonlySet<string>, from: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const target = relative(srcDir, resolve(srcDir, dirname(from), specifier))
    .split("\\")
    .join("/");
  if (modules.has(target)) return target;
  const asTs = target.replace(/\.js$/, ".ts");
  return modules.has(asTs) ? asTs : undefined;
}

/** The specifiers `code` imports, each with whether only its types are used. */
export function specifiersOf(name: string, code: string): ImportSpecifier[] {
  const file = parseModule(name, code);
  const found: ImportSpecifier[] = [];
  const literal = (node: ts.Node | undefined): string | undefined =>
    node !== undefined && ts.isStringLiteralLike(node) ? node.text : undefined;
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const specifier = literal(node.moduleSpecifier);
      // verbatimModuleSyntax keeps `import { type A } from` as a load of the module: only `import type` is types alone.
      if (specifier !== undefined) found.push({ specifier, kind: node.importClause?.isTypeOnly === true ? "type" : "value" });
    } else if (ts.isExportDeclaration(node)) {
      const specifier = literal(node.moduleSpecifier);
      if (specifier !== undefined) found.push({ specifier, kind: node.isTypeOnly ? "type" : "value" });
    } else if (ts.isCallExpression(node)) {
      const [first] = node.arguments;
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === "require";
      const specifier = literal(first);
      if (specifier !== undefined && (node.expression.kind === ts.SyntaxKind.ImportKeyword || isRequire))
        found.push({ specifier, kind: "value" });
    } else if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "URL") {
      // new URL("./entry.mjs", import.meta.url): a worker thread's entry, loaded by this module.
      const [first, base] = node.arguments ?? [];
      const specifier = literal(first);
      if (specifier !== undefined && base !== undefined && base.getText(file) === "import.meta.url")
        found.push({ specifier, kind: "value" });
    } else if (ts.isImportTypeNode(node)) {
      const specifier = ts.isLiteralTypeNode(node.argument) ? literal(node.argument.literal) : undefined;
      if (specifier !== undefined) found.push({ specifier, kind: "type" });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  // The thread entries name the types they use in JSDoc (`@type {import("./x.ts").T}`), which the walk does not visit.
  if (name.endsWith(".mjs")) {
    for (const comment of code.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
      for (const m of comment[0].matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) found.push({ specifier: m[1] as string, kind: "type" });
    }
  }
  return found;
}

/** Every import of the modules under `srcDir`: the specifiers each writes, and the edges between them. */
export function readImports(srcDir: string): SourceImports {
  const modules = sourceModules(srcDir);
  const known = new Set(modules);
  const edges = new Map<string, ImportEdge>();
  const specifiers = new Map<string, ImportSpecifier[]>();
  for (const from of modules) {
    const written = specifiersOf(from, readFileSync(join(srcDir, from), "utf8"));
    specifiers.set(from, written);
    for (const { specifier, kind } of written) {
      const to = resolveSpecifier(srcDir, known, from, specifier);
      if (to === undefined || to === from) continue;
      const key = `${from}\0${to}`;
      // A module imported both ways is loaded: value wins.
      if (edges.get(key)?.kind !== "value") edges.set(key, { from, to, kind });
    }
  }
  return { modules, edges: [...edges.values()], specifiers };
}

/** A module's top-level room of src/: the first folder of its path ("." for a file directly in src/). */
export function roomOf(module: string): string {
  const slash = module.indexOf("/");
  return slash === -1 ? "." : module.slice(0, slash);
}
