/**
 * What one edited record costs among the downloads and the change feed: the three files a consumer
 * downloads whole (the NDJSON, the CSV and the workbook, each one file under its stable and its content name),
 * and besides them only the feed's diff, state and Atom feed. The feed's snapshot is the NDJSON
 * download itself (a hard link), not a copy; the records are read once for all three. Counted as new files (inodes) under `downloads/` and
 * `changes/`, on 11,516 subjects (12 records chunks).
 */
import { readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Subject } from "../../src/core/render-page.ts";
import { tempDir } from "../file-trees.ts";
import { build, readManifest } from "../site/built-site.ts";
import { chunksRead, recordPasses } from "../../src/export/write-downloads.ts";
import { writeDataset } from "../site/build-processes.ts";

let work: string;
beforeAll(async () => {
  work = await tempDir("subjekti-edit-writes-");
}, 60_000);
afterAll(() => rm(work, { recursive: true, force: true }));

/** Each file under `dirs` of `out` by path: its inode and size. */
async function filesOf(out: string, dirs: readonly string[]): Promise<Map<string, { ino: number; size: number }>> {
  const files = new Map<string, { ino: number; size: number }>();
  for (const dir of dirs) {
    for (const name of await readdir(join(out, dir), { recursive: true })) {
      const info = await stat(join(out, dir, name));
      if (info.isFile()) files.set(`${dir}/${name}`, { ino: info.ino, size: info.size });
    }
  }
  return files;
}

describe("one record edited", () => {
  it("writes the NDJSON, the CSV and the workbook whole, and besides them only the feed's diff, state and Atom feed; the snapshot is the NDJSON's file", async () => {
    const data = join(work, "data");
    const out = join(work, "site");
    await writeDataset(data, 2, 0);
    await build(data, out, { feed: true });
    const before = await filesOf(out, ["downloads", "changes"]);
    const subjects = JSON.parse(await readFile(join(data, "subjekti.json"), "utf8")) as Subject[];
    const edited = subjects[6000] as Subject;
    subjects[6000] = { ...edited, naziv_subjekta: `${edited.naziv_subjekta} (preimenovan)` };
    await writeFile(join(data, "subjekti.json"), JSON.stringify(subjects));
    const [passes, read] = [recordPasses.count, chunksRead.count];
    const report = await build(data, out, { feed: true });
    expect(report.feed?.upserts).toBe(1);
    // The workbook's date was expected (the sources', the list being new): written in the records' one pass.
    expect(recordPasses.count - passes).toBe(1);
    // Of the 12 chunk files, the edited one's alone is read: the others' bytes are copied from the previous NDJSON, their
    // rows from the previous CSV and workbook (download-chunks.ts).
    expect(chunksRead.count - read).toBe(1);

    const after = await filesOf(out, ["downloads", "changes"]);
    // A name is written when its file is not the one it named before (an inode number freed by the build can be taken
    // again by a new file at another name, so numbers alone are no proof); names of one file are grouped.
    const made = new Map<number, string[]>();
    for (const [path, { ino }] of after) if (before.get(path)?.ino !== ino) made.set(ino, [...(made.get(ino) ?? []), path]);
    const manifest = await readManifest(out);
    const named = (format: string): string => (manifest.downloads?.find((d) => d.format === format)?.immutablePath ?? "").slice(1);
    const version = report.feed?.version ?? "";
    expect([...made.values()].map((paths) => paths.sort()).sort()).toEqual(
      [
        // The downloads a consumer takes whole, each one file under both names; the NDJSON is the snapshot too.
        [`changes/snapshots/${version}.ndjson`, "downloads/subjekti.ndjson", named("ndjson")].sort(),
        ["downloads/subjekti.csv", named("csv")].sort(),
        ["downloads/subjekti.xlsx", named("xlsx")].sort(),
        // The feed's own: one diff, the state, the Atom feed.
        [`changes/${report.feed?.sequence}.json`],
        ["changes/state.json"],
        ["changes/feed.atom"],
      ].sort(),
    );
    // Besides the whole downloads, a few kilobytes.
    const small = [`changes/${report.feed?.sequence}.json`, "changes/state.json", "changes/feed.atom"];
    expect(small.reduce((sum, path) => sum + (after.get(path)?.size ?? 0), 0)).toBeLessThan(16 * 1024);
  }, 120_000);
});
