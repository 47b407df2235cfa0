/**
 * An ETag follows the data: a page whose record was edited answers with another ETag (or clients
 * and CDNs would be told "304, not modified" for changed bytes), and the same data twice gives the
 * same ETags. Through the edge handler over the built files, as a host answers. (Leaving the
 * records out of the manifest's hash in plan-site.ts passed every test before this one.)
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useTempDir } from "../file-trees.ts";
import { edgeHost } from "../hosts/hosts.ts";
import { build } from "./built-site.ts";

const work = useTempDir();
const sample = (JSON.parse(await readFile("data/subjekti.json", "utf8")) as Record<string, unknown>[]).slice(0, 30);

async function etagsOf(name: string, list: Record<string, unknown>[]): Promise<string[]> {
  const data = join(work.path, `${name}-data`);
  await mkdir(data);
  await writeFile(join(data, "subjekti.json"), JSON.stringify(list));
  const dir = join(work.path, name);
  await build(data, dir, { cacheDir: null });
  const host = edgeHost(dir);
  const etags: string[] = [];
  for (const target of ["/api/subjekti/?limit=5", "/api/subjekti/?limit=20", "/api/subjekti/?limit=3&offset=1"]) {
    const answer = await host.send("GET", target, { Host: "testserver" });
    etags.push(answer.headers["etag"] ?? "");
  }
  return etags;
}

describe("ETags follow the data", () => {
  it("a record edited -> every page showing it has a new ETag; the same data -> the same ETags", async () => {
    const before = await etagsOf("before", sample);
    expect(before.every((etag) => /^"[^"]+"$/.test(etag))).toBe(true);
    expect(await etagsOf("again", sample)).toEqual(before);
    const edited = sample.map((s, i) => (i === 2 ? { ...s, naziv_subjekta: "Drugo ime" } : s));
    const after = await etagsOf("after", edited);
    // Record 2 is on each of these pages (the pre-rendered ones and a derived one).
    after.forEach((etag, i) => expect(etag, `page ${i}`).not.toBe(before[i]));
  });
});
