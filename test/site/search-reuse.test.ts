/**
 * The search stage skipped on an unchanged rebuild (site/search-reuse.ts): the stage is not run at
 * all when every records shard is the previous manifest's, and runs again on an edit or when a
 * search directory the manifest names has gone.
 */
import { cp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DATA_ROOT } from "../../src/core/layout.ts";
import * as planSearchModule from "../../src/site/plan-search.ts";
import { snapshotTree, tempDir } from "../file-trees.ts";
import { build, readManifest } from "./built-site.ts";

// Every call of the stage counted, the stage itself unchanged.
vi.mock("../../src/site/plan-search.ts", async (importOriginal) => {
  const original = await importOriginal<typeof planSearchModule>();
  return { ...original, planSearch: vi.fn(original.planSearch) };
});
const planSearch = vi.mocked(planSearchModule.planSearch);

const FIXTURE = "test/fixtures/small-site";
let work: string;

beforeAll(async () => {
  work = await tempDir();
});
afterAll(() => rm(work, { recursive: true, force: true }));

const searchDirs = (dirs: Readonly<Record<string, string>>): string[] =>
  Object.entries(dirs)
    .filter(([key]) => key.startsWith("search/"))
    .map(([key, hash]) => `${key}.${hash}`);

/** The fixture copied to `<name>` and built once into `<name>-site`, the stage's calls counted from then. */
async function builtOnce(name: string): Promise<{ readonly data: string; readonly out: string }> {
  const [data, out] = [join(work, name), join(work, `${name}-site`)];
  await cp(FIXTURE, data, { recursive: true });
  planSearch.mockClear();
  await build(data, out);
  expect(planSearch).toHaveBeenCalledTimes(1);
  planSearch.mockClear();
  return { data, out };
}

describe("the search stage on a rebuild", () => {
  it("is skipped when the records are unchanged, and the site is the same byte for byte", async () => {
    const { data, out } = await builtOnce("same");
    const before = await snapshotTree(out);
    const report = await build(data, out);
    expect(planSearch).not.toHaveBeenCalled();
    expect(report.written).toBe(0);
    expect(await snapshotTree(out)).toEqual(before);
  });

  it("runs when a search directory the manifest names is gone, and puts it back", async () => {
    const { data, out } = await builtOnce("gone");
    const before = await snapshotTree(out);
    const [order] = searchDirs((await readManifest(out)).dirs).filter((dir) => dir.startsWith("search/order"));
    expect(order).toBeDefined();
    await rm(join(out, DATA_ROOT, order as string), { recursive: true });
    await build(data, out);
    expect(planSearch).toHaveBeenCalledTimes(1);
    expect(await snapshotTree(out)).toEqual(before);
  });

  it("runs when a record changed", async () => {
    const { data, out } = await builtOnce("edit");
    const [file] = (await readdir(data)).filter((name) => name.endsWith(".ndjson"));
    const path = join(data, file as string);
    const lines = (await readFile(path, "utf8")).split("\n");
    const record = JSON.parse(lines[0] as string) as { naziv_subjekta: string };
    lines[0] = JSON.stringify({ ...record, naziv_subjekta: `${record.naziv_subjekta} Zvonimirova` });
    await writeFile(path, lines.join("\n"));
    await build(data, out);
    expect(planSearch).toHaveBeenCalledTimes(1);
  });
});
