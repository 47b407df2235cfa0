/**
 * Helpers for tests that run real `subjekti` processes against one output: datasets whose every
 * page differs, a process with its exit and stderr, what a reader sees of a site (routed or plain),
 * and every temporary a process could leave.
 */
import { execFile, spawn } from "node:child_process";
import { mkdir, readdir, readFile, readlink, writeFile } from "node:fs/promises";
import { basename, dirname, join, relative } from "node:path";
import { promisify } from "node:util";
import { chunkPath, MANIFEST_PATH, pagePath } from "../../src/core/layout.ts";
import type { Manifest } from "../../src/core/manifest.ts";
import type { Subject } from "../../src/core/render-page.ts";
import { cacheDirOf } from "../../src/data/read/build-cache.ts";
import { CLI_ENTRY } from "../cli-entry.ts";

/**
 * The sample repeated `times` times with fresh ids and codes, the first `size` of them (all by
 * default), `drop` fewer at the end: builds that take a while, or few subjects for many short
 * ones; every page different.
 */
export async function writeDataset(dir: string, times: number, drop: number, size = Infinity): Promise<void> {
  const sample = JSON.parse(await readFile("data/subjekti.json", "utf8")) as Subject[];
  const subjects: Subject[] = [];
  for (let t = 0; t < times; t++) {
    for (const s of sample) {
      const n = subjects.length + 1;
      subjects.push({ ...s, id: n * 2, jedinstvena_oznaka: String(n).padStart(6, "0") });
    }
  }
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "subjekti.json"), JSON.stringify(subjects.slice(0, Math.min(size, subjects.length) - drop)));
}

/** A site and the directory its build cache is kept under (`--out`, `--cache-dir`). */
export interface BuiltSite {
  readonly out: string;
  readonly cache: string;
}

/**
 * Copies the site `from` and its build cache to `to`, so that a test starts from a site built once
 * for many: `cp -a` keeps the site's hard links (a stable download and its content-named file are
 * one file), its symbolic links and times. The cache's entries are named for the output's path
 * (cacheDirOf), so the copy's are renamed for the new one: a build into `to` finds the same blocks,
 * indexes and facts a build into `from` would. The last build's record (unchanged-build.ts) is
 * copied too, but it stamps the files themselves, which the copy's are not: a build of the same
 * inputs into the copy takes the full path, so a test that needs that shortcut builds its own.
 */
export async function copySite(from: BuiltSite, to: BuiltSite): Promise<void> {
  await promisify(execFile)("cp", ["-a", from.out, to.out]);
  await mkdir(to.cache, { recursive: true });
  const [fromPrefix, toPrefix] = [basename(cacheDirOf(from.cache, from.out)), basename(cacheDirOf(to.cache, to.out))];
  for (const name of await readdir(from.cache)) {
    if (!name.startsWith(fromPrefix)) continue;
    await promisify(execFile)("cp", ["-a", join(from.cache, name), join(to.cache, `${toPrefix}${name.slice(fromPrefix.length)}`)]);
  }
}

/** A running CLI process: its pid, and its end (exit code or signal, stderr, when). */
export interface Running {
  readonly pid: number;
  readonly ended: Promise<{
    readonly code: number | null;
    readonly signal: NodeJS.Signals | null;
    readonly stderr: string;
    readonly at: number;
  }>;
  kill(signal: NodeJS.Signals): void;
  /** Lets the process, paused at its point, go on (SIGUSR2: src/common/pause-point.ts). */
  resume(): void;
  /** Resolves once the process has written `text` to stderr (true), or has ended without (false). */
  said(text: string): Promise<boolean>;
}

/** The environment that stops a command at the named pause point `point` (src/common/pause-point.ts). */
export const pauseAt = (point: string): Record<string, string> => ({ SUBJEKTI_PAUSE_AT: point });

/** The line a command writes when it waits at the pause point `point`. */
export const pausedLine = (point: string): string => `subjekti: paused at ${point}\n`;

