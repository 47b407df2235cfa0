/**
 * The search stage skipped on an unchanged rebuild (site/search/search-reuse.ts): when every records
 * shard is the previous manifest's, the search shards are the previous manifest's as they are,
 * and the stage runs again on an edit or when a search directory the manifest names has gone.
 * Seen through the manifest, not a spy (the fast rings share modules between files): a search
 * directory renamed under another hash, and the manifest with it, is kept by a skipped stage and
 * replaced by the real one when the stage runs.
 */
import { cp, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATA_ROOT, MANIFEST_PATH } from "../../../src/core/layout.ts";
import { snapshotTree, tempDir } from "../../file-trees.ts";
import { build, readManifest } from "../built-site.ts";

const FIXTURE = "test/fixtures/small-site";
const FAKE = "0123456789abcdef";
let work: string;

beforeAll(async () => {
  work = await tempDir();
});
afterAll(() => rm(work, { recursive: true, force: true }));

const searchDirs = (dirs: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(Object.entries(dirs).filter(([key]) => key.startsWith("search/")));

/** The fixture copied to `<name>` and built once into `<name>-site`. */
async function builtOnce(name: string): Promise<{ readonly data: string; readonly out: string }> {
  const [data, out] = [join(work, name), join(work, `${name}-site`)];
  await cp(FIXTURE, data, { recursive: true });
  await build(data, out);
  return { data, out };
}

/** The order shard's directory moved to another hash, the manifest naming it there: what only a skipped stage keeps. */
async function moveOrderShard(out: string): Promise<string> {
  const manifestPath = join(out, MANIFEST_PATH);
  const manifest = JSON.parse(await readFile(manifestPath, "utf8")) as { dirs: Record<string, string> };
  const real = manifest.dirs["search/order"] as string;
  await rename(join(out, DATA_ROOT, `search/order.${real}`), join(out, DATA_ROOT, `search/order.${FAKE}`));
  manifest.dirs["search/order"] = FAKE;
  await writeFile(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  return real;
}

describe("the search stage on a rebuild", () => {
  it("is skipped when the records are unchanged: the previous manifest's search shards are kept as they are", async () => {
    const { data, out } = await builtOnce("same");
    await moveOrderShard(out);
    const before = await snapshotTree(out);
    const report = await build(data, out);
    expect((await readManifest(out)).dirs["search/order"]).toBe(FAKE);
    expect(report.written).toBe(0);
    expect(await snapshotTree(out)).toEqual(before);
  });

  it("runs when a search directory the manifest names is gone, and puts it back", async () => {
    const { data, out } = await builtOnce("gone");
    const before = await snapshotTree(out);
    const real = await moveOrderShard(out);
    await rm(join(out, DATA_ROOT, `search/order.${FAKE}`), { recursive: true });
    await build(data, out);
    expect((await readManifest(out)).dirs["search/order"]).toBe(real);
    expect(await snapshotTree(out)).toEqual(before);
  });

  it("runs when a record changed", async () => {
    const { data, out } = await builtOnce("edit");
    const before = searchDirs((await readManifest(out)).dirs);
    await moveOrderShard(out);
    const [file] = (await readdir(data)).filter((name) => name.endsWith(".ndjson"));
    const path = join(data, file as string);
    const lines = (await readFile(path, "utf8")).split("\n");
    const record = JSON.parse(lines[0] as string) as { naziv_subjekta: string };
    lines[0] = JSON.stringify({ ...record, naziv_subjekta: `${record.naziv_subjekta} Zvonimirova` });
    await writeFile(path, lines.join("\n"));
    await build(data, out);
    const after = searchDirs((await readManifest(out)).dirs);
    expect(after["search/order"]).not.toBe(FAKE);
    expect(after).not.toEqual(before);
  });
});
