/**
 * `npm run measure:imports`: the shape of src/ read from the code's own imports (read-imports.ts,
 * the one reader the architecture tests share), with the limits the house keeps
 * (measure-imports.test.ts beside it fails when one is exceeded):
 *
 * - the longest chain of value imports (a module that loads a module that loads …), in files;
 * - every import circle, type-only imports included (a circle of types is still two files that
 *   cannot be understood, moved or tested apart);
 * - the source files in each folder;
 * - the top-level rooms of src/ (core, data, site, cli, …) that reach each other through their
 *   imports, type-only ones included: a room is understood, moved and tested apart only if none of
 *   the rooms it reaches reaches it back;
 * - the functions over 120 lines, unless a `// long: <reason>` line right above one says why (a
 *   parser that reads a grammar in one piece, say).
 *
 *   npm run measure:imports [-- --json]
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { type ImportEdge, parseModule, readImports, roomOf, sourceModules } from "./read-imports.ts";

/** The limits: a chain cli → command → composition → stage → helper → core has room under 8. */
export const LIMITS = { longestChain: 8, circles: 0, folderFiles: 25, functionLines: 120 } as const;

/** The line that lets a function be longer than the limit: `// long: <why>`, right above the function. */
const LONG_MARKER = /^\s*\/\/ long: \S/;

/** Rooms of src/ that reach each other, and each import from one room of the group into another: how many, and the first. */
export type RoomGroup = { rooms: readonly string[]; imports: readonly { from: string; to: string; count: number; first: ImportEdge }[] };

/** A function of src/ over the limit: its name (or what holds it, or "(anonymous)"), first line from 1, length, and what its `// long:` line says. */
export type LongFunction = { module: string; name: string; line: number; lines: number; reason?: string };

/**
 * What measureImports found: the longest chain of value imports (first importer to last module);
 * each circle (value and type imports) as its modules in import order, the first repeated at the
 * end; the source files directly in each folder, largest first; the groups of rooms that reach
 * each other; every function over LIMITS.functionLines lines.
 */
export type ImportShape = {
  longestChain: readonly string[];
  circles: readonly (readonly string[])[];
  folders: readonly { folder: string; files: number }[];
  rooms: readonly RoomGroup[];
  longFunctions: readonly LongFunction[];
};

/** The strongly connected groups of more than one node (Tarjan's algorithm), each sorted. */
function stronglyConnected(modules: readonly string[], next: ReadonlyMap<string, readonly string[]>): string[][] {
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
  return groups.map((group) => group.sort());
}

/** The strongly connected groups of more than one module, each as one circle through its members. */
export function findCircles(modules: readonly string[], edges: readonly ImportEdge[]): string[][] {
  const next = adjacency(modules, edges);
  return stronglyConnected(modules, next)
    .map((group) => circleThrough(group, next))
    .sort((a, b) => (a[0] as string).localeCompare(b[0] as string));
}

/** The top-level rooms of src/ that reach each other through imports of either kind, each group with the imports between its rooms. */
export function roomsReachingEachOther(edges: readonly ImportEdge[]): RoomGroup[] {
  const between = new Map<string, { from: string; to: string; count: number; first: ImportEdge }>();
  for (const edge of [...edges].sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to))) {
    const [from, to] = [roomOf(edge.from), roomOf(edge.to)];
    if (from === to) continue;
    const known = between.get(`${from}\0${to}`);
    if (known === undefined) between.set(`${from}\0${to}`, { from, to, count: 1, first: edge });
    else known.count++;
  }
  const rooms = [...new Set([...between.values()].flatMap(({ from, to }) => [from, to]))].sort();
  const next = new Map<string, string[]>(rooms.map((r) => [r, []]));
  for (const { from, to } of between.values()) next.get(from)?.push(to);
  for (const list of next.values()) list.sort();
  return stronglyConnected(rooms, next)
    .sort((a, b) => (a[0] as string).localeCompare(b[0] as string))
    .map((group) => ({
      rooms: group,
      imports: [...between.values()]
        .filter(({ from, to }) => group.includes(from) && group.includes(to))
        .sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to)),
    }));
}

/** What a function-like node is called: its own name, or the variable or property that holds it. */
function functionName(node: ts.SignatureDeclaration, file: ts.SourceFile): string {
  if (node.name !== undefined) return node.name.getText(file);
  const parent = node.parent;
  if (
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) &&
    parent.name !== undefined
  )
    return parent.name.getText(file);
  return ts.isConstructorDeclaration(node) ? "constructor" : "(anonymous)";
}

