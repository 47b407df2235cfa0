/**
 * A site edited and rebuilt over itself, for the tests of the search patch of an edit
 * (src/site/search/patch-search.ts): each rebuild's search files compared byte for byte with what
 * the whole stage (planSearch) writes from the same chunk files, and which way the stage went
 * read from its counters (searchPaths), not the clock.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "vitest";
import { CHUNK_SIZE, chunkPath, DATA_ROOT, shardDirPath } from "../../../src/core/layout.ts";
import type { Subject } from "../../../src/core/render-page.ts";
import { searchPaths } from "../../../src/site/search/patch-search.ts";
import { planSearch } from "../../../src/site/search/plan-search.ts";
import { build, readManifest } from "../built-site.ts";

export class PatchedSite {
  readonly data: string;
  readonly out: string;
  /** The list, changed in place by the edits. */
  readonly subjects: Subject[];
  readonly #work: string;
  #round = 0;

  /** A site of `subjects` in `work`. */
  constructor(work: string, subjects: Subject[]) {
    this.subjects = subjects;
    this.#work = work;
    this.data = join(work, "data");
    this.out = join(work, "site");
  }

  async writeData(): Promise<void> {
    await mkdir(this.data, { recursive: true });
    await writeFile(join(this.data, "subjekti.json"), JSON.stringify(this.subjects));
  }

  /** The first build, the search stage whole. */
  async build(): Promise<void> {
    await this.writeData();
    await build(this.data, this.out, { threads: 0 });
  }

  /** Every search file of the site equals the whole stage's over its chunk files, and the manifest names the whole stage's hashes. */
  async expectWholeStage(): Promise<void> {
    const manifest = await readManifest(this.out);
    const fileOf = (chunk: number): { path: string } => ({ path: join(this.out, chunkPath(manifest, chunk) as string) });
    const shards = planSearch(manifest.count, CHUNK_SIZE, fileOf, join(this.#work, `whole-${this.#round++}`));
    const searchKeys = Object.keys(manifest.dirs).filter((key) => key.startsWith("search/"));
    expect(searchKeys.sort()).toEqual(shards.map((shard) => shard.key).sort());
    for (const shard of shards) {
      expect(manifest.dirs[shard.key], shard.key).toBe(shard.hash);
      for (const file of shard.files()) {
        const written = await readFile(join(this.out, DATA_ROOT, shardDirPath(shard.key, shard.hash), file.name));
        expect(Buffer.from(file.bytes).equals(written), `${shard.key}/${file.name}`).toBe(true);
      }
    }
  }

  /** Applies `edit` to the list, rebuilds over the previous site, checks the files; returns the way the stage went (a fallback's reason in searchPaths.reason). */
  async rebuilt(edit: () => void): Promise<"patched" | "whole"> {
    edit();
    await this.writeData();
    const [patched, whole] = [searchPaths.patched, searchPaths.whole];
    await build(this.data, this.out, { threads: 0 }).catch((error: unknown) => {
      throw new Error(`the build failed: ${JSON.stringify(error)}`, { cause: error });
    });
    await this.expectWholeStage();
    if (searchPaths.patched === patched + 1 && searchPaths.whole === whole) return "patched";
    expect(searchPaths.whole, "the stage went neither way").toBe(whole + 1);
    return "whole";
  }
}