/** Runs `subjekti <args>` from src/ (as the atomic-build test does), with `env` added to the environment. */
export function runProcess(args: readonly string[], env: Record<string, string> = {}): Running {
  const child = spawn(process.execPath, [...CLI_ENTRY, ...args], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, ...env },
  });
  let stderr = "";
  const waiting = new Set<() => void>();
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
    for (const check of waiting) check();
  });
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string; at: number }>((resolve) => {
    child.on("close", (code, signal) => resolve({ code, signal, stderr, at: performance.now() }));
  });
  const said = (text: string): Promise<boolean> =>
    new Promise((resolve) => {
      const check = (): void => {
        if (!stderr.includes(text)) return;
        waiting.delete(check);
        resolve(true);
      };
      waiting.add(check);
      check();
      void ended.then(() => {
        waiting.delete(check);
        resolve(stderr.includes(text));
      });
    });
  return { pid: child.pid as number, ended, kill: (signal) => void child.kill(signal), resume: () => void child.kill("SIGUSR2"), said };
}

/** What a reader sees: the manifest (or the link) and every file it names, by logical path; null when that changed while it was read. */
async function viewOnce(out: string, layout: "routed" | "plain"): Promise<Map<string, string> | null> {
  const view = new Map<string, string>();
  if (layout === "plain") {
    const target = await readlink(out);
    const tree = join(dirname(out), target);
    try {
      const files = (await readdir(tree, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
      for (const file of files) {
        const path = relative(tree, join(file.parentPath, file.name));
        if (!path.startsWith("changes")) view.set(path, await readFile(join(tree, path), "utf8"));
      }
    } catch (error) {
      // The tree went: only a link switched meanwhile excuses it (the old tree is removed after the switch).
      if ((await readlink(out)) !== target) return null;
      throw error;
    }
    return (await readlink(out)) === target ? view : null;
  }
  const manifestText = await readFile(join(out, MANIFEST_PATH), "utf8");
  const manifest = JSON.parse(manifestText) as Manifest;
  view.set("manifest", manifestText);
  const paths: string[] = [];
  for (const form of manifest.forms) {
    for (const limit of manifest.limits) {
      for (let page = 0; page * limit < manifest.count; page++) paths.push(pagePath(manifest, form, limit, page) ?? `missing page ${page}`);
    }
  }
  for (let chunk = 0; chunk * manifest.chunkSize < manifest.count; chunk++)
    paths.push(chunkPath(manifest, chunk) ?? `missing chunk ${chunk}`);
  try {
    for (const path of paths) view.set(path.replace(/\.[0-9a-f]{16}\//, "/"), await readFile(join(out, path), "utf8"));
  } catch (error) {
    // A file the manifest names is gone: only a manifest replaced meanwhile excuses it.
    if ((await readFile(join(out, MANIFEST_PATH), "utf8")) !== manifestText) return null;
    throw error;
  }
  return view;
}

/** What a reader sees of the site in `out`, read again while a switch happened under it. */
export async function siteView(out: string, layout: "routed" | "plain"): Promise<Map<string, string>> {
  for (;;) {
    const view = await viewOnce(out, layout);
    if (view !== null) return view;
  }
}

/** Which of the `references` views `view` is, or "mixed". */
export function whichSite<K extends string>(view: Map<string, string>, references: Record<K, Map<string, string>>): K | "mixed" {
  for (const [name, reference] of Object.entries(references) as [K, Map<string, string>][]) {
    if (view.size === reference.size && [...view].every(([path, bytes]) => reference.get(path) === bytes)) return name;
  }
  return "mixed";
}

const TEMPORARY = /\.(?:tmp|link)-\d+|\.lock|^subjekti-\d+-/;

/** Every temporary a process may leave: beside `out`, anywhere inside it (through a plain site's link), in `others` (a cache, TMPDIR). */
export async function leftovers(out: string, others: readonly string[] = []): Promise<string[]> {
  const found: string[] = [];
  const beside = (await readdir(dirname(out))).filter((name) => name.includes(basename(out)) && TEMPORARY.test(name));
  found.push(...beside);
  for (const dir of [out, ...others]) {
    const names = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
    found.push(...names.filter((name) => TEMPORARY.test(basename(name))).map((name) => join(dir, name)));
  }
  return found;
}
