/**
 * `bench probe <input> <plan> <out>` (run by `bench build` in a child process): the machine's
 * limit for a build's work. It reads and `JSON.parse`s the same input (above 400 MB in pieces of
 * whole records, each dropped once parsed: one string of a 1 GB input is past V8's limit), then
 * writes the same number of files of the same sizes into the same directories, as the build
 * writes them (a directory a task for the shard writer threads, into a temporary name renamed
 * into place), as fast as Node can: one shared buffer, nothing rendered, nothing compared. A build
 * can hardly beat it; `bench build` reports build time / probe time.
 *
 * The plan is `{"dirs": ["_subjekti/pages/plain/20/0.ab12", ...], "files": [[dirIndex, name, size], ...]}`.
 */
import { createReadStream } from "node:fs";
import { mkdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { forEachBounded, startShardWriters } from "./from-src.ts";

export type WritePlan = { dirs: readonly string[]; files: readonly (readonly [number, string, number])[] };

/** Inputs smaller than this are read as one string (V8's longest is about 512 MB). */
const WHOLE_BYTES = 400 * 1024 * 1024;
/** Between two elements of a JSON array in data/subjekti.json's layout (`JSON.stringify(list, null, 1)`). */
const BETWEEN = "\n },\n {";

/** Reads and parses `input`, then writes the files of `planFile` under `out`. */
export async function probe(input: string, planFile: string, out: string): Promise<void> {
  // Up to 1M subjects (330 MB) the whole input is one string, parsed at once and kept to the end,
  // as the builds before the streamed build held their records.
  const whole = (await stat(input)).size < WHOLE_BYTES ? await readFile(input, "utf8") : undefined;
  const kept: unknown = whole === undefined ? undefined : JSON.parse(whole);
  const head = whole === undefined ? await readAndParse(input) : Buffer.from(whole.slice(0, 1 << 16));
  const plan = JSON.parse(await readFile(planFile, "utf8")) as WritePlan;
  // Real bytes of the input, so nothing the file system might special-case (zero pages).
  const filler = Buffer.alloc(
    plan.files.reduce((most, [, , size]) => Math.max(most, size), 0),
    head,
  );
  // A directory that holds others (`_subjekti`, with the manifest) cannot be renamed onto: as in the
  // build, only shard directories are written under a temporary name. The site's root ("", where
  // the crawlers' files are) holds every other directory: renaming `<out>.tmp-probe` onto it would
  // fail (ENOTEMPTY), so it is a parent even though no other path starts with "/".
  const isParent = (dir: string): boolean => plan.dirs.some((other) => other !== dir && (dir === "" || other.startsWith(`${dir}/`)));
  const parents = new Set(plan.dirs.filter(isParent));
  const tmpOf = (dir: string): string => (parents.has(dir) ? join(out, dir) : `${join(out, dir)}.tmp-probe`);
  await forEachBounded(plan.dirs, 64, (dir) => mkdir(tmpOf(dir), { recursive: true }));
  const byDir = plan.dirs.map((): { name: string; bytes: Uint8Array }[] => []);
  for (const [dir, name, size] of plan.files) byDir[dir]?.push({ name, bytes: filler.subarray(0, size) });
  const writers = startShardWriters();
  try {
    const writing: Promise<unknown>[] = [];
    for (const [i, dir] of plan.dirs.entries()) {
      await writers.room();
      // A parent directory's "temporary" name is itself: renaming it onto itself does nothing.
      writing.push(writers.write(byDir[i] ?? [], tmpOf(dir), join(out, dir), null));
    }
    await Promise.all(writing);
  } finally {
    await writers.close();
  }
  if (Array.isArray(kept)) process.stdout.write(`${kept.length} records\n`);
}

/** Reads the JSON array at `path` in 16 MB reads and parses it in pieces of whole elements; returns its first 64 KB. */
async function readAndParse(path: string): Promise<Buffer> {
  let head: Buffer | undefined;
  let rest = "";
  for await (const chunk of createReadStream(path, { encoding: "utf8", highWaterMark: 16 << 20 }) as AsyncIterable<string>) {
    head ??= Buffer.from(chunk.slice(0, 1 << 16));
    const text = rest === "" ? chunk.slice(chunk.indexOf("[") + 1) : rest + chunk;
    const cut = text.lastIndexOf(BETWEEN);
    if (cut < 0) {
      rest = text;
      continue;
    }
    JSON.parse(`[${text.slice(0, cut + 3)}]`);
    rest = text.slice(cut + 4);
  }
  const end = rest.lastIndexOf("]");
  JSON.parse(`[${end < 0 ? rest : rest.slice(0, end)}]`);
  return head ?? Buffer.from("[]");
}
