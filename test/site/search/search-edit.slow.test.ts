/**
 * What one renamed record rewrites of the search files, counted at 100,000 subjects: the search
 * stage planned over the generator's list, then over the same list with one record renamed as
 * `bench build` renames it (generate-subjects.ts editSubject), and the files whose bytes differ
 * (a file named by its shard key and its name, as the site's paths are once the shards' hashes
 * are set aside). Each must hold the record: the bucket of one of its keys (the pieces, the tokens
 * and the values of the old record or the new), a suffix file with a suffix of one of its tokens,
 * or an order file of the name, the one field renamed. So the count is at most twice the buckets
 * of its keys, plus its suffixes, plus three; about forty in fact.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editSubject, makeSubject, seedFromText } from "../../../scripts/generate-subjects.ts";
import { CHUNK_SIZE } from "../../../src/core/layout.ts";
import type { Subject } from "../../../src/core/render-page.ts";
import { searchForm, tokensOf } from "../../../src/core/search/normalise.ts";
import { bucketCount, bucketOf } from "../../../src/core/search/search-layout.ts";
import { planSearch } from "../../../src/site/search/plan-search.ts";
import { tempDir } from "../../file-trees.ts";

const COUNT = 100_000;
const SEED = seedFromText("1");
// Records across the list, each renamed alone.
const EDITED = [17, 31_337, 99_998];

let work: string;

beforeAll(async () => {
  work = await tempDir();
});
afterAll(() => rm(work, { recursive: true, force: true }));

/** Each chunk file's lines of the list, made once: an edited list differs from it in one chunk alone. */
const LIST: string[][] = [];
for (let chunk = 0; chunk * CHUNK_SIZE < COUNT; chunk++) {
  const lines: string[] = [];
  for (let i = chunk * CHUNK_SIZE; i < Math.min(COUNT, (chunk + 1) * CHUNK_SIZE); i++) lines.push(JSON.stringify(makeSubject(SEED, i)));
  LIST.push(lines);
}

/** The chunk files of the list in `dir`; with record `edit` renamed, its chunk's in `dir` and every other the list's (in `list`). */
async function writeChunks(dir: string, edit: number, list = dir): Promise<(chunk: number) => { path: string }> {
  await mkdir(dir, { recursive: true });
  const edited = edit < 0 ? -1 : Math.floor(edit / CHUNK_SIZE);
  for (const [chunk, lines] of LIST.entries()) {
    if (edit >= 0 && chunk !== edited) continue;
    const text = edit < 0 ? lines : lines.with(edit % CHUNK_SIZE, JSON.stringify(editSubject(makeSubject(SEED, edit))));
    await writeFile(join(dir, `${chunk}.ndjson`), text.join("\n"));
  }
  return (chunk) => ({ path: join(chunk === edited ? dir : list, `${chunk}.ndjson`) });
}

/** Every search file's bytes by `<shard key>/<name>`. */
function filesOf(fileOf: (chunk: number) => { path: string }, spill: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const shard of planSearch(COUNT, CHUNK_SIZE, fileOf, spill)) {
    for (const file of shard.files()) files.set(`${shard.key}/${file.name}`, Buffer.from(file.bytes));
  }
  return files;
}

/** The record's keys (search-layout.ts) and the suffixes of three characters or more of its tokens. */
function keysOf(subject: Subject): { readonly keys: string[]; readonly suffixes: string[] } {
  const tokens = [...tokensOf(searchForm(subject.naziv_subjekta)), ...tokensOf(searchForm(subject.institucija_grad))];
  const keys = [
    `r:${subject.razina}`,
    `c:${subject.institucija_grad}`,
    `s:${subject.status_subjekta ? 1 : 0}`,
    `o:${subject.odobreno ? 1 : 0}`,
  ];
  const suffixes: string[] = [];
  for (const token of tokens) {
    const chars = [...token];
    keys.push(`w:${token}`);
    for (let i = 0; i < chars.length; i++) {
      keys.push(`g:${chars[i] as string}`);
      if (i + 1 < chars.length) keys.push(`g:${(chars[i] as string) + (chars[i + 1] as string)}`);
      if (i + 3 <= chars.length) {
        keys.push(`g:${chars.slice(i, i + 3).join("")}`);
        suffixes.push(chars.slice(i).join(""));
      }
    }
  }
  return { keys, suffixes };
}

describe("one renamed record at 100,000 subjects", () => {
  it("rewrites only search files that hold it", { timeout: 600_000 }, async () => {
    const list = join(work, "list");
    const before = filesOf(await writeChunks(list, -1), join(work, "spill"));
    const buckets = bucketCount(COUNT);
    for (const edit of EDITED) {
      const after = filesOf(await writeChunks(join(work, `edit-${edit}`), edit, list), join(work, `spill-${edit}`));
      expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
      const rewritten = [...after].filter(([name, bytes]) => !before.get(name)?.equals(bytes)).map(([name]) => name);
      // The edit is seen (its chunk read from its own file): the buckets of the name's new words change.
      expect(rewritten.some((name) => name.startsWith("search/keys/"))).toBe(true);
      const old = keysOf(makeSubject(SEED, edit));
      const renamed = keysOf(editSubject(makeSubject(SEED, edit)));
      const keys = [...old.keys, ...renamed.keys];
      const suffixes = new Set([...old.suffixes, ...renamed.suffixes]);
      const holding = new Set(keys.flatMap((key) => [`${bucketOf(key, buckets)}.idx`, `${bucketOf(key, buckets)}.bin`]));
      const holds = (name: string): boolean => {
        const file = name.slice(name.lastIndexOf("/") + 1);
        if (name.startsWith("search/keys/")) return holding.has(file);
        if (name.startsWith("search/order/")) return file.startsWith("name.");
        if (!name.startsWith("search/suffixes/") || name.startsWith("search/suffixes/firsts/")) return false;
        const entries = [before, after].flatMap((files) => JSON.parse((files.get(name) as Buffer).toString()) as [string][]);
        return entries.some(([suffix]) => suffixes.has(suffix));
      };
      expect(rewritten.filter((name) => !holds(name))).toEqual([]);
      expect(rewritten.length).toBeLessThanOrEqual(new Set(holding).size + suffixes.size + 3);
      // In fact: about forty (36 to 44 for these three records; 29 to 35 before the sets of common
      // three-character pieces, which a renamed record's name changes in their buckets too).
      expect(rewritten.length).toBeLessThanOrEqual(50);
    }
  });
});