/** Every function of the modules under `srcDir` over LIMITS.functionLines lines (a nested one counted on its own too), with its reason when it has one. */
export function longFunctions(srcDir: string, modules: readonly string[] = sourceModules(srcDir)): LongFunction[] {
  const found: LongFunction[] = [];
  for (const module of modules) {
    const code = readFileSync(join(srcDir, module), "utf8");
    const file = parseModule(module, code);
    const lines = code.split("\n");
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
        const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
        const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
        if (last - first + 1 > LIMITS.functionLines) {
          const above = lines[first - 1] ?? "";
          const reason = LONG_MARKER.test(above) ? above.replace(/^\s*\/\/ long:\s*/, "").trim() : undefined;
          found.push({
            module,
            name: functionName(node, file),
            line: first + 1,
            lines: last - first + 1,
            ...(reason === undefined ? {} : { reason }),
          });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
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

/** The longest value chain, the circles, the folder sizes, the rooms that reach each other and the long functions of the modules under `srcDir`. */
export function measureImports(srcDir: string): ImportShape {
  const { modules, edges } = readImports(srcDir);
  return {
    longestChain: longestValueChain(modules, edges),
    circles: findCircles(modules, edges),
    folders: folderSizes(modules),
    rooms: roomsReachingEachOther(edges),
    longFunctions: longFunctions(srcDir, modules),
  };
}

/** What goes over the limits of the imports (the chain, the circles, the folders), one line each (none: they hold). */
export function overLimits(shape: ImportShape): string[] {
  const over: string[] = [];
  if (shape.longestChain.length > LIMITS.longestChain)
    over.push(`a chain of ${shape.longestChain.length} value imports (at most ${LIMITS.longestChain}): ${shape.longestChain.join(" → ")}`);
  for (const circle of shape.circles) over.push(`an import circle: ${circle.join(" → ")}`);
  for (const { folder, files } of shape.folders)
    if (files > LIMITS.folderFiles) over.push(`src/${folder} holds ${files} source files (at most ${LIMITS.folderFiles})`);
  return over;
}

/** Each group of rooms that reach each other, in one line with the imports between them (none: every room stands apart). */
export function roomsOver(shape: ImportShape): string[] {
  return shape.rooms.map(
    ({ rooms, imports }) =>
      `rooms that reach each other: ${rooms.join(", ")} (${imports
        .map(({ from, to, count, first }) => `${from} → ${to} ${count}×, first ${first.from} → ${first.to}`)
        .join("; ")})`,
  );
}

/** Each function over the limit with no reason given, one line each (none: every long one says why). */
export function functionsOver(shape: ImportShape): string[] {
  return shape.longFunctions
    .filter((f) => f.reason === undefined)
    .map(
      (f) =>
        `src/${f.module}:${f.line}: ${f.name} is ${f.lines} lines (at most ${LIMITS.functionLines} without a \`// long: <reason>\` line above it)`,
    );
}

/** The shape, then what goes over the limits (exit code 1 when anything does). */
function print(shape: ImportShape): void {
  const over = [...overLimits(shape), ...roomsOver(shape), ...functionsOver(shape)];
  console.log(
    [
      `longest chain of value imports: ${shape.longestChain.length} files (at most ${LIMITS.longestChain})`,
      ...shape.longestChain.map((m, i) => `  ${"  ".repeat(i)}${m}`),
      `import circles (type-only imports included): ${shape.circles.length}`,
      `source files per folder (at most ${LIMITS.folderFiles}):`,
      ...shape.folders.map(({ folder, files }) => `  ${String(files).padStart(3)}  src/${folder === "." ? "" : `${folder}/`}`),
      `groups of top-level rooms that reach each other (type-only imports included): ${shape.rooms.length}`,
      `functions over ${LIMITS.functionLines} lines: ${shape.longFunctions.length}`,
      ...shape.longFunctions.map((f) => `  ${f.lines} lines  src/${f.module}:${f.line} ${f.name} (long: ${f.reason ?? "no reason given"})`),
      over.length === 0 ? "within every limit" : `over the limits:\n${over.map((o) => `  ${o}`).join("\n")}`,
    ].join("\n"),
  );
  if (over.length > 0) process.exitCode = 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const shape = measureImports(resolve(import.meta.dirname, "../../src"));
  if (process.argv.includes("--json")) console.log(JSON.stringify(shape, null, 2));
  else print(shape);
}
