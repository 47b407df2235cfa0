/**
 * The records shard of an edit: the chunks whose hash is the one the previous build noted (beside
 * the build cache) are linked from the shard's old version unread; the changed chunk is written;
 * notes that are not the old shard's (damaged, or of another site) keep nothing. Either way the
 * records and pages are those of a clean build of the same data.
 */
import { mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { makeSubject } from "../../scripts/generate-subjects.ts";
import { MANIFEST_PATH } from "../../src/core/layout.ts";
import type { Subject } from "../../src/core/render-page.ts";
import { cacheDirOf } from "../../src/data/read/build-cache.ts";
import { snapshotTree, tempDir } from "../file-trees.ts";
import { build, readManifest } from "./built-site.ts";

let work = "";
beforeAll(async () => {
  work = await tempDir();
});
afterAll(() => rm(work, { recursive: true, force: true }));

/** 3,000 subjects (three chunks of one records shard), record `renamed` given another name. */
async function data(name: string, renamed?: number): Promise<string> {
  const dir = join(work, name);
  await mkdir(dir, { recursive: true });
  const subjects: Subject[] = Array.from({ length: 3000 }, (_, i) => makeSubject(1, i));
  if (renamed !== undefined) subjects[renamed] = { ...(subjects[renamed] as Subject), naziv_subjekta: "Preimenovani subjekt" };
  await writeFile(join(dir, "subjekti.ndjson"), subjects.map((s) => `${JSON.stringify(s)}\n`).join(""));
  return dir;
}

/** The inode of each file of the records shard, by name. */
async function records(out: string): Promise<Map<string, number>> {
  const manifest = await readManifest(out);
  const dir = join(out, "_subjekti", `records/0.${manifest.dirs["records/0"]}`);
  const inodes = new Map<string, number>();
  for (const name of await readdir(dir)) inodes.set(name, (await stat(join(dir, name))).ino);
  return inodes;
}

/** The records and pages of a site by path without the shards' hashes. */
async function recordsAndPages(out: string): Promise<Record<string, string>> {
  const tree = await snapshotTree(join(out, "_subjekti"));
  return Object.fromEntries(
    Object.entries(tree)
      .filter(([path]) => path.startsWith("records/") || path.startsWith("pages/"))
      .map(([path, bytes]) => [path.replace(/\.[0-9a-f]{16}\//, "/"), bytes]),
  );
}

const before = await data("before");
const after = await data("after", 1500);

it("a renamed record: its chunk written, the other chunks of its shard linked from the old version unread; the same as a clean build", async () => {
  const out = join(work, "site");
  await build(before, out);
  const old = await records(out);
  // A byte of chunk 2 changed behind the build's back, in place: a kept file is linked, never read or compared.
  const manifest = await readManifest(out);
  const chunk2 = join(out, "_subjekti", `records/0.${manifest.dirs["records/0"]}`, "2.ndjson");
  const bytes = await readFile(chunk2);
  await writeFile(chunk2, Buffer.concat([bytes.subarray(0, -2), Buffer.from(" \n")]));
  await build(after, out);
  const now = await records(out);
  expect([...now.keys()].toSorted()).toEqual(["0.ndjson", "0.offsets", "1.ndjson", "1.offsets", "2.ndjson", "2.offsets"]);
  for (const name of ["0.ndjson", "0.offsets", "2.ndjson", "2.offsets"]) expect(now.get(name), name).toBe(old.get(name));
  expect(now.get("1.ndjson")).not.toBe(old.get("1.ndjson"));
  const linked = join(out, "_subjekti", `records/0.${(await readManifest(out)).dirs["records/0"]}`, "2.ndjson");
  expect((await readFile(linked)).at(-2)).toBe(0x20);
  // Restored, the records are a clean build's (the pages were cut from the changed file: it is the site's).
  await writeFile(linked, bytes);
  const clean = join(work, "clean");
  await build(after, clean);
  const recordsOf = async (site: string): Promise<string[]> =>
    Object.entries(await recordsAndPages(site))
      .filter(([path]) => path.startsWith("records/"))
      .map(String);
  expect(await recordsOf(out)).toEqual(await recordsOf(clean));
});

it("notes that are not the old shard's keep nothing: every chunk compared, the site a clean build's", async () => {
  const out = join(work, "damaged");
  await build(before, out);
  const old = await records(out);
  const notes = `${cacheDirOf(`${out}.cache`, out)}.chunks.json`;
  const hashes = JSON.parse(await readFile(notes, "utf8")) as string[];
  expect(hashes).toHaveLength(3);
  // Chunk 1 noted with its new hash (that of a clean build of the edit): kept, it would be stale.
  const clean = join(work, "clean-2");
  await build(after, clean);
  const edited = JSON.parse(await readFile(`${cacheDirOf(`${clean}.cache`, clean)}.chunks.json`, "utf8")) as string[];
  expect(edited[1]).not.toBe(hashes[1]);
  await writeFile(notes, JSON.stringify([hashes[0], edited[1], hashes[2]]));
  await build(after, out);
  const now = await records(out);
  // Still linked, after a comparison of their bytes; and the same as a clean build.
  for (const name of ["0.ndjson", "2.ndjson"]) expect(now.get(name), name).toBe(old.get(name));
  expect(await recordsAndPages(out)).toEqual(await recordsAndPages(clean));
  expect(JSON.parse(await readFile(join(out, MANIFEST_PATH), "utf8"))).toEqual(
    JSON.parse(await readFile(join(clean, MANIFEST_PATH), "utf8")),
  );
});
