/**
 * The facts the search stage keeps beside the build cache for the next edit (src/site/search/
 * search-facts.ts): the threshold of the suffix files' cuts, which the patch of an edit
 * (patch-suffixes.ts) would otherwise learn by reading every suffix file's first entry, and each
 * search file's SHA-256, which a changed shard's hash is over (spilled-shard.ts) and which the
 * patch would otherwise read each file it keeps for, and the list's chunk hashes, without which the
 * patch compares every chunk of a changed records shard. Counted, not timed (previousReads,
 * recordReads): the common edit reads none of those entries nor kept files, and compares the one
 * chunk it changed, and every rebuild's search files are
 * still the whole stage's byte for byte, under the whole stage's hashes (PatchedSite). Facts that
 * are not the previous site's (stale, of another site, missing) are not trusted: the patch reads
 * the files as before, and an edit that moves a cut still comes out as the whole stage's.
 */
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editSubject, makeSubject, seedFromText } from "../../../scripts/generate-subjects.ts";
import { contentHash } from "../../../src/common/content-hash.ts";
import { CHUNK_SIZE, chunkPath, DATA_ROOT, recordShardKey, type ShardHashes, shardDirPath, suffixPath } from "../../../src/core/layout.ts";
import type { Subject } from "../../../src/core/render-page.ts";
import { suffixFileCount, suffixShardKey } from "../../../src/core/search/search-layout.ts";
import { cacheDirOf } from "../../../src/data/read/build-cache.ts";
import { recordShard } from "../../../src/site/record-shard.ts";
import { subjectTokens } from "../../../src/site/search/patch-keys.ts";
import { previousReads } from "../../../src/site/search/patched-shards.ts";
import { recordReads } from "../../../src/site/search/previous-search.ts";
import { SearchFacts } from "../../../src/site/search/search-facts.ts";
import { fileDigest, shardHashByDigests } from "../../../src/site/search/spilled-shard.ts";
import { hash52 } from "../../../src/site/search/suffix-cuts.ts";
import { tempDir } from "../../file-trees.ts";
import { readManifest } from "../built-site.ts";
import { PatchedSite } from "./patched-site.ts";

const COUNT = 4000;
const SEED = seedFromText("facts");
const FILES = suffixFileCount(COUNT);

let work: string;
let site: PatchedSite;
let subjects: Subject[];

beforeAll(async () => {
  work = await tempDir("subjekti-search-facts-");
  subjects = Array.from({ length: COUNT }, (_, i) => makeSubject(SEED, i));
  site = new PatchedSite(work, subjects);
  await site.build();
}, 300_000);
afterAll(() => rm(work, { recursive: true, force: true }));

/** Where the build (test/site/built-site.ts: the cache at `<out>.cache`) keeps the facts. */
const factsFile = (): string => `${cacheDirOf(`${site.out}.cache`, site.out)}.search-facts.json`;

/** The threshold the facts in `file` give for the site of `dirs`, or null when they are not its. */
const readCutThreshold = (file: string, dirs: ShardHashes, files: number): number | null =>
  SearchFacts.read(file).cutThreshold(dirs, files);

/** The site's suffix files' first entries, file by file (their JSON text). */
async function firstEntries(): Promise<string[]> {
  const manifest = await readManifest(site.out);
  const firsts: string[] = [];
  for (let file = 0; file < FILES; file++) {
    const entries = JSON.parse(await readFile(join(site.out, suffixPath(manifest, file) as string), "utf8")) as unknown[];
    firsts.push(JSON.stringify(entries[0]));
  }
  return firsts;
}

/**
 * Rebuilds after `edit`; answers the way the stage went, how many first entries the patch read, how
 * many kept files it read to hash, and how many chunks it compared.
 */
async function rebuilt(edit: () => void): Promise<{ way: string; firstEntries: number; keptFiles: number; chunks: number }> {
  const before = { ...previousReads, ...recordReads };
  const way = await site.rebuilt(edit);
  return {
    way,
    firstEntries: previousReads.firstEntries - before.firstEntries,
    keptFiles: previousReads.keptFiles - before.keptFiles,
    chunks: recordReads.chunks - before.chunks,
  };
}

/** The facts file as kept. */
interface Facts {
  suffixes: Record<string, string>;
  threshold: number;
  files: Record<string, { names: string[]; digests: string[] }>;
  chunks: string[];
}
const readFacts = async (): Promise<Facts> => JSON.parse(await readFile(factsFile(), "utf8")) as Facts;

