import { readdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { probe, type WritePlan } from "../../scripts/bench/probe.ts";
import { useTempDir } from "../file-trees.ts";

describe("the bench's probe (bench build)", () => {
  const dir = useTempDir();

  // A site's plan as `bench build` walks it: files at the root (the crawlers' sitemap.xml,
  // robots.txt), in a parent directory (the manifest) and in shard directories.
  it("writes every file of the plan, at its size, with files at the site's root beside its directories", async () => {
    const input = join(dir.path, "subjekti.json");
    await writeFile(input, JSON.stringify([{ id: 1 }, { id: 2 }], null, 1));
    const plan: WritePlan = {
      dirs: ["", "_subjekti", "_subjekti/pages/plain/20/0.ab12", "_subjekti/records/0.cd34"],
      files: [
        [0, "sitemap.xml", 300],
        [0, "robots.txt", 20],
        [1, "manifest.json", 50],
        [2, "0.json", 400],
        [2, "1.json", 410],
        [3, "0.ndjson", 1000],
      ],
    };
    const planFile = join(dir.path, "plan.json");
    await writeFile(planFile, JSON.stringify(plan));
    const out = join(dir.path, "out");
    await probe(input, planFile, out);
    const written = await Promise.all(plan.files.map(async ([d, name]) => (await stat(join(out, plan.dirs[d] ?? "", name))).size));
    expect(written).toEqual(plan.files.map(([, , size]) => size));
    // Nothing left under a temporary name, beside the site or in it.
    expect((await readdir(dir.path)).sort()).toEqual(["out", "plan.json", "subjekti.json"]);
    const all = await readdir(out, { recursive: true });
    expect(all.filter((name) => name.includes(".tmp-probe"))).toEqual([]);
  });
});
