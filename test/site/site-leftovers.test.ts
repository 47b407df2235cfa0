/**
 * What dead builds left at a site's root and under sitemaps/ is removed by the next build's start,
 * this version's crawl directory and what earlier versions wrote aside, never a live build's
 * temporaries nor a file of the site.
 */
import { spawnSync } from "node:child_process";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { DEAD } from "../../src/common/remove-leftovers.ts";
import { removeBuildLeftovers } from "../../src/site/site-leftovers.ts";
import { tempDir } from "../file-trees.ts";

it("removes a dead build's crawl temporaries, of this version and of earlier ones, at the root and under sitemaps/; keeps a live one's and the site's files", async () => {
  // A process that has ended: its id names no live process.
  const dead = spawnSync(process.execPath, ["-e", "0"]).pid as number;
  const out = join(await tempDir(), "site");
  await mkdir(join(out, "sitemaps"), { recursive: true });
  await mkdir(join(out, `.crawl.tmp-${dead}`));
  const site = ["sitemap.xml", "robots.txt", "404.html", "sitemaps/1.xml"];
  const earlier = [".sitemap.xml", ".robots.txt", ".404.html", "sitemaps/.1.xml"].map((name) => `${name}.tmp-${dead}`);
  const live = [`.sitemap.xml.tmp-${process.pid}`, `sitemaps/.2.xml.tmp-${process.pid}`];
  for (const name of [...site, ...earlier, ...live, `.crawl.tmp-${dead}/sitemap.xml`]) await writeFile(join(out, name), "x");

  removeBuildLeftovers(out, null, DEAD);

  const left = (await readdir(out, { recursive: true })).sort();
  expect(left).toEqual([...site, ...live, "sitemaps"].sort());
});
