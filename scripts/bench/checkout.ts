/**
 * The compiled CLIs the measures run: this checkout's (`npm run compile`), and another commit's for
 * `--before`. A `--before` that is a directory is used as it is (compiled already, its node_modules
 * in place); anything else is a git revision of this repository, exported with `git archive` into
 * .bench/checkouts/<commit>/ and compiled there once (kept for the next run). The export's sources
 * carry the commit's time and its lib/ is compiled after, so bin/subjekti.js sees no stale lib/
 * (a checkout whose sources were touched after its compile warns so at every start); its
 * node_modules is a link to this checkout's, which holds every package the earlier commits used.
 */
import { execFileSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { mkdir, rename, rm, symlink } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { commitOf } from "../benchmarks-table.ts";
import { BENCH, log, ROOT } from "./parts.ts";

const git = (...args: string[]): string => execFileSync("git", ["-C", ROOT, ...args], { encoding: "utf8" }).trim();
const compile = (dir: string): void =>
  void execFileSync("npm", ["run", "--silent", "compile"], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });

/** This checkout compiled (`lib/` from `src/` now): the CLI's node arguments. */
export function compiledThis(): string[] {
  log("compiling this checkout…");
  compile(ROOT);
  return [join(ROOT, "bin/subjekti.js")];
}

/** A compiled checkout of `before` (a directory as it is, or a git revision exported and compiled once) and the commit it names. */
export async function checkoutOf(before: string): Promise<{ dir: string; revision: string }> {
  if (existsSync(before) && statSync(before).isDirectory()) {
    const dir = resolve(before);
    if (!existsSync(join(dir, "bin/subjekti.js")) || !existsSync(join(dir, "lib")))
      throw new Error(`${before}: no bin/subjekti.js and lib/ (run npm run compile there, or pass a git revision)`);
    return { dir, revision: existsSync(join(dir, ".git")) ? commitOf(dir) : basename(dir) };
  }
  let commit: string;
  try {
    commit = git("rev-parse", "--verify", "--quiet", `${before}^{commit}`);
  } catch {
    throw new Error(`--before ${before}: neither a directory nor a commit of this repository (git rev-parse found none)`);
  }
  const dir = join(BENCH, "checkouts", commit.slice(0, 12));
  const revision = commit.slice(0, 7);
  if (existsSync(join(dir, "lib")) && existsSync(join(dir, "bin/subjekti.js"))) return { dir, revision };
  // Built under a temporary name, so that a killed run never leaves a half-compiled checkout to reuse.
  const building = `${dir}.tmp-${process.pid}`;
  await rm(building, { recursive: true, force: true });
  await mkdir(building, { recursive: true });
  log(`exporting ${before} (${commit.slice(0, 12)}) into ${building} and compiling it…`);
  execFileSync("sh", ["-c", `git -C "$1" archive "$2" | tar -x -C "$3"`, "sh", ROOT, commit, building]);
  await symlink(join(ROOT, "node_modules"), join(building, "node_modules"), "dir");
  compile(building);
  await rm(dir, { recursive: true, force: true });
  await rename(building, dir);
  return { dir, revision };
}

/** This checkout compiled, then a compiled checkout of each of `befores`: each one's name in the tables and its directory. */
export async function compiledSides(befores: readonly string[]): Promise<{ name: string; dir: string }[]> {
  const others = [];
  for (const before of befores) others.push(await checkoutOf(before)); // one at a time: each compiles
  compiledThis();
  return [{ name: `this (${commitOf(ROOT)})`, dir: ROOT }, ...others.map(({ dir, revision }) => ({ name: `before (${revision})`, dir }))];
}
