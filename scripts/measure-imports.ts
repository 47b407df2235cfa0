/**
 * `npm run measure:imports`: the shape of src/ read from the code's own imports, with the limits
 * the house keeps (test/architecture/measure-imports.test.ts fails when one is exceeded):
 *
 * - the longest chain of value imports (a module that loads a module that loads …), in files;
 * - every import circle, type-only imports included (a circle of types is still two files that
 *   cannot be understood, moved or tested apart);
 * - the source files in each folder.
 *
 * Imports are read by TypeScript's own parser, not by pattern: static imports and re-exports,
 * dynamic `import()`, `require()`, a worker thread's entry (`new URL("./x.mjs", import.meta.url)`)
 * and, as type-only, `import type`, `typeof import("./x.ts")` and JSDoc's `import("./x.ts")` in
 * the plain JavaScript thread entries. A specifier ending .js names the .ts beside it (the
 * compiled layout of lib/).
 *
 *   npm run measure:imports [-- --json]
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";

/** The limits: a chain cli → command → composition → stage → helper → core has room under 8. */
export const LIMITS = { longestChain: 8, circles: 0, folderFiles: 25 } as const;

/** One import of one module by another, both as paths inside src/. */
export interface ImportEdge {
  readonly from: string;
  readonly to: string;
  /** "value": the module is loaded when the importer runs; "type": only its types are named. */
  readonly kind: "value" | "type";
}

/** What measureImports found. */
export interface ImportShape {
  /** The longest chain of value imports, first importer to last module. */
  readonly longestChain: readonly string[];
  /** Each import circle (value and type imports), as its modules in import order, the first repeated at the end. */
  readonly circles: readonly (readonly string[])[];
  /** Source files directly in each folder of src/, largest first. */
  readonly folders: readonly { readonly folder: string; readonly files: number }[];
}

const SOURCE = /\.(?:ts|mjs)$/;

/** Every source module under `srcDir`, as a path inside it. */
export function sourceModules(srcDir: string): string[] {
  return (readdirSync(srcDir, { recursive: true }) as string[])
    .filter((name) => SOURCE.test(name))
    .map((name) => name.split("\\").join("/"))
    .sort();
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
function specifiersOf(name: string, code: string): { specifier: string; kind: ImportEdge["kind"] }[] {
  const file = ts.createSourceFile(name, code, ts.ScriptTarget.Latest, true, name.endsWith(".mjs") ? ts.ScriptKind.JS : ts.ScriptKind.TS);
  const found: { specifier: string; kind: ImportEdge["kind"] }[] = [];
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

/** Every import between the modules under `srcDir`. */
export function readImports(srcDir: string): { modules: string[]; edges: ImportEdge[] } {
  const modules = sourceModules(srcDir);
  const known = new Set(modules);
  const edges = new Map<string, ImportEdge>();
  for (const from of modules) {
    for (const { specifier, kind } of specifiersOf(from, readFileSync(join(srcDir, from), "utf8"))) {
      const to = resolveSpecifier(srcDir, known, from, specifier);
      if (to === undefined || to === from) continue;
      const key = `${from}\0${to}`;
      // A module imported both ways is loaded: value wins.
      if (edges.get(key)?.kind !== "value") edges.set(key, { from, to, kind });
    }
  }
  return { modules, edges: [...edges.values()] };
}

/** The strongly connected groups of more than one module (Tarjan's algorithm), each as one circle through its members. */
export function findCircles(modules: readonly string[], edges: readonly ImportEdge[]): string[][] {
  const next = adjacency(modules, edges);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v) as number);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
      }
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) groups.push(group);
    }
  };
  for (const v of modules) if (!index.has(v)) connect(v);
  return groups.map((group) => circleThrough(group, next)).sort((a, b) => (a[0] as string).localeCompare(b[0] as string));
}

/** One circle through the first (by name) of a group's modules, staying inside the group (breadth first: the shortest). */
function circleThrough(group: readonly string[], next: ReadonlyMap<string, readonly string[]>): string[] {
  const members = new Set(group);
  const start = [...group].sort()[0] as string;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const v = queue[i] as string;
    for (const w of next.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0] as string) as string);
        return [...path, start];
      }
      if (!cameFrom.has(w)) {
        cameFrom.set(w, v);
        queue.push(w);
      }
    }
  }
  throw new Error(`no circle through ${start}`);
}