describe("the search stage's facts for the next edit", () => {
  it("are the threshold of the site's cuts, tied to its suffix shards", async () => {
    const manifest = await readManifest(site.out);
    const threshold = readCutThreshold(factsFile(), manifest.dirs, FILES);
    // What the patch reads from the files: the largest hash of the first entries past the first file's.
    expect(threshold).toBe(Math.max(...(await firstEntries()).slice(1).map(hash52)));
    // A suffix shard of another hash, or another count of files: not these facts.
    const key = suffixShardKey(0);
    expect(readCutThreshold(factsFile(), { ...manifest.dirs, [key]: "0".repeat(16) }, FILES)).toBeNull();
    expect(readCutThreshold(factsFile(), manifest.dirs, 1000 * FILES)).toBeNull();
    expect(readCutThreshold(join(work, "none.json"), manifest.dirs, FILES)).toBeNull();
  });

  it("name every search file's SHA-256, which the site's search shards' hashes are over", async () => {
    const manifest = await readManifest(site.out);
    const { files } = await readFacts();
    const keys = Object.keys(manifest.dirs).filter((key) => key.startsWith("search/"));
    expect(Object.keys(files).sort()).toEqual(keys.sort());
    for (const key of keys) {
      const { names, digests } = files[key] as Facts["files"][string];
      const dir = join(site.out, DATA_ROOT, shardDirPath(key, manifest.dirs[key] as string));
      expect([...names].sort()).toEqual((await readdir(dir)).sort());
      expect(shardHashByDigests(key, { names, digests })).toBe(manifest.dirs[key]);
      const name = names[names.length - 1] as string;
      expect(digests[names.length - 1]).toBe(fileDigest(await readFile(join(dir, name))));
    }
  });

  it("name the list's chunk hashes, which the site's records shards' hashes are over", async () => {
    const manifest = await readManifest(site.out);
    const { chunks } = await readFacts();
    expect(chunks).toHaveLength(COUNT / CHUNK_SIZE);
    const files = chunks.map((_, chunk) => readFile(join(site.out, chunkPath(manifest, chunk) as string)));
    expect((await Promise.all(files)).map((bytes) => contentHash(bytes))).toEqual(chunks);
    expect(recordShard(0, chunks).hash).toBe(manifest.dirs[recordShardKey(0)]);
  });

  it("spare the common edit every suffix file's first entry, every file a changed shard keeps, and every chunk but the one changed", async () => {
    // The first and last record of a chunk, and one between.
    for (const i of [500, 1234, 2000, 3999]) {
      const { way, firstEntries, keptFiles, chunks } = await rebuilt(() => (subjects[i] = editSubject(subjects[i] as Subject)));
      expect({ i, way, firstEntries, keptFiles, chunks }).toEqual({ i, way: "patched", firstEntries: 0, keptFiles: 0, chunks: 1 });
    }
    // The facts after each edit are those of the site it left: the threshold, and every search shard's digests (those it kept whole too).
    const manifest = await readManifest(site.out);
    expect(readCutThreshold(factsFile(), manifest.dirs, FILES)).toBe(Math.max(...(await firstEntries()).slice(1).map(hash52)));
    const { files } = await readFacts();
    const facts = SearchFacts.read(factsFile());
    const keys = Object.keys(manifest.dirs).filter((key) => key.startsWith("search/"));
    expect(keys.filter((key) => facts.digests(key, manifest.dirs[key]) === null)).toEqual([]);
    expect(Object.keys(files).sort()).toEqual(keys.sort());
  }, 300_000);

  it("are not trusted when they are not the previous site's: the entries read, the cuts moved as the whole stage moves them", async () => {
    // Facts of suffix shards that are not the site's, whose threshold (below every hash) would keep every cut.
    // And digests that are not the files' (each shard's hash then not the site's), which would give the shards they hash other hashes.
    const manifest = await readManifest(site.out);
    const facts = await readFacts();
    const key = suffixShardKey(0);
    const files = Object.fromEntries(
      Object.entries(facts.files).map(([shard, { names, digests }]) => [shard, { names, digests: digests.map((d) => `0${d.slice(1)}`) }]),
    );
    // And chunk hashes that are not the chunks' (the records shard's hash then not the site's), which would tell that no chunk changed.
    await writeFile(
      factsFile(),
      JSON.stringify({
        suffixes: { ...facts.suffixes, [key]: `${manifest.dirs[key]}0` },
        threshold: -1,
        files,
        chunks: facts.chunks.map(() => facts.chunks[0]),
      }),
    );
    // An edit that moves a cut: a rare token whose entry begins a file given to one more subject (the entry's text changes).
    const firsts = await firstEntries();
    let edit: (() => void) | null = null;
    for (const entry of firsts.slice(1)) {
      const [suffix, places] = JSON.parse(entry) as [string, unknown];
      if (!Array.isArray(places) || places.length > 4) continue;
      const owner = subjects[places[0] as number] as Subject;
      const fields = {
        code: "",
        name: owner.naziv_subjekta,
        razina: "",
        date: "",
        status: false,
        odobreno: false,
        town: owner.institucija_grad,
      };
      const token = subjectTokens(fields).find((t) => t.endsWith(suffix));
      const other = subjects.findIndex((s, i) => !places.includes(i) && !s.naziv_subjekta.toLowerCase().includes(suffix));
      if (token === undefined || other < 0) continue;
      edit = () =>
        (subjects[other] = { ...(subjects[other] as Subject), naziv_subjekta: `${(subjects[other] as Subject).naziv_subjekta} ${token}` });
      break;
    }
    expect(edit).not.toBeNull();
    const { way, firstEntries: read, keptFiles, chunks } = await rebuilt(edit as () => void);
    expect(way).toBe("patched");
    expect(read).toBeGreaterThan(0);
    expect(keptFiles).toBeGreaterThan(0);
    expect(chunks).toBe(COUNT / CHUNK_SIZE);
    // The first entries changed (PatchedSite checked the files are the whole stage's), and the facts kept are the moved cuts'.
    const moved = await firstEntries();
    expect(moved).not.toEqual(firsts);
    expect(readCutThreshold(factsFile(), (await readManifest(site.out)).dirs, FILES)).toBe(Math.max(...moved.slice(1).map(hash52)));
    // Facts gone missing: read again; then kept again.
    await rm(factsFile());
    const missing = await rebuilt(() => (subjects[42] = editSubject(subjects[42] as Subject)));
    expect([missing.firstEntries, missing.keptFiles].map((n) => n > 0)).toEqual([true, true]);
    expect(missing.chunks).toBe(COUNT / CHUNK_SIZE);
    const again = await rebuilt(() => (subjects[43] = editSubject(subjects[43] as Subject)));
    expect([again.firstEntries, again.keptFiles, again.chunks]).toEqual([0, 0, 1]);
  }, 300_000);
});
