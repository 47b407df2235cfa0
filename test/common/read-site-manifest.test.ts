/**
 * The one manifest reader on the Node side (src/common/read-site-manifest.ts): each way a
 * directory can fail to hold a usable site, and the one wording the preview, serve, check and
 * nginx all give for it.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MANIFEST_PATH } from "../../src/core/layout.ts";
import { LAYOUT_VERSION, type Manifest } from "../../src/core/manifest.ts";
import { VERSION } from "../../src/core/version.ts";
import { manifestOf, readManifestFile, readSiteManifest } from "../../src/common/read-site-manifest.ts";

const MANIFEST: Manifest = {
  layout: LAYOUT_VERSION,
  version: VERSION,
  count: 3,
  maxLimit: 1000,
  limits: [20],
  forms: ["plain"],
  chunkSize: 1000,
  baseUrl: "http://localhost:8080",
  cacheControl: "public, max-age=300",
  hash: "h",
  dirs: { "records/0": "abc" },
};

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "subjekti-manifest-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A directory whose manifest file holds `text`. */
async function site(name: string, text: string): Promise<string> {
  const dir = join(root, name);
  await mkdir(join(dir, "_subjekti"), { recursive: true });
  await writeFile(join(dir, MANIFEST_PATH), text);
  return dir;
}

describe("readManifestFile and readSiteManifest", () => {
  it("a manifest of this version -> the manifest, its bytes and JSON", async () => {
    const dir = await site("good", JSON.stringify(MANIFEST));
    const file = await readManifestFile(dir);
    expect(file.state).toEqual({ manifest: MANIFEST });
    expect(file.bytes?.toString("utf8")).toBe(JSON.stringify(MANIFEST));
    expect(await readSiteManifest(dir)).toEqual(MANIFEST);
  });

  it("no such directory -> no bytes, and 'holds no built site (no such directory)' with what to do", async () => {
    const dir = join(root, "nothing");
    expect(await readManifestFile(dir)).toEqual({ bytes: null, json: undefined, state: { problem: "no such directory" } });
    await expect(readSiteManifest(dir)).rejects.toThrow(
      `${dir} holds no built site (no such directory): pass --dir <the built site>, or run \`npm run build\` first`,
    );
  });

  it("a directory without a manifest -> 'holds no built site (_subjekti/manifest.json is missing)'", async () => {
    const dir = join(root, "empty");
    await mkdir(dir);
    await expect(readSiteManifest(dir)).rejects.toMatchObject({
      code: "NO_SITE",
      message: `${dir} holds no built site (${MANIFEST_PATH} is missing): pass --dir <the built site>, or run \`npm run build\` first`,
    });
  });

  it("a manifest that is not JSON -> its bytes, no JSON, and 'has no usable site (… is not JSON …): run npm run build again'", async () => {
    const dir = await site("broken", "{ not json");
    const file = await readManifestFile(dir);
    expect(file.bytes?.toString("utf8")).toBe("{ not json");
    expect(file.json).toBeUndefined();
    expect(() => manifestOf(dir, file)).toThrow(
      new RegExp(`^${dir} has no usable site \\(${MANIFEST_PATH} is not JSON .*\\): run \`npm run build\` again$`),
    );
  });

  it("another version's manifest -> its JSON kept (the writer reuses its directories), and 'has no usable site (built by subjekti 0.0.1 …)'", async () => {
    const older = { ...MANIFEST, version: "0.0.1" };
    const dir = await site("older", JSON.stringify(older));
    const file = await readManifestFile(dir);
    expect(file.json).toEqual(older);
    await expect(readSiteManifest(dir)).rejects.toThrow(
      /has no usable site \(_subjekti\/manifest\.json: built by subjekti 0\.0\.1 .*\): run `npm run build` again$/,
    );
  });
});
