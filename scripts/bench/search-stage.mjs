/**
 * The search stage alone, on a built site's chunk files: `node scripts/bench/search-stage.mjs <lib>
 * <site> <scratch> [hashes-out]` runs `<lib>/site/search/plan-search.js`'s planSearch over the
 * records of `<site>` (its manifest names the chunk files) into the scratch directory `<scratch>`
 * (emptied first), then prints its CPU and peak RSS, and with `hashes-out` writes each shard's key
 * and hash a line (to compare two checkouts' shards). Run it under `/usr/bin/time` for the process's.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [lib, site, scratch, out] = process.argv.slice(2);
if (lib === undefined || site === undefined || scratch === undefined)
  throw new Error("usage: search-stage.mjs <lib> <site> <scratch> [hashes-out]");
const root = resolve(lib);
const { planSearch } = await import(pathToFileURL(join(root, "site/search/plan-search.js")).href);
const { chunkPath, CHUNK_SIZE } = await import(pathToFileURL(join(root, "core/layout.js")).href);
const manifest = JSON.parse(readFileSync(join(site, "_subjekti/manifest.json"), "utf8"));
const count = manifest.count ?? manifest.total;
if (typeof count !== "number") throw new Error("the manifest names no count");
rmSync(scratch, { recursive: true, force: true });
const fileOf = (chunk) => ({ path: join(site, chunkPath(manifest, chunk)) });
const cpu = process.cpuUsage();
const start = performance.now();
const shards = planSearch(count, CHUNK_SIZE, fileOf, scratch);
const used = process.cpuUsage(cpu);
const wall = (performance.now() - start) / 1000;
console.log(
  `${count} subjects: ${shards.length} shards, ${wall.toFixed(2)} s wall ${(used.user / 1e6).toFixed(2)} user ${(used.system / 1e6).toFixed(2)} sys, ${Math.round(process.resourceUsage().maxRSS / 1024)} MB peak`,
);
if (out !== undefined) writeFileSync(out, shards.map((shard) => `${shard.key} ${shard.hash}\n`).join(""));
rmSync(scratch, { recursive: true, force: true });
