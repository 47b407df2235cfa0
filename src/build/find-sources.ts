/** Stage 1: the source files under the data directory, in one order whatever the file system's. */
import { relative, resolve, sep } from "node:path";
import fg from "fast-glob";
import type { SourceFile } from "./source-file.ts";

/** The patterns searched, recursively; hidden files and directories are skipped. */
export const SOURCE_PATTERNS = ["**/*.json", "**/*.ndjson", "**/*.csv"] as const;

/** A path as problems show it: relative to the working directory, or absolute when outside it. */
export function displayPath(path: string, cwd: string = process.cwd()): string {
  const rel = relative(cwd, resolve(path));
  return (rel === "" || rel.startsWith("..") ? resolve(path) : rel).split(sep).join("/");
}

function describe(path: string): SourceFile {
  const name = displayPath(path);
  if (path.endsWith(".csv")) return { name, path, locateBy: "line", kind: "csv" };
  if (path.endsWith(".ndjson")) return { name, path, locateBy: "line", kind: "json" };
  return { name, path, locateBy: "index", kind: "json" };
}

/** Every *.json, *.ndjson and *.csv under `dataDir`, sorted by path (code-point order, not locale). */
export async function findSources(dataDir: string): Promise<SourceFile[]> {
  const found = await fg([...SOURCE_PATTERNS], { cwd: dataDir, absolute: true, onlyFiles: true, dot: false });
  found.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return found.map(describe);
}
