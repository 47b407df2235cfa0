/**
 * What a build is made from and what it left, each as one hash (unchanged-build.ts compares them):
 *
 * - its inputs: the sources the read would find (their names as problems show them, the files
 *   passed over and why) and every source's bytes, the dataset's description and the accepted
 *   warnings, every resolved option (only `wait` left out: it shapes no output), the data's date
 *   where the feed does not carry it, and the code that builds (its version, its layout and its
 *   files' bytes: a change of the code is a change of the build);
 * - the site: every file and directory of the output by identity (inode, size, modification time),
 *   a content-named shard directory as one entry (its name is its content's hash; it is never written
 *   in place, so an entry added or removed inside shows in its own time), and the output's build
 *   cache beside it.
 *
 * The data's bytes are read and hashed, not trusted by their times: a copy, a checkout or a tool
 * may keep a file's time while its bytes changed. Their sizes are given apart: a source of another
 * size than the last build's has changed, so that build need not wait for the hash (an edit at a
 * million subjects spent 0.3 s hashing 330 MB first) and takes it in a thread (hashAside). The
 * site is judged by identity, as a build judges it (a shard directory that is there is taken as
 * written), so a file changed or removed by hand, or a directory a build left half swept, changes
 * its hash.
 */
import { createHash } from "node:crypto";
import type { BigIntStats, Dirent } from "node:fs";
import { lstat, readdir, readFile, stat } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { forEachBounded } from "../../common/for-each-bounded.ts";
import { isErrno } from "../../common/machine-error.ts";
import { shardKeyOf } from "../../core/layout.ts";
import { LAYOUT_VERSION } from "../../core/manifest.ts";
import { VERSION } from "../../core/version.ts";
import type { Problem } from "../../data/problems/problems.ts";
import { KNOWN_PROBLEMS_FILE } from "../../data/problems/known-problems-file.ts";
import { findSources, METADATA_FILE } from "../../data/sources/find-sources.ts";
import { dataDate } from "../../feed/data-date.ts";
import type { ResolvedBuildOptions } from "../build-options.ts";
import { hashFileBytes, hashInputs, hashInputsInThread } from "./hash-inputs.ts";

/** A build's inputs: described at once, their bytes hashed only when asked. */
export interface BuildInputs {
  /** Each file's size before it is read (-1: absent): a file of another size than the last build's has changed, whatever its bytes. */
  readonly sizes: readonly number[];
  /** The hash of everything the outputs depend on, the files' bytes too (each file read whole), here. */
  hash(): Promise<string>;
  /** The same hash in a thread of its own, beside the build (when the sizes already say the inputs changed). */
  hashAside(): { readonly hash: Promise<string>; stop(): Promise<void> };
  /** Every source is JSON or NDJSON: on a rebuild with the cache, every record comes from it. */
  readonly cachedWhole: boolean;
  /** The files read (the sources, the description and the accepted warnings). */
  readonly files: readonly string[];
  /** Their identities before they were read (filesIdentity): one that differs after the build was changed while it read. */
  readonly identity: string;
}

/** The inputs of a build with `options` (see the file's comment). */
export async function buildInputs(options: ResolvedBuildOptions): Promise<BuildInputs> {
  const { dataDir } = options.read;
  const problems: Problem[] = [];
  const found = await findSources(dataDir, { followOutside: options.read.followOutside, problems, strict: options.read.strict });
  const { wait: _wait, ...output } = options.output;
  const files = [...found.files.map((f) => f.path), ...[METADATA_FILE, KNOWN_PROBLEMS_FILE].map((name) => join(dataDir, name))];
  const { identity, sizes } = await filesStats(files);
  const described = {
    code: [VERSION, LAYOUT_VERSION, await codeHash()],
    options: { ...options, output },
    // Problems name files relative to the working directory.
    cwd: process.cwd(),
    dataDir: resolve(dataDir),
    sources: found.files.map(({ name, path, kind }) => [name, path, kind]),
    ignored: found.ignored,
    problems,
    // With the feed on, the date of unchanged data is the feed's; without, the newest source's time (data-date.ts).
    ...(options.feed === null
      ? {
          date: (
            await dataDate(
              found.files.map((f) => f.path),
              { SOURCE_DATE_EPOCH: options.sourceDateEpoch },
            )
          ).toISOString(),
        }
      : {}),
  };
  const task = { description: JSON.stringify(described), files };
  return {
    sizes,
    hash: () => hashInputs(task),
    hashAside: () => hashInputsInThread(task),
    cachedWhole: found.files.every((f) => f.kind === "json"),
    files,
    identity,
  };
}

/** The files' identities: each one's inode, size and change time (which no tool sets back), or its absence. */
export async function filesIdentity(paths: readonly string[]): Promise<string> {
  return (await filesStats(paths)).identity;
}

