import { describe, expect, it } from "vitest";
import {
  CHUNK_SIZE,
  chunkFileName,
  chunkPath,
  FORMS,
  isForm,
  MANIFEST_PATH,
  pageFileName,
  pagePath,
  pageShardKey,
  recordShardKey,
  SHARD_SIZE,
  shardFilePath,
} from "../../src/core/layout.ts";
import type { Manifest } from "../../src/core/manifest.ts";

const manifest = {
  dirs: { "pages/plain/20/0": "aaa", "pages/plain/20/1": "bbb", "records/0": "ccc", "records/1": "ddd" },
} as unknown as Manifest;

describe("layout constants", () => {
  it("MANIFEST_PATH -> '_subjekti/manifest.json'", () => {
    expect(MANIFEST_PATH).toBe("_subjekti/manifest.json");
  });
  it("SHARD_SIZE and CHUNK_SIZE -> 1000", () => {
    expect([SHARD_SIZE, CHUNK_SIZE]).toEqual([1000, 1000]);
  });
  it("FORMS -> plain, api, json", () => {
    expect(FORMS).toEqual(["plain", "api", "json"]);
  });
});

describe("isForm", () => {
  it.each([
    ["plain", true],
    ["api", true],
    ["json", true],
    ["API", false],
    ["", false],
    ["html", false],
  ])("%j -> %s", (value, expected) => {
    expect(isForm(value)).toBe(expected);
  });
});

describe("shard keys", () => {
  it.each([
    ["page 0 -> shard 0", 0, "pages/api/20/0"],
    ["page 999 -> shard 0 (last of the first shard)", 999, "pages/api/20/0"],
    ["page 1000 -> shard 1 (first of the second)", 1000, "pages/api/20/1"],
    ["page 1999 -> shard 1", 1999, "pages/api/20/1"],
    ["page 2000 -> shard 2", 2000, "pages/api/20/2"],
  ])("pageShardKey %s", (_name, page, expected) => {
    expect(pageShardKey("api", 20, page)).toBe(expected);
  });

  it.each([
    ["chunk 0 -> records/0", 0, "records/0"],
    ["chunk 99 -> records/0", 99, "records/0"],
    ["chunk 100 -> records/1", 100, "records/1"],
    ["chunk 1000 -> records/10", 1000, "records/10"],
  ])("recordShardKey %s", (_name, chunk, expected) => {
    expect(recordShardKey(chunk)).toBe(expected);
  });
});

describe("file paths", () => {
  it.each([
    ["shardFilePath", shardFilePath("pages/plain/20/0", "abc", "5.json"), "_subjekti/pages/plain/20/0.abc/5.json"],
    ["pageFileName(999) -> '999.json'", pageFileName(999), "999.json"],
    ["chunkFileName(1000) -> '1000.ndjson'", chunkFileName(1000), "1000.ndjson"],
    ["pagePath page 999 -> shard 0", pagePath(manifest, "plain", 20, 999), "_subjekti/pages/plain/20/0.aaa/999.json"],
    ["pagePath page 1000 -> shard 1", pagePath(manifest, "plain", 20, 1000), "_subjekti/pages/plain/20/1.bbb/1000.json"],
    ["pagePath of an unknown shard -> null", pagePath(manifest, "api", 20, 0), null],
    ["pagePath page 2000 (no shard 2) -> null", pagePath(manifest, "plain", 20, 2000), null],
    ["chunkPath 99 -> records shard 0", chunkPath(manifest, 99), "_subjekti/records/0.ccc/99.ndjson"],
    ["chunkPath 100 -> records shard 1", chunkPath(manifest, 100), "_subjekti/records/1.ddd/100.ndjson"],
    ["chunkPath 2000 (no shard 2) -> null", chunkPath(manifest, 2000), null],
  ])("%s", (_name, actual, expected) => {
    expect(actual).toBe(expected);
  });
});
