/** The read stage's first step: the source files under the data directory, in one order whatever the file system's. */
import { realpath, stat } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import fg from "fast-glob";
import { KNOWN_PROBLEMS_FILE } from "../problems/known-problems-file.ts";
import type { ProblemSink } from "../problems/problems.ts";
import { type Message, msg } from "../../common/messages/message.ts";
import type { SourceFile } from "./source-file.ts";

/** The patterns searched, recursively, in any case (`SUBJEKTI.CSV`); hidden files and directories are skipped. */
export const SOURCE_PATTERNS = ["**/*.json", "**/*.ndjson", "**/*.csv", "**/*.xlsx", "**/*.ods"] as const;
/** The dataset's descriptor at the top of the data directory (dataset-metadata.ts): JSON, but no source. */
export const METADATA_FILE = "datapackage.json";

/** A path as problems show it: relative to the working directory, or absolute when outside it. */
export function displayPath(path: string, cwd: string = process.cwd()): string {
  const rel = relative(cwd, resolve(path));
  return (rel === "" || rel.startsWith("..") ? resolve(path) : rel).split(sep).join("/");
}

function describe(path: string): SourceFile {
  const name = displayPath(path);
  const lower = path.toLowerCase();
  if (lower.endsWith(".csv")) return { name, path, locateBy: "line", kind: "csv" };
  // A workbook: Office Open XML or OpenDocument (kind "xlsx" covers both: the same spreadsheet forms).
  if (lower.endsWith(".xlsx") || lower.endsWith(".ods"))
    return { name, path, locateBy: "line", kind: "xlsx", sheet: { name: "", columns: new Map() } };
  if (lower.endsWith(".ndjson")) return { name, path, locateBy: "line", kind: "json" };
  return { name, path, locateBy: "index", kind: "json" };
}

/** Whether `path` is `root` or inside it (both real paths). */
function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** How sources are searched for. */
export interface FindOptions {
  /** Follow symbolic links that lead outside the data directory (by default they are skipped, with a warning). */
  readonly followOutside?: boolean;
  /** Warnings (as errors when `strict`) about links: skipped, or leading to what is read already. */
  readonly problems?: ProblemSink;
  readonly strict?: boolean;
}

/** What the data directory holds: the sources to read, and every other file, which is not read. */
export interface FoundSources {
  readonly files: SourceFile[];
  /** Files under the data directory itself that are not sources (hidden and lock files aside), as paths inside it, sorted. */
  readonly ignored: string[];
}

/** Whether `path` names a source by its extension, in any case. */
function isSourceName(path: string): boolean {
  const lower = path.toLowerCase();
  return SOURCE_PATTERNS.some((pattern) => lower.endsWith(pattern.slice(4)));
}

/**
 * Every *.json, *.ndjson, *.csv and *.xlsx under `dataDir` (extensions in any case), sorted by path (code-point order, not locale),
 * each file once, and the files that are not sources. One walk a directory: it does not follow
 * symbolic links as it goes (a link to a parent would loop); each link is looked at once by where
 * it really leads: a file or directory inside the data directory is read where it is (the link is
 * reported as a second way to it), one outside is read only with `followOutside`.
 */
export async function findSources(dataDir: string, options: FindOptions = {}): Promise<FoundSources> {
  const root = await realpath(dataDir).catch(() => undefined);
  if (root === undefined) return { files: [], ignored: [] };
  const warn = (link: string, expected: Message, value: Message, hint: Message): void => {
    options.problems?.push({ severity: options.strict === true ? "error" : "warning", file: displayPath(link), expected, value, hint });
  };
  const candidates: string[] = [];
  const ignored: string[] = [];
  const top = resolve(dataDir);
  const walked = new Set<string>([root]);
  const queue = [top];
  for (let dir = queue.shift(); dir !== undefined; dir = queue.shift()) {
    const entries = await fg("**", {
      cwd: dir,
      absolute: true,
      dot: false,
      followSymbolicLinks: false,
      onlyFiles: false,
      objectMode: true,
    });
    for (const entry of entries) {
      // Office's lock files (`~$subjekti.xlsx`, while the workbook is open in Excel): never data, skipped quietly.
      if (entry.dirent.isFile() && !entry.name.startsWith("~$")) {
        if (isSourceName(entry.path)) candidates.push(entry.path);
        else if (dir === top) ignored.push(entry.path.slice(top.length + 1));
      }
      if (!entry.dirent.isSymbolicLink()) continue;
      const target = await realpath(entry.path).catch(() => undefined);
      const info = target === undefined ? undefined : await stat(target).catch(() => undefined);
      if (target === undefined || info === undefined) continue;
      if (!isInside(target, root) && options.followOutside !== true) {
        warn(entry.path, msg("expected.link-inside"), msg("value.link-to", { target: displayPath(target) }), msg("hint.not-followed"));
      } else if (info.isDirectory()) {
        if (isInside(target, root) || walked.has(target)) {
          warn(entry.path, msg("expected.source-once"), msg("value.link-read", { target: displayPath(target) }), msg("hint.link-loop"));
        } else {
          walked.add(target);
          queue.push(entry.path);
        }
      } else if (isSourceName(entry.path)) {
        candidates.push(entry.path);
      }
    }
  }
  const byPath = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  candidates.sort(byPath);
  // Each file once, by its real path: the first path in order is the one read.
  const read = new Map<string, string>();
  const files: SourceFile[] = [];
  const descriptor = join(top, METADATA_FILE);
  const baseline = join(top, KNOWN_PROBLEMS_FILE);
  for (const path of candidates) {
    // The dataset's descriptor and the accepted warnings are JSON, but no source of subjects.
    if (path === descriptor || path === baseline) continue;
    const real = await realpath(path).catch(() => path);
    const first = read.get(real);
    if (first !== undefined) {
      warn(
        path,
        msg("expected.source-once"),
        msg("value.second-path", { first: displayPath(first) }),
        msg("hint.read-once-as", { first: displayPath(first) }),
      );
      continue;
    }
    read.set(real, path);
    files.push(describe(path));
  }
  return { files, ignored: ignored.sort(byPath) };
}