function adjacency(modules: readonly string[], edges: readonly ImportEdge[]): Map<string, string[]> {
  const next = new Map<string, string[]>(modules.map((m) => [m, []]));
  for (const edge of edges) next.get(edge.from)?.push(edge.to);
  for (const list of next.values()) list.sort();
  return next;
}

/**
 * The longest chain of value imports. With no circle among the value imports it is exact; a
 * module met again on the way (a circle, which the circles report) ends the chain there.
 */
export function longestValueChain(modules: readonly string[], edges: readonly ImportEdge[]): string[] {
  const next = adjacency(
    modules,
    edges.filter((e) => e.kind === "value"),
  );
  const longest = new Map<string, string[]>();
  const visiting = new Set<string>();
  const from = (v: string): string[] => {
    const known = longest.get(v);
    if (known !== undefined) return known;
    visiting.add(v);
    let best: string[] = [];
    for (const w of next.get(v) ?? []) {
      if (visiting.has(w)) continue;
      const chain = from(w);
      if (chain.length > best.length) best = chain;
    }
    visiting.delete(v);
    const chain = [v, ...best];
    longest.set(v, chain);
    return chain;
  };
  let best: string[] = [];
  for (const v of modules) {
    const chain = from(v);
    if (chain.length > best.length) best = chain;
  }
  return best;
}

/** Source files directly in each folder, largest first. */
export function folderSizes(modules: readonly string[]): { folder: string; files: number }[] {
  const counts = new Map<string, number>();
  for (const m of modules) {
    const folder = dirname(m);
    counts.set(folder, (counts.get(folder) ?? 0) + 1);
  }
  return [...counts].map(([folder, files]) => ({ folder, files })).sort((a, b) => b.files - a.files || a.folder.localeCompare(b.folder));
}

/** The longest value chain, the circles and the folder sizes of the modules under `srcDir`. */
export function measureImports(srcDir: string): ImportShape {
  const { modules, edges } = readImports(srcDir);
  return { longestChain: longestValueChain(modules, edges), circles: findCircles(modules, edges), folders: folderSizes(modules) };
}

/** What goes over the limits, one line each (none: the house holds). */
export function overLimits(shape: ImportShape): string[] {
  const over: string[] = [];
  if (shape.longestChain.length > LIMITS.longestChain)
    over.push(`a chain of ${shape.longestChain.length} value imports (at most ${LIMITS.longestChain}): ${shape.longestChain.join(" → ")}`);
  for (const circle of shape.circles) over.push(`an import circle: ${circle.join(" → ")}`);
  for (const { folder, files } of shape.folders)
    if (files > LIMITS.folderFiles) over.push(`src/${folder} holds ${files} source files (at most ${LIMITS.folderFiles})`);
  return over;
}

function print(shape: ImportShape): void {
  const lines = [
    `longest chain of value imports: ${shape.longestChain.length} files (at most ${LIMITS.longestChain})`,
    ...shape.longestChain.map((m, i) => `  ${"  ".repeat(i)}${m}`),
    `import circles (type-only imports included): ${shape.circles.length}`,
    ...shape.circles.map((c) => `  ${c.join(" → ")}`),
    `source files per folder (at most ${LIMITS.folderFiles}):`,
    ...shape.folders.map(({ folder, files }) => `  ${String(files).padStart(3)}  src/${folder === "." ? "" : `${folder}/`}`),
  ];
  const over = overLimits(shape);
  lines.push(over.length === 0 ? "within every limit" : `over the limits:\n${over.map((o) => `  ${o}`).join("\n")}`);
  console.log(lines.join("\n"));
  if (over.length > 0) process.exitCode = 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const shape = measureImports(resolve(new URL("..", import.meta.url).pathname, "src"));
  if (process.argv.includes("--json")) console.log(JSON.stringify(shape, null, 2));
  else print(shape);
}