/** The files' identities (filesIdentity) and their sizes (-1: absent). */
async function filesStats(paths: readonly string[]): Promise<{ identity: string; sizes: number[] }> {
  const lines: string[] = [];
  const sizes: number[] = [];
  for (const path of paths) {
    const info = await stat(path, { bigint: true }).catch((error: unknown) => {
      if (isErrno(error, "ENOENT")) return null;
      throw error;
    });
    lines.push(info === null ? `${path} absent` : `${path} ${info.ino} ${info.size} ${info.ctimeNs}`);
    sizes.push(info === null ? -1 : Number(info.size));
  }
  return { identity: lines.join("\n"), sizes };
}

let code: Promise<string> | undefined;

/** The hash of the code that builds: every file of the tree this module runs from (lib/ or src/), once a process. */
function codeHash(): Promise<string> {
  code ??= (async () => {
    const root = resolve(import.meta.dirname, "../..");
    const hash = createHash("sha256");
    const files = (await readdir(root, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
    const paths = files.map((e) => join(e.parentPath, e.name)).sort();
    // Read READS_AT_ONCE at a time, then hashed in order: read one after another, 263 small files
    // took 25 to 40 ms warm, against 13 to 24.
    const bytes: (Buffer | null)[] = [];
    await forEachBounded([...paths.keys()], READS_AT_ONCE, async (i) => {
      bytes[i] = await readFile(paths[i] as string).catch((error: unknown) => {
        if (isErrno(error, "ENOENT")) return null;
        throw error;
      });
    });
    for (const [i, path] of paths.entries()) hashFileBytes(hash, path, bytes[i] ?? null);
    return hash.digest("hex");
  })();
  return code;
}

/**
 * The hash of the site in `outDir` and of its build cache `cacheDir` (the output's own directory,
 * its blocks, and the files beside it that share its name but `except`), by identity; null when the output is not a
 * directory (a site of plain files is a link to its tree, which is replaced whole).
 */
export async function siteStamp(outDir: string, cacheDir: string, except: string): Promise<string | null> {
  const root = await lstat(outDir, { bigint: true }).catch((error: unknown) => {
    if (isErrno(error, "ENOENT")) return null;
    throw error;
  });
  if (root === null || !root.isDirectory()) return null;
  const lines: string[] = [];
  await stampTree(outDir, "", lines);
  const parent = dirname(cacheDir);
  const name = basename(cacheDir);
  const beside = await readdir(parent, { withFileTypes: true }).catch((error: unknown) => {
    if (isErrno(error, "ENOENT")) return [] as Dirent[];
    throw error;
  });
  for (const entry of beside.filter((e) => e.name.startsWith(name) && e.name !== except).sort(byName)) {
    lines.push(`cache ${entry.name} ${stampOf(await lstat(join(parent, entry.name), { bigint: true }))}`);
    // Each block by itself: one changed in place is a miss to a build, which parses that block again.
    if (entry.isDirectory()) await stampTree(join(parent, entry.name), `cache ${entry.name}`, lines);
  }
  return createHash("sha256").update(lines.join("\n")).digest("hex");
}

/** Appends a line for every entry under `dir` (`rel` inside the output), going into every directory but a content-named shard. */
async function stampTree(dir: string, rel: string, lines: string[]): Promise<void> {
  const entries = (await readdir(dir, { withFileTypes: true })).sort(byName);
  // A directory's entries stat'ed STATS_AT_ONCE at a time, their lines in order: one at a time, each
  // await cost more than the call (the build cache's thousand blocks at 1M, stamped twice a build).
  const stamps: string[] = [];
  await forEachBounded([...entries.keys()], STATS_AT_ONCE, async (i) => {
    stamps[i] = stampOf(await lstat(join(dir, (entries[i] as Dirent).name), { bigint: true }));
  });
  for (const [i, entry] of entries.entries()) {
    const shown = rel === "" ? entry.name : `${rel}/${entry.name}`;
    lines.push(`${shown} ${stamps[i] as string}`);
    if (entry.isDirectory() && shardKeyOf(entry.name) === null) await stampTree(join(dir, entry.name), shown, lines);
  }
}

/** Entries of a directory stat'ed at once (stampTree). */
const STATS_AT_ONCE = 32;
/** The code's files read at once (codeHash). */
const READS_AT_ONCE = 32;

/** An entry's identity: its kind, inode, size and modification time (a directory's changes when an entry is added or removed). */
function stampOf(info: BigIntStats): string {
  const kind = info.isDirectory() ? "d" : info.isSymbolicLink() ? "l" : "f";
  return `${kind} ${info.ino} ${info.size} ${info.mtimeNs}`;
}

function byName(a: Dirent, b: Dirent): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
